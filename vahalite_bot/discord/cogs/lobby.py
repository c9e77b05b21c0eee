"""The lobby: a new game in its own thread or forum post, joining it, the armies, practice."""

from __future__ import annotations

import contextlib
import logging
import random
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from vahalite_bot.app import Actor, GameStatus, Outcome, RosterRejected, ServiceError
from vahalite_bot.app.schemas import MAX_HOUSE_TEXT
from vahalite_bot.codex.army import Army
from vahalite_bot.codex.armylist import ArmyListError, format_army, parse_army
from vahalite_bot.codex.loader import Faction
from vahalite_bot.codex.messages import roster_problem
from vahalite_bot.discord import buttons
from vahalite_bot.discord.cogs import AreaCog
from vahalite_bot.discord.house import (
    house_suggestions,
    lobby_house,
    scenario_suggestions,
    typed_house_rules,
)
from vahalite_bot.discord.identity import auto_actor, mention
from vahalite_bot.discord.tree import Refusal, report, tell
from vahalite_bot.discord.words import fit, lang_of, say, text
from vahalite_bot.present.summary import scenario_name
from vahalite_bot.rules.dice import WORD_MAX, draw_word
from vahalite_bot.rules.roster import Roster
from vahalite_bot.rules.scenario import Side
from vahalite_bot.selfplay.levels import LEVELS

log = logging.getLogger(__name__)

LIST_LIMIT = 4000  # Discord's longest text input
ARMY_FORM = re.compile(r"vl:army:(?P<game>[0-9]{1,12})")
# A game lasts days: its thread or forum post archives itself only after a week of silence
# (Discord's longest auto-archive, in minutes), and any post in it reopens it.
ARCHIVE_MINUTES: Literal[10080] = 10080


