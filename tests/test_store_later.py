"""Rows queued past SQLAlchemy (``store.later``) are stored exactly as SQLAlchemy's own
INSERT stores them, and a failing one still fails the statement it rides with."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import exc, insert, text
from sqlalchemy.orm import Session

from vahalite_bot.store.database import Database, is_conflict
from vahalite_bot.store.later import LaterInsert
from vahalite_bot.store.models import CommandKey

_KEYS = LaterInsert(CommandKey.metadata.tables[CommandKey.__tablename__])


def _row(scope: str, key: str, digest: str | None, when: datetime) -> dict[str, Any]:
    return {
        "scope": scope,
        "key": key,
        "command": "move",
        "digest": digest,
        "game_id": None,
        "answer": {"user": "ßü 🎲", "since": 3, "list": [1, None, 2.5], "nested": {"a": True}},
        "created_at": when,
    }


_STORED = text(
    "SELECT key, command, digest, game_id, CAST(answer AS TEXT), created_at"
    " FROM command_keys WHERE scope = :scope ORDER BY key"
)


async def test_queued_rows_are_stored_as_sqlalchemy_stores_them(db: Database) -> None:
    scope = f"later:{uuid.uuid4()}"
    # Not UTC: the column's own conversion must run (to UTC, then the dialect's format).
    when = datetime(2201, 5, 6, 7, 8, 9, 123456, tzinfo=timezone(timedelta(hours=3)))
    digests = ["d" * 64, None]
    async with db.write() as session:
        for n, digest in enumerate(digests):
            await session.execute(insert(CommandKey), _row(scope, f"a{n}", digest, when))

        def queue(sync: Session) -> None:
            connection = sync.connection()
            _KEYS.run(connection, [_row(scope, "b0", digests[0], when)])  # one row
            _KEYS.run(connection, [_row(scope, f"c{n}", d, when) for n, d in enumerate(digests)])
            connection.execute(text("SELECT 1"))  # the trip they ride with

        await session.run_sync(queue)
    async with db.read() as session:
        stored = {r[0]: tuple(r[1:]) for r in (await session.execute(_STORED, {"scope": scope}))}
    assert sorted(stored) == ["a0", "a1", "b0", "c0", "c1"]
    assert stored["b0"] == stored["a0"] == stored["c0"]
    assert stored["c1"] == stored["a1"]
    assert stored["a0"][4] is not None and stored["a1"][2] is None


async def test_a_queued_row_that_breaks_a_key_fails_the_statement_it_rides_with(
    db: Database,
) -> None:
    scope = f"later:{uuid.uuid4()}"
    now = datetime.now(UTC)
    async with db.write() as session:
        await session.execute(insert(CommandKey), _row(scope, "k", None, now))
    with pytest.raises(exc.IntegrityError) as raised:
        async with db.write() as session:

            def queue(sync: Session) -> None:
                connection = sync.connection()
                _KEYS.run(connection, [_row(scope, "k", None, now)])
                connection.execute(text("SELECT 1"))

            await session.run_sync(queue)
    assert is_conflict(raised.value)
