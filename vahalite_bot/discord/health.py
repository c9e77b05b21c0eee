"""The event loop's stall watch: how late a short timer fires is how long the loop was busy.

A stall over ``WARN_MS`` is logged. With a ``stall_file``, the longest stall of each second
is written there (wall-clock time, milliseconds), so the Discord benchmark can read, from
outside the bot's process, the longest stall of exactly the seconds it measured.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from pathlib import Path

log = logging.getLogger(__name__)

TICK = 0.01
WARN_MS = 100.0
WINDOWS = 900  # seconds of history kept in the file


class LoopWatch:
    def __init__(self, stall_file: Path | None = None) -> None:
        self.stall_file = stall_file
        self.longest_ms = 0.0
        self._windows: deque[tuple[int, float]] = deque(maxlen=WINDOWS)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._watch())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _watch(self) -> None:
        second = int(time.time())
        worst = 0.0
        while True:
            before = time.monotonic()
            await asyncio.sleep(TICK)
            late_ms = (time.monotonic() - before - TICK) * 1000
            self.longest_ms = max(self.longest_ms, late_ms)
            if late_ms > WARN_MS:
                log.warning("event loop stalled for %.0f ms", late_ms)
            now = int(time.time())
            if now != second:
                self._windows.append((second, round(worst, 2)))
                self._write()
                second, worst = now, 0.0
            worst = max(worst, late_ms)

    def _write(self) -> None:
        if self.stall_file is not None:
            # Whole or not at all: written in place, a reader (a monitor, the benchmark)
            # could open it between the truncation and the write and find it empty.
            partial = self.stall_file.with_name(self.stall_file.name + ".partial")
            partial.write_text(json.dumps({"windows": list(self._windows)}))
            partial.replace(self.stall_file)


def longest_between(stall_file: Path, start: float, end: float) -> float:
    """The longest stall (ms) the watch saw in the whole seconds from ``start`` to ``end``."""
    windows = json.loads(stall_file.read_text())["windows"]
    inside = [ms for second, ms in windows if start <= second and second + 1 <= end + 1]
    return max(inside, default=0.0)
