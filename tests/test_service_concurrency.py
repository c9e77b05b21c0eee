"""Two processes, each on its own connection, send conflicting commands to one game at the
same moment, many times over: exactly one of each pair applies (SQLite and PostgreSQL).
Whatever a worker raises fails the test with its traceback (tests/processes.py).

Pairs: both players (one ends the turn, the other resigns, both on the version they saw;
both resign), the player and the referee (end the turn / set a unit's HP), and one player
twice (a double click on "end turn" from two bot processes).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests import processes
from tests.conftest import REFEREE, Clock, Games, clone_game
from tests.processes import WorkerFailed, Workers
from vahalite_bot.app import Actor, GameService, autoplay
from vahalite_bot.rules.actions import EndTurn, Resign
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.store.database import open_database

ROUNDS_PER_PAIR = 25
# make test races each pair a few times; the soak run races it ROUNDS_PER_PAIR times, enough
# that on PostgreSQL some loser must have lost at the write and run again.
QUICK_ROUNDS = 5


@dataclass(frozen=True)
class Command:
    method: str
    actor: Actor
    args: tuple[Any, ...]
    versioned: bool  # sent with the version the sender saw


@dataclass(frozen=True)
class Pair:
    name: str
    first: Callable[[Side], Command]
    second: Callable[[Side], Command]
    # Which log records may show up, one of them exactly once.
    records: Callable[[Side], tuple[Any, ...]]


def player(side: Side) -> Actor:
    return autoplay.PLAYERS[side]


PAIRS = [
    Pair(
        "end turn / opponent resigns",
        lambda on: Command("end_turn", player(on), (), True),
        lambda on: Command("resign", player(on.other), (), True),
        lambda on: (EndTurn(on), Resign(on.other)),
    ),
    Pair(
        "both resign",
        lambda on: Command("resign", player(on), (), False),
        lambda on: Command("resign", player(on.other), (), False),
        lambda on: (Resign(on), Resign(on.other)),
    ),
    Pair(
        "end turn / referee sets HP",
        lambda on: Command("end_turn", player(on), (), True),
        lambda on: Command("ref_set_hp", REFEREE, ("cap1", 2), True),
        lambda on: (EndTurn(on), "SetHP"),
    ),
    Pair(
        "end turn twice",
        lambda on: Command("end_turn", player(on), (), False),
        lambda on: Command("end_turn", player(on), (), False),
        lambda on: (EndTurn(on),),
    ),
]


@pytest.mark.parametrize(
    "rounds",
    [
        pytest.param(QUICK_ROUNDS, id="quick"),
        pytest.param(ROUNDS_PER_PAIR, id="soak", marks=pytest.mark.soak),
    ],
)
def test_exactly_one_of_each_conflicting_pair_applies(
    db_url: str, channel: str, rounds: int
) -> None:
    games = asyncio.run(_prepare(db_url, channel, rounds * len(PAIRS)))
    outcomes: Counter[str] = Counter()
    with Workers(db_url) as workers:
        for number, (game_id, version, on) in enumerate(games):
            pair = PAIRS[number % len(PAIRS)]
            jobs = []
            for command in (pair.first(on), pair.second(on)):
                expected = version if command.versioned else None
                arguments = (game_id, command.actor, *command.args)
                jobs.append(
                    (processes.command, (command.method, arguments, {"expected_version": expected}))
                )
            replies = workers.run(jobs)
            assert len({r.pid for r in replies} | {os.getpid()}) == 3  # two other processes
            applied = [r for r in replies if r.ok]
            assert len(applied) == 1, f"{pair.name}: {replies}"
            refused = next(r for r in replies if not r.ok)
            outcomes[f"{pair.name}: {refused.error} {refused.code}"] += 1
    if db_url.startswith("postgresql") and rounds == ROUNDS_PER_PAIR:
        # The two really raced: the loser had read the same version, lost at the write
        # and ran again on the fresh state (SQLite queues writers before they read).
        assert sum(workers.retries) > 0
    # Each pair was decided, sometimes one way and sometimes the other is fine; but every
    # refusal is the clean one: a stale version, or the rules saying it is no longer legal.
    logs = asyncio.run(_new_records(db_url, [(g, v) for g, v, _ in games]))
    for number, ((_, _, on), found) in enumerate(zip(games, logs, strict=True)):
        pair = PAIRS[number % len(PAIRS)]
        wanted = pair.records(on)
        matching = [r for r in found if r in wanted or type(r).__name__ in wanted]
        assert len(matching) == 1, f"{pair.name}: the log has {found}"
    for key in outcomes:
        assert any(code in key for code in ("stale", "game_over", "not_your_turn")), outcomes


def test_a_worker_that_raises_fails_the_test_instead_of_hanging(sqlite_url: str) -> None:
    """Any exception in a worker comes back with its traceback; a dead worker is named."""
    started = time.monotonic()
    with Workers(sqlite_url) as workers:
        with pytest.raises(WorkerFailed) as failed:
            workers.run([(processes.explode, ("boom 1",)), (processes.explode, ("boom 2",))])
        assert "RuntimeError: boom 1" in str(failed.value)
        # An unknown method is not a refusal: it fails the run too, with the worker's story.
        with pytest.raises(WorkerFailed) as unknown:
            workers.run(
                [
                    (processes.command, ("no_such_command", (1,), {})),
                    (processes.command, ("no_such_command", (2,), {})),
                ]
            )
        assert "AttributeError" in str(unknown.value)
        workers.processes[1].kill()  # a worker that dies (our own, by its handle)
        with pytest.raises(WorkerFailed, match="worker 1 died"):
            workers.run([(processes.explode, ("x",)), (processes.explode, ("y",))])
    assert time.monotonic() - started < 60


async def _prepare(url: str, channel: str, count: int) -> list[tuple[int, int, Side]]:
    """``count`` copies of one game at the start of round 1: (id, version, side on turn)."""
    db = await open_database(url, upgrade=False)
    try:
        service = GameService(db, scenarios={"standard": STANDARD, "skirmish": autoplay.SKIRMISH})
        template = await Games(service, channel, Clock()).playing()
        assert template.turn_side is not None
        made = []
        for number in range(count):
            game_id = await clone_game(db, template.game_id, f"{channel}-copy-{number}")
            made.append((game_id, template.version, template.turn_side))
        return made
    finally:
        await db.close()


async def _new_records(url: str, games: list[tuple[int, int]]) -> list[list[Any]]:
    """What each game's log gained after ``version``."""
    db = await open_database(url, upgrade=False)
    try:
        service = GameService(db)
        return [
            [line.record for line in await service.game_log(game_id, since=version)]
            for game_id, version in games
        ]
    finally:
        await db.close()
