"""Who calls, as the service knows them: an ``Actor`` tied to the server it speaks for.

A Discord user's id is the service's user id as it is (``"1234…"``); the practice opponent's
is ``auto:<player>``. Roles and the administrator flag count only on the server they come
from (the service checks ``Actor.guild`` against the game's).
"""

from __future__ import annotations

import discord

from vahalite_bot.app import Actor

AUTO_PREFIX = "auto:"
AUTO_PLAYER = "normal"  # older games name it "greedy": the same player


def actor_of(user: discord.User | discord.Member, guild: discord.Guild | None) -> Actor:
    if isinstance(user, discord.Member) and guild is not None:
        return Actor(
            str(user.id),
            roles=frozenset(str(role.id) for role in user.roles),
            admin=user.guild_permissions.administrator,
            guild=str(guild.id),
        )
    return Actor(str(user.id), guild=None if guild is None else str(guild.id))


def auto_actor(guild: str | None, player: str = AUTO_PLAYER) -> Actor:
    return Actor(f"{AUTO_PREFIX}{player}", guild=guild)


def is_auto(user: str | None) -> bool:
    return user is not None and user.startswith(AUTO_PREFIX)


def mention(user: str | None) -> str:
    """How a player is named in a post: a mention, or the bot player's name."""
    if user is None:
        return "—"
    if is_auto(user):
        return f"🤖 {user.removeprefix(AUTO_PREFIX)}"
    return f"<@{user}>" if user.isdigit() else user


def mentionable(users: list[str | None]) -> list[discord.Object]:
    """The players a post may ping: real Discord users only (AllowedMentions)."""
    return [discord.Object(int(u)) for u in dict.fromkeys(users) if u is not None and u.isdigit()]
