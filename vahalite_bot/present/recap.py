"""The recap for a player coming back to a game (issue 11): everything since their last turn.

Adapter-neutral and pure: the Discord bot posts it when a turn starts, the terminal game
shows it at each hand-over. The events come from the service's log (``game_log``), the text
from the ``Narrator`` (every event with its dice), then a summary: the units destroyed, the
SPs that changed hands and the VP before and after. ``render.render_turn`` draws the same
events as one image.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from vahalite_bot.app.replay import Entry, fold
from vahalite_bot.app.results import LogLine, RecapLog
from vahalite_bot.present.narrate import QUESTIONS, Narrator
from vahalite_bot.present.paint import Paint
from vahalite_bot.present.text import say, side_name, unit_label
from vahalite_bot.rules import events as ev
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState
from vahalite_bot.rules.victory import score


def turn_events(log_lines: Sequence[LogLine], since_seq: int) -> list[Any]:
    """The events of the log's entries after ``since_seq``, in order, leaving out the
    entries an undo took back (they did not happen)."""
    return [
        event
        for line in log_lines
        if line.seq > since_seq and not line.undone
        for event in line.events
    ]


def since_last_turn(log_lines: Sequence[LogLine], side: Side) -> list[Any]:
    """The events since ``side``'s last turn ended: the opponent's turn (or turns, if a
    turn was missed), up to now. Before ``side`` has ended a turn, everything since play
    began (the first turn's start); nothing if play has not begun."""
    start = _recap_start(log_lines, side)
    if start is None:
        return []
    seq, index, _ = start
    first = next(line for line in log_lines if line.seq == seq)
    later = turn_events(log_lines, seq)
    return [*first.events[index:], *later]


@dataclass(frozen=True)
class Recap:
    """What a recap shows: the board when ``side``'s last turn ended (or play began), the
    board now, and every event in between."""

    since_seq: int  # the log entry that ended that turn: a key to show each recap once
    before: GameState
    after: GameState
    events: tuple[Any, ...]


class ShortLog(Exception):
    """The tail of the log given holds no end of the side's turn, so the recap begins
    further back: it needs the whole log (``recap_log(..., whole=True)``). A safety net:
    the snapshots' turn keys start the tail at that end whenever a turn ended by the rules."""


def recap_for(log_lines: Sequence[LogLine], side: Side) -> Recap | None:
    """The recap for ``side`` from the game's whole log (``game_log(game_id)``)."""
    return _recap(log_lines, None, 0, side)


def recap_from(log: RecapLog, side: Side) -> Recap | None:
    """The recap for ``side`` from ``recap_log``: the states folded from its state (or from
    the log's start), so a worker process folds only the entries since; None before play
    has begun. Raises ``ShortLog`` if that tail does not reach back to the turn's end
    (or, for a side yet to end a turn, to play's start).
    The log is decoded here, where it is used: in the bot, a worker process."""
    return _recap(log.lines, log.state, log.since, side, play_began=log.play_began)


def _recap(
    log_lines: Sequence[LogLine],
    state: GameState | None,
    since: int,
    side: Side,
    *,
    play_began: bool = False,
) -> Recap | None:
    """The recap from the log after entry ``since`` and the state after that entry (None:
    the whole log, folded from its start). ``play_began``: entry ``since`` began play, and
    a recap may start at its first turn's start there."""
    start = _recap_start(log_lines, side)
    if state is not None and not _reaches_back(start, since, play_began):
        raise ShortLog(side)
    if start is None:
        return None
    seq = start[0]
    kept = [line for line in log_lines if not line.undone and line.seq > since]
    before = fold(state, [_entry(line) for line in kept if line.seq <= seq])
    after = fold(before, [_entry(line) for line in kept if line.seq > seq])
    if before is None or after is None:
        return None
    return Recap(seq, before, after, tuple(since_last_turn(log_lines, side)))


def _reaches_back(start: tuple[int, int, bool] | None, since: int, play_began: bool) -> bool:
    """Whether a tail's recap starts where the whole log's would: at a turn end of the side,
    or (before it has ended one) at the first turn's start, in the entry that began play."""
    if start is None:
        return False
    seq, _, turn_end = start
    return turn_end or (play_began and seq == since)


def _recap_start(log_lines: Sequence[LogLine], side: Side) -> tuple[int, int, bool] | None:
    """Where the recap begins: (the entry's seq, the index of its first event recapped,
    whether a turn end of ``side`` is that point), just after ``side``'s last turn end, else
    at the first turn's start."""
    start: tuple[int, int, bool] | None = None
    for line in log_lines:
        if line.undone:
            continue
        for index, event in enumerate(line.events):
            if isinstance(event, ev.TurnEnded) and event.side is side:
                start = (line.seq, index + 1, True)
            elif start is None and isinstance(event, ev.TurnStarted):
                start = (line.seq, index, False)
    return start


def _entry(line: LogLine) -> Entry:
    """A log line as the replay reads it (the events are not replayed, only the record)."""
    return Entry(
        line.seq,
        line.kind,
        line.actor,
        line.role,
        line.side,
        line.record,
        line.dice,
        (),
        line.created_at,
    )


def recap_text(
    before: GameState,
    after: GameState,
    events: Sequence[Any],
    lang: str,
    paint: Paint,
    *,
    retell: bool = True,
) -> list[str]:
    """The recap as lines: a title, every event told with its dice, then what changed
    between ``before`` and ``after``: units destroyed, SPs that changed hands, and last the
    VP before -> after. ``retell=False`` leaves the events out, for a reader who has just
    seen them told as they happened (issue 19: the automatic player's turn in the
    terminal)."""
    lines = [paint(say(lang, "recap-title"), "title")]
    if retell:
        # Questions (advance? place the passenger?) were answered before the turn ended:
        # the answers are told, the questions would only read as if still open.
        told_events = [event for event in events if not isinstance(event, QUESTIONS)]
        while told_events and isinstance(told_events[-1], ev.TurnStarted):
            told_events.pop()  # the reader's own turn starting: the adapter says that anyway
        told = [line for line in Narrator(lang, paint).tell(told_events, after) if line]
        lines.extend(told or [say(lang, "recap-nothing")])
    destroyed = destroyed_units(events)
    if destroyed:
        units = ", ".join(
            unit_label(after, handle, lang, paint, named=True) for handle in destroyed
        )
        lines.append(say(lang, "recap-destroyed", units=units))
    for cell, was, now in sp_changes(before, after):
        lines.append(
            say(
                lang,
                "recap-sp",
                cell=cell,
                before=side_name(lang, was, paint),
                after=side_name(lang, now, paint),
            )
        )
    lines.append(
        say(
            lang,
            "recap-vp",
            south_before=score(before, Side.SOUTH).vp,
            south_after=score(after, Side.SOUTH).vp,
            north_before=score(before, Side.NORTH).vp,
            north_after=score(after, Side.NORTH).vp,
        )
    )
    return lines


def destroyed_units(events: Iterable[Any]) -> list[str]:
    """The handles of the units the events destroyed, in the order they fell."""
    return [event.unit for event in events if isinstance(event, ev.UnitDestroyed)]


def sp_changes(before: GameState, after: GameState) -> list[tuple[str, Side, Side]]:
    """Each SP held by another side than before (C3): its cell, the old and the new holder."""
    changes = []
    for cell, sp in sorted(after.sps.items()):
        old = before.sps.get(cell)
        if old is not None and old.holder is not sp.holder:
            changes.append((cell.name, old.holder, sp.holder))
    return changes
