"""Setup, in order (rulebook B1-B6): roll-off, deploy order, terrain, SP, deployment."""

from __future__ import annotations

from collections import Counter

from vahalite_bot.rules import reserve
from vahalite_bot.rules.actions import (
    ChooseDeployOrder,
    Deploy,
    HoldInReserve,
    PlaceSP,
    PlaceTerrain,
    RollOff,
)
from vahalite_bot.rules.context import Context
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import (
    DeployOrderChosen,
    RolledOff,
    SPPlaced,
    TerrainPlaced,
    UnitDeployed,
)
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.matching import max_matching
from vahalite_bot.rules.scenario import Side, Terrain, TerrainKind
from vahalite_bot.rules.sheets import UnitType
from vahalite_bot.rules.state import GameState, Phase, SPState, UnitState, fits
from vahalite_bot.rules.turns import begin_turn

SETUP_PHASES = (Phase.TERRAIN, Phase.SP, Phase.DEPLOYMENT)
# Members named through an enum class cost a call of the metaclass's __getattr__ hook each
# on Python 3.11 (EnumType defines one), and whose setup step it is is asked several
# times an action: the questions below compare with these module names.
_DEPLOY_ORDER, _TERRAIN, _SP = Phase.DEPLOY_ORDER, Phase.TERRAIN, Phase.SP


# -- questions ---------------------------------------------------------------------------
def setup_actor(state: GameState) -> Side | None:
    """Whose setup step it is (None for the roll-off, which the bot makes)."""
    if state.phase is _DEPLOY_ORDER:
        assert state.first_player is not None
        return state.first_player.other
    if state.phase in SETUP_PHASES:
        assert state.first_deployer is not None
        for side in (state.first_deployer, state.first_deployer.other):
            if _has_work(state, state.phase, side):
                return side
    return None


def terrain_left(state: GameState, side: Side) -> Counter[TerrainKind]:
    """B3: the pieces of the side's set not yet placed on its half."""
    return Counter(state.pieces_left(side))


def sp_left(state: GameState, side: Side) -> int:
    placed = sum(1 for sp in state.sps.values() if sp.placed_by is side)
    return state.scenario.sp_for(side) - placed


def undeployed(state: GameState, side: Side) -> list[UnitState]:
    # ``living``'s units, filtered in one comprehension: every setup step asks this.
    units = state.units.values()
    return [u for u in units if u.side is side and not u.deployed and not u.destroyed]


def can_deploy_all(state: GameState, side: Side) -> bool:
    """B3/B5: can every undeployed unit of ``side`` still be deployed?

    Passengers ride transports where they can (a transport with its unit counts once);
    the rest need distinct free cells of the zone that they may stand on.
    """
    waiting = undeployed(state, side)
    occupied = state.occupied()
    free = [c for c in state.scenario.zone_cells(side) if c not in occupied]
    # Any unit may stand on a cell with neither terrain nor an SP: with enough of those
    # left for every waiting unit, riders or not, the matchings below cannot fail, and
    # this is what most setup steps ask (twice each: a list's length costs less than a
    # sum over a generator).
    terrain, sps = state.terrain, state.sps
    plain = len([c for c in free if c not in terrain and c not in sps])
    if plain >= len(waiting):
        return True
    transports = [
        u
        for u in state.living(side)
        if u.sheet.is_transport and state.passenger_of(u.id) is None and not u.in_reserve
    ]
    riders = max_matching(
        {
            u.id: [t.id for t in transports if t.id != u.id and fits(t, u)]
            for u in waiting
            if not u.sheet.is_transport
        }
    )
    needing_cells = [u for u in waiting if u.id not in riders]
    if plain >= len(needing_cells):
        return True
    # Where a unit may stand depends only on its type (``_may_deploy_on``): one list a type.
    by_type: dict[UnitType, list[Cell]] = {}
    for u in needing_cells:
        if u.type not in by_type:
            by_type[u.type] = [c for c in free if _may_deploy_on(state, u, c)]
    placed = max_matching({u.id: by_type[u.type] for u in needing_cells})
    return len(placed) == len(needing_cells)


def legal_setup_cells(state: GameState, side: Side) -> list[Cell]:
    """Cells of the side's half, for the adapters to offer."""
    return list(state.scenario.half_cells(side))


