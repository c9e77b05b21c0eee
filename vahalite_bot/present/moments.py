"""The game at a moment between the states the engine returns, for pictures of it.

The engine returns the state after a whole action: for ``end`` that is after the next turn
has begun. The picture of a turn's end must still show what the turn's end did (an SP
changing hands, J1): issue 12 saw the text say "D3 goes to North" under an image with D3
still South's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from vahalite_bot.rules.events import SPCaptured, TurnEnded
from vahalite_bot.rules.state import GameState


def state_at_turn_end(before: GameState, events: Iterable[Any]) -> GameState:
    """``before`` (the state before the command that ended the turn) with the turn end's
    own changes applied, the SPs taken (C3, J1); ``before`` itself is not changed."""
    taken: list[SPCaptured] = []
    for event in events:
        if isinstance(event, SPCaptured):
            taken.append(event)
        elif isinstance(event, TurnEnded):
            break
    if not taken:
        return before
    moment = before.copy()
    for capture in taken:
        sp = moment.sps.get(capture.cell)
        if sp is not None:
            sp.holder = capture.side
    return moment
