"""How SQLite transactions begin: a writer (and a migration) takes the write lock with its
BEGIN, so that it waits for another process's writer instead of failing half-way; a reader
does not, so that it never waits for a writer. And no engine-wide event listener does it:
one would make SQLAlchemy dispatch its events around every statement."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from vahalite_bot.store import sqlite_driver
from vahalite_bot.store.database import open_database


@pytest.fixture
def begins(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every BEGIN run on the SQLite connections (each rides with a statement's trip)."""
    made: list[str] = []
    run_pending = sqlite_driver._run_pending

    def recorded(conn: sqlite3.Connection, pending: tuple[sqlite_driver.Pending, ...]) -> None:
        made.extend(sql for sql, _, _ in pending if sql.startswith("BEGIN"))
        run_pending(conn, pending)

    monkeypatch.setattr(sqlite_driver, "_run_pending", recorded)
    yield made


async def test_writers_and_migrations_begin_immediate_readers_deferred(
    tmp_path: Path, begins: list[str]
) -> None:
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'begin.db'}")
    try:
        assert begins and set(begins) == {"BEGIN IMMEDIATE"}  # the migration's
        begins.clear()
        async with db.write() as session:
            await session.execute(text("SELECT 1"))
        assert begins == ["BEGIN IMMEDIATE"]
        begins.clear()
        async with db.read() as session:
            await session.execute(text("SELECT 1"))
        assert begins == ["BEGIN DEFERRED"]
        assert not db.engine.sync_engine._has_events
    finally:
        await db.close()


async def test_a_transaction_that_runs_nothing_begins_nothing(
    tmp_path: Path, begins: list[str]
) -> None:
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'begin.db'}", upgrade=False)
    try:
        async with db.read():
            pass
        async with db.write():
            pass
        assert begins == []
    finally:
        await db.close()
