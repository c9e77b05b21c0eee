"""The stand-in's world as plain data: users, guilds, roles, channels, messages.

Nothing here speaks HTTP or websockets; ``payloads`` turns these objects into Discord JSON.
Ids are ints here and strings on the wire, as Discord does.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .snowflakes import Snowflakes

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
PIN_MESSAGES = 1 << 51
ALL_PERMISSIONS = (1 << 52) - 1
# The bot's role has everything but ADMINISTRATOR, so channel overwrites still bind it.
BOT_ROLE_PERMISSIONS = ALL_PERMISSIONS & ~ADMINISTRATOR
EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | ADD_REACTIONS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
DM_PERMISSIONS = (
    VIEW_CHANNEL | SEND_MESSAGES | ADD_REACTIONS | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
)

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
GUILD_FORUM = 15
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)

EPHEMERAL = 1 << 6


@dataclass
class User:
    id: int
    name: str
    bot: bool = False


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    bot_id: int | None = None


@dataclass
class Member:
    user_id: int
    roles: list[int] = field(default_factory=list)
    joined_at: float = field(default_factory=time.time)


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    locale: str
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    bot_deny: int = 0  # what deny_bot took from the bot in every channel of the guild
    joined_at: float = field(default_factory=time.time)


@dataclass
class Channel:
    id: int
    type: int
    name: str
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    topic: str | None = None
    available_tags: list[dict[str, Any]] = field(default_factory=list)
    applied_tags: list[int] = field(default_factory=list)
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    recipients: list[int] = field(default_factory=list)
    last_message_id: int | None = None
    last_pin_at: float | None = None
    message_count: int = 0
    bot_deny: int = 0  # a member overwrite for the bot on this channel
    created_at: float = field(default_factory=time.time)

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def as_dict(self) -> dict[str, Any]:
        """A test's view: plain fields, int ids, thread metadata flattened."""
        return {
            "id": self.id,
            "type": self.type,
            "name": self.name,
            "guild_id": self.guild_id,
            "parent_id": self.parent_id,
            "owner_id": self.owner_id,
            "topic": self.topic,
            "available_tags": [dict(tag) for tag in self.available_tags],
            "applied_tags": list(self.applied_tags),
            "archived": self.archived,
            "locked": self.locked,
            "recipients": list(self.recipients),
            "message_count": self.message_count,
        }


@dataclass
class Attachment:
    filename: str
    content_type: str
    data: bytes
    id: int = 0
    description: str | None = None


def _walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from _walk_components(component.get("components", []))
        if isinstance(component.get("component"), dict):
            yield from _walk_components([component["component"]])
        if isinstance(component.get("accessory"), dict):
            yield from _walk_components([component["accessory"]])


@dataclass
class Message:
    """A message as stored, edits applied."""

    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    allowed_mentions: dict[str, Any] | None = None
    flags: int = 0
    pinned: bool = False
    created_at: float = field(default_factory=time.perf_counter)
    edited_at: float | None = None
    interaction_id: int | None = None
    # Beyond the brief's fields: what the wire format needs.
    guild_id: int | None = None
    webhook_id: int | None = None
    mentions: list[int] = field(default_factory=list)
    reference_id: int | None = None  # the message this one replies to
    reactions: dict[str, set[int]] = field(default_factory=dict)
    wall_time: float = field(default_factory=time.time)
    edited_wall_time: float | None = None
    nonce: str | None = None  # as the author sent it (Discord echoes it on create)
    # False for a message that resolved a deferral ("thinking"): Discord makes it by editing
    # the loading message, and an edit notifies nobody, whatever its mentions.
    notifies: bool = True

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in _walk_components(self.components) if "custom_id" in c]

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)


class World:
    """Everything the stand-in knows, with the lookups and permission sums REST needs."""

    def __init__(self, ids: Snowflakes) -> None:
        self.ids = ids
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, list[Message]] = {}  # by channel, in order
        self.message_index: dict[int, Message] = {}

    # -- building ------------------------------------------------------------------------
    def add_user(self, name: str, *, bot: bool = False) -> User:
        user = User(self.ids.next(), name, bot)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, owner: int, locale: str, bot_user: int) -> Guild:
        guild = Guild(self.ids.next(), name, owner, locale)
        # The @everyone role shares the guild's id, as on Discord.
        guild.roles[guild.id] = Role(guild.id, "@everyone", EVERYONE_PERMISSIONS)
        bot_role = Role(self.ids.next(), "bot", BOT_ROLE_PERMISSIONS, 1, True, bot_user)
        guild.roles[bot_role.id] = bot_role
        guild.members[owner] = Member(owner)
        guild.members[bot_user] = Member(bot_user, [bot_role.id])
        self.guilds[guild.id] = guild
        return guild

    def add_channel(self, channel: Channel) -> Channel:
        self.channels[channel.id] = channel
        self.messages.setdefault(channel.id, [])
        if channel.guild_id is not None and not channel.is_thread:
            self.guilds[channel.guild_id].channel_ids.append(channel.id)
        return channel

    def add_message(self, message: Message) -> Message:
        self.messages.setdefault(message.channel_id, []).append(message)
        self.message_index[message.id] = message
        channel = self.channels.get(message.channel_id)
        if channel is not None:
            channel.last_message_id = message.id
            channel.message_count += 1
        return message

    # -- lookups -------------------------------------------------------------------------
    def guild_of(self, channel_id: int) -> Guild | None:
        channel = self.channels.get(channel_id)
        if channel is None or channel.guild_id is None:
            return None
        return self.guilds[channel.guild_id]

    def threads_of(self, parent: int) -> list[Channel]:
        return [c for c in self.channels.values() if c.parent_id == parent]

    def find_message(self, channel_id: int, message_id: int) -> Message | None:
        message = self.message_index.get(message_id)
        if message is None or message.channel_id != channel_id:
            return None
        return message

    def add_role(self, guild: Guild, name: str, permissions: int) -> Role:
        role = Role(self.ids.next(), name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        return role

    def admin_role(self, guild: Guild) -> Role:
        for role in guild.roles.values():
            if role.permissions & ADMINISTRATOR and not role.managed:
                return role
        role = Role(self.ids.next(), "admin", ADMINISTRATOR, 2)
        guild.roles[role.id] = role
        return role

    # -- permissions ---------------------------------------------------------------------
    def member_permissions(self, guild: Guild, user_id: int) -> int:
        """A member's guild-wide permissions (only the bot has channel overwrites here)."""
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user_id)
        total = guild.roles[guild.id].permissions
        for role_id in member.roles if member else ():
            total |= guild.roles[role_id].permissions
        return ALL_PERMISSIONS if total & ADMINISTRATOR else total

    def bot_permissions(self, channel_id: int, bot_user: int) -> int:
        """The bot's permissions in a channel: its roles less the deny overwrites."""
        channel = self.channels[channel_id]
        if channel.guild_id is None:
            return DM_PERMISSIONS
        guild = self.guilds[channel.guild_id]
        base = self.member_permissions(guild, bot_user)
        if base & ADMINISTRATOR:
            return ALL_PERMISSIONS
        # Threads take their permissions from the parent channel.
        holder = self.channels[channel.parent_id] if channel.parent_id else channel
        return base & ~(guild.bot_deny | holder.bot_deny)
