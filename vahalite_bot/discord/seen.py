"""The newest status of each game this process has read, so that a command need not read
its game once more before acting, nor each autocomplete keystroke read it again.

Nothing here is trusted for a change: a command acts with the version it read here as its
``expected_version``, and the service refuses it (``StaleState``) if the game has moved on
since, in this process or another; the command is then resolved again on a fresh read.
Suggestions may come from a status at most ``SUGGEST_SECONDS`` old: a change this process
did not post itself (another process's deadline) shows in them that much later.
"""

from __future__ import annotations

import time
from collections import OrderedDict

from vahalite_bot.app import GameService, GameStatus, Outcome

# How old a status may be to answer autocomplete (its own posts refresh it at once).
SUGGEST_SECONDS = 5.0
# Games remembered: those played right now. Few enough that the collector, which walks
# every state kept, stays quick.
REMEMBERED = 128


class Seen:
    def __init__(self, service: GameService, size: int = REMEMBERED) -> None:
        self.service = service
        self.size = size
        self._known: OrderedDict[int, tuple[float, GameStatus]] = OrderedDict()

    async def read(self, game: int) -> GameStatus:
        """The game now, read from the service (and remembered)."""
        status: GameStatus = await self.service.status(game)
        self.remember(status)
        return status

    async def after(self, outcome: Outcome) -> GameStatus:
        """The game as ``outcome`` left it: the status the command brought along (at its
        version), remembered; read only when it brought none (an answer given again under
        its key, or a command that changed nothing)."""
        if outcome.game_status is None:
            return await self.read(outcome.game_id)
        self.remember(outcome.game_status)
        return outcome.game_status

    def remember(self, status: GameStatus) -> None:
        known = self._known.get(status.game_id)
        if known is not None and known[1].version > status.version:
            return  # a slower read of an older version must not hide a newer one
        self._known[status.game_id] = (time.monotonic(), status)
        self._known.move_to_end(status.game_id)
        while len(self._known) > self.size:
            self._known.popitem(last=False)

    def forget(self, game: int) -> None:
        self._known.pop(game, None)

    async def at(self, game: int, version: int) -> GameStatus:
        """The game at ``version`` if that is the one kept (a version is one position for
        ever), else read now: a caller acting with ``expected_version=version`` is refused if
        the game has moved on either way."""
        known = self._known.get(game)
        if known is not None and known[1].version == version:
            return known[1]
        return await self.read(game)

    async def recent(self, game: int, max_age: float | None = SUGGEST_SECONDS) -> GameStatus:
        """The status last seen, if at most ``max_age`` seconds old (None: any age), else
        read now."""
        known = self._known.get(game)
        if known is not None and (max_age is None or time.monotonic() - known[0] <= max_age):
            return known[1]
        return await self.read(game)
