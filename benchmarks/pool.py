"""What the worker pool itself costs the bot process: board calls through ``Workers``.

    python -m benchmarks.pool [--calls 800] [--at-once 8] [--workers 2]

Sends ``--calls`` board calls (a mid-game board with its last action, as the bot sends after
a move) through a warmed pool of ``--workers``, ``--at-once`` of them waiting at any time,
and prints the CPU time of this process (the bot's side: pickling the calls, the pool's
bookkeeping, reading the replies) and of the workers (unpickling, drawing, pickling the PNG
back) a call, and the wall time a call. The last line is
``loop_cpu_us_per_call=… workers_cpu_ms_per_call=… wall_ms_per_call=…``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time

from benchmarks.cpu import tree_cpu_seconds
from tests.golden.states import mid_game
from vahalite_bot.discord import work
from vahalite_bot.discord.eventloop import UVLOOP, loop_factory
from vahalite_bot.discord.workers import Workers
from vahalite_bot.rules.scenario import Side

NAMES = {Side.SOUTH: "Алексей", Side.NORTH: "Bob"}


async def measure(calls: int, at_once: int, workers: int) -> str:
    scene = mid_game()
    pool = Workers(workers, warm=True)
    try:
        await pool.warm()
        events = list(scene.events)

        async def board() -> bytes:
            return await pool.run(work.board_png, scene.state, events, scene.before, NAMES, "ru")

        await asyncio.gather(*(board() for _ in range(4 * workers)))  # all hot
        waiting = asyncio.Semaphore(at_once)

        async def one() -> None:
            async with waiting:
                await board()

        _, workers_before = tree_cpu_seconds({os.getpid()})
        loop_before, wall_before = time.process_time(), time.perf_counter()
        await asyncio.gather(*(one() for _ in range(calls)))
        loop = time.process_time() - loop_before
        wall = time.perf_counter() - wall_before
        worked = tree_cpu_seconds({os.getpid()})[1] - workers_before
    finally:
        await pool.close()
    return (
        f"loop_cpu_us_per_call={loop * 1e6 / calls:.0f} "
        f"workers_cpu_ms_per_call={worked * 1e3 / calls:.2f} "
        f"wall_ms_per_call={wall * 1e3 / calls:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=800)
    parser.add_argument("--at-once", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    _, factory = loop_factory(UVLOOP)  # the bot's loop
    with asyncio.Runner(loop_factory=factory) as runner:
        print(runner.run(measure(args.calls, args.at_once, args.workers)))


if __name__ == "__main__":
    main()
