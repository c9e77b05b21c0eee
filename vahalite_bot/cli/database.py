"""``vahalite db``: upgrade, current revision, backup and restore.

A SQLite backup uses SQLite's online backup API: it copies a consistent snapshot page by
page while the bot goes on writing (each step takes the read lock briefly; a write between
two steps restarts the copy from a fresh snapshot, so what lands in the file is one moment
of the database: every command committed before that moment, none half-written). Restore
copies the backup back the same way, into a database that no bot process holds (the lock of
``vahalite_bot.discord.lockfile``, kept while restoring, so none starts meanwhile); the
database it replaces is kept beside it first. PostgreSQL has ``pg_dump``/``pg_restore``:
the commands print the line to run.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from vahalite_bot.cli.common import Common
from vahalite_bot.cli.start import load
from vahalite_bot.discord import lockfile
from vahalite_bot.store import migrate
from vahalite_bot.store.database import open_database

# Pages copied per step of the online backup: small steps let the bot write in between.
PAGES_PER_STEP = 1024
EXIT_REFUSED = 2


def url_of(common: Common, url: str | None) -> str:
    """The database named on the command line, else the one the bot would use."""
    _, chosen = load(["--db", url] if url else [], common, prog="vahalite db")
    return chosen.database_url


async def upgrade(url: str) -> int:
    with _holding(url) as refusal:
        if refusal:
            return _refuse(refusal)
        db = await open_database(url)  # migrates to head
        try:
            print(f"at revision {await migrate.current_revision(db.engine)} (head)")
        finally:
            await db.close()
    return 0


async def current(url: str) -> int:
    # A question about the database must not make one (an empty file where the bot's was
    # expected would hide a wrong data directory).
    file = lockfile.sqlite_file(url)
    if file is not None and not file.is_file():
        print(f"no database at {file}: the bot's first start (or `vahalite db upgrade`) makes it")
        return EXIT_REFUSED
    db = await open_database(url, upgrade=False)
    try:
        revision = await migrate.current_revision(db.engine)
    finally:
        await db.close()
    head = migrate.head_revision()
    print(f"database: {revision or 'empty'}; this version: {head}")
    if revision != head:
        print("run `vahalite db upgrade` (or start the bot: it upgrades at start)")
    return 0


def backup(url: str, target: Path) -> int:
    parsed = make_url(url)
    source = lockfile.sqlite_file(url)
    if source is None:
        return _postgres_only(parsed, "backup", target)
    if not source.is_file():
        print(f"no database at {source}", file=sys.stderr)
        return EXIT_REFUSED
    if target.exists():
        print(f"{target} exists: name a new file", file=sys.stderr)
        return EXIT_REFUSED
    target.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    partial = target.with_name(target.name + ".partial")
    _copy(source, partial)
    partial.replace(target)  # a backup file that exists is a whole one
    seconds = time.perf_counter() - started
    print(f"backed up {source} to {target}: {target.stat().st_size} bytes in {seconds:.2f} s")
    return 0


def restore(url: str, backup_file: Path) -> int:
    parsed = make_url(url)
    target = lockfile.sqlite_file(url)
    if target is None:
        return _postgres_only(parsed, "restore", backup_file)
    problem = _check_backup(backup_file)
    if problem:
        print(f"{backup_file} is not a Vaha-Lite backup: {problem}", file=sys.stderr)
        return EXIT_REFUSED
    with _holding(url) as refusal:
        if refusal:
            return _refuse(refusal)
        kept = None
        if target.is_file():
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
            kept = target.with_name(f"{target.name}.before-restore-{stamp}")
            _copy(target, kept)
        started = time.perf_counter()
        _copy(backup_file, target)
        seconds = time.perf_counter() - started
    print(f"restored {target} from {backup_file} in {seconds:.2f} s")
    if kept is not None:
        print(f"the database it replaced is kept as {kept}")
    print("start the bot (or `vahalite db upgrade`): an older backup is migrated at start")
    return 0


def _copy(source: Path, target: Path) -> None:
    """SQLite's online backup: a consistent copy, while others write to ``source``."""
    with (
        contextlib.closing(sqlite3.connect(source)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst, pages=PAGES_PER_STEP)
        # A plain file, whole without a -wal beside it: what an admin copies or stores.
        dst.execute("PRAGMA journal_mode=DELETE")


def _check_backup(path: Path) -> str | None:
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            (verdict,) = conn.execute("PRAGMA quick_check").fetchone()
            if verdict != "ok":
                return str(verdict)
            row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError as error:
        return str(error)
    return None if row else "no schema revision in it"


@contextlib.contextmanager
def _holding(url: str) -> Iterator[str | None]:
    """Hold the bot's lock of a SQLite database for the block (None), or say who holds it."""
    try:
        descriptor = lockfile.hold(url)
    except lockfile.AlreadyRunning as running:
        yield f"a bot process is using {running}: stop it first (systemctl stop vahalite)"
        return
    try:
        yield None
    finally:
        if descriptor is not None:
            os.close(descriptor)


def _refuse(reason: str) -> int:
    print(f"refused: {reason}", file=sys.stderr)
    return EXIT_REFUSED


def _postgres_only(url: URL, action: str, file: Path) -> int:
    """PostgreSQL is backed up by its own tools: the line to run (password left out)."""
    dsn = url.set(drivername="postgresql").render_as_string(hide_password=True)
    dsn = dsn.replace(":***@", "@")
    line = (
        f"pg_dump --format=custom --file {file} '{dsn}'"
        if action == "backup"
        else f"pg_restore --clean --if-exists --no-owner --dbname '{dsn}' {file}"
    )
    print(f"PostgreSQL: run {line}", file=sys.stderr)
    print("(the password from PGPASSWORD or ~/.pgpass; docs/self-hosting.md)", file=sys.stderr)
    return EXIT_REFUSED
