"""How every command runs, whichever way it came (slash command, button, text order): find the
game, call the service with the interaction's id as the idempotency key, post
the outcome in the game's thread, keep the forum tag and the bot opponent going.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from vahalite_bot.app import Actor, GameService, GameStatus, NotAllowed, NotFound, Outcome
from vahalite_bot.app.results import ENDED
from vahalite_bot.discord.answers import Answer
from vahalite_bot.discord.identity import actor_of, is_auto
from vahalite_bot.discord.tree import Refusal, tell
from vahalite_bot.discord.words import lang_of, say
from vahalite_bot.rules.events import TurnStarted
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState

if TYPE_CHECKING:
    from vahalite_bot.discord.client import VahaBot


# A command whose work (the change and its post) is ready within this many seconds is
# answered by its post itself (the public message with the board, one request for both);
# a slower one is deferred (ephemerally: see ``answers``) and its post goes to the channel.
# Discord drops a first answer later than 3 s after the interaction: this leaves the rest
# for the gateway's delivery, a busy loop and the upload of the post or the deferral.
ANSWER_WITHIN = 1.5

# A command's work: (game, caller, idempotency key) -> its outcome, or several (an order
# that first declined an offered advance).
Call = Callable[[int, Actor, str], Awaitable[Outcome | list[Outcome]]]


class Games:
    def __init__(self, bot: VahaBot) -> None:
        self.bot = bot
        # A thread or forum post hosts one game for ever: its id, once found, never changes.
        self._games: dict[int, int] = {}

    @property
    def service(self) -> GameService:
        return self.bot.service

    # -- finding the game and the caller -------------------------------------------------------
    async def game_here(self, channel_id: int | None) -> int:
        if channel_id is None:
            raise Refusal("not-game-channel")
        known = self._games.get(channel_id)
        if known is not None:
            return known
        try:
            game: int = await self.service.game_in_channel(str(channel_id))
        except NotFound:
            raise Refusal("not-game-channel") from None
        self._games[channel_id] = game
        return game

    def actor(self, interaction: discord.Interaction[Any]) -> Actor:
        if interaction.guild is None:
            raise Refusal("needs-server")
        self.bot.room.remember(interaction.user)
        return actor_of(interaction.user, interaction.guild)

    async def side_of(
        self, game: int, user: str, *, max_age: float | None = 0.0
    ) -> tuple[GameStatus, Side | None]:
        """The game and the user's side in it: read now, or (``max_age`` seconds, None: any
        age) as this process last saw it, for a caller that copes with an old view."""
        seen = self.bot.seen
        status = await (seen.read(game) if max_age == 0.0 else seen.recent(game, max_age))
        return status, next((p.side for p in status.players if p.user == user), None)

    # -- running a command ---------------------------------------------------------------------
    async def command(
        self, interaction: discord.Interaction[Any], call: Call, *, game: int | None = None
    ) -> None:
        """Run ``call`` on the game of this channel (or ``game``) and post the outcome, the
        post answering the interaction; deferred only if all that takes longer than
        ``ANSWER_WITHIN`` (Discord wants the first answer within 3 s), and then the caller
        is told it is done."""
        answer = Answer(interaction)
        work = asyncio.ensure_future(self._command(answer, call, game))
        try:
            await asyncio.wait({work}, timeout=ANSWER_WITHIN)
            if not work.done():
                await answer.defer()
            await work
        except asyncio.CancelledError:
            work.cancel()
            raise
        if not answer.answered:
            await tell(interaction, say(lang_of(interaction.locale), "done"))

    async def _command(self, answer: Answer, call: Call, game: int | None) -> None:
        interaction = answer.interaction
        actor = self.actor(interaction)
        game_id = game if game is not None else await self.game_here(interaction.channel_id)
        done = await call(game_id, actor, str(interaction.id))
        outcomes = done if isinstance(done, list) else [done]
        await self.after(outcomes, outcomes[0].before, by=actor.user, answer=answer)

    async def after(
        self,
        outcomes: Sequence[Outcome],
        before: GameState | None,
        *,
        by: str | None,
        lines: Sequence[str] = (),
        reply_to: discord.Message | None = None,
        nonce: str | None = None,
        answer: Answer | None = None,
    ) -> None:
        """Everything that follows a change: the post, the forum tag, the bot's reply.
        ``nonce``: made again (after a crash), its posts are kept once. ``answer``: the
        command's interaction, which the post answers if it still may."""
        if not outcomes:
            return
        status = await self.bot.room.announce(
            outcomes, before, by=by, lines=lines, reply_to=reply_to, nonce=nonce, answer=answer
        )
        assert status is not None
        if any(isinstance(e, TurnStarted) for o in outcomes for e in o.events):
            await self.bot.room.recap(status, nonce=None if nonce is None else nonce + "r")
        await self.bot.room.tag(status)
        if status.status == ENDED:
            await self.bot.room.archive(status)
        self.bot.opponent.kick(status)

    async def undo(
        self, game: int, actor: Actor, count: int, key: str, *, expected_version: int | None = None
    ) -> Outcome:
        """Take back the caller's last actions; with dice rolled, ask the opponent (a bot
        opponent always declines, as in the console: it cannot be asked)."""
        service = self.service
        try:
            outcome: Outcome = await service.undo(
                game, actor, count, expected_version=expected_version, key=key
            )
        except NotAllowed as error:
            if error.code != "undo_needs_consent":
                raise
            status = await self.bot.seen.read(game)
            if any(is_auto(p.user) for p in status.players if p.user != actor.user):
                raise Refusal("bot-declines-undo") from None
            outcome = await service.request_undo(
                game, actor, count, expected_version=expected_version, key=key + ":ask"
            )
        return outcome

    # -- showing the board to one user ---------------------------------------------------------
    async def show_board(
        self, interaction: discord.Interaction[Any], game: int, *, note: str | None = None
    ) -> None:
        """The current board, ephemerally (for a stale button, a spectator, the Board button)."""
        status: GameStatus = await self.service.status(game)
        text = "\n".join(t for t in (note, self.bot.room.status_text(status)) if t)
        if status.state is None:
            await tell(interaction, text)
            return
        png = await self.bot.room.board_png(status.state, (), None, status)
        await tell(interaction, text, file=discord.File(io.BytesIO(png), filename="board.png"))
