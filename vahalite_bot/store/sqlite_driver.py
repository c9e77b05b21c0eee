"""aiosqlite with one trip to its thread per statement, not four.

aiosqlite runs every call on the connection's own thread, and SQLAlchemy's adapter makes
four calls of each statement: open a cursor, execute, fetch the rows, close the cursor.
Each call is a hand-over between the event loop and that thread, which on a busy machine
waits for the scheduler; with a dozen statements and the commit, the hand-overs cost a
command several times what SQLite itself does. Here a cursor runs the four on the thread
in one call and keeps the result, so each statement (and the commit) is one hand-over.
A BEGIN makes no trip of its own either: it runs on the thread just before the
transaction's first statement, in the same hand-over (a transaction that runs no statement
never began); nor do a SAVEPOINT and its RELEASE (a group commit's members, ``group.py``,
``run_later``), which go with the next statement or the COMMIT. Nor does an INSERT whose
SQL says ``/* later */`` (``LATER``: the log's and snapshots' rows, written before the
statement whose answer is needed, so that its error is still the same command's). The SQL,
the transaction and the connection are exactly aiosqlite's.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

import aiosqlite
from sqlalchemy.dialects.sqlite.aiosqlite import SQLiteDialect_aiosqlite
from sqlalchemy.engine import URL

Row = Any
Outcome = tuple[Any, int, int | None, list[Row]]  # description, rowcount, lastrowid, rows
# A statement waiting for the next trip: its SQL, its parameters, and whether it is many.
Pending = tuple[str, Any, bool]
# The prefix (``insert(...).prefix_with(LATER)``) of an INSERT whose result nobody reads.
LATER = "/* later */"


def _run_pending(conn: sqlite3.Connection, pending: tuple[Pending, ...]) -> None:
    for sql, parameters, many in pending:
        if many:
            conn.executemany(sql, parameters)
        else:
            conn.execute(sql, parameters)


def _run(
    conn: sqlite3.Connection, pending: tuple[Pending, ...], sql: str, parameters: Any, many: bool
) -> Outcome:
    _run_pending(conn, pending)
    cursor = conn.cursor()
    try:
        if many:
            cursor.executemany(sql, parameters)
        else:
            cursor.execute(sql, parameters)
        rows = cursor.fetchall() if cursor.description else []
        return cursor.description, cursor.rowcount, cursor.lastrowid, rows
    finally:
        cursor.close()


class OneTripCursor:
    """What SQLAlchemy's adapter asks of an aiosqlite cursor, each statement in one call."""

    arraysize = 1

    def __init__(self, connection: OneTripConnection) -> None:
        self._connection = connection
        self.description: Any = None
        self.rowcount = -1
        self.lastrowid: int | None = None
        self._rows: list[Row] = []

    async def __aenter__(self) -> OneTripCursor:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def execute(self, sql: str, parameters: Sequence[Any] | None = None) -> OneTripCursor:
        if _is_begin(sql) and not parameters:
            self._connection.begin_later(sql)
            self.description, self.rowcount, self.lastrowid, self._rows = None, -1, None, []
            return self
        if (_is_savepoint(sql) and not parameters) or _is_later(sql):
            self._connection.defer(sql, () if parameters is None else parameters, many=False)
            self.description, self.rowcount, self.lastrowid, self._rows = None, -1, None, []
            return self
        return await self._call(sql, () if parameters is None else parameters, many=False)

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> OneTripCursor:
        if _is_later(sql):
            self._connection.defer(sql, list(parameters), many=True)
            self.description, self.rowcount, self.lastrowid, self._rows = None, -1, None, []
            return self
        return await self._call(sql, list(parameters), many=True)

    async def _call(self, sql: str, parameters: Any, many: bool) -> OneTripCursor:
        connection = self._connection
        pending = connection.take_pending()

        def run() -> Outcome:
            return _run(connection._conn, pending, sql, parameters, many)

        outcome: Outcome = await connection._execute(run)  # type: ignore[no-untyped-call]
        self.description, self.rowcount, self.lastrowid, self._rows = outcome
        return self

    async def fetchall(self) -> list[Row]:
        rows, self._rows = self._rows, []
        return rows

    async def fetchmany(self, size: int | None = None) -> list[Row]:
        count = self.arraysize if size is None else size
        rows, self._rows = self._rows[:count], self._rows[count:]
        return rows

    async def fetchone(self) -> Row | None:
        return self._rows.pop(0) if self._rows else None

    async def close(self) -> None:
        self._rows = []


