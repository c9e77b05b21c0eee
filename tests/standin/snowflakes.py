"""Discord-shaped snowflake ids: time-based, strictly increasing, far above 2**53."""

from __future__ import annotations

import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class Snowflakes:
    """Makes ids the way Discord does (ms since the Discord epoch, worker, process, counter).

    Real-looking ids matter: they exceed 2**53, so a client that parses them as floats (or a
    JSON library that does) loses digits, and the tests notice.
    """

    def __init__(self, worker: int = 1, process: int = 0) -> None:
        self._low = (worker & 0x1F) << 17 | (process & 0x1F) << 12
        self._last = 0

    def next(self) -> int:
        now_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = now_ms << 22 | self._low
        # Several ids in one millisecond (or a clock step back) still come out increasing.
        self._last = max(candidate, self._last + 1)
        return self._last


def snowflake_time(snowflake: int) -> float:
    """The Unix time (seconds) a snowflake was made at."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000
