"""The gateway events the bot asks Discord for: one set for the bot and for ``vahalite doctor``,
so the doctor's check logs in exactly as the bot will."""

from __future__ import annotations

import discord


def gateway_intents(message_content: bool) -> discord.Intents:
    """The guilds with their channels, threads and permissions, and messages (text orders,
    whose content is a privileged intent). Discord's default set would add every typing,
    reaction, voice state and invite of every server: each an event decoded for nothing."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.message_content = message_content
    return intents