# -- actions -----------------------------------------------------------------------------
def roll_off(ctx: Context, action: RollOff) -> None:
    state = ctx.state
    _require_phase(state, Phase.ROLL_OFF, "B1")
    die = ctx.roll("roll-off")
    winner = Side.SOUTH if die.value <= 3 else Side.NORTH
    state.first_player = winner
    state.phase = Phase.DEPLOY_ORDER
    ctx.emit(RolledOff(die, winner))


def choose_deploy_order(ctx: Context, action: ChooseDeployOrder) -> None:
    state = ctx.state
    _require_phase(state, Phase.DEPLOY_ORDER, "B2")
    _require_actor(state, action.side, "B2")
    first = action.side if action.deploy_first else action.side.other
    state.first_deployer = first
    ctx.emit(DeployOrderChosen(action.side, first))
    state.phase = Phase.TERRAIN
    _next_step(ctx)


def place_terrain(ctx: Context, action: PlaceTerrain) -> None:
    state = ctx.state
    check_place_terrain(state, action)
    state.with_terrain(action.cell, Terrain(action.kind))
    ctx.emit(TerrainPlaced(action.side, action.kind, action.cell))
    _next_step(ctx)


def place_sp(ctx: Context, action: PlaceSP) -> None:
    state, side = ctx.state, action.side
    check_place_sp(state, action)
    state.sps[action.cell] = SPState(placed_by=side, holder=side)
    ctx.emit(SPPlaced(side, action.cell))
    _next_step(ctx)


def deploy(ctx: Context, action: Deploy) -> None:
    state = ctx.state
    boarded = check_deploy(state, action)
    unit = state.units[action.unit]
    if boarded is not None:
        unit.embarked_in = boarded
    else:
        unit.cell = action.cell
    unit.deployed = True
    ctx.emit(UnitDeployed(action.side, unit.id, action.cell, unit.embarked_in))
    _next_step(ctx)


# Each step's checks change nothing: the engine makes them before the step, and legality
# questions (``engine.check``) ask them without copying the whole state. The last check of
# each, whether the rest of the army can still deploy, looks at a view of the board with
# the step made.
def check_place_terrain(state: GameState, action: PlaceTerrain) -> None:
    """Raise what ``place_terrain`` would refuse ``action`` with, if anything."""
    side, cell = action.side, action.cell
    _require_phase(state, Phase.TERRAIN, "B3")
    _require_actor(state, side, "B3")
    if terrain_left(state, side)[action.kind] <= 0:
        raise IllegalAction("B3", "no_terrain_left", kind=action.kind.value)
    _require_own_half(state, side, cell, "B3")
    if cell in state.terrain:
        raise IllegalAction("B3", "cell_has_terrain", cell=cell.name)
    after = state.view()
    after.with_terrain(cell, Terrain(action.kind))
    if not can_deploy_all(after, side):
        raise IllegalAction("B3", "terrain_blocks_deployment", cell=cell.name)


def check_place_sp(state: GameState, action: PlaceSP) -> None:
    """Raise what ``place_sp`` would refuse ``action`` with, if anything."""
    side, cell = action.side, action.cell
    _require_phase(state, Phase.SP, "B4")
    _require_actor(state, side, "B4")
    _require_own_half(state, side, cell, "B4")
    if state.scenario.is_edge(cell):
        raise IllegalAction("B4", "sp_on_edge", cell=cell.name)
    kind = state.terrain_kind(cell)
    if kind is not None and not kind.enterable:
        raise IllegalAction("B4", "sp_not_enterable", cell=cell.name, terrain=kind.value)
    if cell in state.sps:
        raise IllegalAction("B4", "sp_taken", cell=cell.name)
    after = state.view()
    after.sps = {**state.sps, cell: SPState(placed_by=side, holder=side)}
    if not can_deploy_all(after, side):
        raise IllegalAction("B4", "sp_blocks_deployment", cell=cell.name)


