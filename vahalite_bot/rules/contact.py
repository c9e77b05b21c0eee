"""Contact with the enemy: an enemy ground unit orthogonally next to a cell (D5, M6, M8).

Kept apart from movement and the charge so that both can ask it without importing each
other. Flyers neither make nor are in contact (D5's ruling).
"""

from __future__ import annotations

from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.geometry import Cell, orthogonal_neighbours
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.state import GameState, UnitState

# Asked for every cell a move could end on: a module name, not an enum member named through
# its class, which costs a metaclass hook call on Python 3.11 (see rules/engine.py).
_CHARGE = HouseRule.CHARGE


def enemies_touching(state: GameState, unit: UnitState, cell: Cell) -> list[UnitState]:
    """The enemy ground units orthogonally next to ``cell``, as seen by ``unit``."""
    if unit.is_flyer:
        return []
    found: list[UnitState] = []
    for near in orthogonal_neighbours(cell, state.scenario.width, state.scenario.height):
        other = state.unit_at(near)
        if other is not None and other.side is not unit.side and not other.is_flyer:
            found.append(other)
    return found


def in_contact(state: GameState, unit: UnitState) -> bool:
    """Is ``unit`` (or its transport) next to an enemy ground unit now?"""
    here = state.position(unit)
    return here is not None and bool(enemies_touching(state, unit, here))


def embarks_at(state: GameState, unit: UnitState, cell: Cell) -> bool:
    """Does a move of ``unit`` ending on ``cell`` end inside a friendly transport (H2)?"""
    occupant = state.unit_at(cell)
    return occupant is not None and occupant is not unit and occupant.side is unit.side


def charge_rule_end_problem(
    state: GameState, unit: UnitState, cell: Cell, began_in_contact: bool | None = None
) -> IllegalAction | None:
    """M8: a ground unit's move may not end next to an enemy ground unit unless it began
    next to one; embarking is allowed. ``began_in_contact`` saves the question when known."""
    if not state.has(_CHARGE) or unit.is_flyer or embarks_at(state, unit, cell):
        return None
    if began_in_contact is None:
        began_in_contact = in_contact(state, unit)
    if began_in_contact:
        return None
    enemies = enemies_touching(state, unit, cell)
    if not enemies:
        return None
    return IllegalAction(
        "M8", "move_ends_in_contact", unit=unit.id, cell=cell.name, enemy=enemies[0].id
    )
