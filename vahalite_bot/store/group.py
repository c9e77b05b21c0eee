"""SQLite group commit: the writers queued for the write lock share one transaction.

SQLite has one writer at a time, and with ``synchronous=FULL`` each COMMIT waits for its
fsync while the write lock is held, so at 50 busy games the commands queue behind one
another's fsyncs and thread hand-overs, not behind the event loop's work (issue 21). Here
the writer holding the lock (a member) runs its transaction as a SAVEPOINT inside a
transaction it shares with the writers queued behind it; the last member of a group, the
one that finds nobody queued (or the group full), commits it: one COMMIT, one fsync, for
all of them. No member returns, nor raises, before that COMMIT has ended, so nobody is told
of a change that is not on disk; a crash before it loses the whole group, none of which was
answered. A member whose block raises is rolled back to its savepoint and leaves the others'
writes alone. One writer alone commits at once, as it did before: no waiting for company.

Members see the changes of the members before them in the group (one transaction), as they
would have seen them committed; readers see none until the COMMIT.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from vahalite_bot.store.sqlite_driver import OneTripConnection

# At most this many writers in one transaction: a member waits for the whole group's work
# before its answer, so an unbounded group would trade latency for nothing more.
GROUP_MOST = 16


class GroupFailed(Exception):
    """The group's transaction ended without its COMMIT (another member's error broke it):
    no member's change was made, so each may run again."""


# The savepoint of each member but the first (whose failure rolls back the group, then
# holding only its own changes): released before the next member begins, so one name does.
_SAVEPOINT = "vahalite_member"


class _Group:
    def __init__(self, connection: AsyncConnection, driver: OneTripConnection) -> None:
        self.connection = connection
        self.driver = driver
        self.members = 0
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        # Its error is raised to the members still waiting; none may be left (cancelled).
        self.done.add_done_callback(lambda done: done.cancelled() or done.exception())


class WriteGroups:
    """Hands each writer, in turn, the connection of the open group's transaction."""

    def __init__(self, engine: AsyncEngine, most: int = GROUP_MOST) -> None:
        self._engine = engine
        self._most = most
        self._turn = asyncio.Lock()
        self._queued = 0  # writers waiting for the turn: they will join the open group
        self._group: _Group | None = None
        self._ending: set[asyncio.Task[None]] = set()
        # The last group's connection, once it committed: the next group's. Checking one
        # out of the pool and back in (with its reset) for each group cost a lone writer
        # as much as one of its statements; the pool reused the same connection anyway.
        self._idle: AsyncConnection | None = None

    @contextlib.asynccontextmanager
    async def member(self) -> AsyncIterator[AsyncConnection]:
        """The group's connection, in its transaction, for one writer's savepoint; left
        once the group's COMMIT has ended. If it failed, a member whose block ended well
        gets the COMMIT's error (``GroupFailed`` if another member's broke the group); one
        whose block raised gets its own error."""
        self._queued += 1
        try:
            await self._turn.acquire()
        except BaseException:
            self._queued -= 1
            self._end_idle_later()
            raise
        self._queued -= 1
        group: _Group | None = None
        raised = True
        try:
            group = self._group
            if group is None:
                idle, self._idle = self._idle, None
                group = self._group = await _open(self._engine, idle)
            group.members += 1
            first = group.members == 1
            if not first:  # SAVEPOINT and RELEASE ride with the next statements' trips
                group.driver.run_later(f"SAVEPOINT {_SAVEPOINT}")
            try:
                yield group.connection
                if group.driver.deferred_rows and not (first and self._queued == 0):
                    # Rows still waiting for a trip (``sqlite_driver.LATER``): written now,
                    # so that their error is this member's, not the next one's or the
                    # group's. (A lone writer's go with its COMMIT.)
                    await group.connection.exec_driver_sql("SELECT 1")
            except BaseException:
                if first:
                    await group.connection.rollback()  # nobody else's changes in it
                elif _alive(group):
                    await group.driver.rollback_to(_SAVEPOINT)
                raise
            if not first:
                group.driver.run_later(f"RELEASE {_SAVEPOINT}")
            raised = False
        finally:
            # Commit when nobody waits to join (or the group is full); a member whose error
            # ended the transaction ends the group at once.
            if group is not None and (
                self._queued == 0 or group.members >= self._most or not _alive(group)
            ):
                await self._end(group)
            self._turn.release()
            if group is not None:
                ended = asyncio.shield(group.done)
                if raised:
                    with contextlib.suppress(Exception):
                        await ended
                else:
                    await ended

    async def _end(self, group: _Group) -> None:
        """Close the group to new members and commit it. Shielded: a member cancelled here
        must not leave the others told of a COMMIT that did or did not happen."""
        if self._group is group:
            self._group = None
        if group.members == 1:  # nobody else to tell: as a lone transaction always did
            await self._commit(group)
            return
        task = asyncio.get_running_loop().create_task(self._commit(group))
        self._ending.add(task)
        task.add_done_callback(self._ending.discard)
        await asyncio.shield(task)

    async def _commit(self, group: _Group) -> None:
        """Commit the group, and keep its connection for the next one if all went well."""
        if await _commit(group) and self._idle is None and not group.connection.invalidated:
            self._idle = group.connection
            return
        with contextlib.suppress(Exception):
            await group.connection.close()

    async def close(self) -> None:
        """Give the kept connection back (before the engine is disposed of)."""
        idle, self._idle = self._idle, None
        if idle is not None:
            await idle.close()

    def _end_idle_later(self) -> None:
        """A writer that stopped waiting for its turn may have been the one the open group
        counted on to end it: if nobody else will, end it now."""
        if self._group is None or self._queued or self._turn.locked():
            return
        task = asyncio.get_running_loop().create_task(self._end_idle())
        self._ending.add(task)
        task.add_done_callback(self._ending.discard)

    async def _end_idle(self) -> None:
        async with self._turn:
            group = self._group
            if group is not None and self._queued == 0:
                await self._end(group)


async def _open(engine: AsyncEngine, idle: AsyncConnection | None) -> _Group:
    """A group on ``idle`` (a connection out of any transaction), else on a new one."""
    connection = await engine.connect() if idle is None else idle
    try:
        assert connection.sync_connection is not None
        driver = connection.sync_connection.connection.driver_connection
        assert isinstance(driver, OneTripConnection)
        # The write lock when the transaction begins (with its first statement), so that
        # another process's writer is waited for, not met half-way; SQLAlchemy's begin keeps it.
        driver.begin_later("BEGIN IMMEDIATE")
        await connection.begin()
    except BaseException:
        await connection.close()
        raise
    return _Group(connection, driver)


def _alive(group: _Group) -> bool:
    """Is the group's transaction still open, in SQLAlchemy's view and in SQLite's? Some
    errors (a full disk, an I/O error) make SQLite roll the whole transaction back: the
    next member's statements would then each commit on their own."""
    connection = group.connection
    if connection.invalidated or not connection.in_transaction():
        return False
    return group.driver.in_transaction


async def _commit(group: _Group) -> bool:
    """End the group's transaction with its COMMIT (True) or, failing that, rolled back."""
    try:
        if not _alive(group):
            raise GroupFailed("a member's error ended the group's transaction")
        await group.connection.commit()
    except BaseException as error:
        group.done.set_exception(error)
        with contextlib.suppress(Exception):
            await group.connection.rollback()
        return False
    group.done.set_result(None)
    return True
