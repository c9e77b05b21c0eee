"""A game's summary line: its scenario and its house rules (rulebook M), as every adapter
shows them ("Scenario: Standard · House rules: M2, M7").

No house rules on says nothing about them: a game without any reads as it always has.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from vahalite_bot.i18n import translate
from vahalite_bot.rules.house import HouseRule, house_rules_label
from vahalite_bot.rules.scenario import Scenario


def house_rule_name(lang: str, rule: HouseRule) -> str:
    """``Overwatch`` / ``Дозорная стрельба``: the rule's short name."""
    return translate(lang, f"house-{rule.value}")


def house_rule_item(lang: str, rule: HouseRule) -> str:
    """``M7 — Overwatch``: a rule as menus and suggestions list it."""
    return translate(lang, "house-item", rule=rule.value, name=house_rule_name(lang, rule))


def scenario_name(scenarios: Mapping[str, Scenario], scenario_id: str, lang: str) -> str:
    """The scenario's name in ``lang``; its id for one this service no longer has."""
    scenario = scenarios.get(scenario_id)
    return scenario_id if scenario is None else scenario.title(lang)


def house_line(lang: str, house: Iterable[HouseRule]) -> str | None:
    """``House rules: M2, M7``; None when none is on."""
    label = house_rules_label(house)
    return translate(lang, "house-summary", rules=label) if label else None


def game_summary(lang: str, scenario: str, house: Iterable[HouseRule]) -> str:
    """``Scenario: <name> · House rules: M2, M7`` (the second part only when some are on)."""
    label = house_rules_label(house)
    if not label:
        return translate(lang, "house-game-summary", scenario=scenario)
    return translate(lang, "house-game-summary-with", scenario=scenario, rules=label)
