"""How a player types an engine action on Discord: a slash command, or a text order in
Russian. Shared by the end-to-end tests and the Discord benchmark."""

from __future__ import annotations

import random
from typing import Any

from vahalite_bot.i18n import translate
from vahalite_bot.rules.actions import (
    Action,
    Advance,
    Attack,
    ChooseDeployOrder,
    Deploy,
    EndTurn,
    Move,
    PlacePassenger,
    PlaceSP,
    PlaceTerrain,
)
from vahalite_bot.rules.queries import legal_actions
from vahalite_bot.rules.state import GameState
from vahalite_bot.selfplay.greedy import GreedyPlayer


def slash_of(action: Action, state: GameState) -> tuple[str, dict[str, Any]]:
    """The slash command a player types for ``action``."""
    match action:
        case ChooseDeployOrder(_, first):
            return "vl setup first", {"deploy-first": first}
        case PlaceTerrain(_, kind, cell):
            return "vl setup terrain", {"kind": kind.value, "cell": cell.name}
        case PlaceSP(_, cell):
            return "vl setup sp", {"cell": cell.name}
        case Deploy(_, unit, cell):
            return "vl setup deploy", {"unit": unit, "cell": cell.name}
        case Move(_, unit, path) if state.units[unit].embarked_in is not None:
            return "vl disembark", {"unit": unit, "cell": path[-1].name}
        case Move(_, unit, path) if boards(state, unit, path[-1]) is not None:
            return "vl embark", {"unit": unit, "transport": boards(state, unit, path[-1])}
        case Move(_, unit, path):
            return "vl move", {"unit": unit, "cell": path[-1].name}
        case Attack(_, unit, target, weapons, melee):
            options: dict[str, Any] = {"unit": unit, "target": target}
            if weapons is not None:
                options["weapons"] = ",".join(str(w + 1) for w in weapons)
            if melee is not None:
                options["mode"] = "melee" if melee else "ranged"
            return "vl attack", options
        case Advance(_, _, accept):
            return "vl advance", {"take": accept}
        case PlacePassenger(_, unit, cell):
            return "vl move", {"unit": unit, "cell": cell.name}
        case EndTurn():
            return "vl end", {}
    raise AssertionError(f"no command for {action}")


def russian_of(action: Action, state: GameState) -> str:
    """The same as a text order in Russian, forum style."""
    match action:
        case Move(_, unit, path) if state.units[unit].embarked_in is not None:
            return f"высадка {unit} {path[-1].name}"
        case Move(_, unit, path) if boards(state, unit, path[-1]) is not None:
            return f"посадка {unit} {boards(state, unit, path[-1])}"
        case Move(_, unit, path):
            return f"{unit} {path[-1].name}"
        case Attack(_, unit, target, _, melee):
            return f"{'руби' if melee else 'стреляй'} {unit} {target}"
        case Advance(_, _, accept):
            return "вперёд" if accept else "стой"
        case PlacePassenger(_, unit, cell):
            return f"{unit} {cell.name}"
        case EndTurn():
            return "конец"
        case PlaceTerrain(_, kind, cell):
            return f"местность {translate('ru', f'terrain-{kind.value}').lower()} {cell.name}"
        case PlaceSP(_, cell):
            return f"сп {cell.name}"
        case Deploy(_, unit, cell):
            return f"расстановка {unit} {cell.name}"
        case ChooseDeployOrder(_, first):
            return "первым" if first else "вторым"
    raise AssertionError(f"no order for {action}")


def boards(state: GameState, unit: str, cell: Any) -> str | None:
    other = next(
        (u for u in state.units.values() if u.cell == cell and u.id != unit and not u.destroyed),
        None,
    )
    return other.id if other is not None and other.side is state.units[unit].side else None


def choose(state: GameState, rng: random.Random, wanted: dict[str, bool]) -> Action:
    """The greedy player's choice, but the transports are used: a disembark and an embark."""
    legal = legal_actions(state)
    for action in legal:
        if not isinstance(action, Move):
            continue
        if not wanted["disembarked"] and state.units[action.unit].embarked_in is not None:
            wanted["disembarked"] = True
            return action
        if not wanted["embarked"] and boards(state, action.unit, action.path[-1]):
            wanted["embarked"] = True
            return action
    return GreedyPlayer().choose(state, rng)
