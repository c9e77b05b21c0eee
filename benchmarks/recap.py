"""Time a turn start's recap: the whole log against the tail since the side's turn (issue 21).

    python -m benchmarks.recap [--games 3] [--runs 5] [--from-round 3] [--db URL]

Plays ``--games`` standard games to their end by random legal actions. At every turn start
from round ``--from-round`` on it times, ``--runs`` times each, the two halves of the recap
the bot makes there:

- **loop**: the service call the bot awaits in its event loop, ``game_log`` (the whole log,
  as before issue 21) or ``recap_log`` (the tail since the side's last turn end);
- **worker**: the fold in the worker process, ``recap_for`` over the whole log or
  ``recap_from`` over the tail (which parses and decodes the tail's rows: the loop reads
  them as stored). The text and the image are left out: they are the same either way;
- **tail_job**: the whole worker job of a turn start as the bot's pool runs it: the tail
  pickled as the pool pickles it and unpickled, ``work.recap`` (fold, text and image), its
  answer pickled back.

Each figure is the median over turn starts of each start's median run, in ms of wall time
and of CPU time (``time.process_time``: this process, the database's thread included, which
a busy neighbour blurs less than the wall). The last line is
``whole_loop_cpu_ms=… tail_loop_cpu_ms=… whole_worker_cpu_ms=… tail_worker_cpu_ms=…
tail_job_cpu_ms=…``.
"""

from __future__ import annotations

import argparse
import asyncio
import pickle
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from typing import Any

from vahalite_bot.app import GameService, autoplay
from vahalite_bot.app.results import RecapLog
from vahalite_bot.discord import work
from vahalite_bot.discord.workers import register_pickling
from vahalite_bot.present.recap import recap_for, recap_from
from vahalite_bot.rules.scenario import Side
from vahalite_bot.store.database import open_database

FIGURES = ("whole_loop", "tail_loop", "whole_worker", "tail_worker", "tail_job")
NAMES = {Side.SOUTH: "Алексей", Side.NORTH: "Bob"}


async def _timed(call: Callable[[], Awaitable[Any]]) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = await call()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000, value


def _fold_timed(call: Callable[[], Any]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


async def one_start(
    service: GameService, game_id: int, side: Side, runs: int
) -> dict[str, tuple[float, float]]:
    """Each figure's median (wall, CPU) over ``runs`` at this turn start."""
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in FIGURES}
    for _ in range(runs):
        wall, cpu, whole = await _timed(lambda: service.game_log(game_id))
        samples["whole_loop"].append((wall, cpu))
        wall, cpu, tail = await _timed(lambda: service.recap_log(game_id, side))
        samples["tail_loop"].append((wall, cpu))
        samples["whole_worker"].append(_fold_timed(lambda: recap_for(whole, side)))  # noqa: B023
        samples["tail_worker"].append(_fold_timed(lambda: _tail(tail, side)))  # noqa: B023
        samples["tail_job"].append(_fold_timed(lambda: _job(tail, side)))  # noqa: B023
    return {
        name: (statistics.median(w for w, _ in got), statistics.median(c for _, c in got))
        for name, got in samples.items()
    }


def _tail(log: RecapLog, side: Side) -> None:
    recap_from(log, side)


def _job(log: RecapLog, side: Side) -> None:
    function, *args = pickle.loads(ForkingPickler.dumps((work.recap, log, side, NAMES, "ru")))
    pickle.loads(ForkingPickler.dumps(function(*args)))


async def bench(url: str, games: int, runs: int, from_round: int, seed: int) -> list[Any]:
    db = await open_database(url)
    starts: list[dict[str, tuple[float, float]]] = []
    lengths: list[int] = []
    try:
        service = GameService(db, seeds=lambda: random.Random(seed).randbytes(32))
        for index in range(games):
            rng = random.Random(seed * 1009 + index)
            outcome = await autoplay.new_game(service, f"bench-recap-{index}")
            turn = outcome.turn_side
            while outcome.status != "ended":
                outcome = await autoplay.play(service, outcome, rng, max_commands=1)
                side, state = outcome.turn_side, outcome.state
                if side is None or side is turn or state is None:
                    continue
                turn = side
                if state.round >= from_round and outcome.status != "ended":
                    starts.append(await one_start(service, outcome.game_id, side, runs))
                    lengths.append(outcome.version)
    finally:
        await db.close()
    return [starts, lengths]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time a turn start's recap, whole vs tail.")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--runs", type=int, default=5, help="runs per turn start (5)")
    parser.add_argument("--from-round", type=int, default=3, help="first round timed (3)")
    parser.add_argument("--db", default=None, help="database URL (a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    register_pickling()  # as the bot's pool pickles
    with tempfile.TemporaryDirectory() as folder:
        url = args.db or f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        starts, lengths = asyncio.run(bench(url, args.games, args.runs, args.from_round, args.seed))
    if not starts:
        print("no turn start reached the round asked for")
        return 1
    print(
        f"turn_starts={len(starts)} log_entries_median={statistics.median(lengths):.0f} "
        f"log_entries_max={max(lengths)}"
    )
    figures = []
    for name in FIGURES:
        wall = statistics.median(start[name][0] for start in starts)
        cpu = statistics.median(start[name][1] for start in starts)
        print(f"{name}: wall_ms={wall:.2f} cpu_ms={cpu:.2f}")
        figures.append(f"{name}_cpu_ms={cpu:.2f}")
    print(" ".join(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
