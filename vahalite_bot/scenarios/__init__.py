"""Scenario files (``boards/``, rulebook L): their schema and loader. Not in ``rules/``:
the engine does no I/O and is handed a ``Scenario``."""

from vahalite_bot.scenarios.loader import (
    BOARDS,
    ScenarioFileError,
    find_boards,
    load_scenario,
    load_scenarios,
    read_scenario,
    shipped,
    shipped_scenarios,
)

__all__ = [
    "BOARDS",
    "ScenarioFileError",
    "find_boards",
    "load_scenario",
    "load_scenarios",
    "read_scenario",
    "shipped",
    "shipped_scenarios",
]
