"""The garbage collector in a process that serves for months: what it loaded at start set
aside, and its young passes fewer.

Everything loaded before serving (codexes, fonts, the libraries, the guilds) lives as long as
the process; frozen (``gc.freeze``), it is out of every full pass's way, so those stay short.
A command then allocates some thousands of short-lived objects (gateway events, requests,
rows, states), nearly all freed by their reference counts: at CPython's default of a young
pass every 700 allocations, the bot's main process spent about 5 % of its CPU in passes that
found little (more under load), where one every 10,000 spends about 1 % (measured under
``benchmarks.discord --games 50 --think-ms 0``: README, issue 21).
"""

from __future__ import annotations

import gc

# Allocations (less deallocations) between two young passes, in the bot's main process.
YOUNG_PASS_EVERY = 10_000


def settle(*, collect: bool = False, young: int | None = None) -> None:
    """Freeze what the process holds now (after a full pass first if ``collect``) and, if
    ``young`` is given, make the young passes that rare."""
    if collect:
        gc.collect()
    gc.freeze()
    if young is not None:
        _, middle, old = gc.get_threshold()
        gc.set_threshold(young, middle, old)
