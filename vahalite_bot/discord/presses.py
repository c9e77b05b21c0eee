"""What a button press does. Buttons that change the game carry the version they were drawn
for: pressed on an old message, the service refuses (StaleState) and the user is shown the
game as it is now. Reading buttons (Board, Odds) show the current game whatever the version.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from vahalite_bot.app import Actor, NotAllowed, Outcome, StaleState
from vahalite_bot.discord import choices, decisions
from vahalite_bot.discord.tree import report, tell
from vahalite_bot.discord.words import lang_of, say

if TYPE_CHECKING:
    from vahalite_bot.discord.client import VahaBot


class Presses:
    def __init__(self, bot: VahaBot) -> None:
        self.bot = bot

    async def press(
        self,
        interaction: discord.Interaction[Any],
        verb: str,
        game: int,
        version: int,
        asker: int | None = None,
    ) -> None:
        """``asker``: the button answers that user's question (resign), and only theirs."""
        try:
            if asker is not None and interaction.user.id != asker:
                await self._not_yours(interaction, asker)
                return
            await self._press(interaction, verb, game, version)
        except StaleState:
            await self._stale(interaction, game)
        except Exception as error:
            await report(interaction, error)

    async def _press(
        self, interaction: discord.Interaction[Any], verb: str, game: int, version: int
    ) -> None:
        games, service = self.bot.games, self.bot.service
        if verb == "board":
            await interaction.response.defer(ephemeral=True, thinking=True)
            await games.show_board(interaction, game)
            return
        if verb == "odds":
            await self._odds(interaction, game)
            return
        if verb == "rn":
            await interaction.response.send_message(
                say(lang_of(interaction.locale), "resign-cancelled"), ephemeral=True
            )
            return
        if verb == "bot":
            await self.bot.lobby.practice(interaction, game)
            return

        async def call(game_id: int, actor: Actor, key: str) -> Outcome:
            if verb == "join":
                return await self.bot.lobby.joining(game_id, actor, key, version)
            if verb == "end":
                return await service.end_turn(game_id, actor, expected_version=version, key=key)
            if verb == "undo":
                return await self.bot.games.undo(game_id, actor, 1, key, expected_version=version)
            if verb in ("ua", "ud"):
                return await service.answer_undo(
                    game_id, actor, verb == "ua", expected_version=version, key=key
                )
            if verb == "agree":
                paused = (await self.bot.seen.at(game_id, version)).paused
                return await service.ask_pause(
                    game_id, actor, not paused, expected_version=version, key=key
                )
            if verb == "ry":
                return await service.resign(game_id, actor, expected_version=version, key=key)
            if verb in decisions.VERBS:
                return await self._decide(game_id, actor, verb, version, key)
            raise ValueError(f"unknown button {verb!r}")

        await games.command(interaction, call, game=game)

    async def _decide(self, game: int, actor: Actor, verb: str, version: int, key: str) -> Outcome:
        """M3 All advance, M5 No reserves now: the common answer of the decision the button
        was drawn for; pressed once the game moved on, it is stale."""
        status = await self.bot.seen.at(game, version)
        action = decisions.button_action(status.state, verb)
        if status.version != version or action is None:
            raise StaleState("stale", expected=version, current=status.version)
        return await self.bot.service.act(game, actor, action, expected_version=version, key=key)

    async def _not_yours(self, interaction: discord.Interaction[Any], asker: int) -> None:
        """Someone else's question: refused, ephemerally, and nothing changes."""
        lang = lang_of(interaction.locale)
        await tell(interaction, say(lang, "resign-not-yours", user=f"<@{asker}>"))

    async def _stale(self, interaction: discord.Interaction[Any], game: int) -> None:
        note = say(lang_of(interaction.locale), "stale-button")
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.games.show_board(interaction, game, note=note)

    async def _odds(self, interaction: discord.Interaction[Any], game: int) -> None:
        """Every attack the caller's side (a spectator: the side to play) can make now."""
        lang = lang_of(interaction.locale)
        status, side = await self.bot.games.side_of(game, str(interaction.user.id))
        state = status.state
        if state is None:
            raise NotAllowed("game_not_started")
        side = side or state.active
        lines = [] if side is None else choices.odds_lines(state, side, lang)
        await tell(interaction, "\n".join(lines) or say(lang, "odds-none"))
