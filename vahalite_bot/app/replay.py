"""A game's state is the replay of its log: this is that replay, entry by entry.

Loading folds the entries after the turn's snapshot onto it; a full replay folds them all
from the start entry. Both use this one function, so they cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from vahalite_bot.app import records
from vahalite_bot.rules import codec, engine
from vahalite_bot.rules.dice import DiceStream, Die
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState
from vahalite_bot.store import valuecodec
from vahalite_bot.store.models import ENTRY_COLUMNS, LogEntry


class ReplayMismatch(RuntimeError):
    """The log does not replay: a die differs from the one recorded, or one is missing."""


@dataclass(frozen=True)
class Entry:
    """One log line, decoded (but for its events, decoded only when shown)."""

    seq: int
    kind: str
    actor: str | None
    role: str
    side: Side | None
    record: Any  # an engine Action or a records.Record
    dice: tuple[Die, ...]
    events: tuple[dict[str, Any], ...]
    created_at: datetime

    @property
    def undoable(self) -> bool:
        return self.kind in records.UNDOABLE


def entry_of(row: LogEntry | Mapping[str, Any]) -> Entry:
    """A log row (as read, or as about to be written) decoded."""
    data: Mapping[str, Any] = (
        row if isinstance(row, Mapping) else {c: getattr(row, c) for c in ENTRY_COLUMNS}
    )
    side = data["side"]
    return Entry(
        seq=data["seq"],
        kind=data["kind"],
        actor=data["actor"],
        role=data["role"],
        side=None if side is None else Side(side),
        record=decode_record(data["kind"], data["record"]),
        dice=tuple(Die(p, purpose, v) for p, purpose, v in data["dice"]),
        events=tuple(data["events"]),
        created_at=data["created_at"],
    )


def decode_record(kind: str, data: dict[str, Any]) -> Any:
    return codec.decode(data) if kind == records.ACTION else records.decode(data)


def decode_event(data: dict[str, Any]) -> Any:
    kind = data[valuecodec.KIND]
    return codec.decode(data) if kind in codec.REGISTRY else records.decode(data)


def encode_event(event: Any) -> Any:
    return (
        codec.encode(event)
        if type(event).__name__ in codec.REGISTRY
        else (valuecodec.encode(event))
    )


def undone_by(entries: Iterable[Entry]) -> set[int]:
    """The seqs that undo entries among ``entries`` take back."""
    undone: set[int] = set()
    for entry in entries:
        if entry.kind == records.UNDO:
            undone.update(entry.record.seqs)
    return undone


def fold(
    state: GameState | None, entries: Sequence[Entry], dice: DiceStream | None = None
) -> GameState | None:
    """Apply ``entries`` in order to ``state``, skipping those an undo among them took back.

    Dice come from the log itself (each die checked against its recorded position and
    purpose) unless ``dice`` is given, e.g. the game's fair stream to verify the log (K2).
    """
    undone = undone_by(entries)
    for entry in entries:
        if entry.seq not in undone:
            state = apply_entry(state, entry, dice)
    return state


def apply_entry(state: GameState | None, entry: Entry, dice: DiceStream | None) -> GameState | None:
    record = entry.record
    if entry.kind == records.START:
        return record.setup.initial_state()  # type: ignore[no-any-return]
    if entry.kind not in (records.ACTION, records.OVERRIDE, records.UNDO):
        return state
    if state is None:
        raise ReplayMismatch(f"entry {entry.seq} ({entry.kind}) comes before the start")
    if entry.kind == records.ACTION:
        stream = LoggedDice(entry.dice, entry.seq) if dice is None else dice
        new, _ = engine.apply(state, record, stream)
        if isinstance(stream, LoggedDice) and stream.left:
            raise ReplayMismatch(f"entry {entry.seq} recorded {stream.left} dice it did not use")
        return new
    if entry.kind == records.OVERRIDE:
        new, _ = records.apply_override(state, record)
        return new
    # An undo: the state is the fold without the undone entries; the dice move on.
    if record.dice_position > state.dice_position:
        state = state.copy()
        state.dice_position = record.dice_position
    return state


class LoggedDice:
    """Replays the dice recorded with one entry, checking each against the roll asked for."""

    def __init__(self, dice: Sequence[Die], seq: int) -> None:
        self._dice = list(dice)
        self._next = 0
        self._seq = seq

    def roll(self, position: int, purpose: str) -> int:
        if self._next >= len(self._dice):
            raise ReplayMismatch(f"entry {self._seq}: no die recorded for {purpose} at {position}")
        die = self._dice[self._next]
        if (die.position, die.purpose) != (position, purpose):
            raise ReplayMismatch(
                f"entry {self._seq}: recorded {die.purpose} at {die.position}, "
                f"replay rolls {purpose} at {position}"
            )
        self._next += 1
        return die.value

    @property
    def left(self) -> int:
        return len(self._dice) - self._next


class RecordingDice:
    """Passes rolls through from the game's fair stream and keeps every die for the log."""

    def __init__(self, inner: DiceStream) -> None:
        self.inner = inner
        self.dice: list[Die] = []

    def roll(self, position: int, purpose: str) -> int:
        value = self.inner.roll(position, purpose)
        self.dice.append(Die(position, purpose, value))
        return value
