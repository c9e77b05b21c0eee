"""The deadline loop (RULES.md N1): one per process, on a schedule (discord.ext.tasks).

The service fires what is due, each deadline once whichever process asks and however often
(a turn that expired while the bot was down fires at the first tick after it starts); this
loop only tells the games: a reminder mentions the player in the game's thread, an expired
turn posts what happened (the missed-turn count, a forfeit) with the board and the next
player's mention.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import tasks

from vahalite_bot.app import NotFound, Outcome
from vahalite_bot.discord.identity import mention
from vahalite_bot.discord.words import say

if TYPE_CHECKING:
    from vahalite_bot.discord.client import VahaBot

log = logging.getLogger(__name__)


class DeadlineLoop:
    def __init__(self, bot: VahaBot, seconds: float) -> None:
        self.bot = bot
        self.tick = tasks.loop(seconds=seconds)(self._tick)
        self.tick.error(self._failed)

    def start(self) -> None:
        self.tick.start()

    def stop(self) -> None:
        self.tick.cancel()

    async def _tick(self) -> None:
        await self.bot.wait_until_ready()
        report = await self.bot.service.fire_due(datetime.now(UTC))
        for outcome in report.expired:
            try:
                await self._expired(outcome)
            except Exception:  # one game's channel gone must not silence the others
                log.exception("could not announce the expired turn of game %s", outcome.game_id)
        for reminder in report.reminders:
            try:
                status = await self.bot.service.status(reminder.game_id)
            except NotFound:
                continue
            due = f"<t:{int(reminder.due_at.timestamp())}:R>"
            text = say(status.language, "reminder", user=mention(reminder.user), due=due)
            try:
                await self.bot.room.post(status, text, ping=[reminder.user])
            except discord.HTTPException:
                log.warning("could not remind in game %s", reminder.game_id, exc_info=True)
            if await self.bot.service.dm_reminders(reminder.user):
                await self._direct(reminder.user, status.language, due, status.channel)

    async def _direct(self, user: str, lang: str, due: str, channel: str) -> None:
        """The same reminder by direct message, for a player who asked (``/vl notify``)."""
        if not user.isdigit():
            return
        try:
            person = await self.bot.fetch_user(int(user))
            await person.send(
                say(lang, "reminder-dm", due=due, link=f"<#{channel}>"),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:  # DMs closed: the reminder in the game stands
            log.info("could not send a reminder by DM to %s", user)

    async def _expired(self, outcome: Outcome) -> None:
        status = await self.bot.service.status(outcome.game_id)
        missed = next((p.user for p in status.players if p.side is not status.acting_side), None)
        line = say(status.language, "expired", user=mention(missed))
        await self.bot.games.after([outcome], None, by=None, lines=[line])

    async def _failed(self, *args: Any) -> None:
        # A failing tick (the database away for a moment) must not end the loop for good.
        log.error("the deadline loop failed; it runs again next tick", exc_info=args[-1])
        if not self.tick.is_running():
            self.tick.restart()
