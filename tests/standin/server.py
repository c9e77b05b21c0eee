"""StandIn: the aiohttp server and the API tests drive it with."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aiohttp import web

from . import contract, payloads
from .core import Core
from .gateway import RESUME_PATH
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    COMPONENT,
    MODAL_SUBMIT,
    Interaction,
    build_options,
    find_command,
)
from .rest import API, app_routes, make_middleware
from .rest_channels import channel_routes
from .rest_guilds import guild_routes
from .rest_interactions import interaction_routes
from .world import GUILD_FORUM, GUILD_TEXT, MANAGE_THREADS, Channel, Member, Message

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


class StandIn(Core):
    """A local Discord for one bot application: see the package docstring."""

    def __init__(self, *, message_content_allowed: bool = True, heartbeat_ms: int = 1000) -> None:
        super().__init__(message_content_allowed=message_content_allowed, heartbeat_ms=heartbeat_ms)
        self._runner: web.AppRunner | None = None

    # -- server ----------------------------------------------------------------------------
    async def start(self) -> None:
        """Listen on 127.0.0.1, on a free port."""
        app = web.Application(middlewares=[make_middleware(self)], client_max_size=64 * 2**20)
        app.add_routes(
            [
                web.get("/gateway", self.gateway.handle),
                web.get(RESUME_PATH, self.gateway.handle),
                web.get("/attachments/{channel}/{id}/{name}", self._attachment),
                *app_routes(self),
                *channel_routes(self),
                *guild_routes(self),
                *interaction_routes(self),
            ]
        )
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.host_url = f"http://127.0.0.1:{port}"

    async def close(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def gateway_url(self) -> str:
        return self.host_url.replace("http", "ws", 1) + "/gateway"

    async def _attachment(self, request: web.Request) -> web.Response:
        wanted = int(request.match_info["id"])
        for message in self.world.messages.get(int(request.match_info["channel"]), []):
            for attachment in message.attachments:
                if attachment.id == wanted:
                    return web.Response(body=attachment.data, content_type=attachment.content_type)
        return web.Response(status=404)

    # -- the world -------------------------------------------------------------------------
    def add_user(self, name: str, *, bot: bool = False) -> int:
        return self.world.add_user(name, bot=bot).id

    def add_guild(self, name: str, *, owner: int, locale: str = "ru") -> int:
        guild = self.world.add_guild(name, owner, locale, self.bot_user_id)
        # Joining a guild while connected: Discord sends GUILD_CREATE.
        self.gateway.dispatch(
            "GUILD_CREATE", payloads.guild_create(self.world, guild, self.bot_user_id), guild.id
        )
        return guild.id

    def add_role(self, guild: int, name: str, *, permissions: int = 0) -> int:
        g = self.world.guilds[guild]
        role = self.world.add_role(g, name, permissions)
        self.gateway.dispatch(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild), "role": payloads.role(role)}, guild
        )
        return role.id

    def add_member(
        self, guild: int, user: int, *, roles: Sequence[int] = (), admin: bool = False
    ) -> None:
        g = self.world.guilds[guild]
        member = g.members.setdefault(user, Member(user))
        member.roles = [*dict.fromkeys([*member.roles, *roles])]
        if admin:
            known = set(g.roles)
            role = self.world.admin_role(g)
            if role.id not in known:
                data = {"guild_id": str(guild), "role": payloads.role(role)}
                self.gateway.dispatch("GUILD_ROLE_CREATE", data, guild)
            member.roles.append(role.id)
        data = {**payloads.member(self.world, member), "guild_id": str(guild)}
        self.gateway.dispatch("GUILD_MEMBER_ADD", data, guild)

    def add_text_channel(self, guild: int, name: str) -> int:
        return self._add_channel(guild, name, GUILD_TEXT, ())

    def add_forum_channel(self, guild: int, name: str, tags: Sequence[str] = ()) -> int:
        return self._add_channel(guild, name, GUILD_FORUM, tags)

    def _add_channel(self, guild: int, name: str, kind: int, tags: Sequence[str]) -> int:
        position = len(self.world.guilds[guild].channel_ids)
        channel = Channel(self.ids.next(), kind, name, guild_id=guild, position=position)
        channel.available_tags = [{"id": self.ids.next(), "name": tag} for tag in tags]
        self.world.add_channel(channel)
        self.gateway.dispatch("CHANNEL_CREATE", self.channel_payload(channel), guild)
        return channel.id

    def deny_bot(self, channel_or_guild: int, permissions: int) -> None:
        """Take permissions from the bot in one channel (with its threads) or a whole guild,
        as a member overwrite would; discord.py's own permission sums see it too."""
        self._set_deny(channel_or_guild, lambda deny: deny | permissions)

    def allow_bot(self, channel_or_guild: int, permissions: int) -> None:
        """Undo ``deny_bot`` for these permissions."""
        self._set_deny(channel_or_guild, lambda deny: deny & ~permissions)

    def _set_deny(self, target: int, change: Callable[[int], int]) -> None:
        if target in self.world.guilds:
            guild = self.world.guilds[target]
            guild.bot_deny = change(guild.bot_deny)
            touched = [self.world.channels[c] for c in guild.channel_ids]
        else:
            channel = self.channel_or_404(target)
            if channel.is_thread:
                raise AssertionError("threads take their permissions from the parent: deny there")
            channel.bot_deny = change(channel.bot_deny)
            touched = [channel]
        for channel in touched:
            self.dispatch_channel("CHANNEL_UPDATE", channel)

    # -- users acting ----------------------------------------------------------------------
    async def slash(
        self,
        user: int,
        channel: int,
        command: str,
        options: Mapping[str, Any] = {},  # the brief's signature; never mutated
        *,
        locale: str = "en-US",
    ) -> Interaction:
        """A slash command as ``user`` types it: ``command`` is the path ("vl move").
        AssertionError when the bot has not synced such a command, option or choice."""
        where = self.channel_or_404(channel)
        # "Users cannot ... use application commands ... in archived threads" (threads topic).
        assert not (where.is_thread and where.archived), "no commands in an archived thread"
        data = self._command_data(channel, command, options, None)
        return await self._interact(APPLICATION_COMMAND, user, channel, data, locale)

    async def autocomplete(
        self,
        user: int,
        channel: int,
        command: str,
        options: Mapping[str, Any],
        focused: str,
        *,
        locale: str = "en-US",
    ) -> list[dict[str, Any]]:
        """The choices the bot answers while ``user`` types in option ``focused``."""
        data = self._command_data(channel, command, options, focused)
        interaction = await self._interact(AUTOCOMPLETE, user, channel, data, locale)
        response = await interaction.wait_response()
        assert response["type"] == AUTOCOMPLETE_RESULT, f"not an autocomplete answer: {response}"
        choices: list[dict[str, Any]] = response["data"].get("choices", [])
        return choices

    async def click(
        self, user: int, message: Message, custom_id: str, *, locale: str = "en-US"
    ) -> Interaction:
        """``user`` presses the component ``custom_id`` on a stored message (as it is now)."""
        current = self.world.message_index.get(message.id)
        assert current is not None, f"message {message.id} is gone"
        found = [c for c in _walk(current.components) if c.get("custom_id") == custom_id]
        assert found, f"no component {custom_id!r} on message {message.id}: {current.custom_ids()}"
        assert not found[0].get("disabled"), f"component {custom_id!r} is disabled"
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": found[0]["type"]}
        if found[0]["type"] != 2:
            data["values"] = []
        return await self._interact(COMPONENT, user, current.channel_id, data, locale, current)

    async def submit_modal(
        self,
        user: int,
        channel: int,
        custom_id: str,
        fields: Mapping[str, str],
        *,
        locale: str = "en-US",
    ) -> Interaction:
        """``user`` submits the modal the bot showed with ``custom_id``, text inputs filled
        by their custom ids. AssertionError if the bot never showed it or lacks a field."""
        modal = self.modals.get(custom_id)
        assert modal is not None, f"the bot never showed a modal {custom_id!r}"
        inputs = {c["custom_id"] for c in _walk(modal.get("components", [])) if c["type"] == 4}
        unknown = set(fields) - inputs
        assert not unknown, f"modal {custom_id!r} has no fields {sorted(unknown)}"
        for spec in (c for c in _walk(modal.get("components", [])) if c["type"] == 4):
            # Discord's client lets a user type no more than the input allows.
            top = min(int(spec.get("max_length") or 4000), 4000)
            typed = fields.get(spec["custom_id"], "")
            assert len(typed) <= top, f"{spec['custom_id']!r} takes at most {top} characters"
        data = {"custom_id": custom_id, "components": _filled(modal["components"], fields)}
        return await self._interact(MODAL_SUBMIT, user, channel, data, locale)

    async def post(
        self, user: int, channel: int, content: str, *, reply_to: int | None = None
    ) -> Message:
        """``user`` writes a message (``reply_to``: as a reply to that message id):
        MESSAGE_CREATE goes out, content blanked for a client without the message-content
        intent, as Discord does."""
        assert user in self.world.users, f"unknown user {user}"
        where = self.channel_or_404(channel)
        assert where.type != GUILD_FORUM, "post in a forum's thread"
        reopened = where.is_thread and where.archived
        if reopened:
            guild = self.world.guilds[where.guild_id or 0]
            may_manage = self.world.member_permissions(guild, user) & MANAGE_THREADS
            assert not where.locked or may_manage, "a locked archived thread takes no messages"
            where.archived = False  # sending a message unarchives the thread, as on Discord
        body: dict[str, Any] = {"content": content}
        if reply_to is not None:
            body["message_reference"] = {"message_id": reply_to}
        message = self.new_message(channel, user, body, [])
        if reopened:
            # Discord promises no order between the two events: the message comes first
            # here, so a bot must not count on having the thread in its cache.
            self.dispatch_channel("THREAD_UPDATE", where)
        return message

    def archive_thread(self, thread: int, *, locked: bool = False) -> None:
        """The thread archives itself after its auto-archive time without activity (or a
        moderator archives it, ``locked`` perhaps): THREAD_UPDATE goes out, and discord.py
        drops the thread from its cache, as with Discord."""
        channel = self.channel_or_404(thread)
        assert channel.is_thread, "only threads archive"
        channel.archived = True
        channel.locked = locked
        self.dispatch_channel("THREAD_UPDATE", channel)

    def _command_data(
        self, channel: int, command: str, options: Mapping[str, Any], focused: str | None
    ) -> dict[str, Any]:
        name, *path = command.split()
        guild = self.world.guild_of(channel)
        guild_commands = [c for c in self.commands if guild and c.get("guild_id") == str(guild.id)]
        global_commands = [c for c in self.commands if not c.get("guild_id")]
        known = {c["name"] for c in guild_commands}
        pool = guild_commands + [c for c in global_commands if c["name"] not in known]
        spec = find_command(pool, name)
        tree, resolved = build_options(spec, path, options, focused=focused)
        data: dict[str, Any] = {"id": spec["id"], "name": spec["name"], "type": 1, "options": tree}
        if spec.get("guild_id"):
            data["guild_id"] = spec["guild_id"]
        if resolved:
            data["resolved"] = self._resolved(guild.id if guild else None, resolved)
        return data

    def _resolved(self, guild_id: int | None, wanted: list[tuple[int, int]]) -> dict[str, Any]:
        out: dict[str, dict[str, Any]] = {}
        guild = self.world.guilds.get(guild_id) if guild_id else None
        for _kind, target in wanted:
            if target in self.world.users:
                out.setdefault("users", {})[str(target)] = payloads.user(self.world.users[target])
                if guild and target in guild.members:
                    member = payloads.interaction_member(self.world, guild, target)
                    member.pop("user")
                    out.setdefault("members", {})[str(target)] = member
            elif guild and target in guild.roles:
                out.setdefault("roles", {})[str(target)] = payloads.role(guild.roles[target])
            elif target in self.world.channels:
                channel = self.world.channels[target]
                entry = self.channel_payload(channel)
                entry["permissions"] = str(self.bot_permissions(target))
                out.setdefault("channels", {})[str(target)] = entry
            else:
                raise AssertionError(f"option value {target} names nothing in the world")
        return out

    async def _interact(
        self,
        kind: int,
        user: int,
        channel_id: int,
        data: dict[str, Any],
        locale: str,
        message: Message | None = None,
    ) -> Interaction:
        channel = self.channel_or_404(channel_id)
        guild = self.world.guild_of(channel_id)
        guild_id = guild.id if guild else None
        assert self.gateway.covers(guild_id), "no gateway session holds this guild's shard"
        interaction = Interaction(
            id=self.ids.next(),
            token=f"itok.{secrets.token_urlsafe(32)}",
            type=kind,
            channel_id=channel_id,
            guild_id=guild_id,
            user_id=user,
            message_id=message.id if message else None,
        )
        payload: dict[str, Any] = {
            "id": str(interaction.id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel_id),
            "channel": self.channel_payload(channel),
            "token": interaction.token,
            "version": 1,
            "app_permissions": str(self.bot_permissions(channel_id)),
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild_locale"] = guild.locale
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["member"] = payloads.interaction_member(self.world, guild, user)
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
            payload["context"] = 0
        else:
            payload["user"] = payloads.user(self.world.users[user])
            payload["authorizing_integration_owners"] = {"1": str(user)}
            payload["context"] = 1
        if message is not None:
            payload["message"] = self.message_payload(message)
        self.interactions[interaction.token] = interaction
        written = self.gateway.dispatch("INTERACTION_CREATE", payload, guild_id, track=True)
        assert written is not None
        interaction.dispatched_at = await written
        return interaction

    # -- connection control ----------------------------------------------------------------
    def drop_gateway(self, code: int = 4000) -> None:
        """Close the live connection(s) with ``code``: 1001 or 4000, and the clients RESUME;
        4009 (session timed out), and they identify anew (see ``Gateway.drop``)."""
        self.gateway.drop(code)

    def invalidate_session(self, *, resumable: bool) -> None:
        """Op 9 Invalid Session to the live connection(s): resumable or not."""
        self.gateway.invalidate(resumable)

    @property
    def connected(self) -> int:
        """How many identified sessions have a live connection now."""
        return len(self.gateway.live_sessions())

    @property
    def resumes(self) -> int:
        """How many RESUMEs succeeded, over all sessions."""
        return self.gateway.resumed

    async def wait_ready(self, timeout: float = 10, count: int = 1) -> None:
        """Until ``count`` sessions are identified (READY and their GUILD_CREATEs sent) and
        connected. The client's own on_ready follows after its guild_ready_timeout."""
        await self.wait_for(lambda: self.connected >= count, timeout)

    # -- what the bot did ------------------------------------------------------------------
    def messages(self, channel: int) -> list[Message]:
        """Every message in the channel in order, edits applied, ephemeral ones included
        (check ``flags`` / ``ephemeral``); deleted ones are gone."""
        return list(self.world.messages.get(channel, []))

    def channel(self, channel_id: int) -> dict[str, Any]:
        return self.channel_or_404(channel_id).as_dict()

    def threads_of(self, parent: int) -> list[dict[str, Any]]:
        return [c.as_dict() for c in self.world.threads_of(parent)]

    def pinged(self, message: Message) -> set[int]:
        """Who ``message`` notified: its mentions as its ``allowed_mentions`` let through
        (nobody, for the answer that resolved a deferral)."""
        if not message.notifies:
            return set()
        replied = self.world.message_index.get(message.reference_id or 0)
        author = replied.author_id if replied is not None else None
        return contract.pinged(message.content, message.allowed_mentions, author)

    def pins(self, channel: int) -> list[Message]:
        """Pinned messages, oldest message first."""
        return [m for m in self.messages(channel) if m.pinned]

    async def wait_message(
        self,
        channel: int,
        predicate: Callable[[Message], bool] = lambda m: True,
        timeout: float = 10,
        *,
        after: float | None = None,
    ) -> Message:
        """The first matching message created after the call (or, with ``after``, created at
        or after that time.perf_counter() value, which may be before the call, e.g. a
        ``post``'s ``created_at``): creation only, not edits."""
        since = time.perf_counter() if after is None else after
        found: list[Message] = []

        def seen() -> bool:
            # Messages are stored in creation order: only the tail can be new enough.
            stored = self.world.messages.get(channel, [])
            start = len(stored)
            while start > 0 and stored[start - 1].created_at >= since:
                start -= 1
            for message in stored[start:]:
                if predicate(message):
                    found.append(message)
                    return True
            return False

        await self.wait_for(seen, timeout)
        return found[0]


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for component in components:
        out.append(component)
        out.extend(_walk(component.get("components", [])))
        if isinstance(component.get("component"), dict):
            out.extend(_walk([component["component"]]))
        if isinstance(component.get("accessory"), dict):
            out.extend(_walk([component["accessory"]]))
    return out


def _filled(components: list[dict[str, Any]], fields: Mapping[str, str]) -> list[dict[str, Any]]:
    """The modal's layout as a submit carries it: rows and labels kept, inputs with values."""
    out: list[dict[str, Any]] = []
    for component in components:
        kind = component["type"]
        if kind == 1:
            out.append({"type": 1, "components": _filled(component["components"], fields)})
        elif kind == 18:
            inner = _filled([component["component"]], fields)
            if inner:
                out.append({"type": 18, "component": inner[0]})
        elif kind == 4:
            value = fields.get(component["custom_id"], "")
            out.append({"type": 4, "custom_id": component["custom_id"], "value": value})
    return out


__all__ = ["API", "StandIn"]
