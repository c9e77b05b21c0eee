"""The terminal's idempotency keys: a counter, as the service asks of every adapter.

Each command the console sends carries the next key, so that a command the service already
applied is never applied again. The counter is prefixed by a token of this run: a resumed
game must not meet the keys of an earlier run, which started counting at 1 too.
"""

from __future__ import annotations

import itertools
import secrets


class CommandKeys:
    def __init__(self) -> None:
        self._run = secrets.token_hex(4)
        self._count = itertools.count(1)

    def next(self) -> str:
        return f"console-{self._run}-{next(self._count)}"


# One terminal, one run: the lobby and the game share the counter.
KEYS = CommandKeys()
