"""Player-facing texts of army building: the ``codex-*`` messages of the Fluent catalogues.

The sentences live in ``vahalite_bot/i18n/locales/<lang>/codex.ftl``; this module only fills
in their parameters. Templates name units by their sheet's name in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vahalite_bot.i18n import LANGUAGES, bundle, message_ids, translate
from vahalite_bot.rules.roster import RosterProblem
from vahalite_bot.rules.sheets import UnitSheet

__all__ = [
    "LANGUAGES",
    "list_line",
    "list_word",
    "quoted",
    "roster_codes",
    "roster_problem",
    "slot_name",
]

ROSTER_PREFIX = "codex-roster-"


def roster_problem(
    problem: RosterProblem,
    lang: str,
    sheets: Mapping[str, UnitSheet],
    faction_names: Mapping[str, str] | None = None,
) -> str:
    """One A1-A7 problem as a sentence; unknown codes fall back to code and parameters."""
    params: dict[str, Any] = dict(problem.params)
    sheet = sheets.get(str(params.get("sheet")))
    if "options" in params:
        params["options"] = ", ".join(
            quoted(lang, _option_name(sheet, o, lang)) for o in params["options"]
        )
    for key in ("sheet", "transport"):
        if key in params and params[key] in sheets:
            params[key] = sheets[params[key]].name.get(lang)
    if "slot" in params:
        params["slot"] = slot_name(lang, str(params["slot"]))
    if "faction" in params and faction_names is not None:
        params["faction"] = faction_names.get(params["faction"], params["faction"])
    message_id = ROSTER_PREFIX + problem.code
    if not bundle(lang).has_message(message_id):
        detail = ", ".join(f"{k}={v}" for k, v in params.items())
        return f"{problem.rule} {problem.code} ({detail})"
    return translate(lang, message_id, **params)


def roster_codes(lang: str) -> set[str]:
    """The RosterProblem codes that have a sentence in ``lang``."""
    return {m.removeprefix(ROSTER_PREFIX) for m in message_ids(lang) if m.startswith(ROSTER_PREFIX)}


def slot_name(lang: str, slot: str) -> str:
    """A force organisation slot (a Slot or its raw value) by name; an unknown one as is."""
    message_id = f"codex-slot-{slot}"
    return translate(lang, message_id) if bundle(lang).has_message(message_id) else slot


def list_line(lang: str, code: str, **params: Any) -> str:
    """A message of the army list text format (``codex-list-<code>``)."""
    return translate(lang, f"codex-list-{code}", **params)


def list_word(lang: str, word: str) -> str:
    """A word of the army list format itself, as exported: ``points`` or ``total``."""
    return translate(lang, f"codex-format-{word}")


def quoted(lang: str, text: str) -> str:
    return translate(lang, "codex-quoted", text=text)


def _option_name(sheet: UnitSheet | None, option_id: str, lang: str) -> str:
    option = None if sheet is None else sheet.option(option_id)
    return option_id if option is None else option.name.get(lang)
