"""A local stand-in for Discord (gateway + REST) that unmodified discord.py 2.7 talks to.

Point discord.py at it with ``discord.http.Route.BASE = standin.api_base`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(standin.gateway_url)``, log in
with ``standin.token`` and use ``guild_ready_timeout=0.2``. Tests then build a world
(``add_user``, ``add_guild``, ``add_text_channel``...), act as users (``slash``,
``autocomplete``, ``click``, ``submit_modal``, ``post``, ``dm_channel``), control the
connection (``drop_gateway``, ``invalidate_session``, ``wait_ready``, ``connected``,
``resumes``), age threads (``archive_thread``) and read what the bot did (``messages``,
``channel``, ``threads_of``, ``pins``, ``commands``, ``requests``; ``unhandled`` lists
requests no route here serves). Every ``wait_*`` wakes on change, never
by a sleep loop. Times (``Interaction.dispatched_at``, ``Message.created_at``) are this
process's ``time.perf_counter()``: the dispatch written to the socket, the request read.

Faithful to Discord, because a bot depends on it:
- the gateway protocol: HELLO, IDENTIFY -> READY (guilds unavailable) then GUILD_CREATE per
  guild, heartbeats, numbered dispatches, RESUME replaying missed dispatches then RESUMED,
  INVALID_SESSION for an unknown session, close 4004 for a bad token and 4014 for the
  message-content intent when ``message_content_allowed=False``, 4007 for a RESUME with a
  sequence never sent; READY's ``shard`` when IDENTIFY sent one, and its
  ``resume_gateway_url`` (a RESUME made elsewhere is counted: ``gateway.resumes_elsewhere``);
- gateway faults (``gateway.FAULTS``): close 1001 or 4000 (the session may RESUME), 4009
  (Discord forgot the session: its RESUME gets op 9 and the client identifies anew), op 9
  resumable or not on a live session;
- shards (a guild belongs to shard ``(guild_id >> 22) % count``; DMs to shard 0) and intent
  filtering of events; blank message content for a client without the intent (except its
  own messages, DMs, mentions);
- the REST shapes discord.py parses: snowflake strings (time-based, above 2**53), JSON with
  an exact ``application/json`` type, multipart ``payload_json`` + ``files[n]``, error bodies
  ``{"code", "message"}`` (401 without the bot token, 403/50013 Missing Permissions, 404s
  with Discord's codes, 40060 for a second callback);
- interactions: ``with_response=1`` callback bodies, followups only after the callback,
  ``@original`` edits, ``app_permissions``, resolved users/members/roles/channels; commands
  are checked against what the bot synced (names, subcommands, options, types, choices,
  ranges; a localized name the bot synced may be typed, the interaction carries the real one);
- Discord's documented limits, each on by default and switchable off per test
  (``contract.relax("content")``; the list is ``contract.RULES`` in contract.py): empty
  messages (50006), content, embeds, components, attachments (413/40005), allowed mentions,
  autocomplete choices, command trees with their localizations, forum tags, thread names and
  archive durations, modals, one answer per interaction (40060, judged once the whole
  request is read: of two on their way together, one is refused) within 3 s (10062) and
  followups while the token lives (50027); refusals in Discord's shape (50035 with its
  ``errors`` tree); ``refusals`` lists every error answered;
- faults on demand (``faults``, faults.py): 429 with Discord's body and ``X-RateLimit-*``
  headers, per route, shared or global, closing the bucket for ``retry_after``; real buckets
  (``limit``); 500/502/503; slow answers;
- threads: GUILD_CREATE lists active threads only; an archived thread's THREAD_UPDATE
  makes discord.py drop it from its cache; a member's message in an archived unlocked
  thread unarchives it (MESSAGE_CREATE first, then THREAD_UPDATE: Discord promises no order,
  so a bot must not count on its cache), a locked one refuses it; the bot's message, a post
  or an interaction's public answer, unarchives one too (locked: with Manage Threads, else
  50083); no application commands and no message
  edits (50083) in an archived thread;
- every REST change dispatches its gateway event (MESSAGE_CREATE/UPDATE/DELETE,
  THREAD_CREATE/UPDATE, CHANNEL_UPDATE, CHANNEL_PINS_UPDATE, reactions); forum posts share
  their id with their first message; ``deny_bot`` is a member overwrite on the channels, so
  discord.py's own ``permissions_for`` agrees with the server.

Simplified:
- one bot application and one token; rate limits only where a test asks; no audit log,
  no compression (plain text frames); no presences, voice, invites, webhooks other than
  interaction followups;
- permissions: only the bot has overwrites (set by ``deny_bot``); members' permissions are
  the sum of their roles; pinning demands both MANAGE_MESSAGES and PIN_MESSAGES (so a bot
  that works here works under Discord's old and new rules);
- a deferred response makes no "thinking" message: editing ``@original``, or the first
  followup, creates it (with the deferral's flags, notifying nobody); later followups are
  new messages; ephemeral messages are stored (see ``flags``) but not
  dispatched; no system messages (thread created, message pinned);
- threads have no member lists; auto-archiving happens only when a test calls
  ``archive_thread``; message history supports ``before``/``after``/``limit`` but not
  ``around``;
- a session without a connection may RESUME for 60 s, then it is forgotten (a killed bot's).
"""

from .interactions import Interaction
from .server import StandIn
from .world import Attachment, Message

__all__ = ["Attachment", "Interaction", "Message", "StandIn"]
