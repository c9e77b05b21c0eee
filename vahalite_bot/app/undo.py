"""Which log entries an undo takes back, and whether the player may do it alone.

A player may take back their own actions of the current turn that rolled no dice; with dice,
the opponent must agree (or the referee undoes). The referee may take back the last N
state-changing entries, whoever made them.
"""

from __future__ import annotations

from collections.abc import Sequence

from vahalite_bot.app.errors import NotAllowed
from vahalite_bot.app.replay import Entry, undone_by

MAX_UNDO = 50


def last_undoable(entries: Sequence[Entry], count: int) -> list[Entry]:
    """The last ``count`` entries that changed the state and are not undone already."""
    if not 1 <= count <= MAX_UNDO:
        raise NotAllowed("undo_count", count=count, maximum=MAX_UNDO)
    undone = undone_by(entries)
    effective = [e for e in entries if e.undoable and e.seq not in undone]
    if count > len(effective):
        raise NotAllowed("nothing_to_undo", count=count, available=len(effective))
    return effective[-count:]


def check_own(chosen: Sequence[Entry], user: str, turn_seq: int) -> bool:
    """Refuse unless every entry is the user's own in this turn; True if any rolled dice."""
    for entry in chosen:
        if entry.seq <= turn_seq:
            raise NotAllowed("undo_not_this_turn", seq=entry.seq)
        if entry.role != "player" or entry.actor != user:
            raise NotAllowed("undo_not_own", seq=entry.seq)
    return any(entry.dice for entry in chosen)
