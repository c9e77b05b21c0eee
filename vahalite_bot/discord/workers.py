"""A pool of worker processes for CPU work, so that the event loop never waits on it.

Rendering a board takes under 10 ms, a game never drawn before as much as any other (one
palette per theme, a shared frame); a turn's recap replays the game's log, and the
automatic player's greedy choice takes some tens of ms. In a thread they would hold the GIL
against the loop; in processes they do not. ``spawn`` keeps the workers free of the bot's
loop, sockets and threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.reduction import ForkingPickler
from typing import ParamSpec, TypeVar

from vahalite_bot.discord import work
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Scenario
from vahalite_bot.rules.sheets import UnitSheet

P = ParamSpec("P")
R = TypeVar("R")


class Workers:
    def __init__(self, processes: int, *, warm: bool = False) -> None:
        """``warm``: each worker warms up (``work.start``) as it starts, before its first job,
        however the pool hands the jobs out (the bot's pool; tests' and the doctor's start
        cold)."""
        register_pickling()
        self._pool = ProcessPoolExecutor(
            max_workers=max(1, processes),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=work.prepare,
            initargs=(warm,),
        )

    async def run(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        if kwargs:
            raise TypeError("worker calls take positional arguments only")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, function, *args)

    async def warm(self, processes: int) -> None:
        """Start every worker now rather than at the first image a player waits for (a job
        each: the pool starts a process per job until it has ``processes``)."""
        await asyncio.gather(*(self.run(os.getpid) for _ in range(max(1, processes))))

    async def close(self, timeout: float = 30.0) -> None:
        """Stop the pool and wait, off the loop, until its manager thread has gone. Left
        running past the interpreter's exit, that thread races the exit hook of
        concurrent.futures for its wake-up pipe, and CPython 3.11 prints "OSError: [Errno 9]
        Bad file descriptor" as the bot stops. A job still running (a decision of the
        automatic player) gets ``timeout`` seconds to end; queued ones are dropped."""
        stopping = asyncio.to_thread(self._pool.shutdown, wait=True, cancel_futures=True)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping, timeout)


def register_pickling() -> None:
    """Bundled sheets and shipped scenarios go to the workers by name (``work.reduce_sheet``,
    ``work.reduce_scenario``), states, their parts and events by their fields' values
    (``work.fields_reducer``): in the picklers of multiprocessing only, which the pool's
    queues use."""
    ForkingPickler.register(UnitSheet, work.reduce_sheet)
    ForkingPickler.register(Scenario, work.reduce_scenario)
    ForkingPickler.register(Cell, work.reduce_cell)
    for cls in work.SENT_BY_FIELDS:
        ForkingPickler.register(cls, work.fields_reducer(cls))
