"""The referee's overrides (rulebook N2) as ``/vl ref …`` and the server's settings as
``/vl config …``. Who may is the service's to decide (the server's referee role or its
administrators, on their own server only); each override is logged there with who did it,
and announced in the game with the board."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from vahalite_bot.app import Actor, Outcome
from vahalite_bot.app.house import checked_house_rules
from vahalite_bot.app.schemas import MAX_HOUSE_TEXT
from vahalite_bot.discord import choices
from vahalite_bot.discord.cogs import AreaCog
from vahalite_bot.discord.house import house_suggestions, typed_house_rules
from vahalite_bot.discord.identity import mention
from vahalite_bot.discord.tree import Refusal, tell
from vahalite_bot.discord.words import lang_of, say, text
from vahalite_bot.orders.tokens import read_cell
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.house import house_rules_label
from vahalite_bot.rules.scenario import Side

Choices = list[app_commands.Choice[str]]


class RefereeCog(AreaCog):
    ref = app_commands.Group(name=text("cmd-ref"), description=text("cmd-ref-desc"))
    config = app_commands.Group(name=text("cmd-config"), description=text("cmd-config-desc"))

    async def _override(
        self, interaction: discord.Interaction[Any], what: str, call: Any, **args: Any
    ) -> None:
        """Run an override and announce it: "<referee> (referee): <what>", then the board."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        actor = self.bot.games.actor(interaction)
        game = await self.bot.games.game_here(interaction.channel_id)
        outcome: Outcome = await call(game, actor, str(interaction.id))
        status = await self.bot.seen.after(outcome)
        line = say(
            status.language,
            "ref-did",
            referee=mention(actor.user),
            what=say(status.language, f"ref-{what}", **args),
        )
        await self.bot.games.after([outcome], outcome.before, by=None, lines=[line])
        await tell(interaction, say(lang_of(interaction.locale), "done"))

    def _cell(self, typed: str) -> Cell:
        cell = read_cell(typed.strip().lower())
        if cell is None:
            raise Refusal("bad-cell", cell=typed[:10])
        return cell

    async def _units(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        try:
            game = await self.bot.games.game_here(interaction.channel_id)
        except Refusal:
            return []
        state = (await self.bot.service.status(game)).state
        if state is None:
            return []
        found = choices.all_units(state, current, lang_of(interaction.locale))
        return [app_commands.Choice(name=n[:100], value=v) for n, v in found]

    # -- /vl ref … -------------------------------------------------------------------------------
    @ref.command(name=text("cmd-ref-move"), description=text("cmd-ref-move-desc"))
    @app_commands.rename(unit=text("opt-unit"), cell=text("opt-cell"))
    @app_commands.describe(unit=text("opt-unit-desc"), cell=text("opt-cell-desc"))
    async def ref_move(self, interaction: discord.Interaction[Any], unit: str, cell: str) -> None:
        where = self._cell(cell)

        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.ref_move_unit(game, actor, unit, where, key=key)

        await self._override(interaction, "move", call, unit=unit, cell=where.name)

    @ref.command(name=text("cmd-ref-remove"), description=text("cmd-ref-remove-desc"))
    @app_commands.rename(unit=text("opt-unit"))
    @app_commands.describe(unit=text("opt-unit-desc"))
    async def ref_remove(self, interaction: discord.Interaction[Any], unit: str) -> None:
        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.ref_remove_unit(game, actor, unit, key=key)

        await self._override(interaction, "remove", call, unit=unit)

    @ref.command(name=text("cmd-ref-hp"), description=text("cmd-ref-hp-desc"))
    @app_commands.rename(unit=text("opt-unit"), hp=text("opt-hp"))
    @app_commands.describe(unit=text("opt-unit-desc"), hp=text("opt-hp-desc"))
    async def ref_hp(
        self, interaction: discord.Interaction[Any], unit: str, hp: app_commands.Range[int, 1, 99]
    ) -> None:
        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.ref_set_hp(game, actor, unit, hp, key=key)

        await self._override(interaction, "hp", call, unit=unit, hp=hp)

    @ref.command(name=text("cmd-ref-undo"), description=text("cmd-ref-undo-desc"))
    @app_commands.rename(count=text("opt-count"))
    @app_commands.describe(count=text("opt-count-desc"))
    async def ref_undo(
        self, interaction: discord.Interaction[Any], count: app_commands.Range[int, 1, 20] = 1
    ) -> None:
        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.ref_undo(game, actor, count, key=key)

        await self._override(interaction, "undo", call, count=count)

    @ref.command(name=text("cmd-ref-end"), description=text("cmd-ref-end-desc"))
    async def ref_end(self, interaction: discord.Interaction[Any]) -> None:
        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.ref_end_turn(game, actor, key=key)

        await self._override(interaction, "end", call)

    @ref.command(name=text("cmd-ref-extend"), description=text("cmd-ref-extend-desc"))
    @app_commands.rename(hours=text("opt-hours"))
    @app_commands.describe(hours=text("opt-hours-desc"))
    async def ref_extend(
        self, interaction: discord.Interaction[Any], hours: app_commands.Range[int, 1, 336]
    ) -> None:
        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.ref_extend_deadline(game, actor, hours, key=key)

        await self._override(interaction, "extend", call, hours=hours)

    @ref.command(name=text("cmd-ref-pause"), description=text("cmd-ref-pause-desc"))
    async def ref_pause(self, interaction: discord.Interaction[Any]) -> None:
        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.ref_pause(game, actor, key=key)

        await self._override(interaction, "pause", call)

    @ref.command(name=text("cmd-ref-resume"), description=text("cmd-ref-resume-desc"))
    async def ref_resume(self, interaction: discord.Interaction[Any]) -> None:
        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.ref_resume(game, actor, key=key)

        await self._override(interaction, "resume", call)

    @ref.command(name=text("cmd-ref-decide"), description=text("cmd-ref-decide-desc"))
    @app_commands.rename(winner=text("opt-winner"))
    @app_commands.describe(winner=text("opt-winner-desc"))
    @app_commands.choices(
        winner=[
            app_commands.Choice(name=text("choice-south"), value="south"),
            app_commands.Choice(name=text("choice-north"), value="north"),
            app_commands.Choice(name=text("choice-draw"), value="draw"),
        ]
    )
    async def ref_decide(self, interaction: discord.Interaction[Any], winner: str) -> None:
        side = None if winner == "draw" else Side(winner)

        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.ref_decide(game, actor, side, key=key)

        lang = lang_of(interaction.locale)
        await self._override(interaction, "decide", call, winner=say(lang, f"choice-{winner}"))

    @ref.command(name=text("cmd-ref-house"), description=text("cmd-ref-house-desc"))
    @app_commands.rename(rules=text("opt-rules"))
    @app_commands.describe(rules=text("opt-rules-desc"))
    async def ref_house(
        self,
        interaction: discord.Interaction[Any],
        rules: app_commands.Range[str, 1, MAX_HOUSE_TEXT],
    ) -> None:
        """M: the house rules of a game in its lobby (the creator's too, before anyone joins)."""
        typed = typed_house_rules(rules)
        label = house_rules_label(checked_house_rules(typed.replace(",", " ").split())) or "—"

        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.set_house_rules(game, actor, typed, key=key)

        await self._override(interaction, "house", call, rules=label)

    @ref_house.autocomplete("rules")
    async def _house_rules(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        found = house_suggestions(current, lang_of(interaction.locale))
        return [app_commands.Choice(name=name, value=value) for name, value in found]

    @ref_move.autocomplete("unit")
    @ref_remove.autocomplete("unit")
    @ref_hp.autocomplete("unit")
    async def _any_unit(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._units(interaction, current)

    # -- /vl config … ------------------------------------------------------------------------------
    @config.command(name=text("cmd-config-referee"), description=text("cmd-config-referee-desc"))
    @app_commands.rename(role=text("opt-role"))
    @app_commands.describe(role=text("opt-role-desc"))
    async def config_referee(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        """The referee role (none: only the administrators referee)."""
        await self._configure(interaction, referee_role=str(role.id) if role else "")

    @config.command(name=text("cmd-config-deadline"), description=text("cmd-config-deadline-desc"))
    @app_commands.rename(hours=text("opt-hours"))
    @app_commands.describe(hours=text("opt-hours-desc"))
    async def config_deadline(
        self, interaction: discord.Interaction[Any], hours: app_commands.Range[int, 1, 336]
    ) -> None:
        await self._configure(interaction, deadline_hours=hours)

    @config.command(name=text("cmd-config-reminder"), description=text("cmd-config-reminder-desc"))
    @app_commands.rename(hours=text("opt-hours"))
    @app_commands.describe(hours=text("opt-remind-hours-desc"))
    async def config_reminder(
        self, interaction: discord.Interaction[Any], hours: app_commands.Range[int, 0, 336]
    ) -> None:
        await self._configure(interaction, remind_hours=hours)

    @config.command(name=text("cmd-config-forfeit"), description=text("cmd-config-forfeit-desc"))
    @app_commands.rename(count=text("opt-count"))
    @app_commands.describe(count=text("opt-forfeit-desc"))
    async def config_forfeit(
        self, interaction: discord.Interaction[Any], count: app_commands.Range[int, 1, 20]
    ) -> None:
        await self._configure(interaction, missed_turns_forfeit=count)

    @config.command(name=text("cmd-config-language"), description=text("cmd-config-language-desc"))
    @app_commands.rename(language=text("opt-language"))
    @app_commands.describe(language=text("opt-language-desc"))
    @app_commands.choices(
        language=[
            app_commands.Choice(name=text("choice-ru"), value="ru"),
            app_commands.Choice(name=text("choice-en"), value="en"),
        ]
    )
    async def config_language(self, interaction: discord.Interaction[Any], language: str) -> None:
        await self._configure(interaction, language=language)

    async def _configure(self, interaction: discord.Interaction[Any], **settings: Any) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        actor = self.bot.games.actor(interaction)
        assert actor.guild is not None
        config = await self.bot.service.configure_server(
            actor, actor.guild, key=str(interaction.id), **settings
        )
        lang = lang_of(interaction.locale)
        role = f"<@&{config.referee_role}>" if config.referee_role else "—"
        await tell(
            interaction,
            say(
                lang,
                "config-now",
                role=role,
                language=config.language,
                hours=config.deadline_hours,
                forfeit=config.missed_turns_forfeit,
                remind=config.remind_hours or 0,
            ),
        )