class LobbyCog(AreaCog):
    # -- /vl new ---------------------------------------------------------------------------------
    @app_commands.command(name=text("cmd-new"), description=text("cmd-new-desc"))
    @app_commands.rename(
        opponent=text("opt-opponent"),
        points=text("opt-points"),
        scenario=text("opt-scenario"),
        hours=text("opt-hours"),
        word=text("opt-word"),
        house=text("opt-house"),
        level=text("opt-level"),
    )
    @app_commands.describe(
        opponent=text("opt-opponent-desc"),
        points=text("opt-points-desc"),
        scenario=text("opt-scenario-desc"),
        hours=text("opt-turn-hours-desc"),
        word=text("opt-word-desc"),
        house=text("opt-house-desc"),
        level=text("opt-level-desc"),
    )
    @app_commands.choices(
        opponent=[
            app_commands.Choice(name=text("choice-human"), value="human"),
            app_commands.Choice(name=text("choice-bot"), value="bot"),
        ],
        level=[app_commands.Choice(name=text(f"choice-{level}"), value=level) for level in LEVELS],
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        opponent: str = "human",
        points: int | None = None,
        scenario: str = "standard",
        hours: app_commands.Range[int, 1, 336] | None = None,
        word: app_commands.Range[str, 1, WORD_MAX] | None = None,
        house: app_commands.Range[str, 1, MAX_HOUSE_TEXT] | None = None,
        level: str = "normal",
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        actor = self.bot.games.actor(interaction)
        # The server's chosen language, else the creator's, else the config file's (docs).
        config = await self.bot.service.server_config(actor.guild)
        fallback = lang_of(interaction.locale, self.bot.options.language)
        lang = config.language if config.language_chosen else fallback
        name = say(lang, "thread-name", creator=interaction.user.display_name)[:100]
        thread, opening = await self._open(interaction, name, lang)
        try:
            created = await self.bot.service.create_game(
                actor,
                str(thread.id),
                guild=actor.guild,
                scenario=scenario,
                house_rules=typed_house_rules(house or ""),
                points_limit=points,
                deadline_hours=hours,
                language=lang,
                entropy=word or draw_word(),
                key=str(interaction.id),
            )
        except ServiceError:
            with contextlib.suppress(discord.HTTPException):
                await thread.delete()
            raise
        status = await self.bot.seen.after(created)
        lobby = self.lobby_text(status)
        view = buttons.turn_view(status, lang)
        allowed = discord.AllowedMentions.none()
        if opening is not None:
            await opening.edit(content=fit(lobby), view=view, allowed_mentions=allowed)
        else:
            await self.bot.room.post(status, lobby, view=view)
        await self.bot.room.tag(status)
        if opponent == "bot":
            await self._practice(created.game_id, lang, level)
        await tell(interaction, f"{say(lang, 'done')} {thread.mention}")

    async def _open(
        self, interaction: discord.Interaction[Any], name: str, lang: str
    ) -> tuple[discord.Thread, discord.Message | None]:
        """A forum post in a forum, a public thread in a text channel (a thread's parent)."""
        channel = interaction.channel
        if isinstance(channel, discord.Thread):
            channel = channel.parent
        try:
            if isinstance(channel, discord.ForumChannel):
                tag = await self.bot.room.forum_tag(channel, say(lang, "tag-open"), lang, channel)
                made = await channel.create_thread(
                    name=name,
                    auto_archive_duration=ARCHIVE_MINUTES,
                    content=name,
                    applied_tags=[tag] if tag is not None else [],
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                return made.thread, made.message
            if isinstance(channel, discord.TextChannel):
                thread = await channel.create_thread(
                    name=name,
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=ARCHIVE_MINUTES,
                )
                return thread, None
        except discord.Forbidden as error:
            raise Refusal("cannot-open", reason=error.text or "Missing Permissions") from None
        except discord.HTTPException as error:
            # Discord refused the post or thread itself (or stayed down past discord.py's
            # retries): the player is told why, and no game is made.
            log.warning("could not open a game's thread in %s: %s", channel, error)
            raise Refusal("cannot-open", reason=error.text or str(error.status)) from None
        raise Refusal("cannot-open", reason=str(getattr(channel, "type", "?")))

    def lobby_text(self, status: GameStatus) -> str:
        lang = status.language
        users = {p.side: p.user for p in status.players}
        if Side.NORTH in users:
            opponent = say(
                lang,
                "lobby-full",
                south=mention(users.get(Side.SOUTH)),
                north=mention(users[Side.NORTH]),
            )
        else:
            opponent = say(lang, "lobby-waiting")
        return say(
            lang,
            "lobby",
            game=status.game_id,
            creator=mention(users.get(Side.SOUTH)),
            points=status.points_limit,
            scenario=scenario_name(self.bot.service.scenarios, status.scenario, lang),
            house=lobby_house(lang, status.house),
            commitment=status.commitment,
            opponent=opponent,
        )

    @new.autocomplete("points")
    async def _points(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        scenario = self.bot.service.scenarios.get(
            getattr(interaction.namespace, "scenario", None) or "standard"
        )
        limits = scenario.points_limits if scenario is not None else ()
        return [
            app_commands.Choice(name=str(p), value=p) for p in limits if str(p).startswith(current)
        ]

    @new.autocomplete("scenario")
    async def _scenarios(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        lang = lang_of(interaction.locale)
        found = scenario_suggestions(current, lang, self.bot.service.scenarios)
        return [app_commands.Choice(name=name, value=value) for name, value in found]

    @new.autocomplete("house")
    async def _house(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        found = house_suggestions(current, lang_of(interaction.locale))
        return [app_commands.Choice(name=name, value=value) for name, value in found]

    # -- practice against the bot --------------------------------------------------------------
    async def practice(self, interaction: discord.Interaction[Any], game: int) -> None:
        """The Play-the-bot button: only the game's creator may call the bot in."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        status = await self.bot.service.status(game)
        creator = next((p.user for p in status.players if p.side is Side.SOUTH), None)
        if str(interaction.user.id) != creator:
            raise Refusal("not-your-button", who=mention(creator))
        await self._practice(game, status.language)
        await tell(interaction, say(lang_of(interaction.locale), "done"))

    async def _practice(self, game: int, lang: str, level: str = "normal") -> None:
        service = self.bot.service
        status = await service.status(game)
        bot = auto_actor(status.guild, level)
        await service.join(game, bot, key=f"practice-join:{game}", entropy=draw_word())
        faction, roster = self._bot_army(game, status, Side.NORTH)
        outcome = await service.submit_army(game, bot, roster, key=f"practice-army:{game}")
        # One post says it: the bot's army is a change with nothing else to tell (nobody
        # acts until the creator's army is in), and Discord refuses an empty message.
        joined = say(lang, "practice-joined", faction=faction)
        await self.bot.games.after([outcome], None, by=None, lines=[joined])

    def _bot_army(self, game: int, status: GameStatus, side: Side) -> tuple[str, Roster]:
        """A faction's ready-made list at ``side``'s points, drawn by the game's id."""
        ready = {f.id: a for f in self.bot.factions.values() if (a := self._ready(f, status, side))}
        faction = self.bot.factions[random.Random(game).choice(sorted(ready))]
        return faction.name.get(self.bot.options.language), ready[faction.id].roster

    # -- /vl join ------------------------------------------------------------------------------
    @app_commands.command(name=text("cmd-join"), description=text("cmd-join-desc"))
    @app_commands.rename(word=text("opt-word"))
    @app_commands.describe(word=text("opt-word-desc"))
    async def join(
        self,
        interaction: discord.Interaction[Any],
        word: app_commands.Range[str, 1, WORD_MAX] | None = None,
    ) -> None:
        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.joining(game, actor, key, word=word)

        await self.bot.games.command(interaction, call)

    async def joining(
        self,
        game: int,
        actor: Actor,
        key: str,
        version: int | None = None,
        *,
        word: str | None = None,
    ) -> Outcome:
        """Join as North (the command and the lobby's button) with the player's word for the
        dice (K2: one the bot draws if none is given); the lobby says who plays."""
        outcome = await self.bot.service.join(
            game, actor, expected_version=version, key=key, entropy=word or draw_word()
        )
        status = await self.bot.seen.after(outcome)
        await self.bot.room.post(status, say(status.language, "joined", user=mention(actor.user)))
        return outcome

    # -- /vl army --------------------------------------------------------------------------------
    @app_commands.command(name=text("cmd-army"), description=text("cmd-army-desc"))
    @app_commands.rename(faction=text("opt-faction"))
    @app_commands.describe(faction=text("opt-faction-desc"))
    async def army(self, interaction: discord.Interaction[Any], faction: str | None = None) -> None:
        game = await self.bot.games.game_here(interaction.channel_id)
        if faction is None:
            form = ArmyModal(game, lang_of(interaction.locale))
            await interaction.response.send_modal(form)
            # discord.py keeps a shown form by its custom id alone, from the moment Discord has
            # taken it: a submission that comes sooner, after a restart, or from the other
            # player's copy of the same form would be dropped unanswered. ``pasted`` answers
            # every submission instead, so the form is not kept at all.
            form.stop()
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = lang_of(interaction.locale)
        status = await self.bot.service.status(game)
        chosen = self.bot.factions.get(faction)
        if chosen is None:
            raise Refusal("no-faction", faction=faction)
        user = self.bot.games.actor(interaction).user
        side = next((p.side for p in status.players if p.user == user), Side.SOUTH)
        army = self._ready(chosen, status, side)
        if army is None:
            limit = self._limit(status, side)
            raise Refusal("no-ready-list", faction=chosen.name.get(lang), points=limit)
        await self.submit(interaction, game, army, lang)

    def _limit(self, status: GameStatus, side: Side) -> int:
        """A1: ``side``'s own points (Fortress gives the attacker a third more)."""
        return self.bot.service.scenarios[status.scenario].points_for(side, status.points_limit)

    def _ready(self, faction: Faction, status: GameStatus, side: Side) -> Army | None:
        """``faction``'s ready-made list for ``side`` in this game, grown to its points."""
        scenario = self.bot.service.scenarios[status.scenario]
        limit = self._limit(status, side)
        return Army.ready_for(faction, limit, self.bot.sheets, scenario.organisation())

    @army.autocomplete("faction")
    async def _factions(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        lang = lang_of(interaction.locale)
        typed = current.casefold()
        found = [
            app_commands.Choice(name=f.name.get(lang), value=f.id)
            for f in sorted(self.bot.factions.values(), key=lambda f: f.name.get(lang))
            if typed in f.name.get(lang).casefold() or typed in f.id
        ]
        return found[:25]

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A submitted army form (``ArmyModal``), found by its custom id whenever it comes."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: Any = interaction.data or {}
        form = ARMY_FORM.fullmatch(str(data.get("custom_id", "")))
        if form is None:
            return
        try:
            await self.pasted(interaction, int(form["game"]), typed_values(data["components"]))
        except Exception as error:
            await report(interaction, error)

    async def pasted(
        self, interaction: discord.Interaction[Any], game: int, typed: dict[str, str]
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = lang_of(interaction.locale)
        try:
            army = parse_army(typed.get("list", ""), self.bot.factions)
        except ArmyListError as error:
            await tell(interaction, "\n".join(error.messages(lang)))
            return
        await self.submit(interaction, game, army, lang)

    async def submit(
        self, interaction: discord.Interaction[Any], game: int, army: Army, lang: str
    ) -> None:
        """Submit ``army``; an illegal one gets every reason (A7), nothing else changes."""
        actor = self.bot.games.actor(interaction)
        try:
            outcome = await self.bot.service.submit_army(
                game, actor, army.roster, key=str(interaction.id)
            )
        except RosterRejected as error:
            names = {f.id: f.name.get(lang) for f in self.bot.factions.values()}
            problems = [
                "• " + roster_problem(p, lang, self.bot.sheets, names) for p in error.problems
            ]
            await tell(interaction, "\n".join([error.describe(lang), *problems]))
            return
        status = await self.bot.seen.after(outcome)
        side = next(p.side for p in status.players if p.user == actor.user)
        side_name = say(status.language, f"choice-{side.value}")
        limit = self._limit(status, side)
        shown = format_army(army.with_limit(limit), self.bot.factions, lang)
        lines = [say(status.language, "army-in", user=mention(actor.user), side=side_name)]
        await self.bot.games.after([outcome], None, by=None, lines=lines)
        await tell(interaction, f"{say(lang, 'done')}\n```\n{shown}\n```")


class ArmyModal(discord.ui.Modal):
    """The form for a pasted army list, in the text format the console reads
    (codex/armylist.py); ``LobbyCog.pasted`` answers its submissions."""

    def __init__(self, game: int, lang: str) -> None:
        super().__init__(title=say(lang, "modal-title"), custom_id=f"vl:army:{game}")
        self.listing: discord.ui.TextInput[ArmyModal] = discord.ui.TextInput(
            label=say(lang, "modal-label")[:45],
            style=discord.TextStyle.paragraph,
            placeholder=say(lang, "modal-placeholder"),
            max_length=LIST_LIMIT,
            custom_id="list",
        )
        self.add_item(self.listing)


def typed_values(components: list[Any]) -> dict[str, str]:
    """The text inputs of a submitted form by custom id, wherever Discord nests them (action
    rows, labels)."""
    found: dict[str, str] = {}
    for component in components:
        if not isinstance(component, dict):
            continue
        if "value" in component and "custom_id" in component:
            found[str(component["custom_id"])] = str(component["value"])
        found |= typed_values(list(component.get("components", [])))
        if isinstance(component.get("component"), dict):
            found |= typed_values([component["component"]])
    return found
