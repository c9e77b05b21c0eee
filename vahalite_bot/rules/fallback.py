"""M6 Fall back: a unit due a D5 test may fall back instead, then makes no attack this turn.

The choice is made with the move (``Move.fall_back``): no test, but the move must end
embarked or not next to an enemy ground unit.
"""

from __future__ import annotations

from vahalite_bot.rules.actions import Move
from vahalite_bot.rules.contact import embarks_at, enemies_touching, in_contact
from vahalite_bot.rules.context import Context
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import FellBack
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.state import GameState, UnitState


def fall_back_problem(state: GameState, unit: UnitState, end: Cell) -> IllegalAction | None:
    """Why ``unit`` may not fall back to ``end`` (None: it may); the path is movement's."""
    if not state.has(HouseRule.FALL_BACK):
        return IllegalAction("M6", "fall_back_not_in_game", unit=unit.id)
    if not in_contact(state, unit):
        return IllegalAction("M6", "fall_back_not_in_melee", unit=unit.id)
    if embarks_at(state, unit, end):
        return None
    enemies = enemies_touching(state, unit, end)
    if enemies:
        return IllegalAction(
            "M6", "fall_back_ends_in_contact", unit=unit.id, cell=end.name, enemy=enemies[0].id
        )
    return None


def may_fall_back(state: GameState, unit: UnitState) -> bool:
    """Could ``unit`` fall back now, rules-wise (where to is ``fall_back_problem``'s)?"""
    return state.has(HouseRule.FALL_BACK) and in_contact(state, unit)


def check(state: GameState, unit: UnitState, action: Move) -> None:
    """Raise the reason a fall back is illegal; a plain move passes untouched."""
    if not action.fall_back or not action.path:
        return
    problem = fall_back_problem(state, unit, action.path[-1])
    if problem is not None:
        raise problem


def fall_back(ctx: Context, unit: UnitState) -> None:
    """Instead of the D5 test: no dice, and no attack this turn."""
    unit.fell_back = True
    ctx.emit(FellBack(unit.id))
