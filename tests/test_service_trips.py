"""A SQLite statement is one trip to aiosqlite's thread, and BEGIN none (issue 21).

SQLAlchemy's adapter made four of each statement (open a cursor, execute, fetch, close);
each trip waits for the scheduler on a busy machine, and a command's dozen and a half cost
it several times what SQLite itself did. ``store.sqlite_driver`` runs each statement in one,
and a transaction's BEGIN in the same trip as its first statement.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from vahalite_bot.app import GameService, autoplay
from vahalite_bot.rules.actions import Move
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


async def _move_trips(tmp_path: Path, trips: list[str], *, keyed: bool = False) -> list[int]:
    """The trips of each of 30 moves of one game, one at a time (``keyed``: each with an
    idempotency key and its expected version, as the bot sends them)."""
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'trips.db'}")
    try:
        service = GameService(db, seeds=lambda: bytes(32))
        rng = random.Random(5)
        outcome = await autoplay.new_game(service, "trips")
        counts = []
        for number in range(30):
            if not keyed:
                trips.clear()
                outcome = await autoplay.play(service, outcome, rng, max_commands=1)
                counts.append(len(trips))
                continue
            assert outcome.state is not None
            side = autoplay.acting_side(outcome.state)
            assert side is not None
            action = autoplay._PLAYER.choose(outcome.state, rng)
            trips.clear()
            outcome = await service.act(
                outcome.game_id,
                autoplay.PLAYERS[side],
                action,
                expected_version=outcome.version,
                key=f"key-{number}",
            )
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


async def test_a_keyed_move_does_not_look_its_key_up(tmp_path: Path, trips: list[str]) -> None:
    """Every command of the bot carries an idempotency key: its row is written in the trip of
    the game's update, and not looked up first (a duplicate's row collides with it there,
    and its retry looks the key up: ``tests/test_service_keys.py``)."""
    counts = await _move_trips(tmp_path, trips, keyed=True)
    # Before: the key's lookup, the update (the log rows and the key's row with it), and
    # the commit; a new turn's deadline adds one.
    assert sorted(counts)[len(counts) // 2] <= 2, counts
    assert max(counts) <= 3, counts


async def test_queued_keyed_moves_make_one_trip_each_and_share_the_commit(
    tmp_path: Path, trips: list[str]
) -> None:
    """Writers queued together share a transaction (``store/group.py``): each keyed move of
    the group is its update's trip, with its log rows, key row and savepoint riding in it."""
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'trips.db'}")
    try:
        service = GameService(db, seeds=lambda: bytes(32))
        rng = random.Random(7)
        outcomes = [
            await autoplay.play(
                service, await autoplay.new_game(service, f"trips-{n}"), rng, until=autoplay.playing
            )
            for n in range(4)
        ]
        # Moves of one player each, none ending a turn: no deadline's trip.
        plays = []
        for outcome in outcomes:
            assert outcome.state is not None
            side = autoplay.acting_side(outcome.state)
            assert side is not None
            choices = [
                a
                for a in (autoplay._PLAYER.choose(outcome.state, rng) for _ in range(20))
                if isinstance(a, Move)
            ]
            plays.append((outcome, autoplay.PLAYERS[side], choices[0]))
        trips.clear()
        await asyncio.gather(
            *(
                service.act(o.game_id, actor, action, expected_version=o.version, key="k")
                for o, actor, action in plays
            )
        )
        made = list(trips)
    finally:
        await db.close()
    # Before: 3 a move (the key's lookup, the update, the rows left for the next trip) and
    # the commit.
    assert len(made) <= len(plays) + 1, made
