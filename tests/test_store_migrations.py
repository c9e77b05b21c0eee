"""Alembic owns the schema: the models and the migrations agree, and both directions work."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from vahalite_bot.store import migrate
from vahalite_bot.store.database import open_database
from vahalite_bot.store.models import Base


def _differences(connection: Connection) -> list[object]:
    context = MigrationContext.configure(
        connection, opts={"compare_type": True, "compare_server_default": True}
    )
    return list(compare_metadata(context, Base.metadata))


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


async def test_open_creates_and_migrates_a_fresh_database(empty_db_url: str) -> None:
    db = await open_database(empty_db_url)
    try:
        assert await migrate.current_revision(db.engine) == migrate.head_revision()
        async with db.engine.connect() as conn:
            tables = await conn.run_sync(_tables)
        assert set(Base.metadata.tables) <= tables
    finally:
        await db.close()


async def test_models_and_migrations_agree(empty_db_url: str) -> None:
    """Autogenerate against a database migrated to head finds nothing to add or change."""
    db = await open_database(empty_db_url)
    try:
        async with db.engine.connect() as conn:
            assert await conn.run_sync(_differences) == []
    finally:
        await db.close()


async def test_downgrade_to_base_then_upgrade_again(empty_db_url: str) -> None:
    db = await open_database(empty_db_url)
    try:
        await migrate.downgrade(db.engine, "base")
        assert await migrate.current_revision(db.engine) is None
        async with db.engine.connect() as conn:
            assert await conn.run_sync(_tables) & set(Base.metadata.tables) == set()
        await migrate.upgrade(db.engine)
        assert await migrate.current_revision(db.engine) == migrate.head_revision()
        async with db.engine.connect() as conn:
            assert await conn.run_sync(_differences) == []
    finally:
        await db.close()


async def test_opening_twice_is_harmless(empty_db_url: str) -> None:
    """The app upgrades at every start: at head, that changes nothing."""
    first = await open_database(empty_db_url)
    await first.close()
    second = await open_database(empty_db_url)
    try:
        assert await migrate.current_revision(second.engine) == migrate.head_revision()
    finally:
        await second.close()


async def test_sqlite_file_and_folder_are_created_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "data" / "deeper" / "bot.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}")
    try:
        assert path.exists()
        async with db.read() as session:
            mode = (await session.execute(text("PRAGMA journal_mode"))).scalar_one()
            keys = (await session.execute(text("PRAGMA foreign_keys"))).scalar_one()
        assert (mode, keys) == ("wal", 1)
    finally:
        await db.close()
