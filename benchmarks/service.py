"""Drive many concurrent games through the GameService (no Discord) and time every command.

    python -m benchmarks.service --games 200 [--db URL]

Each game is created, joined, given both armies (the demo factions' 500-point lists) and
played to its end by random legal actions, all games at once on one event loop. Every
service call is timed from the call to its reply (waiting for the database included). The
last line printed is ``p50_ms=X p99_ms=Y commands_per_s=Z``.

The default database is a fresh SQLite file in a temporary folder; ``--db`` takes any URL
(a PostgreSQL one is used as it is: the benchmark only adds games).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from vahalite_bot.app import GameService, Outcome, autoplay
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase
from vahalite_bot.selfplay.players import RandomPlayer
from vahalite_bot.store import database as store_database
from vahalite_bot.store.database import open_database

T = TypeVar("T")


class Timings:
    def __init__(self) -> None:
        self.ms: list[float] = []

    async def time(self, call: Callable[[], Awaitable[T]]) -> T:
        started = time.perf_counter()
        try:
            return await call()
        finally:
            self.ms.append((time.perf_counter() - started) * 1000)


async def play_one(
    service: GameService, run: str, index: int, seed: int, timings: Timings, think: float
) -> int:
    """One game from creation to its end; returns the commands it took."""
    rng = random.Random(seed * 100_003 + index)
    armies = autoplay.standard_armies()
    south, north = autoplay.SOUTH, autoplay.NORTH
    channel = f"bench-{run}-{index}"
    created = await timings.time(lambda: service.create_game(south, channel))
    game_id = created.game_id
    await timings.time(lambda: service.join(game_id, north))
    await timings.time(lambda: service.submit_army(game_id, south, armies[Side.SOUTH]))
    outcome: Outcome = await timings.time(
        lambda: service.submit_army(game_id, north, armies[Side.NORTH])
    )
    player = RandomPlayer()
    commands = 4
    while outcome.state is not None and outcome.state.phase is not Phase.ENDED:
        side = acting_side(outcome.state)
        assert side is not None
        action = player.choose(outcome.state, rng)
        actor = autoplay.PLAYERS[side]
        # One client per game: a refusal here is a bug, and ends the benchmark loudly.
        outcome = await timings.time(lambda: service.act(game_id, actor, action))  # noqa: B023
        commands += 1
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
    return commands


async def bench(url: str, games: int, seed: int, think: float = 0.0) -> dict[str, float]:
    db = await open_database(url)
    try:
        service = GameService(db, seeds=_seeds(seed))
        timings = Timings()
        run = secrets.token_hex(4)
        started = time.perf_counter()
        counts = await asyncio.gather(
            *(play_one(service, run, i, seed, timings, think) for i in range(games))
        )
        elapsed = time.perf_counter() - started
    finally:
        await db.close()
    ms = sorted(timings.ms)
    return {
        "games": games,
        "commands": sum(counts),
        "seconds": elapsed,
        "p50_ms": statistics.median(ms),
        "p99_ms": ms[min(len(ms) - 1, int(len(ms) * 0.99))],
        "commands_per_s": sum(counts) / elapsed,
        "retries": service.retries,
    }


def _seeds(seed: int) -> Callable[[], bytes]:
    rng = random.Random(seed)
    return lambda: rng.randbytes(32)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time the game service under many games.")
    parser.add_argument("--games", type=int, default=200, help="concurrent games (200)")
    parser.add_argument("--db", default=None, help="database URL (a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="mean pause of a player between commands (default 0: every game always waits "
        "on the service, so latency is mostly queueing behind the other games)",
    )
    parser.add_argument(
        "--sqlite-synchronous",
        choices=("FULL", "NORMAL"),
        default=None,
        help="SQLite's fsync setting (default: the bot's, FULL)",
    )
    args = parser.parse_args(argv)
    if args.sqlite_synchronous is not None:
        store_database.SQLITE_SYNCHRONOUS = args.sqlite_synchronous
    with tempfile.TemporaryDirectory() as folder:
        url = args.db or f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        result = asyncio.run(bench(url, args.games, args.seed, args.think_ms / 1000))
    backend = url.split(":", 1)[0]
    print(
        f"db={backend} games={args.games} commands={result['commands']:.0f} "
        f"seconds={result['seconds']:.1f} retries={result['retries']:.0f}"
    )
    print(
        f"p50_ms={result['p50_ms']:.2f} p99_ms={result['p99_ms']:.2f} "
        f"commands_per_s={result['commands_per_s']:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
