"""The practice opponent: the built-in player of the chosen level takes North and answers in
the same thread, with the same messages, within seconds of the human's turn ending.

It acts through the service like anyone else, each action under the version it was chosen
for (and that version as its idempotency key), so a second process running it too, or a
restart half-way, can never make it act twice. Its choice runs in the worker pool. One post
tells its whole run (a setup step or a turn), with the board at its end.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from vahalite_bot.app import GameStatus, Outcome, ServiceError
from vahalite_bot.app.results import ENDED
from vahalite_bot.discord import work
from vahalite_bot.discord.identity import AUTO_PREFIX, auto_actor, is_auto
from vahalite_bot.rules.errors import IllegalAction

if TYPE_CHECKING:
    from vahalite_bot.discord.client import VahaBot

log = logging.getLogger(__name__)

# The most actions of one run; a turn has far fewer, so more means something is wrong.
MAX_RUN = 200
MAX_REASONS = 8  # the post is cut to 2,000 characters: the narration matters more


class Opponent:
    def __init__(self, bot: VahaBot) -> None:
        self.bot = bot
        self._running: dict[int, asyncio.Task[None]] = {}

    def kick(self, status: GameStatus) -> None:
        """Start the bot's run if it must act in this game and is not already acting."""
        if status.status == ENDED or not is_auto(status.acting_user):
            return
        task = self._running.get(status.game_id)
        if task is not None and not task.done():
            return
        self._running[status.game_id] = asyncio.get_running_loop().create_task(
            self._run(status.game_id)
        )

    async def wait(self) -> None:
        """Until every run now going has ended (tests, shutdown)."""
        while tasks := [t for t in self._running.values() if not t.done()]:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, game: int) -> None:
        try:
            await self._play(game)
        except Exception:
            log.exception("the bot opponent failed in game %s", game)

    async def _play(self, game: int) -> None:
        service = self.bot.service
        status = await self.bot.seen.read(game)
        before = status.state
        outcomes: list[Outcome] = []
        reasons: list[str] = []  # issue 22: the search player's why, one line an action
        user = status.acting_user
        for _ in range(MAX_RUN):
            if status.status == ENDED or status.state is None or status.acting_user != user:
                break
            assert user is not None and user.startswith(AUTO_PREFIX)
            player = user.removeprefix(AUTO_PREFIX)
            action, why = await self.bot.workers.run(
                work.choose_explained,
                status.state,
                player,
                f"{game}:{status.version}",
                self.bot.options.think_ms,
                status.language,
            )
            try:
                outcome = await service.act(
                    game,
                    auto_actor(status.guild, player),
                    action,
                    expected_version=status.version,
                    key=f"auto:{game}:{status.version}",
                )
            except (ServiceError, IllegalAction):
                break  # someone else moved the game on (another process, the referee)
            outcomes.append(outcome)
            if why is not None and len(reasons) < MAX_REASONS:
                reasons.append(why)
            status = await self.bot.seen.after(outcome)
        if outcomes:
            await self.bot.games.after(outcomes, before, by=user, lines=reasons)
