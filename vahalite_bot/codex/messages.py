"""Player-facing texts of army building, in Russian and English.

A catalogue keyed by the problem's code, kept out of the logic; it moves to the i18n package
later. Templates name units by their sheet's name in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vahalite_bot.rules.roster import RosterProblem
from vahalite_bot.rules.sheets import Slot, UnitSheet

LANGUAGES = ("ru", "en")

# Keyed by the slot's value (a Slot is a str), so a raw "hq" finds it too.
SLOTS: dict[str, dict[str, str]] = {
    "ru": {
        Slot.HQ: "Штаб (HQ)",
        Slot.TROOPS: "Войска (Troops)",
        Slot.ELITE: "Элита (Elite)",
        Slot.FAST: "Быстрая атака (Fast Attack)",
        Slot.HEAVY: "Тяжёлая поддержка (Heavy Support)",
        Slot.TRANSPORT: "Транспорт",
    },
    "en": {
        Slot.HQ: "HQ",
        Slot.TROOPS: "Troops",
        Slot.ELITE: "Elite",
        Slot.FAST: "Fast Attack",
        Slot.HEAVY: "Heavy Support",
        Slot.TRANSPORT: "Transport",
    },
}

# RULES.md A1-A7: one template per RosterProblem code.
ROSTER: dict[str, dict[str, str]] = {
    "ru": {
        "over_points": "Армия стоит {points} очк., на {over} больше лимита в {limit} (A1).",
        "too_few": "Слишком мало: {slot} — {count}, нужно не меньше {minimum} (A2).",
        "too_many": (
            "Слишком много: {slot} — {count} при максимуме {maximum}; обмен требует "
            "{needed} свободных слотов, а свободно {spare} (A3)."
        ),
        "unknown_sheet": "В кодексе нет юнита «{sheet}» (A6).",
        "wrong_faction": (
            "«{sheet}» — из другого кодекса ({faction}); армия набирается из одного (A6)."
        ),
        "transport_without_unit": (
            "«{sheet}» — транспорт: он придаётся юниту и отдельно не берётся (A4)."
        ),
        "too_many_options": (
            "«{sheet}»: опций выбрано {count}; можно не больше двух, каждую один раз (A5)."
        ),
        "unknown_option": "У «{sheet}» нет опции «{option}» (A5).",
        "duplicate_option": "«{sheet}»: опция {options} выбрана дважды (A5).",
        "not_a_transport": "«{sheet}» — не транспорт (A4).",
        "cannot_carry": "«{transport}» не может перевозить «{sheet}» (A4, H1).",
    },
    "en": {
        "over_points": "The army costs {points} points, {over} over the limit of {limit} (A1).",
        "too_few": "Too few {slot}: {count}, at least {minimum} needed (A2).",
        "too_many": (
            "Too many {slot}: {count}, at most {maximum}; trading needs {needed} spare "
            "slots and the army has {spare} (A3)."
        ),
        "unknown_sheet": "No unit “{sheet}” in this codex (A6).",
        "wrong_faction": (
            "“{sheet}” is from another codex ({faction}); an army comes from one codex (A6)."
        ),
        "transport_without_unit": (
            "“{sheet}” is a transport: it is bought for a unit, not on its own (A4)."
        ),
        "too_many_options": ("“{sheet}”: {count} options chosen; at most two, each once (A5)."),
        "unknown_option": "“{sheet}” has no option “{option}” (A5).",
        "duplicate_option": "“{sheet}”: {options} chosen more than once (A5).",
        "not_a_transport": "“{sheet}” is not a transport (A4).",
        "cannot_carry": "“{transport}” cannot carry “{sheet}” (A4, H1).",
    },
}

# The army list text format (armylist.py): what a line says that cannot be read.
LIST_LINE: dict[str, dict[str, str]] = {
    "ru": {
        "line": "Строка {line} («{text}»): {reason}",
        "no_units": "В списке нет ни одного юнита.",
        "unknown_unit": "не знаю юнита «{name}»{hint}",
        "unknown_option": "у «{unit}» нет опции «{option}»{hint}",
        "several_transports": "у юнита может быть только один транспорт (A4).",
        "bad_points": "очки пишутся в квадратных скобках в конце: [90].",
        "points_mismatch": "указано {shown} очк., а по кодексу {actual}.",
        "total_mismatch": "указано {shown} очк. всего, а юниты стоят {actual}.",
        "unknown_faction": (
            "не понимаю, какой это кодекс: начните список с названия фракции "
            "(например, «{example}, 750 очк.»)."
        ),
        "ambiguous_unit": (
            "«{name}» есть в нескольких кодексах ({factions}): начните список с названия фракции."
        ),
        "empty_name": "пустое имя юнита или опции.",
        "hint": "; может быть, «{suggestion}»?",
        "no_hint": ".",
    },
    "en": {
        "line": "Line {line} (“{text}”): {reason}",
        "no_units": "The list holds no units.",
        "unknown_unit": "no unit named “{name}”{hint}",
        "unknown_option": "“{unit}” has no option “{option}”{hint}",
        "several_transports": "a unit has at most one transport (A4).",
        "bad_points": "points go in square brackets at the end: [90].",
        "points_mismatch": "it says {shown} points, the codex says {actual}.",
        "total_mismatch": "it says {shown} points in all, the units cost {actual}.",
        "unknown_faction": (
            "cannot tell the codex: start the list with the faction's name "
            "(say, “{example}, 750 pts”)."
        ),
        "ambiguous_unit": (
            "“{name}” is in several codexes ({factions}): start the list with the faction's name."
        ),
        "empty_name": "an empty unit or option name.",
        "hint": "; did you mean “{suggestion}”?",
        "no_hint": ".",
    },
}

# Words of the list format itself, as exported (the parser accepts more spellings).
LIST_WORDS: dict[str, dict[str, str]] = {
    "ru": {"points": "очк.", "total": "Итого"},
    "en": {"points": "pts", "total": "Total"},
}


def roster_problem(
    problem: RosterProblem,
    lang: str,
    sheets: Mapping[str, UnitSheet],
    faction_names: Mapping[str, str] | None = None,
) -> str:
    """One A1-A7 problem as a sentence; unknown codes fall back to code and parameters."""
    template = ROSTER[lang].get(problem.code)
    params: dict[str, Any] = dict(problem.params)
    sheet = sheets.get(str(params.get("sheet")))
    if "options" in params and sheet is not None:
        params["options"] = ", ".join(
            _quoted(lang, _option_name(sheet, o, lang)) for o in params["options"]
        )
    for key in ("sheet", "transport"):
        if key in params and params[key] in sheets:
            params[key] = sheets[params[key]].name.get(lang)
    if "slot" in params:
        params["slot"] = SLOTS[lang].get(str(params["slot"]), params["slot"])
    if "faction" in params and faction_names is not None:
        params["faction"] = faction_names.get(params["faction"], params["faction"])
    if template is None:
        detail = ", ".join(f"{k}={v}" for k, v in params.items())
        return f"{problem.rule} {problem.code} ({detail})"
    return template.format(**params)


def list_line(lang: str, code: str, **params: Any) -> str:
    return LIST_LINE[lang][code].format(**params)


def _option_name(sheet: UnitSheet, option_id: str, lang: str) -> str:
    option = sheet.option(option_id)
    return option_id if option is None else option.name.get(lang)


def _quoted(lang: str, text: str) -> str:
    return f"«{text}»" if lang == "ru" else f"“{text}”"
