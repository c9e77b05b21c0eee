"""One bot process per SQLite file. Two processes on one file would both serve the same
servers' games and both run the deadline loop, and SQLite has no ``SKIP LOCKED`` to share
that work: the second process is refused at start. Several processes want PostgreSQL.

The lock is an OS file lock (``flock``) beside the database: it goes with the process,
however it ends, so a crashed bot never leaves a stale lock behind.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from sqlalchemy.engine import make_url


class AlreadyRunning(RuntimeError):
    """Another bot process holds this SQLite file."""


def sqlite_file(database_url: str) -> Path | None:
    """The file of a SQLite URL; None for another database or an in-memory one."""
    url = make_url(database_url)
    name = url.database or ""
    if url.get_backend_name() != "sqlite" or name in ("", ":memory:") or name.startswith("file:"):
        return None
    return Path(name)


def hold(database_url: str) -> int | None:
    """Lock the SQLite file for this process (the descriptor to keep open), or raise."""
    path = sqlite_file(database_url)
    if path is None:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = path.with_name(path.name + ".bot-lock")
    descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise AlreadyRunning(str(path)) from None
    os.ftruncate(descriptor, 0)
    os.write(descriptor, str(os.getpid()).encode())
    return descriptor
