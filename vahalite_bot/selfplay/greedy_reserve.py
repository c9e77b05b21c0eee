"""The greedy player's M5 choices: hold back its fastest unit at B5, bring it in at once."""

from __future__ import annotations

from collections.abc import Callable

from vahalite_bot.rules import reserve
from vahalite_bot.rules.actions import FinishReserves, HoldInReserve, PlaceReserve
from vahalite_bot.rules.geometry import Cell, distance
from vahalite_bot.rules.state import GameState, PendingReserve, UnitState

HOLD_FIRST = (-1,)  # sorts before every Deploy rank
HOLD_NEVER = (9,)  # sorts after every Deploy rank: a deploy is always preferred


def hold_rank(state: GameState, action: HoldInReserve) -> tuple[int, ...]:
    """One reserve at most: the fastest foot unit arrives where the fight has gone."""
    if action.embarked_in is not None or reserve.reserves(state, action.side):
        return HOLD_NEVER
    candidates = [
        u
        for u in state.living(action.side)
        if not u.deployed and not u.sheet.is_transport and not u.is_hq
    ]
    if not candidates:
        return HOLD_NEVER
    fastest = max(candidates, key=lambda u: (u.sheet.maneuverability, u.id))
    return HOLD_FIRST if fastest.id == action.unit else HOLD_NEVER


def place_reserve(state: GameState, pending: PendingReserve) -> PlaceReserve | FinishReserves:
    """Every reserve comes in at the first chance, on the cell nearest an objective."""
    for unit_id in pending.units:
        unit = state.units[unit_id]
        cells = reserve.arrival_cells(state, unit)
        if cells:
            return PlaceReserve(pending.side, unit_id, min(cells, key=_nearness(state, unit)))
    return FinishReserves(pending.side)


def _nearness(state: GameState, unit: UnitState) -> Callable[[Cell], tuple[int, Cell]]:
    enemies = [u.cell for u in state.living(unit.side.other) if u.cell is not None]
    objectives = enemies + [c for c, sp in state.sps.items() if sp.holder is not unit.side]

    def key(cell: Cell) -> tuple[int, Cell]:
        return (min((distance(cell, o) for o in objectives), default=0), cell)

    return key
