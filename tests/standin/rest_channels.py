"""REST routes for channels: messages, pins, reactions, threads and forum posts, channel
edits, DM channels. Each change dispatches the gateway event Discord would send."""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from . import payloads
from .contract import check_forum_tags, check_message, check_thread
from .core import Core, missing_permissions, not_found
from .errors import ApiError
from .rest import API, json_response, no_content, read_body, snowflake
from .world import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    GUILD_FORUM,
    GUILD_TEXT,
    MANAGE_CHANNELS,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    PIN_MESSAGES,
    PUBLIC_THREAD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Channel,
    Message,
)

# Pinning needs both: MANAGE_MESSAGES was the rule until 2025, PIN_MESSAGES is the new one.
# Demanding both means a bot that passes here works under either.
PIN_NEEDS = MANAGE_MESSAGES | PIN_MESSAGES


# Discord checks an enforced nonce "in the past few minutes": the stand-in takes five.
NONCE_SECONDS = 300


def _nonce(body: dict[str, Any]) -> str | None:
    """A message's nonce: an integer or a string of at most 25 characters (Discord's rule)."""
    value = body.get("nonce")
    if value is None:
        return None
    if not isinstance(value, str | int) or isinstance(value, bool) or len(str(value)) > 25:
        raise ApiError(400, 50035, "Invalid Form Body: nonce must be 25 or fewer in length")
    return str(value)


def _same_nonce(core: Core, author: int, nonce: str) -> Message | None:
    """The author's message with this nonce created in the last minutes, if any."""
    since = time.time() - NONCE_SECONDS
    for messages in core.world.messages.values():
        for message in messages:
            if (
                message.author_id == author
                and message.nonce == nonce
                and message.wall_time >= since
            ):
                return message
    return None


