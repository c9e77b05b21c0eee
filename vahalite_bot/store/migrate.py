"""Alembic, run from the application: the schema is upgraded to head at start-up.

The migration scripts live in ``migrations/`` at the repository root (``alembic.ini`` there
points at them too, for ``alembic revision --autogenerate`` while developing); a wheel
installs the same folder as ``vahalite_bot/migrations`` (setup.py maps it).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine


def find_migrations(package: Path | None = None) -> Path:
    """The migration scripts: inside the installed package (a wheel), or at the root of
    the checkout the package is in (a source tree or an editable install)."""
    root = Path(__file__).resolve().parents[1] if package is None else package
    candidates = (root / "migrations", root.parent / "migrations")
    for candidate in candidates:
        if (candidate / "env.py").is_file():
            return candidate
    raise FileNotFoundError(f"no Alembic migrations in {' or '.join(map(str, candidates))}")


MIGRATIONS = find_migrations()

# Two bot processes starting at once must not both create the tables (PostgreSQL).
_PG_LOCK_KEY = 0x7A4A11E


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@cache
def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    await _migrate(engine, "upgrade", revision)


async def downgrade(engine: AsyncEngine, revision: str = "base") -> None:
    await _migrate(engine, "downgrade", revision)


async def _migrate(engine: AsyncEngine, action: str, revision: str) -> None:
    """Run the migrations in one transaction. On SQLite, with foreign keys off meanwhile:
    a batch migration rebuilds a table (copy, drop, rename), and dropping ``games`` with
    them on would cascade into every game's players, log and snapshots (Alembic's
    documentation asks for this). They are checked after the commit instead."""
    async with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            await conn.run_sync(_foreign_keys, False)
        try:
            async with conn.begin():
                await conn.run_sync(_run, action, revision)
            if sqlite:
                await conn.run_sync(_check_foreign_keys)
        finally:
            if sqlite:
                await conn.run_sync(_foreign_keys, True)


def _foreign_keys(connection: Connection, on: bool) -> None:
    # On the driver's connection, outside any transaction: SQLite ignores the pragma inside
    # one, and SQLAlchemy would begin one for a statement of its own.
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")
    finally:
        cursor.close()


def _check_foreign_keys(connection: Connection) -> None:
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute("PRAGMA foreign_key_check")
        broken = cursor.fetchall()
    finally:
        cursor.close()
    if broken:
        raise RuntimeError(f"the migration left rows without their game: {broken[:5]}")


async def current_revision(engine: AsyncEngine) -> str | None:
    async with engine.connect() as conn:
        return await conn.run_sync(_current)


def _current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def _run(connection: Connection, action: str, revision: str) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})
    if action == "upgrade" and revision == "head" and _current(connection) == head_revision():
        return  # already at head: skip loading the migration environment
    config = alembic_config()
    config.attributes["connection"] = connection
    if action == "upgrade":
        command.upgrade(config, revision)
    else:
        command.downgrade(config, revision)
