"""Two processes, each on its own connection, send conflicting commands to one game at the
same moment, many times over: exactly one of each pair applies (SQLite and PostgreSQL).

Pairs: both players (one ends the turn, the other resigns, both on the version they saw;
both resign), the player and the referee (end the turn / set a unit's HP), and one player
twice (a double click on "end turn" from two bot processes).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Barrier
from typing import Any

from tests.conftest import REFEREE, Clock, Games, clone_game
from vahalite_bot.app import Actor, GameService, ServiceError, autoplay
from vahalite_bot.rules.actions import EndTurn, Resign
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.store.database import open_database

ROUNDS_PER_PAIR = 25


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


def test_exactly_one_of_each_conflicting_pair_applies(db_url: str, channel: str) -> None:
    games = asyncio.run(_prepare(db_url, channel, ROUNDS_PER_PAIR * len(PAIRS)))
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(2)
    pipes = [context.Pipe() for _ in range(2)]
    workers = [
        context.Process(target=_worker, args=(db_url, child, barrier), daemon=True)
        for _, child in pipes
    ]
    for worker in workers:
        worker.start()
    try:
        outcomes: Counter[str] = Counter()
        for number, (game_id, version, on) in enumerate(games):
            pair = PAIRS[number % len(PAIRS)]
            commands = (pair.first(on), pair.second(on))
            for (parent, _), command in zip(pipes, commands, strict=True):
                expected = version if command.versioned else None
                parent.send((command.method, game_id, command.actor, command.args, expected))
            replies = [parent.recv() for parent, _ in pipes]
            applied = [r for r in replies if r[0] == "ok"]
            assert len(applied) == 1, f"{pair.name}: {replies}"
            refused = next(r for r in replies if r[0] != "ok")
            outcomes[f"{pair.name}: {refused[1]} {refused[2]}"] += 1
    finally:
        for parent, _ in pipes:
            parent.send(None)
        retries = [parent.recv() for parent, _ in pipes]
        for worker in workers:
            worker.join(timeout=30)
    if db_url.startswith("postgresql"):
        # The two really raced: the loser had read the same version, lost at the write
        # and ran again on the fresh state (SQLite queues writers before they read).
        assert sum(retries) > 0
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


def _worker(url: str, pipe: Connection, barrier: Barrier) -> None:
    """A second bot process: its own engine and connections; fires when the other does."""

    async def serve() -> None:
        db = await open_database(url, upgrade=False)
        service = GameService(db)
        try:
            while (request := pipe.recv()) is not None:
                method, game_id, actor, args, expected = request
                barrier.wait()
                try:
                    call = getattr(service, method)
                    outcome = await call(game_id, actor, *args, expected_version=expected)
                    pipe.send(("ok", outcome.version, ""))
                except (ServiceError, IllegalAction) as error:
                    pipe.send((type(error).__name__, error.code, error.params))
            pipe.send(service.retries)
        finally:
            await db.close()

    asyncio.run(serve())
