"""What the bot posts in a game's thread or forum post.

Every change of a game posts one message: what happened with every die (as the console
narrates it), the board image, the buttons of the moment, and a mention of whoever must act
next (and nobody else: allowed mentions name that player alone). A status message pinned in
the thread is edited in place. When the bot may not attach images or pin, it says once per
channel which permission is missing, and the game goes on in text.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Sequence
from typing import Any

import discord

from vahalite_bot.app import Actor, GameService, GameStatus, Outcome
from vahalite_bot.app.records import PauseAsked
from vahalite_bot.app.results import ENDED, LOBBY, PAUSED_BY_PLAYERS
from vahalite_bot.discord import buttons, decisions, work
from vahalite_bot.discord.answers import Answer
from vahalite_bot.discord.identity import is_auto, mention, mentionable
from vahalite_bot.discord.retry import retried
from vahalite_bot.discord.seen import Seen
from vahalite_bot.discord.words import fit, say
from vahalite_bot.discord.workers import Workers
from vahalite_bot.i18n import translate
from vahalite_bot.present.board import board_text
from vahalite_bot.present.narrate import Narrator
from vahalite_bot.present.paint import plain
from vahalite_bot.present.recap import ShortLog
from vahalite_bot.present.summary import game_summary, scenario_name
from vahalite_bot.rules import victory
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.verify.export import export_log

log = logging.getLogger(__name__)

# The forum tags of a game's life, by the service's status.
TAGS = {LOBBY: "tag-open", "setup": "tag-playing", "playing": "tag-playing", ENDED: "tag-finished"}


class Room:
    """Posting in games' channels (threads and forum posts), for every cog alike."""

    def __init__(
        self, client: discord.Client, service: GameService, workers: Workers, seen: Seen
    ) -> None:
        self.client = client
        self.service = service
        self.workers = workers
        self.seen = seen
        self._warned: set[tuple[int, str]] = set()  # (channel, permission) told this run
        self._status_ids: dict[int, int] = {}  # channel -> its pinned status message
        self._status_texts: dict[int, str] = {}  # channel -> what that message says now
        self._names: dict[str, str] = {}  # user id -> display name, as last seen

    # -- the post of a change ------------------------------------------------------------------
    async def announce(
        self,
        outcomes: Sequence[Outcome],
        before: GameState | None,
        *,
        by: str | None,
        lines: Sequence[str] = (),
        reply_to: discord.Message | None = None,
        nonce: str | None = None,
        answer: Answer | None = None,
    ) -> GameStatus | None:
        """One message for ``outcomes`` (a command's, or a message's several orders); the
        game's status after them (the last one's version, which it brings along; read only
        if it does not). ``nonce``: the same post made again is kept once. ``answer``: the
        command's interaction, which the post answers if it still may."""
        if not outcomes:
            return None
        last = outcomes[-1]
        status = await self.seen.after(last)
        lang = status.language
        channel = self.channel(status)
        told = [say(lang, "by", user=mention(by))] if by else []
        told.extend(lines)
        told.extend(_narration(outcomes, lang))
        asked = next((e for e in last.events if isinstance(e, PauseAsked)), None)
        ping, addressed = self._addressee(status, asked, by)
        told.append(addressed)
        if status.status == ENDED:
            told.extend(await self._seed_lines(status))
        content = fit("\n".join(t for t in told if t))
        files: list[discord.File] = []
        if not self.may(channel, "attach_files"):
            await self.warn(channel, "attach_files", lang)
            if last.state is not None:
                content = fit(content + "\n" + self.text_board(last.state, lang))
        else:
            if status.status == ENDED:
                files.extend(await self._end_files(status))
            if last.state is not None:
                events = [e for o in outcomes for e in o.events]
                png = await self.board_png(last.state, events, before, status)
                files.append(discord.File(io.BytesIO(png), filename="board.png"))
        await self._send(
            channel,
            content,
            files=files,
            view=buttons.turn_view(status, lang, asked=asked is not None),
            ping=[ping] if ping != by else [],  # nobody is pinged about their own move
            reply_to=reply_to,
            nonce=nonce,
            answer=answer,
        )
        await self.refresh_status(status)
        return status

    def _addressee(
        self, status: GameStatus, asked: PauseAsked | None, by: str | None
    ) -> tuple[str | None, str]:
        """Who must act now (the one pinged) and the line that tells them."""
        lang = status.language
        request = status.undo_request
        if asked is not None:  # the other player may agree: they alone are pinged
            return _other(status, asked.side), ""
        if request is not None:  # the opponent must answer the undo request
            answerer = _other(status, request.side)
            asker = mention(request.user)
            return answerer, say(lang, "undo-question", asker=asker, answerer=mention(answerer))
        if status.acting_user == by:  # the same player goes on: said only for M3/M5 decisions
            return status.acting_user, self.decision_line(status) or ""
        return status.acting_user, self.next_line(status)

    def next_line(self, status: GameStatus) -> str:
        lang = status.language
        state = status.state
        who = mention(status.acting_user)
        if status.status == ENDED or state is None or status.acting_user is None:
            return ""
        if state.pending:
            return self.decision_line(status) or say(lang, "acts-next-pending", who=who)
        if state.phase is not Phase.PLAYING:
            phase = translate(lang, f"phase-{state.phase.value}")
            return say(lang, "acts-next-setup", who=who, phase=phase)
        return say(lang, "acts-next", who=who)

    def decision_line(self, status: GameStatus) -> str | None:
        """What an M3 or M5 decision waiting now asks of its player, and how to answer."""
        state = status.state
        if state is None or status.status == ENDED or status.acting_user is None:
            return None
        typing = bool(getattr(self.client, "reads_messages", True))
        return decisions.asking_line(
            state, status.language, mention(status.acting_user), typing=typing
        )

    async def _seed_lines(self, status: GameStatus) -> list[str]:
        """K2: at the end, the seed behind every die, for anyone to check."""
        reveal = await self.service.reveal_seed(status.game_id, Actor("public", guild=status.guild))
        lang = status.language
        name = f"vahalite-game-{status.game_id}.jsonl"
        return [
            say(lang, "seed", seed=reveal.seed.hex(), commitment=reveal.commitment),
            say(lang, "verify", file=name),
        ]

    async def recap(self, status: GameStatus, nonce: str | None = None) -> None:
        """A player's turn starts: everything since their last turn, as text and as one
        image of the whole turn, so that someone coming back after days sees it all."""
        state = status.state
        user = status.acting_user
        if state is None or state.active is None or user is None or is_auto(user):
            return
        side, lang = state.active, status.language
        names = await self.names(status)
        log = await self.service.recap_log(status.game_id, side)
        try:
            found = await self.workers.run(work.recap, log, side, names, lang)
        except ShortLog:
            whole = await self.service.recap_log(status.game_id, side, whole=True)
            found = await self.workers.run(work.recap, whole, side, names, lang)
        if found is None:
            return
        text, png = found
        channel = self.channel(status)
        content = fit("\n".join([say(status.language, "recap", user=mention(user)), *text]))
        files = []
        if self.may(channel, "attach_files"):
            files.append(discord.File(io.BytesIO(png), filename="turn.png"))
        await self._send(channel, content, files=files, nonce=nonce)

    async def _end_files(self, status: GameStatus) -> list[discord.File]:
        """The verifiable log, and the replay if it can be made small enough."""
        replay = await self._replay(status)
        return [await self._log_file(status), *([replay] if replay is not None else [])]

    async def _replay(self, status: GameStatus) -> discord.File | None:
        """The whole game as an animation, under Discord's upload limit."""
        log = await self.service.game_log(status.game_id)
        names = await self.names(status)
        gif = await self.workers.run(work.replay, log, names, status.language)
        if gif is None:
            return None
        return discord.File(io.BytesIO(gif), filename=f"vahalite-game-{status.game_id}.gif")

    async def _log_file(self, status: GameStatus) -> discord.File:
        """K2: the whole log with every die and the revealed seed, for
        ``python -m vahalite_bot.verify`` (no database, no bot needed)."""
        text = await export_log(self.service, status.game_id)
        name = f"vahalite-game-{status.game_id}.jsonl"
        return discord.File(io.BytesIO(text.encode("utf-8")), filename=name)

    async def board_png(
        self,
        state: GameState,
        events: Sequence[Any],
        before: GameState | None,
        status: GameStatus,
    ) -> bytes:
        names = await self.names(status)
        return await self.workers.run(
            work.board_png, state, list(events), before, names, status.language
        )

    def remember(self, user: discord.abc.User) -> None:
        """A player's name as Discord shows it, learnt whenever they act."""
        self._names[str(user.id)] = user.display_name

    async def names(self, status: GameStatus) -> dict[Side, str]:
        """The players' names for the board image (without the members intent the bot knows
        only those it has seen act, or fetched once; the side's name stands in for the rest)."""
        names: dict[Side, str] = {}
        for player in status.players:
            name = await self.display_name(player.user, status.language)
            if name is not None:
                names[player.side] = name
        return names

    async def display_name(self, user: str, lang: str) -> str | None:
        if is_auto(user):
            return say(lang, "bot-name", player=user.split(":", 1)[1])
        if user not in self._names and user.isdigit():
            try:
                self.remember(await self.client.fetch_user(int(user)))
            except discord.HTTPException:
                return None
        return self._names.get(user)

    def text_board(self, state: GameState, lang: str) -> str:
        return say(lang, "text-board") + "\n```\n" + board_text(state, lang, plain) + "\n```"

    # -- the pinned status ---------------------------------------------------------------------
    async def refresh_status(self, status: GameStatus) -> None:
        channel = self.channel(status)
        content = fit(self.status_text(status))
        message = await self._status_message(channel)
        quiet = discord.AllowedMentions.none()
        try:
            if message is not None:
                if self._status_texts.get(message.channel.id) == content:
                    return  # a move that changed nothing it shows (a terrain piece, a miss)
                where, which = message.channel.id, message.id
                await retried(lambda: self._edit(where, which, content, quiet), "a status")
                self._status_texts[message.channel.id] = content
                return
            sent = await retried(lambda: channel.send(content, allowed_mentions=quiet), "a status")
        except discord.Forbidden:
            return
        self._status_ids[sent.channel.id] = sent.id
        self._status_texts[sent.channel.id] = content
        if not self.may(channel, "manage_messages") and not self.may(channel, "pin_messages"):
            await self.warn(channel, "pin_messages", status.language)
            return
        try:
            await sent.pin()
        except discord.Forbidden:
            await self.warn(channel, "pin_messages", status.language)

    async def _edit(
        self, channel: int, message: int, content: str, mentions: discord.AllowedMentions
    ) -> None:
        """A message's new text, by Discord's route itself: ``Message.edit`` would build a
        ``Message`` of Discord's answer, which the status never reads."""
        with discord.http.handle_message_parameters(
            content=content,
            allowed_mentions=mentions,
            previous_allowed_mentions=self.client.allowed_mentions,
        ) as params:
            await self.client.http.edit_message(channel, message, params=params)

    async def _status_message(self, channel: discord.abc.Messageable) -> discord.Message | None:
        """The status message this bot pinned (remembered, or found among the pins)."""
        if not isinstance(channel, _PINNABLE):
            return None
        known = self._status_ids.get(channel.id)
        if known is not None:
            return channel.get_partial_message(known)  # type: ignore[return-value]
        me = self.client.user
        try:
            async for pinned in channel.pins(limit=50):
                if me is not None and pinned.author.id == me.id:
                    self._status_ids[channel.id] = pinned.id
                    self._status_texts[channel.id] = pinned.content
                    return pinned
        except (discord.Forbidden, discord.NotFound):
            return None
        return None

    def status_text(self, status: GameStatus) -> str:
        lang = status.language
        state = status.state
        phase = translate(lang, f"phase-{state.phase.value}") if state else status.status
        users = {p.side: mention(p.user) for p in status.players}
        lines = [
            say(lang, "status-title", game=status.game_id, phase=phase),
            say(
                lang,
                "status-players",
                south=users.get(Side.SOUTH, "—"),
                north=users.get(Side.NORTH, "—"),
            ),
            game_summary(
                lang, scenario_name(self.service.scenarios, status.scenario, lang), status.house
            ),
        ]
        if status.paused:
            players = status.paused_by == PAUSED_BY_PLAYERS
            lines.append(say(lang, "status-paused-players" if players else "status-paused"))
        if state is not None and state.phase in (Phase.PLAYING, Phase.ENDED):
            if state.active is not None:
                side = translate(lang, f"side-{state.active.value}")
                lines.append(
                    say(
                        lang,
                        "status-round",
                        round=state.round,
                        rounds=state.scenario.rounds,
                        side=side,
                    )
                )
            lines.append(
                say(
                    lang,
                    "status-score",
                    south=victory.score(state, Side.SOUTH).vp,
                    north=victory.score(state, Side.NORTH).vp,
                )
            )
        if status.due_at is not None and status.status != ENDED:
            stamp = int(status.due_at.timestamp())
            lines.append(say(lang, "status-deadline", deadline=f"<t:{stamp}:R>"))
        if state is not None:
            for side in Side:
                lines.append(f"**{translate(lang, f'side-{side.value}')}**")
                lines.extend(_unit_lines(state, side, lang))
        return "\n".join(lines)

    # -- forum tags ------------------------------------------------------------------------------
    async def tag(self, status: GameStatus) -> None:
        """The forum post's tag follows the game: looking for an opponent, playing, finished."""
        thread = self.client.get_channel(int(status.channel))
        if not isinstance(thread, discord.Thread) or not isinstance(
            thread.parent, discord.ForumChannel
        ):
            return
        forum = thread.parent
        wanted = say(status.language, TAGS.get(status.status, "tag-playing"))
        tag = await self.forum_tag(forum, wanted, status.language, thread)
        if tag is None or [t.id for t in thread.applied_tags] == [tag.id]:
            return
        with contextlib.suppress(discord.Forbidden, discord.HTTPException):
            await thread.edit(applied_tags=[tag])

    async def forum_tag(
        self,
        forum: discord.ForumChannel,
        name: str,
        lang: str,
        where: discord.abc.Messageable | discord.ForumChannel,
    ) -> discord.ForumTag | None:
        """The forum's tag called ``name``, created if missing and the bot may."""
        for tag in forum.available_tags:
            if tag.name == name:
                return tag
        if not forum.permissions_for(forum.guild.me).manage_channels:
            await self.warn(where, "manage_channels", lang)
            return None
        tags = [*forum.available_tags, discord.ForumTag(name=name)]
        try:
            edited = await forum.edit(available_tags=tags)
        except discord.Forbidden:
            await self.warn(where, "manage_channels", lang)
            return None
        except discord.HTTPException as error:
            # Discord refused the tag (a forum holds 20 at most, a name 20 characters): the
            # game goes on untagged; the operator reads why.
            log.warning("forum %s refused the tag %r: %s", forum.id, name, error)
            return None
        source = edited if isinstance(edited, discord.ForumChannel) else forum
        return next((t for t in source.available_tags if t.name == name), None)

    async def archive(self, status: GameStatus) -> None:
        """A finished game's thread or forum post is archived (posting in it reopens it)."""
        thread = self.client.get_channel(int(status.channel))
        if isinstance(thread, discord.Thread) and not thread.archived:
            with contextlib.suppress(discord.Forbidden, discord.HTTPException):
                await thread.edit(archived=True)

    # -- channels and permissions ----------------------------------------------------------------
    def channel(self, status: GameStatus) -> discord.abc.Messageable:
        found = self.client.get_channel(int(status.channel))
        if isinstance(found, discord.abc.Messageable):
            return found
        return self.client.get_partial_messageable(int(status.channel))

    def may(self, channel: discord.abc.Messageable, permission: str) -> bool:
        if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            return True
        me = channel.guild.me
        return me is None or bool(getattr(channel.permissions_for(me), permission, True))

    async def warn(
        self, channel: discord.abc.Messageable | discord.ForumChannel, permission: str, lang: str
    ) -> None:
        """Once per channel and run: which permission is missing and what it changes (a forum
        itself takes no messages: its posts are told instead)."""
        if not isinstance(channel, discord.abc.Messageable):
            return
        channel_id = getattr(channel, "id", 0)
        if (channel_id, permission) in self._warned:
            return
        self._warned.add((channel_id, permission))
        effect = {
            "attach_files": "effect-attach",
            "pin_messages": "effect-pin",
            "manage_channels": "effect-tags",
        }[permission]
        text = say(
            lang,
            "missing-permission",
            permission=PERMISSION_NAMES[permission],
            effect=say(lang, effect),
        )
        with contextlib.suppress(discord.Forbidden, discord.HTTPException):
            await channel.send(fit(text), allowed_mentions=discord.AllowedMentions.none())

    async def _send(
        self,
        channel: discord.abc.Messageable,
        content: str,
        *,
        files: Sequence[discord.File] = (),
        view: discord.ui.View | None = None,
        ping: Sequence[str | None] = (),
        reply_to: discord.Message | None = None,
        nonce: str | None = None,
        answer: Answer | None = None,
    ) -> discord.Message | None:
        """The message, or None if it went out as ``answer``'s interaction's answer (a
        command's post in its own channel; a reply and a nonce belong to posts without one)."""
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False, users=mentionable(list(ping))
        )
        kwargs: dict[str, Any] = {"allowed_mentions": allowed}
        if view is not None:
            kwargs["view"] = view
        # Whatever was composed, Discord takes at most 2000 characters: cut at a line.
        text = fit(content)
        if (
            answer is not None
            and reply_to is None
            and nonce is None
            and answer.channel_id == getattr(channel, "id", None)
            and await answer.post(text, files, **kwargs)
        ):
            return None
        if files:
            kwargs["files"] = list(files)
        if reply_to is not None:
            kwargs["reference"] = reply_to
            kwargs["mention_author"] = False
        if nonce is not None:  # discord.py asks Discord to enforce it: one message per nonce
            kwargs["nonce"] = nonce
        return await retried(lambda: channel.send(text, **kwargs), "a post", files)

    async def post(
        self,
        status: GameStatus,
        content: str,
        *,
        view: discord.ui.View | None = None,
        ping: Sequence[str | None] = (),
        nonce: str | None = None,
    ) -> discord.Message:
        """A plain message in the game (the lobby's news, a question to a player)."""
        sent = await self._send(self.channel(status), content, view=view, ping=ping, nonce=nonce)
        assert sent is not None  # no interaction to answer: posted in the channel
        return sent