def channel_routes(core: Core) -> list[web.RouteDef]:
    ch = f"{API}/channels/{{channel}}"
    msg = f"{ch}/messages/{{message}}"

    def the_channel(request: web.Request) -> Channel:
        return core.channel_or_404(snowflake(request, "channel"))

    def the_message(request: web.Request) -> Message:
        return core.message_or_404(snowflake(request, "channel"), snowflake(request, "message"))

    def check_send(channel: Channel, with_files: bool) -> None:
        if channel.type == GUILD_FORUM:
            raise ApiError(400, 50008, "Cannot send messages in a non-text channel")
        send = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        core.require(channel.id, VIEW_CHANNEL | send | (ATTACH_FILES if with_files else 0))
        reopen(core, channel)

    async def get_channel(request: web.Request) -> web.Response:
        channel = the_channel(request)
        if channel.guild_id is not None:
            core.require(channel.id, VIEW_CHANNEL)
        return json_response(core.channel_payload(channel))

    async def patch_channel(request: web.Request) -> web.Response:
        channel = the_channel(request)
        body, _ = await read_body(request)
        if channel.is_thread:
            _patch_thread(core, channel, body)
            core.dispatch_channel("THREAD_UPDATE", channel)
        else:
            core.require(channel.id, MANAGE_CHANNELS)
            _patch_guild_channel(core, channel, body)
            core.dispatch_channel("CHANNEL_UPDATE", channel)
        return json_response(core.channel_payload(channel))

    async def post_message(request: web.Request) -> web.Response:
        channel = the_channel(request)
        body, files = await read_body(request)
        check_send(channel, bool(files))
        check_message(core.contract, body, files)
        nonce = _nonce(body)
        if nonce is not None and body.get("enforce_nonce"):
            earlier = _same_nonce(core, core.bot_user_id, nonce)
            if earlier is not None:  # Discord returns it and creates nothing
                core.nonce_hits += 1
                core.notify()
                return json_response(core.message_payload(earlier))
        message = core.new_message(channel.id, core.bot_user_id, body, files)
        message.nonce = nonce
        return json_response(core.message_payload(message))

    async def get_messages(request: web.Request) -> web.Response:
        channel = the_channel(request)
        core.require(channel.id, VIEW_CHANNEL | READ_MESSAGE_HISTORY)
        found = [m for m in core.world.messages.get(channel.id, []) if not m.ephemeral]
        limit = int(request.query.get("limit", 50))
        if "before" in request.query:
            found = [m for m in found if m.id < int(request.query["before"])]
        if "after" in request.query:
            found = [m for m in found if m.id > int(request.query["after"])][:limit]
        newest_first = list(reversed(found))[:limit]
        return json_response([core.message_payload(m) for m in newest_first])

    async def get_message(request: web.Request) -> web.Response:
        return json_response(core.message_payload(the_message(request)))

    async def patch_message(request: web.Request) -> web.Response:
        message = the_message(request)
        body, files = await read_body(request)
        if message.author_id != core.bot_user_id:
            if set(body) - {"flags"}:
                raise ApiError(403, 50005, "Cannot edit a message authored by another user")
            core.require(message.channel_id, MANAGE_MESSAGES)
        if files:
            core.require(message.channel_id, ATTACH_FILES)
        check_message(core.contract, body, files, kept=kept(message, body), before=message)
        core.edit_message(message, body, files)
        return json_response(core.message_payload(message))

    async def delete_message(request: web.Request) -> web.Response:
        message = the_message(request)
        if message.author_id != core.bot_user_id:
            core.require(message.channel_id, MANAGE_MESSAGES)
        delete(core, message)
        return no_content()

    async def pin(request: web.Request) -> web.Response:
        message = the_message(request)
        core.require(message.channel_id, PIN_NEEDS)
        set_pinned(core, message, request.method == "PUT")
        return no_content()

    async def get_pins(request: web.Request) -> web.Response:
        channel = the_channel(request)
        pinned = [m for m in core.world.messages.get(channel.id, []) if m.pinned]
        items = [
            {"pinned_at": payloads.iso(m.wall_time), "message": core.message_payload(m)}
            for m in reversed(pinned)
        ]
        if request.path.endswith("/messages/pins"):
            return json_response({"items": items, "has_more": False})
        return json_response([item["message"] for item in items])

    async def react(request: web.Request) -> web.Response:
        message = the_message(request)
        emoji = request.match_info["emoji"]
        users = message.reactions.setdefault(emoji, set())
        adding = request.method == "PUT"
        (users.add if adding else users.discard)(core.bot_user_id)
        event = "MESSAGE_REACTION_ADD" if adding else "MESSAGE_REACTION_REMOVE"
        data: dict[str, Any] = {
            "user_id": str(core.bot_user_id),
            "channel_id": str(message.channel_id),
            "message_id": str(message.id),
            "emoji": {"id": None, "name": emoji},
            "burst": False,
            "type": 0,
        }
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        core.gateway.dispatch(event, data, message.guild_id)
        core.notify()
        return no_content()

    async def start_thread(request: web.Request) -> web.Response:
        parent = the_channel(request)
        body, files = await read_body(request)
        if parent.type == GUILD_FORUM:
            return json_response(_forum_post(core, parent, body, files))
        if parent.type != GUILD_TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        core.require(parent.id, VIEW_CHANNEL | CREATE_PUBLIC_THREADS)
        check_thread(core.contract, body, creating=True)
        thread = _new_thread(core, parent, body, core.ids.next())
        return json_response(core.channel_payload(thread))

    async def thread_from_message(request: web.Request) -> web.Response:
        parent = the_channel(request)
        message = the_message(request)
        core.require(parent.id, VIEW_CHANNEL | CREATE_PUBLIC_THREADS)
        if message.id in core.world.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        body, _ = await read_body(request)
        check_thread(core.contract, body, creating=True)
        # A thread started from a message shares the message's id, as on Discord.
        thread = _new_thread(core, parent, body, message.id)
        return json_response(core.channel_payload(thread))

    async def open_dm(request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        recipient = int(body["recipient_id"])
        if recipient not in core.world.users:
            raise not_found("User", 10013)
        channel = core.world.channels[core.dm_channel(recipient)]
        return json_response(core.channel_payload(channel))

    async def accepted(request: web.Request) -> web.Response:
        the_channel(request)
        return no_content()

    return [
        web.get(ch, get_channel),
        web.patch(ch, patch_channel),
        web.post(f"{ch}/messages", post_message),
        web.get(f"{ch}/messages", get_messages),
        web.get(f"{ch}/messages/pins", get_pins),
        web.get(f"{ch}/pins", get_pins),
        web.put(f"{ch}/messages/pins/{{message}}", pin),
        web.delete(f"{ch}/messages/pins/{{message}}", pin),
        web.put(f"{ch}/pins/{{message}}", pin),
        web.delete(f"{ch}/pins/{{message}}", pin),
        web.get(msg, get_message),
        web.patch(msg, patch_message),
        web.delete(msg, delete_message),
        web.put(f"{msg}/reactions/{{emoji}}/@me", react),
        web.delete(f"{msg}/reactions/{{emoji}}/@me", react),
        web.post(f"{ch}/threads", start_thread),
        web.post(f"{msg}/threads", thread_from_message),
        web.post(f"{API}/users/@me/channels", open_dm),
        web.post(f"{ch}/typing", accepted),
        web.put(f"{ch}/thread-members/@me", accepted),
    ]


def reopen(core: Core, channel: Channel) -> None:
    """A message in an archived thread (a post, or an interaction's answer: a webhook's
    message reopens it too) reopens it, as on Discord; a locked one only for a bot that may
    manage threads."""
    if channel.is_thread and channel.archived:
        if channel.locked and not core.bot_permissions(channel.id) & MANAGE_THREADS:
            raise ApiError(400, 50083, "Thread is archived")
        channel.archived = False
        core.dispatch_channel("THREAD_UPDATE", channel)


def delete(core: Core, message: Message) -> None:
    core.world.messages[message.channel_id].remove(message)
    core.world.message_index.pop(message.id, None)
    data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
    if message.guild_id is not None:
        data["guild_id"] = str(message.guild_id)
    core.gateway.dispatch("MESSAGE_DELETE", data, message.guild_id)
    core.notify()


def set_pinned(core: Core, message: Message, pinned: bool) -> None:
    if message.pinned == pinned:
        return
    message.pinned = pinned
    channel = core.world.channels[message.channel_id]
    pins = [m for m in core.world.messages[channel.id] if m.pinned]
    channel.last_pin_at = time.time() if pins else None
    data: dict[str, Any] = {
        "channel_id": str(channel.id),
        "last_pin_timestamp": payloads.iso(channel.last_pin_at),
    }
    if channel.guild_id is not None:
        data["guild_id"] = str(channel.guild_id)
    core.gateway.dispatch("CHANNEL_PINS_UPDATE", data, channel.guild_id)
    core.notify()


def _new_thread(core: Core, parent: Channel, body: dict[str, Any], thread_id: int) -> Channel:
    thread = Channel(
        thread_id,
        int(body.get("type") or PUBLIC_THREAD),
        str(body.get("name", "thread")),
        guild_id=parent.guild_id,
        parent_id=parent.id,
        owner_id=core.bot_user_id,
        auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
    )
    core.world.add_channel(thread)
    core.dispatch_channel("THREAD_CREATE", thread)
    return thread


def _forum_post(core: Core, forum: Channel, body: dict[str, Any], files: list[Any]) -> Any:
    first = body.get("message") or {}
    core.require(forum.id, VIEW_CHANNEL | SEND_MESSAGES | (ATTACH_FILES if files else 0))
    tags = [int(t) for t in body.get("applied_tags") or []]
    _check_tags(forum, tags)
    check_thread(core.contract, body, creating=True)
    check_message(core.contract, first, files)
    # The post and its first message share one id, as on Discord.
    thread = _new_thread(core, forum, body, core.ids.next())
    thread.applied_tags = tags
    message = core.new_message(thread.id, core.bot_user_id, first, files, message_id=thread.id)
    return {**core.channel_payload(thread), "message": core.message_payload(message)}


def _check_tags(forum: Channel, tags: list[int]) -> None:
    known = {int(t["id"]) for t in forum.available_tags}
    if len(tags) > 5 or not set(tags) <= known:
        raise ApiError(400, 50035, "Invalid Form Body: applied_tags")


def _patch_thread(core: Core, thread: Channel, body: dict[str, Any]) -> None:
    may_manage = bool(core.bot_permissions(thread.id) & MANAGE_THREADS)
    if "locked" in body and bool(body["locked"]) != thread.locked and not may_manage:
        raise missing_permissions()
    if thread.owner_id != core.bot_user_id and not may_manage:
        raise missing_permissions()
    check_thread(core.contract, body, creating=False)
    if "applied_tags" in body:
        tags = [int(t) for t in body["applied_tags"] or []]
        _check_tags(core.world.channels[thread.parent_id or 0], tags)
        thread.applied_tags = tags
    if "name" in body:
        thread.name = str(body["name"])
    if "archived" in body:
        thread.archived = bool(body["archived"])
    if "locked" in body:
        thread.locked = bool(body["locked"])
    if "auto_archive_duration" in body:
        thread.auto_archive_duration = int(body["auto_archive_duration"])


def _patch_guild_channel(core: Core, channel: Channel, body: dict[str, Any]) -> None:
    if "name" in body:
        channel.name = str(body["name"])
    if "topic" in body:
        channel.topic = body["topic"]
    if "available_tags" in body and channel.type == GUILD_FORUM:
        check_forum_tags(core.contract, body["available_tags"] or [])
        tags = []
        for tag in body["available_tags"] or []:
            tag_id = int(tag["id"]) if tag.get("id") else core.ids.next()
            tags.append({**tag, "id": tag_id})
        channel.available_tags = tags


def kept(message: Message, body: dict[str, Any]) -> list[Any]:
    """The old attachments an edit keeps: those its ``attachments`` list names (all of them
    when it has none)."""
    if body.get("attachments") is None:
        return list(message.attachments)
    named = {int(a["id"]) for a in body["attachments"] if "id" in a}
    return [a for a in message.attachments if a.id in named]
