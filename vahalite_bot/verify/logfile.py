"""The exported log format: JSON lines, UTF-8 (docs/dice.md, "The log file").

Line 1 is the header: ``{"format": "vahalite-log", "version": 1, "game": <id>,
"commitment": "<sha256 hex>"}``. Every further line is one log entry, in order:
``{"seq", "kind", "actor", "role", "side", "record", "dice", "created_at"}``, where
``dice`` is ``[[position, purpose, value], ...]`` and ``record`` is the entry's stored
record (``{"type": "PlayerJoined", "side": "north", "user": ..., "word": ...}`` and so on).
The checker reads the few records it needs by their ``type`` and ignores the rest.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

FORMAT = "vahalite-log"
VERSION = 1

# A log file is read whole; a game's log is a few hundred KB at most. The limit keeps a
# hostile file from exhausting memory.
MAX_BYTES = 64 * 1024 * 1024


class LogFileError(ValueError):
    """The file is not an exported Vaha-Lite log; ``code`` names why (a catalogue id)."""

    def __init__(self, code: str, **args: Any) -> None:
        super().__init__(code, args)
        self.code = code
        self.args_ = args


@dataclass(frozen=True)
class LoggedDie:
    position: int
    purpose: str
    value: int


@dataclass(frozen=True)
class LogLine:
    """One entry as the file gives it: only what the checker uses is typed."""

    seq: int
    kind: str
    record: Mapping[str, Any]
    dice: tuple[LoggedDie, ...]


@dataclass(frozen=True)
class LogFile:
    game: int | None
    commitment: str
    lines: tuple[LogLine, ...]


def header(game: int, commitment: str) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "game": game, "commitment": commitment}


def dumps(rows: Iterable[Mapping[str, Any]]) -> str:
    """Rows (the header first) as JSON lines: one compact object a line, UTF-8 text kept."""
    return "".join(
        json.dumps(row, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"
        for row in rows
    )


def parse(text: str) -> LogFile:
    """The file's header and entries; ``LogFileError`` for anything that is not one."""
    rows = [_json(number, line) for number, line in enumerate(text.splitlines(), 1) if line]
    if not rows:
        raise LogFileError("verify-empty")
    head = rows[0]
    if head.get("format") != FORMAT:
        raise LogFileError("verify-not-a-log")
    if head.get("version") != VERSION:
        raise LogFileError("verify-version", version=str(head.get("version")))
    commitment = head.get("commitment")
    if not isinstance(commitment, str):
        raise LogFileError("verify-bad-line", line=1)
    game = head.get("game")
    lines = tuple(_entry(number, row) for number, row in enumerate(rows[1:], 2))
    return LogFile(game if isinstance(game, int) else None, commitment, lines)


def _json(number: int, line: str) -> dict[str, Any]:
    try:
        row = json.loads(line)
    except ValueError:
        raise LogFileError("verify-bad-line", line=number) from None
    if not isinstance(row, dict):
        raise LogFileError("verify-bad-line", line=number)
    return row


def _entry(number: int, row: Mapping[str, Any]) -> LogLine:
    seq, kind, record, dice = row.get("seq"), row.get("kind"), row.get("record"), row.get("dice")
    if (
        not isinstance(seq, int)
        or isinstance(seq, bool)
        or not isinstance(kind, str)
        or not isinstance(record, dict)
        or not isinstance(dice, list)
    ):
        raise LogFileError("verify-bad-line", line=number)
    return LogLine(seq, kind, record, tuple(_die(number, d) for d in dice))


def _die(number: int, data: Any) -> LoggedDie:
    if (
        not isinstance(data, list)
        or len(data) != 3
        or not _is_int(data[0])
        or not isinstance(data[1], str)
        or not _is_int(data[2])
    ):
        raise LogFileError("verify-bad-line", line=number)
    return LoggedDie(data[0], data[1], data[2])


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
