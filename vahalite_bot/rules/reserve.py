"""M5, the tactical reserve: held back at B5, placed at the start of the owner's turns,
destroyed if still waiting at the end of round 4."""

from __future__ import annotations

from vahalite_bot.rules.actions import FinishReserves, HoldInReserve, PlaceReserve
from vahalite_bot.rules.casualties import destroy
from vahalite_bot.rules.context import Context
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import ReserveHeld, ReservePlaced, ReservesDone, ReservesOffered
from vahalite_bot.rules.geometry import Cell, orthogonal_neighbours
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, PendingReserve, UnitState

# Apoc: «не пришедшие… умирают в конце 4го хода».
LAST_RESERVE_ROUND = 4


# -- questions ---------------------------------------------------------------------------
def reserves(state: GameState, side: Side) -> list[UnitState]:
    """Every unit of ``side`` still held back, passengers included."""
    return [u for u in state.living(side) if u.in_reserve]


def reserve_limit(state: GameState, side: Side) -> int:
    """M5: up to half the side's units, rounded down (a passenger counts as a unit)."""
    return sum(1 for u in state.units.values() if u.side is side) // 2


def arrival_cells(state: GameState, unit: UnitState) -> list[Cell]:
    """M5: empty cells of the deployment zone allowed by B5, not beside an enemy unit."""
    enemies = {u.cell for u in state.living(unit.side.other) if u.cell is not None}
    occupied = state.occupied()
    width, height = state.scenario.width, state.scenario.height
    return [
        cell
        for cell in state.scenario.cells()
        if state.scenario.in_deploy_zone(unit.side, cell)
        and cell not in occupied
        and state.can_stand(unit, cell)
        and not (unit.is_flyer and cell in state.sps)  # B5, as D4
        and not enemies.intersection(orthogonal_neighbours(cell, width, height))
    ]


def placeable(state: GameState, side: Side) -> tuple[str, ...]:
    """Reserves that could be placed now: not riding a transport, with a free cell."""
    return tuple(
        u.id for u in reserves(state, side) if u.embarked_in is None and arrival_cells(state, u)
    )


def expires_now(state: GameState) -> bool:
    """Reserves die at the end of round 4, or of the last round of a shorter game."""
    return state.has(HouseRule.RESERVE) and state.round == min(
        LAST_RESERVE_ROUND, state.scenario.rounds
    )


# -- B5 ------------------------------------------------------------------------------------
def hold(ctx: Context, action: HoldInReserve) -> None:
    """M5 at B5: hold an undeployed unit back (the caller checks the phase and the actor)."""
    state = ctx.state
    if not state.has(HouseRule.RESERVE):
        raise IllegalAction("M5", "reserve_rule_off")
    unit = state.unit(action.unit)
    if unit.side is not action.side:
        raise IllegalAction("B5", "not_your_unit", unit=unit.id)
    if unit.deployed:
        raise IllegalAction("B5", "already_deployed", unit=unit.id)
    limit = reserve_limit(state, action.side)
    if len(reserves(state, action.side)) + 1 > limit:
        raise IllegalAction("M5", "reserve_full", unit=unit.id, limit=limit)
    if action.embarked_in is not None:
        _board_reserve_transport(state, unit, action.embarked_in)
    unit.deployed = True
    unit.in_reserve = True
    ctx.emit(ReserveHeld(action.side, unit.id, unit.embarked_in))


def _board_reserve_transport(state: GameState, unit: UnitState, transport_id: str) -> None:
    """M5: a transport and its passenger stay together: the passenger rides one held back."""
    transport = state.unit(transport_id)
    if not transport.in_reserve or transport.side is not unit.side:
        raise IllegalAction("M5", "transport_not_in_reserve", transport=transport.id)
    if not state.can_carry(transport, unit):
        raise IllegalAction("H1", "cannot_embark", unit=unit.id, transport=transport.id)
    unit.embarked_in = transport.id


# -- the start of a turn ---------------------------------------------------------------------
def offer(ctx: Context, side: Side) -> None:
    """M5: the side's turn opens with the choice to place reserves, if any can be placed."""
    state = ctx.state
    if not state.has(HouseRule.RESERVE):
        return
    units = placeable(state, side)
    if units:
        state.pending = (*state.pending, PendingReserve(side, units))
        ctx.emit(ReservesOffered(side, units))


def place(ctx: Context, pending: PendingReserve, action: PlaceReserve) -> None:
    """M5: place one reserve; placing is not a move (the unit then moves as usual)."""
    state = ctx.state
    if action.unit not in pending.units:
        raise IllegalAction("M5", "not_a_reserve", unit=action.unit)
    unit = state.unit(action.unit)
    cells = arrival_cells(state, unit)
    if action.cell not in cells:
        raise IllegalAction(
            "M5",
            "reserve_cell_not_allowed",
            unit=unit.id,
            cell=action.cell.name,
            cells=" ".join(c.name for c in cells),
        )
    unit.cell = action.cell
    unit.in_reserve = False
    passenger = state.passenger_of(unit.id)
    if passenger is not None:
        passenger.in_reserve = False
    rider = None if passenger is None else passenger.id
    ctx.emit(ReservePlaced(unit.side, unit.id, action.cell, rider))
    left = placeable(state, unit.side)
    rest = state.pending[1:]
    state.pending = (PendingReserve(unit.side, left), *rest) if left else rest


def finish(ctx: Context, action: FinishReserves) -> None:
    """M5: no more reserves this turn; the caller drops the pending decision."""
    ctx.emit(ReservesDone(action.side))


# -- the end of round 4 ---------------------------------------------------------------------
def expire(ctx: Context) -> None:
    """M5: reserves still waiting are destroyed, +1 VP each to the opponent (J2)."""
    state = ctx.state
    waiting = [u for u in state.living() if u.in_reserve]
    for unit in sorted(waiting, key=lambda u: u.embarked_in is None):  # passengers first
        unit.in_reserve = False
        unit.embarked_in = None
        destroy(ctx, unit, None, "reserve")


# -- choices, for legal_actions and the automatic players -------------------------------------
def hold_candidates(state: GameState, side: Side) -> list[HoldInReserve]:
    """B5 with M5: each undeployed unit held back alone or inside a reserve transport."""
    if not state.has(HouseRule.RESERVE):
        return []
    waiting = [u for u in state.living(side) if not u.deployed]
    transports = [u for u in reserves(state, side) if u.sheet.is_transport]
    return [HoldInReserve(side, u.id) for u in waiting] + [
        HoldInReserve(side, u.id, t.id)
        for u in waiting
        for t in transports
        if state.can_carry(t, u)
    ]


def placement_choices(
    state: GameState, pending: PendingReserve
) -> list[PlaceReserve | FinishReserves]:
    """Every reserve placement open now, then finishing."""
    placements: list[PlaceReserve | FinishReserves] = [
        PlaceReserve(pending.side, unit_id, cell)
        for unit_id in pending.units
        for cell in arrival_cells(state, state.units[unit_id])
    ]
    return [*placements, FinishReserves(pending.side)]
