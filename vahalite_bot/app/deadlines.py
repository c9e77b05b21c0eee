"""N1: what happens when a turn's deadline passes, and ending a turn from outside (N2).

The turn ends (C3) after any pending decision takes its default: a passenger is set on the
first cell offered (H5), an attacker stays where it is (E10), every unit has Advance (M3),
no reserve arrives (M5).
A setup step cannot be skipped, so there the deadline only counts a missed turn and starts
again. Enough missed turns in a row forfeit the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from vahalite_bot.app import records
from vahalite_bot.app.book import Book
from vahalite_bot.rules.actions import (
    Action,
    Advance,
    EndTurn,
    FinishReserves,
    GiveOrders,
    PlacePassenger,
)
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import (
    Pending,
    PendingOrders,
    PendingPlacement,
    PendingReserve,
    Phase,
)
from vahalite_bot.store.snapshot import turn_key, turn_side

SYSTEM = "system"


def end_turn(book: Book, *, actor: str | None, role: str) -> None:
    """End the running turn: pending decisions take their defaults, then C3."""
    running = None if book.state is None else turn_key(book.state)
    while book.state is not None and book.state.pending:
        pending = book.state.pending[0]
        book.act(default_answer(pending), actor=actor, role=role, side=pending.side)
    # M2: a decision asked in the damage step belongs to the round that ended; answering it
    # starts the next round, whose first turn must not end with it.
    same_turn = book.state is not None and turn_key(book.state) == running
    if book.state is not None and book.state.phase is Phase.PLAYING and same_turn:
        assert book.state.active is not None
        book.act(EndTurn(book.state.active), actor=actor, role=role, side=book.state.active)


def default_answer(pending: Pending) -> Action:
    """What a pending decision takes when nobody answers it."""
    if isinstance(pending, PendingOrders):
        return GiveOrders(pending.side)  # M3: all Advance
    if isinstance(pending, PendingPlacement):
        return PlacePassenger(pending.side, pending.unit, pending.cells[0])
    if isinstance(pending, PendingReserve):
        return FinishReserves(pending.side)  # M5: place none
    return Advance(pending.side, pending.unit, False)


@dataclass(frozen=True)
class Expiry:
    """What a passed deadline did, for its announcement."""

    side: Side  # whose turn (or setup step) it was: the one who missed it
    missed: int  # turns missed in a row now
    forfeit: bool  # that was one too many: the game is over
    setup: bool  # a setup step: it stays with the same player


def expire(book: Book, forfeit_after: int) -> Expiry:
    """The deadline passed: a missed turn for the side whose turn (or setup step) it was,
    and the turn ends.

    The side is the turn's, not the one a pending decision waits for (H5: the other
    player's passenger of a transport wrecked in this turn): the deadline is the turn's,
    and the turn's player let it run out.
    """
    state = book.state
    assert state is not None and state.phase is not Phase.ENDED
    side = turn_side(state)
    assert side is not None
    count = book.players[side].missed_turns + 1
    book.set_missed(side, count)
    book.note(records.TurnMissed(side, count), actor=None, role=SYSTEM, side=side)
    setup = state.phase is not Phase.PLAYING
    if count >= forfeit_after:
        book.override(records.DecideGame(side.other, "forfeit"), actor=None, role=SYSTEM)
    elif not setup:
        end_turn(book, actor=None, role=SYSTEM)
    else:
        book.restart_deadline = True
    return Expiry(side, count, count >= forfeit_after, setup)
