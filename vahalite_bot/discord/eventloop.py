"""Which event loop the bot runs on: uvloop's (libuv) where it is installed, else asyncio's.

uvloop spends less of the bot process's CPU per command on the loop itself and on aiohttp's
sockets than asyncio's own loop does. Everything the bot asks of its loop works the same on
both: signal handlers (SIGTERM's clean stop), the worker pool's socket streams and
aiosqlite's thread (``call_soon_threadsafe``), asyncpg, named tasks, the stall watch's timers.
``[discord] event_loop = "asyncio"`` (or ``VAHALITE_EVENT_LOOP=asyncio``) runs asyncio's own
loop instead; on a platform without uvloop (Windows) that loop runs whatever is asked.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from importlib import metadata

log = logging.getLogger(__name__)

EVENT_LOOP_ENV = "VAHALITE_EVENT_LOOP"
UVLOOP = "uvloop"
ASYNCIO = "asyncio"
EVENT_LOOPS = (UVLOOP, ASYNCIO)

LoopFactory = Callable[[], asyncio.AbstractEventLoop]


def loop_factory(wanted: str) -> tuple[str, LoopFactory | None]:
    """The loop to run and its name: uvloop's new loop, or None (asyncio's own) when
    ``wanted`` is asyncio or uvloop is not installed."""
    if wanted not in EVENT_LOOPS:
        raise ValueError(f"unknown event loop {wanted!r}: one of {', '.join(EVENT_LOOPS)}")
    if wanted == ASYNCIO:
        return ASYNCIO, None
    try:
        import uvloop
    except ImportError:
        log.info("uvloop is not installed: running asyncio's own event loop")
        return ASYNCIO, None
    return f"{UVLOOP} {metadata.version(UVLOOP)}", uvloop.new_event_loop
