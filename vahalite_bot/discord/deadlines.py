"""The deadline loop (rulebook N1): one per process, on a schedule (discord.ext.tasks).

The service fires what is due, each deadline once whichever process asks and however often
(a turn that expired while the bot was down fires at the first tick after it starts), and
writes what must be told in its outbox in the same transaction. This loop then posts the
outbox: a reminder mentions the player in the game's thread (and by DM for who asked), an
expired turn posts what happened (the missed-turn count, a forfeit) with the board and the
next player's mention. Each post carries its announcement's nonce, so that one made again
after a crash (posted, but not yet marked) stays one message; a post is marked only once
made, so a crash before that loses nothing.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import tasks

from vahalite_bot.app import NotFound
from vahalite_bot.app.results import REMINDER, Announcement
from vahalite_bot.discord.identity import mention
from vahalite_bot.discord.words import say

if TYPE_CHECKING:
    from vahalite_bot.discord.client import VahaBot

log = logging.getLogger(__name__)

# A claim outlasts a post by far; a crashed process's claims run out soon after it restarts.
MIN_CLAIM_SECONDS = 5
# How long a stop waits for the tick under way (the service unit gives a stop 45 s in all).
STOP_SECONDS = 10


class DeadlineLoop:
    def __init__(self, bot: VahaBot, seconds: float) -> None:
        self.bot = bot
        self.claim_seconds = max(MIN_CLAIM_SECONDS, int(2 * seconds))
        self.tick = tasks.loop(seconds=seconds)(self._tick)
        self._working: asyncio.Future[None] | None = None  # the tick under way, if any
        self.tick.error(self._failed)

    def start(self) -> None:
        self.tick.start()

    async def stop(self) -> None:
        """Let a tick under way finish its transactions and posts, then stop. A tick
        cancelled mid-statement would leave the statement running on the database's thread,
        which then reports to an event loop that has closed."""
        self.tick.stop()  # no tick after the one under way
        while (working := self._working) is not None:
            await asyncio.wait({working}, timeout=STOP_SECONDS)
            if not working.done():
                break  # stuck (Discord away): give up on it rather than hang the stop
        self.tick.cancel()

    async def _tick(self) -> None:
        await self.bot.wait_until_ready()
        self._working = asyncio.ensure_future(self._fire_and_post())
        try:
            await asyncio.shield(self._working)
        finally:
            self._working = None

    async def _fire_and_post(self) -> None:
        await self.bot.service.fire_due(datetime.now(UTC))
        await self.post_outbox()

    async def post_outbox(self) -> None:
        """Post every announcement nobody else is posting, each marked once it is out."""
        service = self.bot.service
        claimed = await service.claim_announcements(datetime.now(UTC), seconds=self.claim_seconds)
        for announcement in claimed:
            try:
                await self._post(announcement)
            except NotFound:  # the game is gone: nothing to tell
                pass
            except (discord.Forbidden, discord.NotFound):
                # The channel is gone or closed to the bot: no retry will get through.
                log.warning("could not announce in game %s", announcement.game_id, exc_info=True)
            except discord.HTTPException:  # Discord away for a while: the claim runs out
                log.warning("announcement %s waits for Discord", announcement.id, exc_info=True)
                continue
            except Exception:  # one announcement failing must not silence the others
                log.exception("could not announce %s", announcement.id)
                continue
            await service.mark_announced([announcement.id], datetime.now(UTC))

    async def _post(self, announcement: Announcement) -> None:
        if announcement.kind == REMINDER:
            await self._reminder(announcement)
        else:
            await self._expired(announcement)

    async def _reminder(self, reminder: Announcement) -> None:
        status = await self.bot.service.status(reminder.game_id)
        assert reminder.due_at is not None
        due = f"<t:{int(reminder.due_at.timestamp())}:R>"
        text = say(status.language, "reminder", user=mention(reminder.user), due=due)
        await self.bot.room.post(status, text, ping=[reminder.user], nonce=reminder.nonce)
        if await self.bot.service.dm_reminders(reminder.user):
            await self._direct(reminder, status.language, due, status.channel)

    async def _direct(self, reminder: Announcement, lang: str, due: str, channel: str) -> None:
        """The same reminder by direct message, for a player who asked (``/vl notify``)."""
        user = reminder.user
        if not user.isdigit():
            return
        try:
            person = await self.bot.fetch_user(int(user))
            await person.send(
                say(lang, "reminder-dm", due=due, link=f"<#{channel}>"),
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=reminder.nonce + "d",
            )
        except discord.HTTPException:  # DMs closed: the reminder in the game stands
            log.info("could not send a reminder by DM to %s", user)

    async def _expired(self, expired: Announcement) -> None:
        """What the expiry did (its log entries), naming the one who missed: in setup the
        step stays theirs, and a forfeit ends the game."""
        service = self.bot.service
        status = await service.status(expired.game_id)
        told = await service.game_log(expired.game_id, since=expired.version_from)
        events = tuple(e for line in told if line.seq <= expired.version for e in line.events)
        outcome = status.outcome(events)  # it carries ``status``: announcing reads no more
        key = "expired"
        if expired.forfeit:
            key = "expired-forfeit"
        elif expired.setup:
            key = "expired-setup"
        line = say(status.language, key, user=mention(expired.user), count=expired.missed)
        await self.bot.games.after([outcome], None, by=None, lines=[line], nonce=expired.nonce)

    async def _failed(self, *args: Any) -> None:
        # A failing tick (the database away for a moment) must not end the loop for good.
        log.error("the deadline loop failed; it runs again next tick", exc_info=args[-1])
        if not self.tick.is_running():
            self.tick.restart()
