"""The log and a snapshot read as stored, for a reader that decodes them in another process.

The bot's recap reads them in its event loop and a worker process decodes them (issue 21).
Their JSON columns come as the text stored, cast in SQL (asyncpg would parse JSON in the
driver): the loop neither parses them nor pickles their trees, only strings. ``parse_entry``
and ``parse_state`` give what the ORM's columns give.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Text, bindparam, cast, select
from sqlalchemy.ext.asyncio import AsyncSession

from vahalite_bot.store.models import ENTRY_COLUMNS, ENTRY_JSON, LogEntry, Snapshot

_ENTRY_TEXT = [
    cast(column, Text).label(name) if name in ENTRY_JSON else column
    for name, column in ((name, getattr(LogEntry, name)) for name in ENTRY_COLUMNS)
]
# Built once: a recap's reads are a turn start's, in the bot's event loop, and a statement
# built per call has its cache key worked out again each time.
_ENTRIES_AFTER = (
    select(*_ENTRY_TEXT)
    .where(LogEntry.game_id == bindparam("game"), LogEntry.seq > bindparam("seq"))
    .order_by(LogEntry.seq)
)
_SNAPSHOT_STATE = select(cast(Snapshot.state, Text)).where(
    Snapshot.game_id == bindparam("game"), Snapshot.seq == bindparam("seq")
)


async def entries_after(session: AsyncSession, game_id: int, seq: int) -> list[dict[str, Any]]:
    """The entries after ``seq``, in order: each a mapping of its columns (``ENTRY_COLUMNS``),
    the JSON ones as text."""
    result = await session.execute(_ENTRIES_AFTER, {"game": game_id, "seq": seq})
    return [dict(row) for row in result.mappings()]


async def snapshot_state(session: AsyncSession, game_id: int, seq: int) -> str | None:
    """The state of the snapshot taken after entry ``seq``, as JSON text (None: none)."""
    result = await session.execute(_SNAPSHOT_STATE, {"game": game_id, "seq": seq})
    state: str | None = result.scalar_one_or_none()
    return state


def parse_entry(row: Mapping[str, Any]) -> dict[str, Any]:
    """An entry from ``entries_after`` as the ORM's row gives it, its JSON parsed."""
    return {name: json.loads(value) if name in ENTRY_JSON else value for name, value in row.items()}


def parse_state(text: str) -> dict[str, Any]:
    """A state from ``snapshot_state`` as the ORM's snapshot gives it."""
    parsed: dict[str, Any] = json.loads(text)
    return parsed
