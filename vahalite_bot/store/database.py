"""The database: one engine and session factory per process, migrated to head when opened.

SQLite (the default, a file under ``data/``) runs in WAL mode; a command's transaction
takes the write lock when it begins (``BEGIN IMMEDIATE``), so two writers queue instead of
failing half-way, and within one process they queue on an asyncio lock rather than on
SQLite's sleeping busy handler, those queued sharing one transaction and its fsync
(``group.py``). PostgreSQL needs none of that: the version number on the
game row settles which of two writers wins (see ``vahalite_bot.app.service``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from sqlalchemy import event, exc
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from vahalite_bot.store import migrate, sqlite_driver
from vahalite_bot.store.group import WriteGroups

DEFAULT_URL = "sqlite+aiosqlite:///data/vahalite.db"
URL_ENV = "VAHALITE_DATABASE_URL"

# How long a SQLite writer waits for another process's write lock before giving up.
SQLITE_BUSY_MS = 10_000
# FULL: a commit survives a power cut too, not only a killed process (NORMAL would do that).
SQLITE_SYNCHRONOUS = "FULL"


class Database:
    """An engine and its session factory; ``write()``/``read()`` are one transaction each."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.url: URL = engine.url
        self.is_sqlite = engine.dialect.name == "sqlite"
        self.is_postgresql = engine.dialect.name == "postgresql"
        # No autoflush: nothing is ever added to a session (every write is a statement), so
        # the check before each statement for pending objects is work for nothing.
        self._writes = async_sessionmaker(engine, expire_on_commit=False, autoflush=False)
        # A read is several statements (the game row, its players, the turn's snapshot, the
        # log after it, the deadline): at PostgreSQL's default READ COMMITTED each statement
        # sees the commits made before it, so a writer committing in between made reads show
        # a board that never existed. REPEATABLE READ gives the whole transaction one
        # snapshot; read-only, it never fails to serialize. SQLite's WAL reader already has
        # one snapshot from its first read to its end.
        reads = (
            engine.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
            if self.is_postgresql
            else engine
        )
        self._reads = async_sessionmaker(reads, expire_on_commit=False, autoflush=False)
        # SQLite's writers are the groups': each group's transaction takes the write lock
        # as it begins (``BEGIN IMMEDIATE``, ``group._open``).
        self._groups = WriteGroups(engine) if self.is_sqlite else None

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """One read-write transaction: committed when the block ends, rolled back if it raises.

        On SQLite, a savepoint of a group's transaction (``group.py``), left only once the
        group is committed: the block's changes are on disk when it returns."""
        if self._groups is None:
            async with self._writes() as session, session.begin():
                yield session
            return
        async with self._groups.member() as connection:
            # The group's transaction is the members' to end (``group.py``): the session
            # only joins it. Nothing is ever added to a session (every write is a
            # statement), so there is nothing to flush at its end either.
            session = AsyncSession(
                connection,
                join_transaction_mode="rollback_only",
                expire_on_commit=False,
                autoflush=False,
            )
            try:
                yield session
            finally:
                # Closing a session that only joined a transaction emits nothing (it ends
                # neither the transaction nor the connection), so it is closed here: the
                # AsyncSession's own exit closes it in a task and a greenlet of their own,
                # a loop iteration more for every command.
                session.sync_session.close()

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """One read-only transaction: one consistent snapshot, never blocking writers."""
        async with self._reads() as session, session.begin():
            yield session

    async def close(self) -> None:
        if self._groups is not None:
            await self._groups.close()
        await self.engine.dispose()


def configured_url(config_url: str | None = None) -> str:
    """The database to use: ``VAHALITE_DATABASE_URL`` if set, else the config's, else the default
    SQLite file. A ``postgresql+asyncpg://`` URL runs the very same code on PostgreSQL."""
    return os.environ.get(URL_ENV) or config_url or DEFAULT_URL


async def open_database(url: str = DEFAULT_URL, *, upgrade: bool = True) -> Database:
    """Connect, creating a SQLite file's folder on first start, and upgrade the schema to head."""
    parsed = make_url(url)
    engine = create_engine(parsed)
    db = Database(engine)
    if upgrade:
        try:
            await migrate.upgrade(write_locking(db.engine))
        except BaseException:
            await db.close()
            raise
    return db


def create_engine(url: URL, **kwargs: Any) -> AsyncEngine:
    if url.get_backend_name() == "sqlite":
        database = url.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        # Returning a connection to the pool would roll it back (a thread hop with aiosqlite,
        # a third of a short command's time): _reset does it only if a transaction is open.
        engine = create_async_engine(
            url,
            pool_reset_on_return=None,
            async_creator=sqlite_driver.connector(url),
            **kwargs,
        )
        _sqlite_setup(engine)
        return engine
    return create_async_engine(url, **kwargs)


def _sqlite_setup(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # SQLAlchemy, not the driver, emits BEGIN (do_begin, below): the driver's legacy mode
        # would not begin a transaction before a SELECT, so reads would not be repeatable.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={SQLITE_SYNCHRONOUS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
        cursor.close()

    @event.listens_for(engine.sync_engine, "reset")
    def _reset(dbapi_connection: Any, _record: Any, _state: Any) -> None:
        if dbapi_connection.driver_connection.in_transaction:
            dbapi_connection.rollback()

    # SQLAlchemy, not the driver, begins a transaction (see _connect), through the dialect's
    # do_begin (a no-op for drivers that begin by themselves) rather than a "begin" event:
    # one listener of the engine's makes SQLAlchemy dispatch its events (before and after
    # the execution, before and after the cursor's) around every statement of every
    # transaction, a tenth of a command's SQLAlchemy time for nothing.
    engine.sync_engine.dialect.do_begin = sqlite_driver.begin  # type: ignore[method-assign]


def write_locking(engine: AsyncEngine) -> AsyncEngine:
    """``engine`` whose transactions take SQLite's write lock as they begin (``BEGIN
    IMMEDIATE``): a writer waits for another process's write to end rather than fail half
    way. (Elsewhere ``engine`` itself.) For a transaction now and then, such as a migration:
    its listener costs every statement on it (see _sqlite_setup); the writers' groups
    begin so by themselves (``group._open``)."""
    if engine.dialect.name != "sqlite":
        return engine
    locking = engine.execution_options()

    @event.listens_for(locking.sync_engine, "begin")
    def _begin(conn: Connection) -> None:
        driver = conn.connection.driver_connection
        assert isinstance(driver, sqlite_driver.OneTripConnection)
        driver.begin_later("BEGIN IMMEDIATE")  # kept by sqlite_driver.begin, which runs next

    return locking


def is_conflict(error: BaseException) -> bool:
    """Did the transaction lose a race with another writer (so that a retry may succeed)?"""
    if isinstance(error, exc.IntegrityError):
        return _is_unique_violation(error)
    if isinstance(error, exc.OperationalError | exc.DBAPIError):
        text = str(error.orig if isinstance(error, exc.DBAPIError) else error).lower()
        return any(
            marker in text
            for marker in (
                "database is locked",  # SQLite: another process held the write lock too long
                "could not serialize access",  # PostgreSQL serialization failure
                "deadlock detected",
            )
        )
    return False


def _is_unique_violation(error: exc.IntegrityError) -> bool:
    text = str(error.orig).lower()
    return "unique" in text or "duplicate key" in text
