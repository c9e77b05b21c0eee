"""aiosqlite with one trip to its thread per statement, not four.

aiosqlite runs every call on the connection's own thread, and SQLAlchemy's adapter makes
four calls of each statement: open a cursor, execute, fetch the rows, close the cursor.
Each call is a hand-over between the event loop and that thread, which on a busy machine
waits for the scheduler; with a dozen statements and the commit, the hand-overs cost a
command several times what SQLite itself does. Here a cursor runs the four on the thread
in one call and keeps the result, so each statement (and the commit) is one hand-over.
A BEGIN makes no trip of its own either: it runs on the thread just before the
transaction's first statement, in the same hand-over (a transaction that runs no statement
never began). The SQL, the transaction and the connection are exactly aiosqlite's.
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


def _run(
    conn: sqlite3.Connection, begin: str | None, sql: str, parameters: Any, many: bool
) -> Outcome:
    if begin is not None:
        conn.execute(begin)
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
        return await self._call(sql, () if parameters is None else parameters, many=False)

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> OneTripCursor:
        return await self._call(sql, list(parameters), many=True)

    async def _call(self, sql: str, parameters: Any, many: bool) -> OneTripCursor:
        connection = self._connection
        begin = connection.take_begin()

        def run() -> Outcome:
            return _run(connection._conn, begin, sql, parameters, many)

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
    _begin: str | None = None  # a BEGIN not yet run: it goes with the next statement

    def cursor(self) -> OneTripCursor:  # type: ignore[override]
        return OneTripCursor(self)

    def begin_later(self, sql: str) -> None:
        if self.in_transaction:
            raise sqlite3.OperationalError("cannot start a transaction within a transaction")
        self._begin = sql

    def take_begin(self) -> str | None:
        begin, self._begin = self._begin, None
        return begin

    @property
    def in_transaction(self) -> bool:
        # A BEGIN waiting for its statement counts: the pool's reset then rolls it back
        # (which drops it) rather than leave it to the connection's next user.
        return self._begin is not None or super().in_transaction

    async def commit(self) -> None:
        if self.take_begin() is None:  # else nothing ran: there is nothing to commit
            await super().commit()

    async def rollback(self) -> None:
        if self.take_begin() is None:
            await super().rollback()


def _is_begin(sql: str) -> bool:
    return sql[:5].upper() == "BEGIN"


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
