"""One INFO line per command: the game, the verb, how it ended and how long it took.

``outcome`` is ``ok``, ``refused:<why>`` (a refusal the user is told about: it changed
nothing) or ``error:<exception>`` (a fault, logged with its traceback where it is caught).
With ``--log-format json`` the four are fields of their own (``game``, ``verb``,
``outcome``, ``ms``).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from vahalite_bot.app import keys
from vahalite_bot.app.errors import ServiceError
from vahalite_bot.rules.errors import IllegalAction

log = logging.getLogger("vahalite_bot.commands")

R = TypeVar("R")
Write = Callable[[Any, keys.Command, Any], Awaitable[R]]


def logged(write: Write[R]) -> Write[R]:
    @functools.wraps(write)
    async def run(self: Any, command: keys.Command, body: Any) -> R:
        started = time.perf_counter()
        outcome = "ok"
        try:
            return await write(self, command, body)
        except (ServiceError, IllegalAction) as refused:
            outcome = f"refused:{refused.code}"
            raise
        except Exception as error:
            outcome = f"error:{type(error).__name__}"
            raise
        finally:
            ms = (time.perf_counter() - started) * 1000
            log.info(
                "command game=%s verb=%s outcome=%s ms=%.1f",
                command.game_id,
                command.action,
                outcome,
                ms,
                extra={
                    "game": command.game_id,
                    "verb": command.action,
                    "outcome": outcome,
                    "ms": round(ms, 1),
                },
            )

    return run
