"""The stand-in's shared state and the few operations both REST and the test API need:
making and editing messages (with their gateway events), permission checks, notification."""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from . import payloads
from .contract import Contract
from .errors import ApiError
from .faults import Faults
from .gateway import MESSAGE_CONTENT, RESUME_PATH, Gateway, Session
from .interactions import Interaction
from .snowflakes import Snowflakes
from .world import DM, Attachment, Channel, Message, World

MENTION = re.compile(r"<@!?(\d+)>")


def missing_permissions() -> ApiError:
    return ApiError(403, 50013, "Missing Permissions")


def not_found(what: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


class Core:
    def __init__(self, *, message_content_allowed: bool, heartbeat_ms: int) -> None:
        self.ids = Snowflakes()
        self.world = World(self.ids)
        self.token = f"standin.{secrets.token_urlsafe(24)}"
        self.application_id = self.ids.next()
        bot = self.world.add_user("Vaha-Lite", bot=True)
        self.bot_user_id = bot.id
        self.host_url = ""  # http://127.0.0.1:PORT, set by start()
        self.commands: list[dict[str, Any]] = []  # global then guild commands, as synced
        self.interactions: dict[str, Interaction] = {}  # by token
        self.modals: dict[str, dict[str, Any]] = {}  # the modals the bot showed, by custom_id
        self.requests: list[tuple[str, str]] = []
        self.unhandled: list[tuple[str, str]] = []  # requests no route of the stand-in served
        self.refusals: list[tuple[str, str, ApiError]] = []  # every error answered, in order
        self.contract = Contract()  # Discord's limits, each on unless a test relaxes it
        self.faults = Faults()  # 429s, 5xx and slow answers a test asks for
        self.nonce_hits = 0  # messages sent again under an enforced nonce, and not created
        self._changed = asyncio.Event()
        self.gateway = Gateway(
            token=self.token,
            heartbeat_ms=heartbeat_ms,
            message_content_allowed=message_content_allowed,
            ready_payload=self._ready_payload,
            guild_payloads=self._guild_payloads,
            members_chunk=self._members_chunk,
            changed=self.notify,
        )

    # -- change notification -------------------------------------------------------------
    def notify(self) -> None:
        self._changed.set()

    async def wait_for(self, predicate: Callable[[], bool], timeout: float = 10) -> None:
        """Until ``predicate()`` is true; it is asked again after every change, not polled."""
        deadline = time.monotonic() + timeout
        while not predicate():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"condition not met in {timeout} s")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except TimeoutError:
                continue

    # -- payload helpers -----------------------------------------------------------------
    @property
    def api_base(self) -> str:
        return f"{self.host_url}/api/v10"

    def message_payload(self, message: Message) -> dict[str, Any]:
        return payloads.message(self.world, message, self.host_url, self.bot_user_id)

    def channel_payload(self, channel: Channel) -> dict[str, Any]:
        return payloads.channel(self.world, channel, self.bot_user_id)

    def _ready_payload(self, session: Session) -> dict[str, Any]:
        flags = payloads.APPLICATION_FLAGS_MEMBERS_LIMITED | (
            payloads.APPLICATION_FLAGS_CONTENT
            if self.gateway.message_content_allowed
            else payloads.APPLICATION_FLAGS_CONTENT_LIMITED
        )
        return {
            "v": 10,
            "user": payloads.me(self.world.users[self.bot_user_id]),
            "guilds": [
                {"id": str(g), "unavailable": True}
                for g in self.world.guilds
                if session.owns_guild(g)
            ],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.host_url.replace("http", "ws", 1) + RESUME_PATH,
            "application": {"id": str(self.application_id), "flags": flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "user_settings": {},
            "auth": {},
            "_trace": ["stand-in"],
        }

    def _guild_payloads(self, session: Session) -> list[tuple[int, dict[str, Any]]]:
        return [
            (g.id, payloads.guild_create(self.world, g, self.bot_user_id))
            for g in self.world.guilds.values()
            if session.owns_guild(g.id)
        ]

    def _members_chunk(self, guild_id: int) -> list[dict[str, Any]]:
        guild = self.world.guilds.get(guild_id)
        if guild is None:
            return []
        return [payloads.member(self.world, m) for m in guild.members.values()]

    # -- permissions ---------------------------------------------------------------------
    def bot_permissions(self, channel_id: int) -> int:
        return self.world.bot_permissions(channel_id, self.bot_user_id)

    def require(self, channel_id: int, permissions: int) -> None:
        if self.bot_permissions(channel_id) & permissions != permissions:
            raise missing_permissions()

    def channel_or_404(self, channel_id: int) -> Channel:
        channel = self.world.channels.get(channel_id)
        if channel is None:
            raise not_found("Channel", 10003)
        return channel

    def message_or_404(self, channel_id: int, message_id: int) -> Message:
        message = self.world.find_message(channel_id, message_id)
        if message is None:
            raise not_found("Message", 10008)
        return message

    def dm_channel(self, user: int) -> int:
        """The DM channel between ``user`` and the bot (made on first use), for ``post``
        and ``slash`` in DMs."""
        for channel in self.world.channels.values():
            if channel.type == DM and channel.recipients == [user]:
                return channel.id
        return self.world.add_channel(Channel(self.ids.next(), DM, "", recipients=[user])).id

    # -- messages ------------------------------------------------------------------------
    def new_message(
        self,
        channel_id: int,
        author_id: int,
        body: dict[str, Any],
        files: list[Attachment],
        *,
        interaction_id: int | None = None,
        webhook_id: int | None = None,
        dispatch: bool = True,
        message_id: int | None = None,
    ) -> Message:
        channel = self.world.channels[channel_id]
        message = Message(
            id=message_id or self.ids.next(),
            channel_id=channel_id,
            author_id=author_id,
            guild_id=channel.guild_id,
            interaction_id=interaction_id,
            webhook_id=webhook_id,
        )
        apply_body(message, body, files, self.ids)
        self.world.add_message(message)
        if dispatch and not message.ephemeral:
            self.dispatch_message("MESSAGE_CREATE", message)
        self.notify()
        return message

    def edit_message(self, message: Message, body: dict[str, Any], files: list[Attachment]) -> None:
        channel = self.world.channels[message.channel_id]
        if channel.is_thread and channel.archived and not message.ephemeral:
            # "Users cannot edit messages ... in archived threads" (Discord's threads topic).
            raise ApiError(400, 50083, "Thread is archived")
        apply_body(message, body, files, self.ids)
        message.edited_at = time.perf_counter()
        message.edited_wall_time = time.time()
        if not message.ephemeral:
            self.dispatch_message("MESSAGE_UPDATE", message)
        self.notify()

    def dispatch_message(self, event: str, message: Message) -> None:
        payload = self.message_payload(message)

        def shape(session: Session, data: dict[str, Any]) -> dict[str, Any]:
            # Discord blanks content for clients without the intent, except for the bot's
            # own messages, DMs and messages that mention the bot.
            if (
                session.intents & MESSAGE_CONTENT
                or message.author_id == self.bot_user_id
                or message.guild_id is None
                or self.bot_user_id in message.mentions
            ):
                return data
            return {**data, "content": "", "embeds": [], "attachments": [], "components": []}

        self.gateway.dispatch(event, payload, message.guild_id, shape=shape)

    def dispatch_channel(self, event: str, channel: Channel) -> None:
        data = self.channel_payload(channel)
        if event == "THREAD_CREATE":
            data["newly_created"] = True
        self.gateway.dispatch(event, data, channel.guild_id)
        self.notify()


def apply_body(
    message: Message, body: dict[str, Any], files: list[Attachment], ids: Snowflakes
) -> None:
    """Set the fields a create/edit body names; attachments per Discord's rules: on an edit
    an ``attachments`` list keeps those of the old ones it names, new files are added."""
    if "content" in body:
        message.content = body["content"] or ""
        message.mentions = [int(m) for m in MENTION.findall(message.content)]
    if "embeds" in body:
        message.embeds = list(body["embeds"] or [])
    elif "embed" in body and body["embed"] is not None:
        message.embeds = [body["embed"]]
    if "components" in body:
        message.components = list(body["components"] or [])
    if body.get("message_reference"):
        message.reference_id = int(body["message_reference"]["message_id"])
    if "allowed_mentions" in body:
        message.allowed_mentions = body["allowed_mentions"]
    if body.get("flags") is not None:
        message.flags = int(body["flags"])
    if "attachments" in body and body["attachments"] is not None:
        keep = {int(a["id"]) for a in body["attachments"] if _is_old(a, len(files))}
        message.attachments = [a for a in message.attachments if a.id in keep]
        described = {int(a["id"]): a for a in body["attachments"]}
        for index, file in enumerate(files):
            file.description = described.get(index, {}).get("description")
    for file in files:
        file.id = ids.next()
        message.attachments.append(file)


def _is_old(attachment: dict[str, Any], new_count: int) -> bool:
    # New files are named by their index (0..n-1); old ones by their snowflake.
    return int(attachment["id"]) >= new_count and int(attachment["id"]) > 1 << 22