def check_deploy(state: GameState, action: Deploy) -> str | None:
    """Raise what ``deploy`` would refuse ``action`` with, if anything; else the transport
    the unit boards (None: it stands on the cell)."""
    side, cell = action.side, action.cell
    _require_phase(state, Phase.DEPLOYMENT, "B5")
    _require_actor(state, side, "B5")
    unit = state.unit(action.unit)
    if unit.side is not side:
        raise IllegalAction("B5", "not_your_unit", unit=unit.id)
    if unit.deployed:
        raise IllegalAction("B5", "already_deployed", unit=unit.id)
    if not state.scenario.in_deploy_zone(side, cell):
        raise IllegalAction("B5", "outside_deploy_zone", cell=cell.name)
    placed = state.view().units_changed(unit.id)
    occupant = state.unit_at(cell)
    if occupant is not None:
        # B5: one unit per cell; only a unit that could ride a transport hears why it can't.
        if not occupant.sheet.is_transport or unit.sheet.is_transport:
            raise IllegalAction("B5", "cell_occupied", cell=cell.name, occupant=occupant.id)
        if not state.can_carry(occupant, unit):
            raise IllegalAction("H1", "cannot_embark", unit=unit.id, transport=occupant.id)
        placed.units[unit.id].embarked_in = occupant.id
    elif not _may_deploy_on(state, unit, cell):
        raise _deploy_problem(state, unit, cell)
    else:
        placed.units[unit.id].cell = cell
    placed.units[unit.id].deployed = True
    if not can_deploy_all(placed, side):
        raise IllegalAction("B5", "deploy_blocks_others", unit=unit.id, cell=cell.name)
    return None if occupant is None else occupant.id


def hold_in_reserve(ctx: Context, action: HoldInReserve) -> None:
    """M5 at B5: a unit held back instead of deployed (its deployment step)."""
    state = ctx.state
    _require_phase(state, Phase.DEPLOYMENT, "B5")
    _require_actor(state, action.side, "B5")
    reserve.hold(ctx, action)
    if not can_deploy_all(state, action.side):
        raise IllegalAction("M5", "reserve_blocks_others", unit=action.unit)
    _next_step(ctx)


# -- helpers -----------------------------------------------------------------------------
def _may_deploy_on(state: GameState, unit: UnitState, cell: Cell) -> bool:
    """B5: no Obstacle or Water, no vehicle in Cover; flyers never on an SP (as D4)."""
    if not state.can_stand(unit, cell):
        return False
    return not (unit.is_flyer and cell in state.sps)


def _deploy_problem(state: GameState, unit: UnitState, cell: Cell) -> IllegalAction:
    """B5: the one reason ``unit`` may not stand on ``cell`` (``_may_deploy_on`` is False)."""
    kind = state.terrain_kind(cell)
    if kind is not None and not kind.enterable:
        return IllegalAction(
            "B5",
            "cannot_deploy_here",
            unit=unit.id,
            cell=cell.name,
            terrain=kind.value,
            reason="terrain",
        )
    if kind is not None and not state.can_stand(unit, cell):
        return IllegalAction(
            "B5",
            "cannot_deploy_here",
            unit=unit.id,
            cell=cell.name,
            terrain=kind.value,
            reason="vehicle_cover",
        )
    return IllegalAction("B5", "cannot_deploy_here", unit=unit.id, cell=cell.name, reason="sp")


def _has_work(state: GameState, phase: Phase, side: Side) -> bool:
    if phase is _TERRAIN:
        return bool(state.pieces_left(side))
    if phase is _SP:
        return sp_left(state, side) > 0
    # Asked a few times at every setup step (whose step is it?): one pass, no list, and a
    # plain loop, at less than half the cost of any() over a generator.
    for u in state.units.values():  # noqa: SIM110
        if u.side is side and not u.deployed and not u.destroyed:
            return True
    return False


def _next_step(ctx: Context) -> None:
    """Move on to the next setup step with work to do, or start round 1 (B6)."""
    state = ctx.state
    while state.phase in SETUP_PHASES and setup_actor(state) is None:
        index = SETUP_PHASES.index(state.phase) + 1
        state.phase = SETUP_PHASES[index] if index < len(SETUP_PHASES) else Phase.PLAYING
    if state.phase is Phase.PLAYING:
        assert state.first_player is not None
        begin_turn(ctx, 1, state.first_player)


def _require_phase(state: GameState, phase: Phase, rule: str) -> None:
    if state.phase is not phase:
        raise IllegalAction(rule, "wrong_phase", expected=phase.value, phase=state.phase.value)


def _require_actor(state: GameState, side: Side, rule: str) -> None:
    if setup_actor(state) is not side:
        raise IllegalAction(rule, "not_your_setup_step", side=side.value)


def _require_own_half(state: GameState, side: Side, cell: Cell, rule: str) -> None:
    if not state.scenario.in_half(side, cell):
        raise IllegalAction(rule, "not_own_half", cell=cell.name)
