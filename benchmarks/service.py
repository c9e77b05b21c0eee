"""Time the GameService (no Discord) under many games: latency, then capacity.

    python -m benchmarks.service --games 200 [--db URL] [--think-ms 2000] [--ramp-s 20] [--keyed]

Two separate runs on the same database:

1. **Latency.** ``--games`` games start one after another, evenly spread over ``--ramp-s``
   seconds (not all in the same millisecond: that measured the start-up queue). Each is
   created, joined, given both armies (the demo factions' 500-point lists) and played by
   random legal actions, its players pausing between commands for a random think time
   (exponential, mean ``--think-ms``), as people do. The run stops after ``--duration-s``;
   every service call that completed is timed from the call to its reply (waiting for the
   database included): p50 and p99.
2. **Capacity.** A closed loop: ``--capacity-games`` games at once, no think time (every
   player sends its next command the moment the last is answered; a finished game's
   players start another), for ``--capacity-s`` seconds: the commands per second the
   service completes when it is never idle. ``--think-ms 0`` runs only this.

The last line printed is ``p50_ms=X p99_ms=Y commands_per_s=Z service_cpu_ms=C`` (latency
from run 1, capacity from run 2; C is the process's CPU per command in the capacity run, all
its threads, less what the benchmark's own players spent choosing their moves). The default
database is a fresh SQLite file in a temporary folder; ``--db`` takes any URL (a PostgreSQL
one is used as it is: the benchmark only adds games).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
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


class Stopped(Exception):
    """The run is over: the game stops here."""


class Timings:
    """Each call's time, if it completed before the run stopped.

    At the stop no call is cancelled (a call cut off mid-query would break its database
    connection): the calls in flight finish uncounted, and no game starts another.
    """

    def __init__(self) -> None:
        self.ms: list[float] = []
        self.stop = asyncio.Event()
        self.player_cpu = 0.0  # seconds of CPU the benchmark's own players used

    def choose(self, choose: Callable[[], T]) -> T:
        """A player's work (its army, its moves), its CPU time counted apart from the
        service's."""
        # This thread's time only: the database driver's thread may be busy meanwhile.
        started = time.thread_time()
        try:
            return choose()
        finally:
            self.player_cpu += time.thread_time() - started

    async def time(self, call: Callable[[], Awaitable[T]]) -> T:
        if self.stop.is_set():
            raise Stopped
        started = time.perf_counter()
        result = await call()
        if not self.stop.is_set():
            self.ms.append((time.perf_counter() - started) * 1000)
        return result

    async def sleep(self, seconds: float) -> None:
        """A pause that the stop ends at once."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stop.wait(), seconds)
        if self.stop.is_set():
            raise Stopped


@dataclass(frozen=True)
class Load:
    games: int
    ramp: float  # seconds over which the games start
    think: float  # mean seconds a player pauses between commands
    duration: float  # seconds the run lasts (unfinished games are stopped)
    again: bool = False  # a finished game's players start another at once (closed loop)
    # Every move carries an idempotency key and the version it was chosen at, as the
    # Discord bot sends them (``--keyed``).
    keyed: bool = False


@dataclass(frozen=True)
class Result:
    games: int
    commands: int
    seconds: float
    ms: list[float]
    retries: int
    cpu: float  # seconds of the process's CPU (all its threads) during the run
    player_cpu: float  # of which the benchmark's players choosing their moves

    @property
    def service_cpu_ms(self) -> float:
        """The service's CPU per command: the process's, less the players'."""
        return (self.cpu - self.player_cpu) * 1000 / max(self.commands, 1)

    @property
    def per_second(self) -> float:
        return self.commands / self.seconds

    def percentile(self, share: float) -> float:
        ordered = sorted(self.ms)
        return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


async def play_one(
    service: GameService,
    run: str,
    index: int,
    seed: int,
    timings: Timings,
    think: float,
    keyed: bool = False,
) -> None:
    """One game from creation to its end (or until the run stops it)."""
    rng = random.Random(seed * 100_003 + index)
    armies = timings.choose(autoplay.standard_armies)  # the players' own work: reading lists
    south, north = autoplay.SOUTH, autoplay.NORTH
    channel = f"bench-{run}-{index}"

    async def pause() -> None:
        if think:
            await timings.sleep(rng.expovariate(1 / think))

    created = await timings.time(lambda: service.create_game(south, channel))
    game_id = created.game_id
    await pause()
    await timings.time(lambda: service.join(game_id, north))
    await pause()
    await timings.time(lambda: service.submit_army(game_id, south, armies[Side.SOUTH]))
    await pause()
    outcome: Outcome = await timings.time(
        lambda: service.submit_army(game_id, north, armies[Side.NORTH])
    )
    player = RandomPlayer()
    while outcome.state is not None and outcome.state.phase is not Phase.ENDED:
        await pause()
        state = outcome.state
        side = acting_side(state)
        assert side is not None
        action = timings.choose(lambda: player.choose(state, rng))  # noqa: B023
        actor = autoplay.PLAYERS[side]
        version, key = (outcome.version, f"{channel}-{outcome.version}") if keyed else (None, None)
        # One client per game: a refusal here is a bug, and ends the benchmark loudly.
        outcome = await timings.time(
            lambda: service.act(game_id, actor, action, expected_version=version, key=key)  # noqa: B023
        )


