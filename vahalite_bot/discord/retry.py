"""Posting through Discord's bad moments.

discord.py waits out every 429 (the route's or the global bucket) and retries a 500, 502, 504
or 524 by itself; a 503, or those once its retries are spent, reaches the bot as
``DiscordServerError``. A post is tried again a little later; one that still fails is
reported (``PostFailed``: the caller is told the command was made and how to see the game),
never dropped in silence.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import discord

from vahalite_bot.discord.words import say

log = logging.getLogger(__name__)

T = TypeVar("T")

PAUSES = (0.5, 1.5)  # seconds before the second and the third attempt


class PostFailed(Exception):
    """Discord kept refusing a post with a server error; the game itself has changed."""

    def __init__(self, status: int) -> None:
        super().__init__(f"Discord answered {status}")
        self.status = status

    def describe(self, lang: str) -> str:
        return say(lang, "post-failed", status=self.status)


async def retried(
    send: Callable[[], Awaitable[T]], what: str, files: Sequence[discord.File] = ()
) -> T:
    """``send()``, tried again after a server error; ``files`` are rewound for each try."""
    for pause in (*PAUSES, None):
        try:
            return await send()
        except discord.DiscordServerError as error:
            if pause is None:
                log.warning(
                    "Discord refused %s with %s, three times: giving up", what, error.status
                )
                raise PostFailed(error.status) from None
            log.warning("Discord refused %s with %s: trying again", what, error.status)
            await asyncio.sleep(pause)
            for file in files:
                file.reset(seek=True)
    raise AssertionError("unreachable")