class OneTripConnection(aiosqlite.Connection):
    # Statements not yet run, that go with the next statement: a BEGIN (always first), and
    # SAVEPOINTs and RELEASEs, which return nothing and cannot fail once the BEGIN has run.
    _pending: tuple[Pending, ...] = ()
    _begun_later = False  # the first pending statement is a BEGIN
    deferred_rows = False  # a pending statement writes rows (not only a SAVEPOINT or RELEASE)

    def cursor(self) -> OneTripCursor:  # type: ignore[override]
        return OneTripCursor(self)

    def begin_later(self, sql: str) -> None:
        if self.in_transaction:
            raise sqlite3.OperationalError("cannot start a transaction within a transaction")
        self._pending = ((sql, (), False),)
        self._begun_later = True

    def begin_deferred(self) -> None:
        """A BEGIN (DEFERRED) with the next statement, unless the caller chose another for
        this transaction (``begin_later`` before SQLAlchemy's begin)."""
        if not self._begun_later:
            self.begin_later("BEGIN DEFERRED")

    def run_later(self, sql: str) -> None:
        """A SAVEPOINT or RELEASE: with the next statement's trip."""
        self._pending = (*self._pending, (sql, (), False))

    def defer(self, sql: str, parameters: Any, many: bool) -> None:
        self._pending = (*self._pending, (sql, parameters, many))
        self.deferred_rows = self.deferred_rows or not _is_savepoint(sql)

    def take_pending(self) -> tuple[Pending, ...]:
        pending = self._pending
        self._pending, self._begun_later, self.deferred_rows = (), False, False
        return pending

    @property
    def in_transaction(self) -> bool:
        # A BEGIN waiting for its statement counts: the pool's reset then rolls it back
        # (which drops it) rather than leave it to the connection's next user.
        return self._begun_later or super().in_transaction

    async def commit(self) -> None:
        begun_later, rows = self._begun_later, self.deferred_rows
        pending = self.take_pending()
        if begun_later and not rows:
            return  # nothing ran: there is nothing to commit
        if not pending:
            await super().commit()
            return
        conn = self._conn

        def commit() -> None:
            _run_pending(conn, pending)
            conn.commit()

        await self._execute(commit)  # type: ignore[no-untyped-call]

    async def rollback_to(self, savepoint: str) -> None:
        """Take back what ran since ``savepoint`` (and end it), the transaction left open."""
        # Rows not yet written need not be; a SAVEPOINT not yet made must be.
        pending = tuple(p for p in self.take_pending() if _is_savepoint(p[0]))
        conn = self._conn

        def rollback_to() -> None:
            _run_pending(conn, pending)
            conn.execute(f"ROLLBACK TO {savepoint}")
            conn.execute(f"RELEASE {savepoint}")

        await self._execute(rollback_to)  # type: ignore[no-untyped-call]

    async def rollback(self) -> None:
        begun_later = self._begun_later
        self.take_pending()  # a SAVEPOINT or RELEASE the rollback takes back anyway
        if not begun_later:
            await super().rollback()


def begin(dbapi_connection: Any) -> None:
    """The dialect's ``do_begin`` for an engine of these connections (``database.py``):
    SQLAlchemy begins a transaction here, and the BEGIN rides with its first statement."""
    driver = dbapi_connection.driver_connection
    assert isinstance(driver, OneTripConnection)
    driver.begin_deferred()


def _is_begin(sql: str) -> bool:
    return sql[:5].upper() == "BEGIN"


def _is_later(sql: str) -> bool:
    return sql[7:18] == LATER  # INSERT /* later */ INTO …


def _is_savepoint(sql: str) -> bool:
    # SAVEPOINT x and RELEASE SAVEPOINT x; not ROLLBACK TO SAVEPOINT x, which runs at once.
    head = sql[:9].upper()
    return head == "SAVEPOINT" or head[:7] == "RELEASE"


def connector(url: URL) -> Callable[[], Awaitable[aiosqlite.Connection]]:
    """An ``async_creator`` for ``create_async_engine``: the connection aiosqlite would open
    for ``url`` (the dialect's own arguments), with one-trip cursors."""
    args, kwargs = SQLiteDialect_aiosqlite().create_connect_args(url)

    def open_file() -> sqlite3.Connection:
        connect_file: Callable[..., sqlite3.Connection] = sqlite3.connect
        return connect_file(*args, **kwargs)

    async def connect() -> aiosqlite.Connection:
        connection = OneTripConnection(open_file, 64)
        connection._thread.daemon = True  # as SQLAlchemy's own dialect does
        return await connection

    return connect
