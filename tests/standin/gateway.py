"""The gateway: HELLO, IDENTIFY/READY, heartbeats, RESUME, shards, intents, dispatches.

Every dispatch is numbered and written through one queue per connection, so the order the
stand-in decided on is the order the client sees, even when the event comes from a plain
(non-async) method such as ``add_text_channel``. A session keeps what it was sent, so a
client that lost its connection can RESUME and get the missed events replayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

# Opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME = 0, 1, 2, 3, 6
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11

# Intents.
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_REACTIONS = 1 << 10
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
DIRECT_MESSAGE_REACTIONS = 1 << 13

MESSAGE_EVENTS = ("MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE")
REACTION_EVENTS = ("MESSAGE_REACTION_ADD", "MESSAGE_REACTION_REMOVE")
REPLAY_LIMIT = 20_000  # dispatches a session keeps for RESUME
RESUME_WINDOW_S = 60.0  # how long a session without a connection may still RESUME
RESUME_PATH = "/resume-gateway"  # READY's resume_gateway_url: where a session resumes

# Closes the stand-in can make (Discord's gateway close event codes): after 1001 and 4000
# the session may RESUME; 4009 (session timed out) means Discord forgot it, so a RESUME is
# answered with op 9 (not resumable) and the client identifies anew.
RESUMABLE_CLOSES = frozenset({1001, 4000})
FAULT_CLOSES = frozenset({1001, 4000, 4009})
# Every fault a test can make (``Gateway.fault``), and whether the session survives it.
FAULTS = {
    "close 1001": True,
    "close 4000": True,
    "close 4009": False,
    "op 9 resumable": True,
    "op 9 not resumable": False,
}


@dataclass
class Connection:
    """One websocket and the single task that writes to it."""

    ws: web.WebSocketResponse
    queue: asyncio.Queue[tuple[str, asyncio.Future[float] | None]] = field(
        default_factory=asyncio.Queue
    )
    alive: bool = True

    def send(self, text: str, written: asyncio.Future[float] | None = None) -> None:
        self.queue.put_nowait((text, written))

    def abandon(self) -> None:
        """Resolve what was queued but never written (the socket died): the session keeps
        those dispatches for a RESUME, and no caller waits forever on them."""
        while not self.queue.empty():
            _, written = self.queue.get_nowait()
            if written is not None and not written.done():
                written.set_result(time.perf_counter())

    async def write_forever(self) -> None:
        while True:
            text, written = await self.queue.get()
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                self.alive = False
            finally:
                if written is not None and not written.done():
                    written.set_result(time.perf_counter())


@dataclass
class Session:
    """What Discord keeps of an IDENTIFY: its shard, intents and the numbered dispatches."""

    id: str
    shard: tuple[int, int]
    intents: int
    seq: int = 0
    sent: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=REPLAY_LIMIT))
    connection: Connection | None = None
    resumes: int = 0
    dropped_at: float | None = None  # time.monotonic() when it lost its connection

    def detach(self) -> None:
        self.connection = None
        self.dropped_at = time.monotonic()

    def expired(self) -> bool:
        gone = self.dropped_at
        return gone is not None and time.monotonic() - gone > RESUME_WINDOW_S

    def owns_guild(self, guild_id: int | None) -> bool:
        shard_id, count = self.shard
        if guild_id is None:  # DMs go to shard 0, as on Discord
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id

    def dispatch(self, event: str, data: Any, written: asyncio.Future[float] | None) -> None:
        self.seq += 1
        text = json.dumps({"op": DISPATCH, "t": event, "s": self.seq, "d": data})
        self.sent.append((self.seq, text))
        if self.connection is not None and self.connection.alive:
            self.connection.send(text, written)
        elif written is not None and not written.done():
            # No live socket: the time is when it is replayed; until then, now is the best.
            written.set_result(time.perf_counter())


# The hooks a Gateway needs from the stand-in, kept as callables so this module stays small.
ReadyPayload = Callable[["Session"], dict[str, Any]]
GuildPayloads = Callable[["Session"], list[tuple[int, dict[str, Any]]]]
MembersChunk = Callable[[int], list[dict[str, Any]]]


class Gateway:
    def __init__(
        self,
        *,
        token: str,
        heartbeat_ms: int,
        message_content_allowed: bool,
        ready_payload: ReadyPayload,
        guild_payloads: GuildPayloads,
        members_chunk: MembersChunk,
        changed: Callable[[], None],
    ) -> None:
        self.token = token
        self.heartbeat_ms = heartbeat_ms
        self.message_content_allowed = message_content_allowed
        self._ready_payload = ready_payload
        self._guild_payloads = guild_payloads
        self._members_chunk = members_chunk
        self._changed = changed
        self.sessions: dict[str, Session] = {}
        self.close_codes: list[int] = []  # every close the stand-in made, for tests
        self.invalidations: list[bool] = []  # every op 9 sent to a live session (resumable?)
        self.identifies = 0  # READYs sent
        self.resumed = 0  # RESUMEs that succeeded, forgotten sessions' too
        self.resumes_elsewhere = 0  # RESUMEs not made on READY's resume_gateway_url
        self._sockets: set[web.WebSocketResponse] = set()
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- state -----------------------------------------------------------------------------
    def live_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.connection and s.connection.alive]

    def covers(self, guild_id: int | None) -> bool:
        return any(s.owns_guild(guild_id) and not s.expired() for s in self.sessions.values())

    # -- dispatch --------------------------------------------------------------------------
    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        guild_id: int | None,
        *,
        shape: Callable[[Session, dict[str, Any]], dict[str, Any] | None] | None = None,
        track: bool = False,
    ) -> asyncio.Future[float] | None:
        """Send an event to every session holding ``guild_id``'s shard.

        ``shape`` adapts the payload per session (e.g. strips message content) or returns
        None to skip that session. With ``track``, the result is a future of the
        perf_counter() of the (first) write; without, None (and no event loop is needed).
        """
        first: asyncio.Future[float] | None = None
        if track:
            first = asyncio.get_running_loop().create_future()
        for session in list(self.sessions.values()):
            if session.expired():
                # Discord forgets a session that stayed away (e.g. a killed bot's).
                del self.sessions[session.id]
                continue
            if not session.owns_guild(guild_id) or not _wanted(session, event, guild_id):
                continue
            shaped = shape(session, data) if shape else data
            if shaped is None:
                continue
            session.dispatch(event, shaped, first if first and not first.done() else None)
        if first is not None and not first.done():
            first.set_result(time.perf_counter())
        return first

    def drop(self, code: int = 4000) -> None:
        """Close every live connection with ``code``: after 1001 or 4000 the clients RESUME
        (what is dispatched meanwhile is kept for the replay); after 4009 the session is
        gone, as Discord's is, and the clients identify anew."""
        assert code in FAULT_CLOSES, f"not a close the gateway makes here: {code}"
        for session in list(self.sessions.values()):
            conn = session.connection
            if conn is None:
                continue
            conn.alive = False
            session.detach()
            if code not in RESUMABLE_CLOSES:
                del self.sessions[session.id]
            self.close_codes.append(code)
            self._spawn(conn.ws.close(code=code, message=b"dropped by the test"))
        self._changed()

    def fault(self, name: str) -> None:
        """Make one of ``FAULTS``."""
        assert name in FAULTS, f"no such fault: {name}"
        if name.startswith("close"):
            self.drop(int(name.split()[1]))
        else:
            self.invalidate(FAULTS[name])

    def invalidate(self, resumable: bool) -> None:
        """Op 9 to every live session, as Discord sends when it invalidates an active one:
        ``resumable`` (``d: true``) lets the client RESUME; otherwise the session is
        forgotten and the client must identify anew. The client closes the socket itself."""
        for session in self.live_sessions():
            conn = session.connection
            assert conn is not None
            conn.send(json.dumps({"op": INVALID_SESSION, "d": resumable}))
            # Nothing more goes down this socket: the client has stopped reading it.
            conn.alive = False
            session.detach()
            if not resumable:
                del self.sessions[session.id]
            self.invalidations.append(resumable)
        self._changed()

    # -- the websocket ---------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self._sockets.add(ws)
        conn = Connection(ws)
        writer = asyncio.create_task(conn.write_forever())
        session: Session | None = None
        conn.send(json.dumps({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_ms}}))
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op = payload.get("op")
                data = payload.get("d")
                if op == HEARTBEAT:
                    conn.send(json.dumps({"op": HEARTBEAT_ACK}))
                elif op == IDENTIFY:
                    session = await self._identify(conn, data)
                elif op == RESUME:
                    if request.path != RESUME_PATH:
                        self.resumes_elsewhere += 1
                    session = await self._resume(conn, data)
                elif op == REQUEST_MEMBERS and session is not None:
                    self._chunk(session, data)
                # PRESENCE and anything else: accepted and ignored.
        finally:
            conn.alive = False
            if session is not None and session.connection is conn:
                session.detach()
                if ws.close_code == 1000:
                    # A clean close by the client ends its session, as on Discord.
                    self.sessions.pop(session.id, None)
            # Let queued frames (e.g. a close reason) go out before the writer stops.
            await asyncio.sleep(0)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
            conn.abandon()
            self._sockets.discard(ws)
            self._changed()
        return ws

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        if data.get("token") != self.token and data.get("token") != f"Bot {self.token}":
            await self._close(conn, 4004, "Authentication failed.")
            return None
        intents = int(data.get("intents", 0))
        if intents & MESSAGE_CONTENT and not self.message_content_allowed:
            await self._close(conn, 4014, "Disallowed intent(s).")
            return None
        shard_id, count = data.get("shard") or (0, 1)
        session = Session(secrets.token_hex(16), (int(shard_id), int(count)), intents)
        self.sessions[session.id] = session
        session.connection = conn
        ready = self._ready_payload(session)
        if data.get("shard") is not None:  # READY carries the shard only when identify did
            ready["shard"] = [session.shard[0], session.shard[1]]
        self.identifies += 1
        session.dispatch("READY", ready, None)
        for _, guild in self._guild_payloads(session):
            session.dispatch("GUILD_CREATE", guild, None)
        self._changed()
        return session

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(str(data.get("session_id")))
        seq = int(data.get("seq") or 0)
        if session is None or session.expired() or data.get("token") != self.token:
            conn.send(json.dumps({"op": INVALID_SESSION, "d": False}))
            return None
        if seq > session.seq:  # a sequence the session never sent
            await self._close(conn, 4007, "Invalid seq.")
            return None
        if session.sent and seq < session.sent[0][0] - 1:  # what it missed is no longer kept
            conn.send(json.dumps({"op": INVALID_SESSION, "d": False}))
            return None
        for number, text in session.sent:
            if number > seq:
                conn.send(text)
        session.connection = conn
        session.dropped_at = None
        session.resumes += 1
        self.resumed += 1
        session.dispatch("RESUMED", {"_trace": ["stand-in"]}, None)
        self._changed()
        return session

    def _chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild_id = int(data["guild_id"])
        chunk = {
            "guild_id": str(guild_id),
            "members": self._members_chunk(guild_id),
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk, None)

    async def _close(self, conn: Connection, code: int, reason: str) -> None:
        conn.alive = False
        self.close_codes.append(code)
        await conn.ws.close(code=code, message=reason.encode())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for ws in list(self._sockets):
            await ws.close(code=1001)
        for task in list(self._tasks):
            task.cancel()


def _wanted(session: Session, event: str, guild_id: int | None) -> bool:
    """Whether the session's intents ask for this event (Discord filters the same way)."""
    if event in MESSAGE_EVENTS or (event == "CHANNEL_PINS_UPDATE" and guild_id is None):
        needed = GUILD_MESSAGES if guild_id is not None else DIRECT_MESSAGES
    elif event in REACTION_EVENTS:
        needed = GUILD_MESSAGE_REACTIONS if guild_id is not None else DIRECT_MESSAGE_REACTIONS
    elif event.startswith(("GUILD_MEMBER_",)) and event != "GUILD_MEMBERS_CHUNK":
        needed = GUILD_MEMBERS
    elif event.startswith(("CHANNEL_", "THREAD_", "GUILD_")):
        needed = GUILDS
    else:
        return True
    return bool(session.intents & needed)
