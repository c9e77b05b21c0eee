"""At a new game: which scenario, and which house rules (rulebook M), asked until answered.

Both have a default for a bare Enter (the first scenario listed, no house rules), so a
player who wants the plain game presses Enter twice.
"""

from __future__ import annotations

from collections.abc import Mapping

from vahalite_bot.app.errors import InvalidRequest
from vahalite_bot.app.house import checked_house_rules
from vahalite_bot.console.terminal import Terminal
from vahalite_bot.console.words import Quit, is_quit
from vahalite_bot.present.summary import house_rule_item, scenario_name
from vahalite_bot.present.text import say
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.scenario import Scenario

DEFAULT_SCENARIO = "standard"


def _ask(terminal: Terminal, prompt: str) -> str:
    line = terminal.ask(prompt)
    if line is None or is_quit(line):
        raise Quit
    return line


def scenario_order(scenarios: Mapping[str, Scenario]) -> list[str]:
    """The menu's order: the standard scenario first (Enter picks it), the rest by id."""
    return sorted(scenarios, key=lambda s: (s != DEFAULT_SCENARIO, s))


def ask_scenario(terminal: Terminal, lang: str, scenarios: Mapping[str, Scenario]) -> str:
    """A numbered menu of ``scenarios``; the chosen one's id (its number or id typed)."""
    ids = scenario_order(scenarios)
    names = [scenario_name(scenarios, s, lang) for s in ids]
    choices = ", ".join(f"{n}. {name}" for n, name in enumerate(names, start=1))
    terminal.say(say(lang, "scenario-question", choices=choices, default=names[0]))
    while True:
        line = _ask(terminal, say(lang, "prompt-scenario"))
        chosen = _pick(line, ids, names)
        if chosen is not None:
            return chosen
        terminal.say(say(lang, "scenario-bad", choices=choices))


def _pick(line: str, ids: list[str], names: list[str]) -> str | None:
    if not line:
        return ids[0]
    if line.isdigit() and 1 <= int(line) <= len(ids):
        return ids[int(line) - 1]
    typed = line.casefold()
    for scenario_id, name in zip(ids, names, strict=True):
        if typed in (scenario_id.casefold(), name.casefold()):
            return scenario_id
    return None


def ask_house_rules(terminal: Terminal, lang: str) -> frozenset[HouseRule]:
    """M1-M9 listed with their names; the ids typed ("M2 M7"), or none for a bare Enter."""
    terminal.say(say(lang, "house-question"))
    for rule in HouseRule:
        terminal.say("  " + house_rule_item(lang, rule))
    terminal.say(say(lang, "house-how"))
    while True:
        line = _ask(terminal, say(lang, "prompt-house"))
        try:
            return checked_house_rules(line.replace(",", " ").split())
        except InvalidRequest as error:
            terminal.say(say(lang, "house-bad", problem=error.describe(lang)))
