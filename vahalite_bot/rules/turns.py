"""Where a turn and a round begin: the one place house rules hook in (C1, B6, section M).

Round 1 starts from setup (B6), later turns from ``victory.end_turn``; both call
``begin_turn``, so a rule that acts at the start of a turn (M5 reserves, then M3 orders) or
of a round (M2's damage step and M4's initiative run before it) is written once.
"""

from __future__ import annotations

from vahalite_bot.rules import overwatch, reserve, unit_orders
from vahalite_bot.rules.context import Context
from vahalite_bot.rules.events import TurnStarted
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState


def begin_turn(ctx: Context, round_: int, side: Side) -> None:
    """Start ``side``'s turn of round ``round_``."""
    state = ctx.state
    if round_ != state.round:
        _begin_round(state, side)
    state.round = round_
    state.active = side
    ctx.emit(TurnStarted(round_, side))
    overwatch.new_turn(state)
    reserve.offer(ctx, side)
    unit_orders.ask(ctx, side)


def _begin_round(state: GameState, side: Side) -> None:
    """The round's first turn: who takes it (M4), and M2's round-start HP (E7)."""
    state.round_first = side
    if state.has(HouseRule.DAMAGE_AT_ROUND_END):
        for unit in state.living():
            unit.round_hp = unit.hp
