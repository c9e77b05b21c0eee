"""SQLite group commit (issue 21): writers queued for the write lock share one COMMIT, and
none returns before it; a writer that fails takes back only its own changes."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text

from vahalite_bot.store.database import Database, open_database
from vahalite_bot.store.group import GroupFailed
from vahalite_bot.store.sqlite_driver import OneTripConnection


@pytest.fixture
def commits(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every COMMIT made on the SQLite connections, with the file as it stood just after."""
    made: list[str] = []
    commit = OneTripConnection.commit

    async def counted(self: OneTripConnection) -> None:
        await commit(self)
        made.append("commit")

    monkeypatch.setattr(OneTripConnection, "commit", counted)
    yield made


async def _database(tmp_path: Path) -> tuple[Database, Path]:
    path = tmp_path / "group.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}", upgrade=False)
    async with db.write() as session:
        await session.execute(text("CREATE TABLE t (n INTEGER PRIMARY KEY)"))
    return db, path


class _Holder:
    """A writer that inserts 1 and holds its turn until released: others queue behind it."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.entered = asyncio.Event()
        self.release = asyncio.Event()

    async def run(self) -> None:
        async with self.db.write() as session:
            await session.execute(text("INSERT INTO t VALUES (1)"))
            self.entered.set()
            await self.release.wait()


def _on_disk(path: Path) -> set[int]:
    """What another connection (another process, or the file after a crash) sees."""
    with sqlite3.connect(path) as conn:
        return {n for (n,) in conn.execute("SELECT n FROM t")}


async def test_queued_writers_share_a_commit_and_return_only_after_it(
    tmp_path: Path, commits: list[str]
) -> None:
    db, path = await _database(tmp_path)
    seen: dict[int, set[int]] = {}

    async def writer(n: int) -> None:
        async with db.write() as session:
            await session.execute(text("INSERT INTO t VALUES (:n)"), {"n": n})
        seen[n] = _on_disk(path)  # returned: its row must be committed already

    try:
        commits.clear()
        await asyncio.gather(*(writer(n) for n in range(12)))
    finally:
        await db.close()
    assert all(n in rows for n, rows in seen.items()), seen
    assert _on_disk(path) == set(range(12))
    # Eleven queued behind the first: two groups at most (the first alone, then the rest).
    assert 1 <= len(commits) <= 2, commits


async def test_a_writer_alone_commits_at_once(tmp_path: Path, commits: list[str]) -> None:
    db, path = await _database(tmp_path)
    try:
        for n in range(3):
            commits.clear()
            async with db.write() as session:
                await session.execute(text("INSERT INTO t VALUES (:n)"), {"n": n})
            assert commits == ["commit"]
            assert n in _on_disk(path)
    finally:
        await db.close()


async def test_a_failing_writer_takes_back_only_its_own_changes(
    tmp_path: Path, commits: list[str]
) -> None:
    db, path = await _database(tmp_path)

    async def writer(n: int) -> Any:
        async with db.write() as session:
            await session.execute(text("INSERT INTO t VALUES (:n)"), {"n": n})
            if n % 3 == 0:
                raise ValueError(n)
        return n

    try:
        commits.clear()
        results = await asyncio.gather(*(writer(n) for n in range(9)), return_exceptions=True)
    finally:
        await db.close()
    failed = {r.args[0] for r in results if isinstance(r, ValueError)}
    assert failed == {0, 3, 6}
    assert _on_disk(path) == {1, 2, 4, 5, 7, 8}
    assert len(commits) < 9  # they did share


async def test_a_waiter_cancelled_as_its_turn_comes_leaves_no_group_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first writer leaves the group open for the one queued behind it, which is then
    cancelled before it runs: somebody must still commit the first one's change."""
    db, path = await _database(tmp_path)
    holder = _Holder(db)
    entered, release, first = holder.entered, holder.release, holder.run
    tasks: list[asyncio.Task[None]] = []

    async def second() -> None:
        async with db.write() as session:
            await session.execute(text("INSERT INTO t VALUES (2)"))

    assert db._groups is not None
    turn = db._groups._turn
    handed_over = turn.release

    def release_and_cancel() -> None:
        handed_over()
        if len(tasks) == 2:  # the first hands the turn over: the second gives up
            tasks[1].cancel()

    monkeypatch.setattr(turn, "release", release_and_cancel)
    try:
        tasks.append(asyncio.create_task(first()))
        await entered.wait()
        tasks.append(asyncio.create_task(second()))
        await asyncio.sleep(0.01)  # queued behind the first
        release.set()
        await asyncio.wait_for(tasks[0], 10)
        with pytest.raises(asyncio.CancelledError):
            await tasks[1]
    finally:
        await db.close()
    assert _on_disk(path) == {1}


async def test_a_writer_that_ends_the_transaction_fails_the_group_not_the_next_one(
    tmp_path: Path,
) -> None:
    """SQLite rolls a whole transaction back on some errors (a full disk, an I/O error): the
    members before are told their change was not made (GroupFailed, so they may run again),
    and those after start a new group rather than commit statement by statement."""
    db, path = await _database(tmp_path)
    holder = _Holder(db)
    entered, release, first = holder.entered, holder.release, holder.run

    async def breaker() -> None:
        async with db.write() as session:
            await session.execute(text("INSERT INTO t VALUES (2)"))
            await session.execute(text("ROLLBACK"))  # as SQLite does on SQLITE_FULL
            raise ValueError("disk full")

    async def after() -> None:
        async with db.write() as session:
            await session.execute(text("INSERT INTO t VALUES (3)"))

    try:
        one = asyncio.create_task(first())
        await entered.wait()
        two = asyncio.create_task(breaker())
        await asyncio.sleep(0.01)
        three = asyncio.create_task(after())
        await asyncio.sleep(0.01)
        release.set()
        results = await asyncio.gather(one, two, three, return_exceptions=True)
    finally:
        await db.close()
    assert isinstance(results[0], GroupFailed), results
    assert isinstance(results[1], ValueError), results
    assert results[2] is None, results
    assert _on_disk(path) == {3}


async def test_groups_one_after_another_write_on_one_connection_given_back_at_close(
    tmp_path: Path,
) -> None:
    """The connection of a group that committed serves the next one (no checkout from the
    pool, nor its reset, per group); one whose group failed is not kept; closing the
    database gives the kept one back to the pool."""
    db, path = await _database(tmp_path)
    pool = db.engine.pool
    checkouts: list[object] = []
    event.listen(db.engine.sync_engine, "checkout", lambda *_: checkouts.append(None))

    async def breaker() -> None:
        async with db.write() as session:
            await session.execute(text("INSERT INTO t VALUES (100)"))
            await session.execute(text("ROLLBACK"))  # as SQLite does on SQLITE_FULL

    try:
        for n in range(3):
            async with db.write() as session:
                await session.execute(text("INSERT INTO t VALUES (:n)"), {"n": n})
        kept = len(checkouts)
        with pytest.raises(GroupFailed):
            await breaker()
        async with db.write() as session:
            await session.execute(text("INSERT INTO t VALUES (3)"))
    finally:
        await db.close()
    assert kept == 0  # the table's creation left its connection for the writers after it
    assert len(checkouts) == 1  # the failed group's connection was given up
    assert pool.checkedout() == 0
    assert _on_disk(path) == {0, 1, 2, 3}
