"""N1: what happens when a turn's deadline passes, and ending a turn from outside (N2).

The turn ends (C3) after any pending decision takes its default: a passenger is set on the
first cell offered (H5), an attacker stays where it is (E10). A setup step cannot be skipped,
so there the deadline only counts a missed turn and starts again. Enough missed turns in a
row forfeit the game.
"""

from __future__ import annotations

from vahalite_bot.app import records
from vahalite_bot.app.book import Book
from vahalite_bot.rules.actions import Advance, EndTurn, PlacePassenger
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.state import PendingPlacement, Phase
from vahalite_bot.store.snapshot import turn_side

SYSTEM = "system"


def end_turn(book: Book, *, actor: str | None, role: str) -> None:
    """End the running turn: pending decisions take their defaults, then C3."""
    while book.state is not None and book.state.pending:
        pending = book.state.pending[0]
        default = (
            PlacePassenger(pending.side, pending.unit, pending.cells[0])
            if isinstance(pending, PendingPlacement)
            else Advance(pending.side, pending.unit, False)
        )
        book.act(default, actor=actor, role=role, side=pending.side)
    if book.state is not None and book.state.phase is Phase.PLAYING:
        assert book.state.active is not None
        book.act(EndTurn(book.state.active), actor=actor, role=role, side=book.state.active)


def expire(book: Book, forfeit_after: int) -> None:
    """The deadline passed: a missed turn for whoever had to act, and the turn ends."""
    state = book.state
    assert state is not None and state.phase is not Phase.ENDED
    side = acting_side(state) or turn_side(state)
    assert side is not None
    count = book.players[side].missed_turns + 1
    book.set_missed(side, count)
    book.note(records.TurnMissed(side, count), actor=None, role=SYSTEM, side=side)
    if count >= forfeit_after:
        book.override(records.DecideGame(side.other, "forfeit"), actor=None, role=SYSTEM)
    elif state.phase is Phase.PLAYING:
        end_turn(book, actor=None, role=SYSTEM)
    else:
        book.restart_deadline = True
