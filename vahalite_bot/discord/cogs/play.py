"""Playing: the setup steps, moves, attacks, transports, decisions, ending the turn, undo and
resigning; as slash commands, and as text orders posted in the game's thread."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from vahalite_bot.app import Actor, GameStatus, NotAllowed, Outcome
from vahalite_bot.discord import buttons, choices, decisions, housechoices
from vahalite_bot.discord.cogs import AreaCog
from vahalite_bot.discord.textorders import run_text_orders
from vahalite_bot.discord.tree import Refusal
from vahalite_bot.discord.words import lang_of, say, text
from vahalite_bot.orders.tokens import read_cell
from vahalite_bot.rules.actions import (
    Action,
    Charge,
    FinishReserves,
    HoldInReserve,
    PlaceReserve,
)
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.state import GameState, PendingReserve

Choices = list[app_commands.Choice[str]]


class PlayCog(AreaCog):
    setup = app_commands.Group(name=text("cmd-setup"), description=text("cmd-setup-desc"))

    # -- helpers ---------------------------------------------------------------------------------
    async def _run(self, interaction: discord.Interaction[Any], call: Any) -> None:
        await self.bot.games.command(interaction, call)

    async def _act(self, interaction: discord.Interaction[Any], make: Any) -> None:
        """Run an engine action built from the game as it is now for the caller's side
        (``make(state, side)``): the house-rule commands, which the service has no verb for."""

        async def call(game: int, actor: Actor, key: str) -> Outcome:
            status, side = await self.bot.games.side_of(game, actor.user)
            if side is None:
                raise NotAllowed("not_a_player")
            if status.state is None:
                raise NotAllowed("game_not_started")
            action: Action = make(status.state, side)
            return await self.bot.service.act(
                game, actor, action, expected_version=status.version, key=key
            )

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
    ) -> tuple[GameState, Side | None] | None:
        """The game's state and the caller's side, for autocomplete (None: no game here)."""
        try:
            game = await self.bot.games.game_here(interaction.channel_id)
        except Refusal:
            return None
        status, side = await self.bot.games.side_of(game, str(interaction.user.id))
        return None if status.state is None else (status.state, side)

    async def _choices(self, interaction: discord.Interaction[Any], ask: Any) -> Choices:
        context = await self._context(interaction)
        if context is None or context[1] is None:
            return []
        state, side = context
        lang = lang_of(interaction.locale)
        return [app_commands.Choice(name=n[:100], value=v) for n, v in ask(state, side, lang)]

    async def _my_units(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._choices(
            interaction, lambda s, side, lang: choices.units(s, side, current, lang)
        )

    # -- setup -----------------------------------------------------------------------------------
    @setup.command(name=text("cmd-first"), description=text("cmd-first-desc"))
    @app_commands.rename(deploy_first=text("opt-deploy-first"))
    @app_commands.describe(deploy_first=text("opt-deploy-first-desc"))
    async def first(self, interaction: discord.Interaction[Any], deploy_first: bool) -> None:
        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.choose_deploy_order(game, actor, deploy_first, key=key)

        await self._run(interaction, call)

    @setup.command(name=text("cmd-terrain"), description=text("cmd-terrain-desc"))
    @app_commands.rename(kind=text("opt-kind"), cell=text("opt-cell"))
    @app_commands.describe(kind=text("opt-kind-desc"), cell=text("opt-cell-desc"))
    async def terrain(self, interaction: discord.Interaction[Any], kind: str, cell: str) -> None:
        where = await self._cell(interaction, cell)
        piece = _terrain_kind(kind)

        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.place_terrain(game, actor, piece, where, key=key)

        await self._run(interaction, call)

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
        where = await self._cell(interaction, cell)

        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.place_sp(game, actor, where, key=key)

        await self._run(interaction, call)

    @sp.autocomplete("cell")
    async def _sp_cells(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._choices(
            interaction, lambda s, side, lang: choices.sp_cells(s, side, current)
        )

    @setup.command(name=text("cmd-deploy"), description=text("cmd-deploy-desc"))
    @app_commands.rename(unit=text("opt-unit"), cell=text("opt-cell"))
    @app_commands.describe(unit=text("opt-unit-desc"), cell=text("opt-cell-desc"))
    async def deploy(self, interaction: discord.Interaction[Any], unit: str, cell: str) -> None:
        """B5; with M5, while reserves are being brought in, a reserve's arrival."""
        where = await self._cell(interaction, cell)

        async def call(game: int, actor: Actor, key: str) -> Outcome:
            if await self._arriving(game, unit):
                return await self._arrive(game, actor, unit, where, key)
            return await self.bot.service.deploy(game, actor, unit, where, key=key)

        await self._run(interaction, call)

    async def _arriving(self, game: int, unit: str) -> bool:
        state = (await self.bot.service.status(game)).state
        pending = state.pending[0] if state is not None and state.pending else None
        return isinstance(pending, PendingReserve) and unit in pending.units

    async def _arrive(self, game: int, actor: Actor, unit: str, where: Cell, key: str) -> Outcome:
        """M5: the reserve ``unit`` arrives on ``where`` (the engine judges side and cell)."""
        status, side = await self.bot.games.side_of(game, actor.user)
        if side is None:
            raise NotAllowed("not_a_player")
        arrival = PlaceReserve(side, unit, where)
        return await self.bot.service.act(
            game, actor, arrival, expected_version=status.version, key=key
        )

    @deploy.autocomplete("unit")
    async def _deploy_units(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._my_units(interaction, current)

    @deploy.autocomplete("cell")
    async def _deploy_cells(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        unit = getattr(interaction.namespace, "unit", None) or ""

        def cells(state: GameState, side: Side, lang: str) -> list[tuple[str, str]]:
            arriving = housechoices.arrival_cells(state, unit, current)
            return arriving or choices.deploy_cells(state, side, unit, current)

        return await self._choices(interaction, cells)

    # -- house rules at setup and at the turn's start (M3, M5) -------------------------------------
    @setup.command(name=text("cmd-orders"), description=text("cmd-orders-desc"))
    @app_commands.rename(orders=text("opt-orders"))
    @app_commands.describe(orders=text("opt-orders-desc"))
    async def orders(
        self, interaction: discord.Interaction[Any], orders: str | None = None
    ) -> None:
        """M3: the turn's orders, typed as in the order language after ``orders``."""
        await self._act(interaction, lambda s, side: decisions.typed_orders(s, side, orders))

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
        await self._act(interaction, lambda s, side: HoldInReserve(side, unit, transport or None))

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
        """A move; for the passenger of a destroyed transport waiting to be placed (H5), its
        placement, as the order language reads ``unit cell`` too; for a reserve while
        reserves are brought in (M5), its arrival; ``fall_back``: an M6 fall back."""
        where = await self._cell(interaction, cell)
        if fall_back:
            await self._act(
                interaction, lambda s, side: decisions.fall_back_move(s, side, unit, where)
            )
            return

        async def call(game: int, actor: Actor, key: str) -> Outcome:
            if await self._arriving(game, unit):
                return await self._arrive(game, actor, unit, where, key)
            if _pending_unit(await self.bot.service.status(game)) == unit:
                return await self.bot.service.place_passenger(game, actor, unit, where, key=key)
            return await self.bot.service.move(game, actor, unit, where, key=key)

        await self._run(interaction, call)

    @move.autocomplete("unit")
    async def _move_units(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._my_units(interaction, current)

    @move.autocomplete("cell")
    async def _move_cells(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        unit = getattr(interaction.namespace, "unit", None) or ""

        # The namespace is keyed by the option's Discord name, not the parameter's.
        falling_back = bool(getattr(interaction.namespace, "fall-back", False))

        def cells(state: GameState, side: Side, lang: str) -> list[tuple[str, str]]:
            if falling_back:
                return housechoices.fall_back_cells(state, unit, current)
            arriving = housechoices.arrival_cells(state, unit, current)
            if arriving:
                return arriving
            if state.pending and state.pending[0].unit == unit:
                return choices.pending_cells(state, side, current)
            return choices.move_cells(state, unit, current)

        return await self._choices(interaction, cells)

    @app_commands.command(name=text("cmd-embark"), description=text("cmd-embark-desc"))
    @app_commands.rename(unit=text("opt-unit"), transport=text("opt-transport"))
    @app_commands.describe(unit=text("opt-unit-desc"), transport=text("opt-transport-desc"))
    async def embark(
        self, interaction: discord.Interaction[Any], unit: str, transport: str
    ) -> None:
        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.embark(game, actor, unit, transport, key=key)

        await self._run(interaction, call)

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

        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.disembark(game, actor, unit, where, key=key)

        await self._run(interaction, call)

    @disembark.autocomplete("unit")
    async def _passengers(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._choices(
            interaction,
            lambda s, side, lang: [
                c for c in choices.units(s, side, current, lang) if s.units[c[1]].embarked_in
            ],
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
        if charge_to:
            cell = await self._cell(interaction, charge_to)
            await self._act(interaction, lambda s, side: Charge(side, unit, target, cell))
            return
        chosen = _weapons(weapons)
        melee = None if mode is None else mode == "melee"

        async def call(game: int, actor: Actor, key: str) -> Outcome:
            return await self.bot.service.attack(
                game, actor, unit, target, weapons=chosen, melee=melee, key=key
            )

        await self._run(interaction, call)

    @attack.autocomplete("unit")
    async def _attackers(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._my_units(interaction, current)

    @attack.autocomplete("target")
    async def _targets(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        unit = getattr(interaction.namespace, "unit", None) or ""

        def found(state: GameState, side: Side, lang: str) -> list[tuple[str, str]]:
            direct = choices.targets(state, unit, current, lang)
            known = {value for _, value in direct}
            rushed = [
                c
                for c in housechoices.charge_targets(state, unit, lang)
                if c[1] not in known and current.casefold() in c[1].casefold()
            ]
            return (direct + rushed)[: choices.LIMIT]

        return await self._choices(interaction, found)

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
        async def call(game: int, actor: Actor, key: str) -> Outcome:
            unit = _pending_unit(await self.bot.service.status(game))
            return await self.bot.service.advance(game, actor, unit, take, key=key)

        await self._run(interaction, call)

    # -- the turn --------------------------------------------------------------------------------
    @app_commands.command(name=text("cmd-end"), description=text("cmd-end-desc"))
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        async def call(game: int, actor: Actor, key: str) -> Outcome:
            status, side = await self.bot.games.side_of(game, actor.user)
            if side is not None and _reserves_pending(status, side):
                # M5: as the order "end" reads then, no more reserves this turn
                return await self.bot.service.act(
                    game, actor, FinishReserves(side), expected_version=status.version, key=key
                )
            return await self.bot.service.end_turn(game, actor, key=key)

        await self._run(interaction, call)

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
        if message.author.bot or not message.content:
            return
        if not isinstance(message.channel, discord.Thread):  # games live in threads only
            return
        try:
            game = await self.bot.games.game_here(message.channel.id)
        except Refusal:
            return
        await run_text_orders(self.bot, game, message)


def _terrain_kind(kind: str) -> TerrainKind:
    try:
        return TerrainKind(kind)
    except ValueError:
        raise Refusal("bad-kind", kind=kind[:20]) from None


def _weapons(typed: str | None) -> tuple[int, ...] | None:
    """``1,2`` (as on the sheet, from 1) -> weapon indexes (0, 1)."""
    if typed is None or not typed.strip():
        return None
    parts = typed.replace(" ", ",").split(",")
    numbers = [p for p in parts if p]
    if not numbers or not all(p.isdigit() and 0 < int(p) <= 20 for p in numbers):
        raise Refusal("bad-weapons", text=typed[:40])
    return tuple(dict.fromkeys(int(p) - 1 for p in numbers))


def _reserves_pending(status: GameStatus, side: Side) -> bool:
    pending = status.state.pending if status.state is not None else ()
    return bool(pending) and isinstance(pending[0], PendingReserve) and pending[0].side is side


def _pending_unit(status: GameStatus) -> str:
    """The unit of the decision waiting now (E10, H5): the engine refuses if it is not ours."""
    pending = status.state.pending if status.state is not None else ()
    return pending[0].unit if pending else ""
