"""M4: from round 2 each player rolls a d6 for the round's first turn."""

from __future__ import annotations

from vahalite_bot.rules.context import Context
from vahalite_bot.rules.events import InitiativeRolled
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.scenario import Side


def first_of_round(ctx: Context, round_: int) -> Side:
    """Who opens ``round_``: B1's winner, or with M4 the higher die (a tie to last round's
    second player, as Apoc gives the initiative to the side that lacked it)."""
    state = ctx.state
    assert state.first_player is not None
    if not state.has(HouseRule.INITIATIVE) or round_ < 2:
        return state.first_player
    previous_second = (state.round_first or state.first_player).other
    south = ctx.roll("initiative south")
    north = ctx.roll("initiative north")
    if south.value == north.value:
        first = previous_second
    else:
        first = Side.SOUTH if south.value > north.value else Side.NORTH
    ctx.emit(InitiativeRolled(round_, south, north, first))
    return first
