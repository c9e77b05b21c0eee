"""Test helpers: the training sheets and states built directly, without a full setup."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest

from vahalite_bot.codex.loader import all_sheets, demo_factions
from vahalite_bot.rules.actions import Action
from vahalite_bot.rules.dice import FixedDice
from vahalite_bot.rules.engine import apply
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import Event
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import STANDARD, Scenario, Side, Terrain, TerrainKind
from vahalite_bot.rules.sheets import UnitSheet
from vahalite_bot.rules.state import GameState, Phase, SPState, UnitState, new_game

FACTIONS = demo_factions()
SHEETS: dict[str, UnitSheet] = all_sheets(FACTIONS)


def sheet(sheet_id: str, **changes: Any) -> UnitSheet:
    """A training sheet, optionally changed (``sheet("tactical", models=3)``)."""
    return replace(SHEETS[sheet_id], **changes)


def c(name: str) -> Cell:
    return Cell.parse(name)


@dataclass(frozen=True)
class Place:
    """A unit to put on the board: handle, sheet, side, cell (or the transport it rides)."""

    handle: str
    sheet: UnitSheet | str
    side: Side
    at: str  # a cell name, or a transport's handle to start embarked in it
    hp: int | None = None


def playing(
    units: Iterable[Place],
    terrain: Mapping[str, TerrainKind | Terrain] | None = None,
    sps: Mapping[str, Side] | None = None,
    active: Side = Side.SOUTH,
    first: Side = Side.SOUTH,
    round: int = 1,
    scenario: Scenario = STANDARD,
) -> GameState:
    """A game in round ``round``, ``active``'s turn, with exactly these units placed."""
    placed = list(units)
    forces: dict[Side, list[tuple[str, UnitSheet]]] = {Side.SOUTH: [], Side.NORTH: []}
    for p in placed:
        forces[p.side].append((p.handle, SHEETS[p.sheet] if isinstance(p.sheet, str) else p.sheet))
    state = new_game(scenario, forces)
    for p in placed:
        unit: UnitState = state.units[p.handle]
        unit.deployed = True
        if p.at in state.units:
            unit.embarked_in = p.at
        else:
            unit.cell = c(p.at)
        if p.hp is not None:
            unit.hp = p.hp
    for name, piece in (terrain or {}).items():
        state.with_terrain(c(name), piece if isinstance(piece, Terrain) else Terrain(piece))
    for name, side in (sps or {}).items():
        state.sps[c(name)] = SPState(placed_by=side, holder=side)
    state.phase = Phase.PLAYING
    state.first_player = first
    state.first_deployer = first.other
    state.round = round
    state.active = active
    return state


def act(
    state: GameState, action: Action, dice: Iterable[int] = ()
) -> tuple[GameState, list[Event]]:
    """Apply with fixed dice, and check every given die was used."""
    stream = FixedDice(dice)
    new_state, events = apply(state, action, stream)
    assert stream.remaining == 0, f"{stream.remaining} dice left unused"
    return new_state, events


def refused(state: GameState, action: Action, rule: str, code: str) -> IllegalAction:
    """The action is refused for this rule and reason, rolls no die, and changes nothing."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as caught:
        act(state, action)
    assert (caught.value.rule, caught.value.code) == (rule, code), caught.value
    assert state == before
    return caught.value


def of_type(events: Iterable[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
