"""A command's interaction, answered once: by the command's own post when it is ready in
time, so the public message with the board is the interaction's answer (one request for
both), or else by an ephemeral deferral, the post then going to the channel.

A deferral stays ephemeral: Discord lets the first followup after a deferral take the
deferral's visibility and notify nobody (it edits the "thinking" message, and edits never
ping), while the post must ping whoever acts next; and a refusal found after a public
deferral would be public.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import discord

log = logging.getLogger(__name__)

# Discord's code for an interaction it no longer knows (its 3 s passed).
UNKNOWN_INTERACTION = 10062


class Answer:
    """The first answer of one interaction, shared by the command's post and its deferral:
    whichever comes first answers, the other sees it done (the lock keeps them apart)."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction
        self._lock = asyncio.Lock()
        self.posted = False  # the post went out as the interaction's answer
        self.gone = False  # Discord no longer knows the interaction: nothing can answer it

    @property
    def channel_id(self) -> int | None:
        return self.interaction.channel_id

    @property
    def answered(self) -> bool:
        """Nothing more to tell the caller: the post answered, or no answer can come."""
        return self.posted or self.gone

    async def defer(self) -> None:
        """Ephemerally, unless the post answered first. The command goes on whatever Discord
        says: the change is made and posted; only the caller's own answer may be lost."""
        async with self._lock:
            if self.answered or self.interaction.response.is_done():
                return
            try:
                await self.interaction.response.defer(ephemeral=True, thinking=True)
            except discord.HTTPException as error:
                self.gone = error.code == UNKNOWN_INTERACTION
                log.warning("could not defer interaction %s", self.interaction.id, exc_info=True)

    async def post(self, content: str, files: Sequence[discord.File], **kwargs: Any) -> bool:
        """The post as the interaction's answer; False when it must go to the channel: the
        interaction was deferred, or Discord refused the answer (the change is made, so the
        post is still owed, once; ``files`` are rewound for it)."""
        async with self._lock:
            response = self.interaction.response
            if self.gone or response.is_done():
                return False
            try:
                await response.send_message(content, files=list(files), **kwargs)
            except discord.HTTPException as error:
                # discord.py retries a server error by itself: a try that had in fact
                # answered makes the next one refused ("answered already", or "unknown
                # interaction" once its 3 s are over: Discord does not say which), and the
                # post is there if the original is a public message.
                if await self._original_is_post():
                    self.posted = True
                    return True
                self.gone = error.code == UNKNOWN_INTERACTION
                log.warning(
                    "could not answer interaction %s with its post (%s): posting in the channel",
                    self.interaction.id,
                    error,
                )
                for file in files:
                    file.reset(seek=True)
                return False
            self.posted = True
            return True

    async def _original_is_post(self) -> bool:
        try:
            original = await self.interaction.original_response()
        except discord.HTTPException:
            return False
        # Not a deferral whose answer was lost (a "thinking" or ephemeral message).
        return not (original.flags.ephemeral or original.flags.loading)