async def run_load(service: GameService, load: Load, seed: int) -> Result:
    timings = Timings()
    run = secrets.token_hex(4)
    gap = load.ramp / load.games if load.games else 0.0
    retries = service.retries

    async def started(index: int) -> None:
        try:
            await timings.sleep(index * gap)
            await play_one(service, run, index, seed, timings, load.think, load.keyed)
            rounds = 0
            while load.again:  # keep the service exactly as busy until the run stops
                rounds += 1
                number = index + rounds * load.games
                await play_one(service, run, number, seed, timings, load.think, load.keyed)
        except Stopped:
            pass

    begun, cpu = time.perf_counter(), time.process_time()
    tasks = [asyncio.create_task(started(i)) for i in range(load.games)]
    await asyncio.wait(tasks, timeout=load.duration)
    timings.stop.set()
    elapsed, cpu = time.perf_counter() - begun, time.process_time() - cpu
    players = timings.player_cpu
    await asyncio.gather(*tasks)  # a failure in any game ends the benchmark with its traceback
    return Result(
        load.games, len(timings.ms), elapsed, timings.ms, service.retries - retries, cpu, players
    )


async def bench(url: str, latency: Load | None, capacity: Load, seed: int) -> list[Result]:
    db = await open_database(url)
    try:
        service = GameService(db, seeds=_seeds(seed))
        results = []
        if latency is not None:
            results.append(await run_load(service, latency, seed))
        results.append(await run_load(service, capacity, seed + 1))
        return results
    finally:
        await db.close()


def _seeds(seed: int) -> Callable[[], bytes]:
    rng = random.Random(seed)
    return lambda: rng.randbytes(32)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time the game service under many games.")
    parser.add_argument("--games", type=int, default=200, help="games in the latency run")
    parser.add_argument("--db", default=None, help="database URL (a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think-ms",
        type=float,
        default=2000.0,
        help="mean pause of a player between commands in the latency run (2000); "
        "0: only the closed-loop capacity run",
    )
    parser.add_argument("--ramp-s", type=float, default=20.0, help="game starts spread (20)")
    parser.add_argument("--duration-s", type=float, default=60.0, help="latency run (60)")
    parser.add_argument("--capacity-games", type=int, default=50, help="closed loop (50)")
    parser.add_argument("--capacity-s", type=float, default=30.0, help="closed loop run (30)")
    parser.add_argument(
        "--sqlite-synchronous",
        choices=("FULL", "NORMAL"),
        default=None,
        help="SQLite's fsync setting (default: the bot's, FULL)",
    )
    parser.add_argument(
        "--keyed",
        action="store_true",
        help="each move with an idempotency key and its expected version, as the bot sends it",
    )
    args = parser.parse_args(argv)
    if args.sqlite_synchronous is not None:
        store_database.SQLITE_SYNCHRONOUS = args.sqlite_synchronous
    latency = (
        Load(args.games, args.ramp_s, args.think_ms / 1000, args.duration_s, keyed=args.keyed)
        if args.think_ms > 0
        else None
    )
    capacity = Load(args.capacity_games, 0.0, 0.0, args.capacity_s, again=True, keyed=args.keyed)
    with tempfile.TemporaryDirectory() as folder:
        url = args.db or f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        results = asyncio.run(bench(url, latency, capacity, args.seed))
    backend = url.split(":", 1)[0]
    names = ["latency", "capacity"] if latency is not None else ["capacity"]
    for name, result in zip(names, results, strict=True):
        print(
            f"{name}: db={backend} games={result.games} commands={result.commands} "
            f"seconds={result.seconds:.1f} commands_per_s={result.per_second:.1f} "
            f"p50_ms={result.percentile(0.5):.2f} p99_ms={result.percentile(0.99):.2f} "
            f"retries={result.retries} cpu_ms_per_command="
            f"{result.cpu * 1000 / max(result.commands, 1):.2f} "
            f"player_cpu_ms_per_command={result.player_cpu * 1000 / max(result.commands, 1):.2f} "
            f"service_cpu_ms_per_command={result.service_cpu_ms:.2f}"
        )
    timed, closed = results[0], results[-1]
    print(
        f"p50_ms={statistics.median(timed.ms) if timed.ms else 0:.2f} "
        f"p99_ms={timed.percentile(0.99):.2f} commands_per_s={closed.per_second:.1f} "
        f"service_cpu_ms={closed.service_cpu_ms:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
