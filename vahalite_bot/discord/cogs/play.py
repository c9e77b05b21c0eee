"""Playing: the setup steps, moves, attacks, transports, decisions, ending the turn, undo and
resigning; as slash commands, and as text orders posted in the game's thread.

A command that plays puts its options into an order of the order language and hands it to
``playing.play``: the resolver chooses the engine action, as for the same order typed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from vahalite_bot.app import Actor, GameStatus, NotAllowed, Outcome
from vahalite_bot.discord import buttons, choices, decisions, housechoices, playing
from vahalite_bot.discord.cogs import AreaCog
from vahalite_bot.discord.seen import SUGGEST_SECONDS
from vahalite_bot.discord.textorders import run_text_orders
from vahalite_bot.discord.tree import Refusal
from vahalite_bot.discord.words import lang_of, say, text
from vahalite_bot.orders import (
    AdvanceOrder,
    AttackOrder,
    ChargeOrder,
    DeployOrder,
    DeployOrderChoice,
    DisembarkOrder,
    EmbarkOrder,
    EndTurnOrder,
    FallBackOrder,
    MoveOrder,
    Order,
    Ref,
    SPOrder,
    TerrainOrder,
    read_ref,
)
from vahalite_bot.orders.model import ReserveOrder
from vahalite_bot.orders.tokens import read_cell
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.state import GameState

if TYPE_CHECKING:
    from vahalite_bot.discord.client import VahaBot

Choices = list[app_commands.Choice[str]]


class PlayCog(AreaCog):
    setup = app_commands.Group(name=text("cmd-setup"), description=text("cmd-setup-desc"))

    def __init__(self, bot: VahaBot) -> None:
        super().__init__(bot)
        self._acting = choices.ActingUnits()

    # -- helpers ---------------------------------------------------------------------------------
    async def _run(self, interaction: discord.Interaction[Any], call: Any) -> None:
        await self.bot.games.command(interaction, call)

    async def _order(self, interaction: discord.Interaction[Any], order: Order) -> None:
        """Play ``order`` as if it were typed: the resolver chooses the engine action."""

        async def call(game: int, actor: Actor, key: str) -> list[Outcome]:
            return await playing.play(self.bot, game, actor, order, key)

        await self._run(interaction, call)

    async def _cell(self, interaction: discord.Interaction[Any], typed: str) -> Cell:
        """A cell the user typed (``c4``, Cyrillic ``с4``); the service refuses one off the
        game's board."""
        cell = read_cell(typed.strip().lower())
        if cell is None:
            raise Refusal("bad-cell", cell=typed[:10])
        return cell

    async def _context(
        self, interaction: discord.Interaction[Any]
    ) -> tuple[GameStatus, GameState, Side] | None:
        """The game's status, its state and the caller's side, for autocomplete (None: no game
        here, or the caller plays in it no side)."""
        try:
            game = await self.bot.games.game_here(interaction.channel_id)
        except Refusal:
            return None
        user = str(interaction.user.id)
        status, side = await self.bot.games.side_of(game, user, max_age=SUGGEST_SECONDS)
        if status.state is None or side is None:
            return None
        return status, status.state, side

    async def _choices(self, interaction: discord.Interaction[Any], ask: Any) -> Choices:
        """``ask(state, side, lang)``'s choices for the game here."""
        context = await self._context(interaction)
        if context is None:
            return []
        _, state, side = context
        return _listed(ask(state, side, lang_of(interaction.locale)))

    async def _my_units(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        context = await self._context(interaction)
        if context is None:
            return []
        status, state, side = context
        acting = self._acting.of(status.game_id, status.version, state, side)
        return _listed(choices.units(state, side, current, lang_of(interaction.locale), acting))

    # -- setup -----------------------------------------------------------------------------------
    @setup.command(name=text("cmd-first"), description=text("cmd-first-desc"))
    @app_commands.rename(deploy_first=text("opt-deploy-first"))
    @app_commands.describe(deploy_first=text("opt-deploy-first-desc"))
    async def first(self, interaction: discord.Interaction[Any], deploy_first: bool) -> None:
        await self._order(interaction, DeployOrderChoice(deploy_first))

    @setup.command(name=text("cmd-terrain"), description=text("cmd-terrain-desc"))
    @app_commands.rename(kind=text("opt-kind"), cell=text("opt-cell"))
    @app_commands.describe(kind=text("opt-kind-desc"), cell=text("opt-cell-desc"))
    async def terrain(self, interaction: discord.Interaction[Any], kind: str, cell: str) -> None:
        where = await self._cell(interaction, cell)
        await self._order(interaction, TerrainOrder(_terrain_kind(kind), where))

    @terrain.autocomplete("kind")
    async def _kinds(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._choices(
            interaction, lambda s, side, lang: choices.terrain_kinds(s, side, current, lang)
        )

    @terrain.autocomplete("cell")
    async def _terrain_cells(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        kind = getattr(interaction.namespace, "kind", None)
        return await self._choices(
            interaction, lambda s, side, lang: choices.terrain_cells(s, side, kind, current)
        )

    @setup.command(name=text("cmd-sp"), description=text("cmd-sp-desc"))
    @app_commands.rename(cell=text("opt-cell"))
    @app_commands.describe(cell=text("opt-cell-desc"))
    async def sp(self, interaction: discord.Interaction[Any], cell: str) -> None:
        await self._order(interaction, SPOrder(await self._cell(interaction, cell)))

    @sp.autocomplete("cell")
    async def _sp_cells(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._choices(
            interaction, lambda s, side, lang: choices.sp_cells(s, side, current)
        )

    @setup.command(name=text("cmd-deploy"), description=text("cmd-deploy-desc"))
    @app_commands.rename(unit=text("opt-unit"), cell=text("opt-cell"))
    @app_commands.describe(unit=text("opt-unit-desc"), cell=text("opt-cell-desc"))
    async def deploy(self, interaction: discord.Interaction[Any], unit: str, cell: str) -> None:
        """B5, as ``deploy unit cell`` reads (an M5 arrival, an H5 placement too)."""
        where = await self._cell(interaction, cell)
        await self._order(interaction, DeployOrder(read_ref(unit), _cell_ref(where)))

    @deploy.autocomplete("unit")
    async def _deploy_units(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._my_units(interaction, current)

    @deploy.autocomplete("cell")
    async def _deploy_cells(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        unit = getattr(interaction.namespace, "unit", None) or ""
        return await self._choices(
            interaction, lambda s, side, lang: housechoices.deploy_cells(s, side, unit, current)
        )

    # -- house rules at setup and at the turn's start (M3, M5) -------------------------------------
    @setup.command(name=text("cmd-orders"), description=text("cmd-orders-desc"))
    @app_commands.rename(orders=text("opt-orders"))
    @app_commands.describe(orders=text("opt-orders-desc"))
    async def orders(
        self, interaction: discord.Interaction[Any], orders: str | None = None
    ) -> None:
        """M3: the turn's orders, typed as in the order language after ``orders``."""
        await self._order(interaction, decisions.orders_order(orders))

    @orders.autocomplete("orders")
    async def _orders(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._choices(
            interaction, lambda s, side, lang: housechoices.orders(s, side, current, lang)
        )

    @setup.command(name=text("cmd-reserve"), description=text("cmd-reserve-desc"))
    @app_commands.rename(unit=text("opt-unit"), transport=text("opt-reserve-transport"))
    @app_commands.describe(unit=text("opt-unit-desc"), transport=text("opt-reserve-transport-desc"))
    async def reserve(
        self, interaction: discord.Interaction[Any], unit: str, transport: str | None = None
    ) -> None:
        """M5 at B5: hold ``unit`` back (inside ``transport``, also held back)."""
        ride = read_ref(transport) if transport else None
        await self._order(interaction, ReserveOrder(read_ref(unit), ride))

    @reserve.autocomplete("unit")
    async def _reserve_units(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._choices(
            interaction, lambda s, side, lang: housechoices.hold_units(s, side, current, lang)
        )

    @reserve.autocomplete("transport")
    async def _reserve_rides(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        unit = getattr(interaction.namespace, "unit", None) or ""
        return await self._choices(
            interaction,
            lambda s, side, lang: housechoices.hold_transports(s, side, unit, current, lang),
        )

    # -- moving ----------------------------------------------------------------------------------
    @app_commands.command(name=text("cmd-move"), description=text("cmd-move-desc"))
    @app_commands.rename(
        unit=text("opt-unit"), cell=text("opt-cell"), fall_back=text("opt-fall-back")
    )
    @app_commands.describe(
        unit=text("opt-unit-desc"), cell=text("opt-cell-desc"), fall_back=text("opt-fall-back-desc")
    )
    async def move(
        self,
        interaction: discord.Interaction[Any],
        unit: str,
        cell: str,
        fall_back: bool = False,
    ) -> None:
        """``unit cell`` as typed: a move, an H5 placement or an M5 arrival, as the resolver
        reads it; ``fall_back``: ``fall back unit cell`` (M6)."""
        where = await self._cell(interaction, cell)
        kind = FallBackOrder if fall_back else MoveOrder
        await self._order(interaction, kind(read_ref(unit), (where,)))

    @move.autocomplete("unit")
    async def _move_units(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._my_units(interaction, current)

    @move.autocomplete("cell")
    async def _move_cells(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        unit = getattr(interaction.namespace, "unit", None) or ""

        # The namespace is keyed by the option's Discord name, not the parameter's.
        falling_back = bool(getattr(interaction.namespace, "fall-back", False))
        return await self._choices(
            interaction,
            lambda s, side, lang: housechoices.move_cells(s, side, unit, current, falling_back),
        )

    @app_commands.command(name=text("cmd-embark"), description=text("cmd-embark-desc"))
    @app_commands.rename(unit=text("opt-unit"), transport=text("opt-transport"))
    @app_commands.describe(unit=text("opt-unit-desc"), transport=text("opt-transport-desc"))
    async def embark(
        self, interaction: discord.Interaction[Any], unit: str, transport: str
    ) -> None:
        await self._order(interaction, EmbarkOrder(read_ref(unit), read_ref(transport)))

    @embark.autocomplete("unit")
    async def _embark_units(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._my_units(interaction, current)

    @embark.autocomplete("transport")
    async def _transports(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        unit = getattr(interaction.namespace, "unit", None) or ""
        return await self._choices(
            interaction, lambda s, side, lang: choices.transports(s, unit, current, lang)
        )

    @app_commands.command(name=text("cmd-disembark"), description=text("cmd-disembark-desc"))
    @app_commands.rename(unit=text("opt-unit"), cell=text("opt-cell"))
    @app_commands.describe(unit=text("opt-unit-desc"), cell=text("opt-cell-desc"))
    async def disembark(self, interaction: discord.Interaction[Any], unit: str, cell: str) -> None:
        where = await self._cell(interaction, cell)
        await self._order(interaction, DisembarkOrder(read_ref(unit), where))

    @disembark.autocomplete("unit")
    async def _passengers(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._choices(
            interaction, lambda s, side, lang: choices.passengers(s, side, current, lang)
        )

    @disembark.autocomplete("cell")
    async def _out_cells(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        unit = getattr(interaction.namespace, "unit", None) or ""
        return await self._choices(
            interaction, lambda s, side, lang: choices.disembark_cells(s, unit, current)
        )

    # -- attacking -------------------------------------------------------------------------------
    @app_commands.command(name=text("cmd-attack"), description=text("cmd-attack-desc"))
    @app_commands.rename(
        unit=text("opt-unit"),
        target=text("opt-target"),
        weapons=text("opt-weapons"),
        mode=text("opt-mode"),
        charge_to=text("opt-charge-to"),
    )
    @app_commands.describe(
        unit=text("opt-unit-desc"),
        target=text("opt-target-desc"),
        weapons=text("opt-weapons-desc"),
        mode=text("opt-mode-desc"),
        charge_to=text("opt-charge-to-desc"),
    )
    @app_commands.choices(
        mode=[
            app_commands.Choice(name=text("choice-melee"), value="melee"),
            app_commands.Choice(name=text("choice-ranged"), value="ranged"),
        ]
    )
    async def attack(
        self,
        interaction: discord.Interaction[Any],
        unit: str,
        target: str,
        weapons: str | None = None,
        mode: str | None = None,
        charge_to: str | None = None,
    ) -> None:
        """E5; with ``charge_to``, an M8 charge from that cell (weapons and mode do not apply:
        the blow is melee with every melee weapon)."""
        attacker, enemy = read_ref(unit), read_ref(target)
        if charge_to:
            cell = await self._cell(interaction, charge_to)
            await self._order(interaction, ChargeOrder(attacker, enemy, cell))
            return
        melee = None if mode is None else mode == "melee"
        await self._order(interaction, AttackOrder(attacker, enemy, _weapons(weapons), melee))

    @attack.autocomplete("unit")
    async def _attackers(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._my_units(interaction, current)

    @attack.autocomplete("target")
    async def _targets(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        unit = getattr(interaction.namespace, "unit", None) or ""
        return await self._choices(
            interaction, lambda s, side, lang: housechoices.targets(s, unit, current, lang)
        )

    @attack.autocomplete("charge_to")
    async def _charge_cells(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        unit = getattr(interaction.namespace, "unit", None) or ""
        target = getattr(interaction.namespace, "target", None) or None
        return await self._choices(
            interaction,
            lambda s, side, lang: housechoices.charge_cells(s, unit, target, current, lang),
        )

    # -- decisions -------------------------------------------------------------------------------
    @app_commands.command(name=text("cmd-advance"), description=text("cmd-advance-desc"))
    @app_commands.rename(take=text("opt-take"))
    @app_commands.describe(take=text("opt-take-desc"))
    async def advance(self, interaction: discord.Interaction[Any], take: bool = True) -> None:
        await self._order(interaction, AdvanceOrder(take))

    # -- the turn --------------------------------------------------------------------------------
    @app_commands.command(name=text("cmd-end"), description=text("cmd-end-desc"))
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """As ``end`` reads: the turn's end, or (M5) no more reserves this turn."""
        await self._order(interaction, EndTurnOrder())

    @app_commands.command(name=text("cmd-undo"), description=text("cmd-undo-desc"))
    @app_commands.rename(count=text("opt-count"))
    @app_commands.describe(count=text("opt-count-desc"))
    async def undo(
        self, interaction: discord.Interaction[Any], count: app_commands.Range[int, 1, 20] = 1
    ) -> None:
        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.games.undo(game, actor, count, key)

        await self._run(interaction, call)

    @app_commands.command(name=text("cmd-pause"), description=text("cmd-pause-desc"))
    async def pause(self, interaction: discord.Interaction[Any]) -> None:
        """Ask to pause a running game, or to resume a paused one; the opponent agrees with
        the same command or the button under the request."""

        async def call(game: int, actor: Actor, key: str) -> Outcome:
            status = await self.bot.service.status(game)
            return await self.bot.service.ask_pause(game, actor, not status.paused, key=key)

        await self._run(interaction, call)

    @app_commands.command(name=text("cmd-resign"), description=text("cmd-resign-desc"))
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        """J4 asks nothing, but a click is easy to regret: a Yes/No first."""
        game = await self.bot.games.game_here(interaction.channel_id)
        status, side = await self.bot.games.side_of(game, str(interaction.user.id))
        lang = lang_of(interaction.locale)
        if side is None:
            raise NotAllowed("not_a_player")
        view = buttons.view_of(["ry", "rn"], game, status.version, lang, user=interaction.user.id)
        assert view is not None
        await interaction.response.send_message(
            say(lang, "resign-question"), view=view, ephemeral=True
        )

    # -- text orders -------------------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """A player's orders posted in the game's thread, forum style."""
        if message.author.bot or not message.content or message.guild is None:
            return
        # Games live in threads. One discord.py has not cached (archived, or unarchived by
        # this very message before its THREAD_UPDATE came) is a PartialMessageable: the game
        # is looked up by the channel's id all the same.
        if not isinstance(message.channel, discord.Thread | discord.PartialMessageable):
            return
        try:
            game = await self.bot.games.game_here(message.channel.id)
        except Refusal:
            return
        await run_text_orders(self.bot, game, message)


def _listed(found: list[tuple[str, str]]) -> Choices:
    return [app_commands.Choice(name=name[:100], value=value) for name, value in found]


def _terrain_kind(kind: str) -> TerrainKind:
    try:
        return TerrainKind(kind)
    except ValueError:
        raise Refusal("bad-kind", kind=kind[:20]) from None


def _weapons(typed: str | None) -> tuple[int, ...] | None:
    """``1,2``: weapon numbers as on the sheet (from 1), as an order carries them."""
    if typed is None or not typed.strip():
        return None
    parts = typed.replace(" ", ",").split(",")
    numbers = [p for p in parts if p]
    if not numbers or not all(p.isdigit() and 0 < int(p) <= 20 for p in numbers):
        raise Refusal("bad-weapons", text=typed[:40])
    return tuple(dict.fromkeys(int(p) for p in numbers))


def _cell_ref(cell: Cell) -> Ref:
    """A cell where an order may also name a unit (``deploy tac1 rhi1``): here, the cell."""
    return Ref(cell.name.lower(), cell)
