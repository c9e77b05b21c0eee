"""Where a turn and a round begin: the one place house rules hook in (C1, B6, section M).

Round 1 starts from setup (B6), later turns from ``victory.end_turn``; both call
``begin_turn``, so a rule that acts at the start of a turn (M5 reserves, then M3 orders) or
of a round (M2's damage step and M4's initiative run before it) is written once.
"""

from __future__ import annotations

from vahalite_bot.rules.context import Context
from vahalite_bot.rules.events import TurnStarted
from vahalite_bot.rules.scenario import Side


def begin_turn(ctx: Context, round_: int, side: Side) -> None:
    """Start ``side``'s turn of round ``round_``."""
    state = ctx.state
    state.round = round_
    state.active = side
    ctx.emit(TurnStarted(round_, side))
