"""House rules (rulebook M) and scenarios as Discord options: autocomplete suggestions and
the words a referee types for "no house rules"."""

from __future__ import annotations

from collections.abc import Mapping

from vahalite_bot.present.summary import house_line, house_rule_name, scenario_name
from vahalite_bot.rules.house import HouseRule, house_rules_label
from vahalite_bot.rules.scenario import Scenario

SUGGESTIONS = 25  # Discord's limit of autocomplete choices
CHOICE_TEXT = 100  # Discord's limit of a choice's name and value
# Typed for an empty set: the option cannot be left empty once given.
NONE_WORDS = frozenset({"none", "off", "no", "-", "—", "0", "нет", "без", "выкл"})
IDS = frozenset(rule.value for rule in HouseRule)


def typed_house_rules(typed: str) -> str:
    """What the service is given: "" for a word meaning none, else the text as typed."""
    return "" if typed.strip().casefold() in NONE_WORDS else typed


def house_suggestions(current: str, lang: str) -> list[tuple[str, str]]:
    """(name, value) completions of a comma-separated list of ids being typed.

    The ids already typed stay; the one being typed is completed by id or by name
    ("over" finds M7 Overwatch); a complete list is offered first, as it stands.
    """
    *done, typing = [part.strip() for part in current.split(",")]
    chosen = _known(done)
    suggestions: list[tuple[str, str]] = []
    whole = _known([*done, typing])
    if whole and len(whole) == len([p for p in (*done, typing) if p]):
        label = house_rules_label(whole)
        suggestions.append((_named(label, whole, lang), label))
    for rule in HouseRule:
        if rule in chosen or not _matches(rule, typing, lang):
            continue
        rules = [*chosen, rule]
        value = ", ".join(r.value for r in rules)
        if all(value != v for _, v in suggestions):
            suggestions.append((_fit(f"{value} — {house_rule_name(lang, rule)}"), value))
    return suggestions[:SUGGESTIONS]


def _known(parts: list[str]) -> list[HouseRule]:
    """The ids among ``parts`` that exist, in order, once each."""
    found: list[HouseRule] = []
    for part in parts:
        text = part.upper()
        if text in IDS and HouseRule(text) not in found:
            found.append(HouseRule(text))
    return found


def _matches(rule: HouseRule, typing: str, lang: str) -> bool:
    if not typing:
        return True
    words = house_rule_name(lang, rule).casefold().split()
    return rule.value.startswith(typing.upper()) or any(
        w.startswith(typing.casefold()) for w in words
    )


def _named(label: str, rules: list[HouseRule], lang: str) -> str:
    names = ", ".join(house_rule_name(lang, r) for r in sorted(rules))
    return _fit(f"{label} — {names}")


def _fit(text: str) -> str:
    return text if len(text) <= CHOICE_TEXT else text[: CHOICE_TEXT - 1] + "…"


def scenario_suggestions(
    current: str, lang: str, scenarios: Mapping[str, Scenario]
) -> list[tuple[str, str]]:
    """(name, id) of the scenarios whose id or name holds what is typed."""
    typed = current.casefold()
    found = []
    for scenario_id in sorted(scenarios):
        name = scenario_name(scenarios, scenario_id, lang)
        if typed in scenario_id.casefold() or typed in name.casefold():
            found.append((_fit(name), scenario_id))
    return found[:SUGGESTIONS]


def lobby_house(lang: str, house: frozenset[HouseRule]) -> str:
    """The lobby post's tail after the scenario: " · House rules: M2, M7", or nothing."""
    line = house_line(lang, house)
    return "" if line is None else f" · {line}"
