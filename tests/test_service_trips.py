"""A SQLite statement is one trip to aiosqlite's thread, and BEGIN none (issue 21).

SQLAlchemy's adapter made four of each statement (open a cursor, execute, fetch, close);
each trip waits for the scheduler on a busy machine, and a command's dozen and a half cost
it several times what SQLite itself did. ``store.sqlite_driver`` runs each statement in one,
and a transaction's BEGIN in the same trip as its first statement.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from vahalite_bot.app import GameService, autoplay
from vahalite_bot.store.database import open_database
from vahalite_bot.store.sqlite_driver import OneTripConnection


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every call made on the SQLite connections' threads, by name."""
    made: list[str] = []
    run = OneTripConnection._execute

    async def counted(self: OneTripConnection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        made.append(getattr(fn, "__name__", repr(fn)))
        return await run(self, fn, *args, **kwargs)

    monkeypatch.setattr(OneTripConnection, "_execute", counted)
    yield made


async def test_a_read_is_two_trips_begin_with_select_and_end(
    tmp_path: Path, trips: list[str]
) -> None:
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'trips.db'}")
    try:
        async with db.read() as session:
            trips.clear()
            rows = (await session.execute(text("SELECT 1 UNION SELECT 2"))).all()
        assert [tuple(r) for r in rows] == [(1,), (2,)]
        # Before: 8 (BEGIN and SELECT each opened a cursor), then 3 (BEGIN its own trip).
        assert len(trips) == 2, trips
    finally:
        await db.close()


async def _move_trips(tmp_path: Path, trips: list[str]) -> list[int]:
    """The trips of each of 30 moves of one game, one at a time."""
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'trips.db'}")
    try:
        service = GameService(db, seeds=lambda: bytes(32))
        rng = random.Random(5)
        outcome = await autoplay.new_game(service, "trips")
        counts = []
        for _ in range(30):
            trips.clear()
            outcome = await autoplay.play(service, outcome, rng, max_commands=1)
            counts.append(len(trips))
        return counts
    finally:
        await db.close()


async def test_a_move_in_play_costs_a_handful_of_trips(tmp_path: Path, trips: list[str]) -> None:
    counts = await _move_trips(tmp_path, trips)
    # The game's update (with the BEGIN), the log entry, the commit: the game's row is
    # not read while the service holds its latest version. A new turn adds its snapshot
    # and deadline. Before: 16 to 17 on average, then 6 (BEGIN and the row each a trip).
    assert sorted(counts)[len(counts) // 2] <= 3, counts
    assert max(counts) <= 5, counts


async def test_a_moves_log_rows_ride_with_the_games_update(
    tmp_path: Path, trips: list[str]
) -> None:
    """The log entry (and a new turn's snapshot) are written in the trip of the game's
    update (``sqlite_driver.LATER``): a move is that trip and the COMMIT."""
    counts = await _move_trips(tmp_path, trips)
    # Before: 3 (the update, the log entry, the commit); a new turn's deadline adds one.
    assert sorted(counts)[len(counts) // 2] <= 2, counts
    assert max(counts) <= 3, counts