def _narration(outcomes: Sequence[Outcome], lang: str) -> list[str]:
    """What happened, every die shown, as the console tells it."""
    narrator = Narrator(lang, plain)
    told: list[str] = []
    for outcome in outcomes:
        if outcome.state is not None:
            told.extend(t for t in narrator.tell(outcome.events, outcome.state) if t)
    return told


def _other(status: GameStatus, side: Side) -> str | None:
    return next((p.user for p in status.players if p.side is not side), None)


_PINNABLE = (discord.Thread, discord.TextChannel, discord.PartialMessageable)

# The permission names as Discord's client shows them (English: Discord's own word).
PERMISSION_NAMES = {
    "attach_files": "Attach Files",
    "pin_messages": "Pin Messages",
    "manage_channels": "Manage Channels",
}


def _unit_lines(state: GameState, side: Side, lang: str) -> list[str]:
    lines = []
    for unit in state.units.values():
        if unit.side is not side:
            continue
        name = f"`{unit.id}` {unit.sheet.name.get(lang)}"
        if unit.destroyed:
            lines.append(say(lang, "status-unit-dead", unit=name))
            continue
        # No cell: the pin is the game's summary, and every post's board shows where units
        # stand; with it, nearly every command edited the pin (a request and its echo).
        lines.append(say(lang, "status-unit", unit=name, hp=unit.hp, max=unit.sheet.max_hp))
    return lines
