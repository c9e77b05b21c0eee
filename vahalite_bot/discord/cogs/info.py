"""Reading a game: anyone may (board, status, odds, sheets, log), and help and the rules."""

from __future__ import annotations

import re
import zlib
from typing import Any

import discord
from discord import app_commands

from vahalite_bot import rulebook
from vahalite_bot.app import NotAllowed
from vahalite_bot.discord import choices
from vahalite_bot.discord.cogs import AreaCog
from vahalite_bot.discord.identity import is_auto, mention
from vahalite_bot.discord.textorders import log_lines
from vahalite_bot.discord.tree import Refusal, tell
from vahalite_bot.discord.words import fit, lang_of, say, text
from vahalite_bot.i18n import translate
from vahalite_bot.orders import OddsOrder, OddsRequest, read_ref, resolve
from vahalite_bot.present import advice
from vahalite_bot.present.paint import plain
from vahalite_bot.present.rules import rule_reply
from vahalite_bot.present.views import army_text, odds_text
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState

Choices = list[app_commands.Choice[str]]


class InfoCog(AreaCog):
    async def _state(self, interaction: discord.Interaction[Any]) -> tuple[int, GameState]:
        game = await self.bot.games.game_here(interaction.channel_id)
        state = (await self.bot.service.status(game)).state
        if state is None:
            raise NotAllowed("game_not_started")
        return game, state

    @app_commands.command(name=text("cmd-board"), description=text("cmd-board-desc"))
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.bot.games.game_here(interaction.channel_id)
        await self.bot.games.show_board(interaction, game)

    @app_commands.command(name=text("cmd-status"), description=text("cmd-status-desc"))
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.bot.games.game_here(interaction.channel_id)
        status = await self.bot.service.status(game)
        await tell(interaction, self.bot.room.status_text(status))

    @app_commands.command(name=text("cmd-odds"), description=text("cmd-odds-desc"))
    @app_commands.rename(unit=text("opt-unit"), target=text("opt-target"), best=text("opt-best"))
    @app_commands.describe(
        unit=text("opt-unit-desc"), target=text("opt-target-desc"), best=text("opt-best-desc")
    )
    async def odds(
        self,
        interaction: discord.Interaction[Any],
        unit: str | None = None,
        target: str | None = None,
        best: bool = False,
    ) -> None:
        """As ``odds unit target`` reads: the weapons the attack would use, chosen by the
        resolver (anyone may ask; a spectator's names are read as the side to act's).
        ``best``: the search player's best actions for the asker (issue 22), as ``hint``.
        (``/vl`` has Discord's 25 subcommands: the hint is an option of this one.)"""
        await interaction.response.defer(ephemeral=True, thinking=True)
        game, state = await self._state(interaction)
        _, side = await self.bot.games.side_of(game, str(interaction.user.id))
        lang = lang_of(interaction.locale)
        if best:
            await tell(interaction, await self._best(game, state, side, lang))
            return
        if unit is None or target is None:
            raise Refusal("hint-odds-needs-units")
        asked = resolve(
            OddsOrder(read_ref(unit), read_ref(target)), state, side or state.active or Side.SOUTH
        )
        assert isinstance(asked, OddsRequest)
        told = odds_text(state, asked.unit, asked.target, asked.weapons, lang, plain)
        await tell(interaction, told)

    async def _best(self, game: int, state: GameState, side: Side | None, lang: str) -> str:
        """The hint, for a player of a game against the bot on their turn; the search runs
        in the workers with the bot's thinking time."""
        status = await self.bot.service.status(game)
        if not any(is_auto(p.user) for p in status.players):
            raise Refusal("hint-not-practice")
        if side is None or acting_side(state) is not side:
            return translate(lang, "hint-not-now")
        seed = zlib.crc32(f"{game}:{status.version}".encode())
        text_ = await self.bot.workers.run(
            advice.hint_text, state, lang, self.bot.options.think_ms, seed
        )
        return fit(text_)

    @odds.autocomplete("unit")
    async def _odds_units(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._any_units(interaction, current)

    @odds.autocomplete("target")
    async def _odds_targets(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        try:
            _, state = await self._state(interaction)
        except Exception:
            return []
        lang = lang_of(interaction.locale)
        unit = getattr(interaction.namespace, "unit", None) or ""
        found = choices.targets(state, unit, current, lang)
        return [app_commands.Choice(name=n[:100], value=v) for n, v in found]

    async def _any_units(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        try:
            _, state = await self._state(interaction)
        except Exception:
            return []
        lang = lang_of(interaction.locale)
        found = choices.all_units(state, current, lang)
        return [app_commands.Choice(name=n[:100], value=v) for n, v in found]

    @app_commands.command(name=text("cmd-sheet"), description=text("cmd-sheet-desc"))
    @app_commands.rename(side=text("opt-side"))
    @app_commands.describe(side=text("opt-side-desc"))
    @app_commands.choices(
        side=[
            app_commands.Choice(name=text("choice-south"), value="south"),
            app_commands.Choice(name=text("choice-north"), value="north"),
        ]
    )
    async def sheet(self, interaction: discord.Interaction[Any], side: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game, state = await self._state(interaction)
        lang = lang_of(interaction.locale)
        if side is None:
            _, mine = await self.bot.games.side_of(game, str(interaction.user.id))
            sides = [mine] if mine is not None else list(Side)
        else:
            sides = [Side(side)]
        for chosen in sides:
            await tell(interaction, army_text(state, chosen, lang, plain))

    @app_commands.command(name=text("cmd-log"), description=text("cmd-log-desc"))
    @app_commands.rename(count=text("opt-count"))
    @app_commands.describe(count=text("opt-count-desc"))
    async def log(
        self, interaction: discord.Interaction[Any], count: app_commands.Range[int, 1, 50] = 10
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game, state = await self._state(interaction)
        lang = lang_of(interaction.locale)
        await tell(interaction, "\n".join(await log_lines(self.bot, game, count, state, lang)))

    # -- coming back to one's games ----------------------------------------------------------------
    @app_commands.command(name=text("cmd-games"), description=text("cmd-games-desc"))
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        await self._list(interaction, waiting_only=False)

    @app_commands.command(name=text("cmd-my-turn"), description=text("cmd-my-turn-desc"))
    async def my_turn(self, interaction: discord.Interaction[Any]) -> None:
        await self._list(interaction, waiting_only=True)

    async def _list(self, interaction: discord.Interaction[Any], *, waiting_only: bool) -> None:
        """The caller's games on this server: whose turn, the deadline, a link to each."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        actor = self.bot.games.actor(interaction)
        lang = lang_of(interaction.locale)
        found = await self.bot.service.games_of(actor.user, actor.guild)
        lines = []
        for status in found:
            mine = status.acting_user == actor.user
            if waiting_only and not mine:
                continue
            due = f"<t:{int(status.due_at.timestamp())}:R>" if status.due_at else "—"
            lines.append(
                say(
                    lang,
                    "games-line",
                    game=status.game_id,
                    link=f"<#{status.channel}>",
                    who=say(lang, "games-you") if mine else mention(status.acting_user),
                    due=due,
                )
            )
        empty = "games-none-waiting" if waiting_only else "games-none"
        await tell(interaction, "\n".join(lines) or say(lang, empty))

    @app_commands.command(name=text("cmd-notify"), description=text("cmd-notify-desc"))
    @app_commands.rename(dm=text("opt-dm"))
    @app_commands.describe(dm=text("opt-dm-desc"))
    async def notify(self, interaction: discord.Interaction[Any], dm: bool) -> None:
        """Deadline reminders by direct message too (they always come in the game)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        actor = self.bot.games.actor(interaction)
        on = await self.bot.service.set_dm_reminders(actor, dm, key=str(interaction.id))
        await tell(
            interaction, say(lang_of(interaction.locale), "notify-on" if on else "notify-off")
        )

    @app_commands.command(name=text("cmd-help"), description=text("cmd-help-desc"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        lang = lang_of(interaction.locale)
        orders = "help-orders-on" if self.bot.reads_messages else "help-orders-off"
        await tell(interaction, say(lang, "help", orders=say(lang, orders)))

    @app_commands.command(name=text("cmd-rule"), description=text("cmd-rule-desc"))
    @app_commands.rename(rule_id=text("opt-id"))
    @app_commands.describe(rule_id=text("opt-id-desc"))
    async def rule(self, interaction: discord.Interaction[Any], rule_id: str) -> None:
        lang = lang_of(interaction.locale)
        await tell(interaction, rule_reply(lang, rule_id[:20]))

    @rule.autocomplete("rule_id")
    async def _rules(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        """By ID (``E``, ``E1``...) or, for a word, by the rule's title."""
        lang = lang_of(interaction.locale)
        typed = current.strip()
        by_id = _RULE_PREFIX.fullmatch(typed) is not None
        found = []
        for rule_id in rulebook.rule_ids():
            title = rulebook.rule_title(lang, rule_id) or ""
            hit = (
                rule_id.startswith(typed.upper()) if by_id else typed.casefold() in title.casefold()
            )
            if hit:
                found.append(app_commands.Choice(name=f"{rule_id} — {title}"[:100], value=rule_id))
        return found[:25]


_RULE_PREFIX = re.compile(r"[A-Za-z]?[0-9]*")
