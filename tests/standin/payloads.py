"""World objects as Discord API v10 JSON (ids as strings, times as ISO 8601)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from .world import (
    DM,
    GUILD_FORUM,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
    World,
)

APPLICATION_FLAGS_CONTENT = 1 << 18  # GATEWAY_MESSAGE_CONTENT
APPLICATION_FLAGS_CONTENT_LIMITED = 1 << 19
APPLICATION_FLAGS_MEMBERS_LIMITED = 1 << 15


def iso(timestamp: float | None) -> str | None:
    if timestamp is None:
        return None
    return datetime.fromtimestamp(timestamp, UTC).isoformat()


def user(u: User) -> dict[str, Any]:
    return {
        "id": str(u.id),
        "username": u.name,
        "global_name": None if u.bot else u.name,
        "discriminator": "0",
        "avatar": None,
        "bot": u.bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
    }


def me(u: User) -> dict[str, Any]:
    return {**user(u), "verified": True, "mfa_enabled": False, "locale": "en-US", "email": None}


def role(r: Role) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": str(r.id),
        "name": r.name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": r.position,
        "permissions": str(r.permissions),
        "managed": r.managed,
        "mentionable": False,
        "flags": 0,
    }
    if r.bot_id is not None:
        payload["tags"] = {"bot_id": str(r.bot_id)}
    return payload


def member(world: World, m: Member, *, with_user: bool = True) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "roles": [str(r) for r in m.roles],
        "joined_at": iso(m.joined_at),
        "nick": None,
        "avatar": None,
        "banner": None,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        payload["user"] = user(world.users[m.user_id])
    return payload


def interaction_member(world: World, guild: Guild, user_id: int) -> dict[str, Any]:
    m = guild.members.get(user_id) or Member(user_id)
    return {**member(world, m), "permissions": str(world.member_permissions(guild, user_id))}


def channel(world: World, c: Channel, bot_user: int) -> dict[str, Any]:
    """Any channel: guild text, forum, thread or DM."""
    if c.type == DM:
        return {
            "id": str(c.id),
            "type": DM,
            "last_message_id": _opt_id(c.last_message_id),
            "recipients": [user(world.users[r]) for r in c.recipients],
            "flags": 0,
        }
    if c.is_thread:
        return thread(c)
    payload: dict[str, Any] = {
        "id": str(c.id),
        "type": c.type,
        "guild_id": str(c.guild_id),
        "name": c.name,
        "position": c.position,
        "parent_id": None,
        "topic": c.topic,
        "nsfw": False,
        "last_message_id": _opt_id(c.last_message_id),
        "last_pin_timestamp": iso(c.last_pin_at),
        "rate_limit_per_user": 0,
        "default_auto_archive_duration": 1440,
        "default_thread_rate_limit_per_user": 0,
        "permission_overwrites": _overwrites(world, c, bot_user),
        "flags": 0,
    }
    if c.type == GUILD_FORUM:
        payload.update(
            available_tags=[_tag(t) for t in c.available_tags],
            default_reaction_emoji=None,
            default_sort_order=None,
            default_forum_layout=0,
        )
    return payload


def _overwrites(world: World, c: Channel, bot_user: int) -> list[dict[str, Any]]:
    guild = world.guilds[c.guild_id] if c.guild_id is not None else None
    deny = c.bot_deny | (guild.bot_deny if guild else 0)
    if not deny:
        return []
    return [{"id": str(bot_user), "type": 1, "allow": "0", "deny": str(deny)}]


def _tag(tag: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(tag["id"]),
        "name": tag["name"],
        "moderated": bool(tag.get("moderated", False)),
        "emoji_id": _opt_id(tag.get("emoji_id")),
        "emoji_name": tag.get("emoji_name"),
    }


def thread(c: Channel) -> dict[str, Any]:
    return {
        "id": str(c.id),
        "type": c.type,
        "guild_id": str(c.guild_id),
        "parent_id": str(c.parent_id),
        "owner_id": _opt_id(c.owner_id),
        "name": c.name,
        "last_message_id": _opt_id(c.last_message_id),
        "rate_limit_per_user": 0,
        "message_count": c.message_count,
        "member_count": 1,
        "total_message_sent": c.message_count,
        "applied_tags": [str(t) for t in c.applied_tags],
        "flags": 0,
        "thread_metadata": {
            "archived": c.archived,
            "auto_archive_duration": c.auto_archive_duration,
            "archive_timestamp": iso(c.created_at),
            "locked": c.locked,
            "invitable": True,
            "create_timestamp": iso(c.created_at),
        },
    }


def guild_create(world: World, g: Guild, bot_user: int) -> dict[str, Any]:
    channels = [world.channels[c] for c in g.channel_ids]
    threads = [t for c in channels for t in world.threads_of(c.id)]
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(g.owner_id),
        "region": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "application_id": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "preferred_locale": g.locale,
        "features": [],
        "roles": [role(r) for r in g.roles.values()],
        "emojis": [],
        "stickers": [],
        "joined_at": iso(g.joined_at),
        "large": False,
        "unavailable": False,
        "member_count": len(g.members),
        "members": [member(world, m) for m in g.members.values()],
        "channels": [channel(world, c, bot_user) for c in channels],
        "threads": [thread(t) for t in threads if not t.archived],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def attachment(a: Attachment, base_url: str, channel_id: int) -> dict[str, Any]:
    url = f"{base_url}/attachments/{channel_id}/{a.id}/{a.filename}"
    return {
        "id": str(a.id),
        "filename": a.filename,
        "size": len(a.data),
        "url": url,
        "proxy_url": url,
        "content_type": a.content_type,
        "description": a.description,
    }


def message(
    world: World, m: Message, base_url: str, bot_user: int, *, nested: bool = False
) -> dict[str, Any]:
    author = world.users[m.author_id]
    kind = 0 if m.interaction_id is None else 20
    if m.reference_id is not None and m.interaction_id is None:
        kind = 19  # REPLY
    payload: dict[str, Any] = {
        "id": str(m.id),
        "type": kind,
        "channel_id": str(m.channel_id),
        "author": user(author),
        "content": m.content,
        "timestamp": iso(m.wall_time),
        "edited_timestamp": iso(m.edited_wall_time),
        "tts": False,
        "mention_everyone": False,
        "mentions": [user(world.users[u]) for u in m.mentions if u in world.users],
        "mention_roles": [],
        "attachments": [attachment(a, base_url, m.channel_id) for a in m.attachments],
        "embeds": m.embeds,
        "components": m.components,
        "pinned": m.pinned,
        "flags": m.flags,
        "reactions": [
            {
                "emoji": {"id": None, "name": name},
                "count": len(users),
                "count_details": {"burst": 0, "normal": len(users)},
                "me": bot_user in users,
                "me_burst": False,
                "burst_colors": [],
            }
            for name, users in m.reactions.items()
            if users
        ],
    }
    if m.nonce is not None:
        payload["nonce"] = m.nonce
    if m.guild_id is not None:
        payload["guild_id"] = str(m.guild_id)
        guild = world.guilds[m.guild_id]
        if m.author_id in guild.members:
            payload["member"] = member(world, guild.members[m.author_id], with_user=False)
    if m.reference_id is not None:
        payload["message_reference"] = {
            "type": 0,
            "message_id": str(m.reference_id),
            "channel_id": str(m.channel_id),
            "guild_id": _opt_id(m.guild_id),
        }
        replied = world.message_index.get(m.reference_id)
        if not nested:  # Discord nests one level only
            payload["referenced_message"] = (
                message(world, replied, base_url, bot_user, nested=True) if replied else None
            )
    if m.webhook_id is not None:
        payload["webhook_id"] = str(m.webhook_id)
        payload["application_id"] = str(m.webhook_id)
    return payload


def _opt_id(value: Any) -> str | None:
    return None if value is None else str(value)
