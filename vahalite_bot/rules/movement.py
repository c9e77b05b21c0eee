"""Movement (rulebook D1-D6) with embarking and disembarking (H2, H3)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from vahalite_bot.rules import fallback, unit_orders
from vahalite_bot.rules.actions import Move
from vahalite_bot.rules.casualties import morale_test
from vahalite_bot.rules.contact import charge_rule_end_problem, in_contact
from vahalite_bot.rules.context import Context
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import Moved
from vahalite_bot.rules.geometry import Cell, board_neighbours, distance, orthogonal_neighbours
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.overwatch import fire_overwatch
from vahalite_bot.rules.scenario import TerrainKind
from vahalite_bot.rules.state import GameState, UnitState


@dataclass(frozen=True)
class Destination:
    """A cell the unit can reach this turn, a shortest path to it, and what ending there does."""

    cell: Cell
    path: tuple[Cell, ...]
    embarks_in: str | None = None
    disembarks: bool = False

    def __init__(
        self,
        cell: Cell,
        path: tuple[Cell, ...],
        embarks_in: str | None = None,
        disembarks: bool = False,
    ) -> None:
        # Written out: the generated frozen __init__ sets each field through
        # object.__setattr__, twice as slow, and a search makes one per cell it reaches.
        self.__dict__.update(cell=cell, path=path, embarks_in=embarks_in, disembarks=disembarks)


# -- questions ---------------------------------------------------------------------------
def reachable(state: GameState, unit: UnitState) -> dict[Cell, Destination]:
    """Every legal end cell of a move for ``unit`` now, each with a shortest path."""
    if unit.moved or state.attack_step:
        return {}  # C2: one move per unit, all moves before the first attack
    if not unit_orders.may_move(state, unit) or unit.in_reserve:
        return {}  # M5: a reserve (and its passenger) only arrives, at its turn's start
    if unit.embarked_in is not None:
        return {d.cell: d for d in _disembark_destinations(state, unit)}
    start = unit.cell
    if start is None:
        return {}
    found: dict[Cell, Destination] = {}
    paths: dict[Cell, tuple[Cell, ...]] = {start: ()}
    queue = deque([start])
    longest = unit_orders.max_move(state, unit)
    # The board does not change during the search: who stands where, and (M8) whether the
    # unit starts in contact, are looked up once rather than for every cell.
    occupants = state.occupied()
    began_in_contact = in_contact(state, unit) if state.has(HouseRule.CHARGE) else None
    flyer = unit.is_flyer  # D4: flyers ignore terrain and units while moving
    # Without M8 a ground unit may end on any empty cell it may pass (_end_problem).
    plain_end = not flyer and began_in_contact is None
    terrain = state.terrain
    side = unit.side
    around = board_neighbours(state.scenario.width, state.scenario.height)
    while queue:
        here = queue.popleft()
        path = paths[here]
        if len(path) >= longest:
            continue
        # Neighbours are on the board (D1), so only D2 and D3 can stop a step.
        for step in around[here]:
            if step in paths:
                continue
            occupant = occupants.get(step)
            # D2, and D3 (_blocks, inlined: asked for every cell of every search).
            if not flyer and (
                (step in terrain and not state.can_stand(unit, step))
                or (occupant is not None and occupant.side is not side and not occupant.is_flyer)
            ):
                continue
            paths[step] = steps = (*path, step)
            if occupant is None:
                if plain_end or _end_problem(state, unit, step, None, began_in_contact) is None:
                    found[step] = Destination(step, steps)
            # A move may end on an occupied cell only inside a friendly transport (H2): the
            # other ends _end_problem refuses (D3, D4) are passed over without building the
            # refusal, as most searches pass beside friends.
            elif (
                not flyer
                and occupant.side is unit.side
                and occupant.sheet.is_transport
                and _end_problem(state, unit, step, occupant, began_in_contact) is None
            ):
                found[step] = _destination(unit, steps, occupant)
            queue.append(step)
    return found


def path_to(state: GameState, unit: UnitState, cell: Cell) -> tuple[Cell, ...] | None:
    destination = reachable(state, unit).get(cell)
    return None if destination is None else destination.path


def step_problem(state: GameState, unit: UnitState, cell: Cell) -> IllegalAction | None:
    """Why ``unit`` may not pass through ``cell`` (D1-D4), or None: for explaining a move."""
    return _step_problem(state, unit, cell)


# -- the action --------------------------------------------------------------------------
def move(ctx: Context, action: Move) -> None:
    state = ctx.state
    unit = state.unit(action.unit)
    check_move(state, unit, action.path)
    fallback.check(state, unit, action)
    start = state.position(unit)
    assert start is not None
    if leaves_melee(state, unit):
        if action.fall_back:
            fallback.fall_back(ctx, unit)  # M6: instead of the test
        else:
            move = (start, *action.path)
            morale_test(ctx, unit, "leaving_melee", credited=None, move=move)  # D5, G4
            if unit.destroyed:
                return
    end = action.path[-1]
    transport = unit.embarked_in
    unit.moved = True
    if transport is not None:
        unit.embarked_in = None
        unit.cell = end
        unit.disembarked = True
        ctx.emit(Moved(unit.id, start, action.path, disembarked_from=transport))
        fire_overwatch(ctx, unit)
        return
    carrier = state.unit_at(end)
    if carrier is not None and carrier is not unit:
        unit.cell = None
        unit.embarked_in = carrier.id
        unit.embarked = True
        ctx.emit(Moved(unit.id, start, action.path, embarked_in=carrier.id))
        return
    unit.cell = end
    passenger = state.passenger_of(unit.id)
    ctx.emit(
        Moved(unit.id, start, action.path, passenger=None if passenger is None else passenger.id)
    )
    fire_overwatch(ctx, unit)


def check_move(state: GameState, unit: UnitState, path: tuple[Cell, ...]) -> None:
    """Raise the first reason the move is illegal (D6), checking nothing else."""
    if unit.moved:
        raise _second_move_problem(state, unit, path)
    if not path:
        raise IllegalAction("D1", "empty_path", unit=unit.id)
    if unit.in_reserve:
        raise IllegalAction("M5", "reserve_off_board", unit=unit.id)
    ordered = unit_orders.move_problem(state, unit)
    if ordered is not None:
        raise ordered
    if unit.embarked_in is not None:
        _check_disembark(state, unit, path)
        return
    start = unit.cell
    assert start is not None
    longest = unit_orders.max_move(state, unit)
    if len(path) > longest:
        raise IllegalAction("D1", "path_too_long", unit=unit.id, length=len(path), m=longest)
    previous = start
    for step in path:
        if distance(previous, step) != 1:
            raise IllegalAction("D1", "not_orthogonal", frm=previous.name, cell=step.name)
        problem = _step_problem(state, unit, step)
        if problem is not None:
            raise problem
        previous = step
    if len(set(path)) != len(path) or start in path:
        raise IllegalAction("D1", "path_revisits", unit=unit.id)
    problem = _end_problem(state, unit, path[-1], state.unit_at(path[-1]))
    if problem is not None:
        raise problem


def leaves_melee(state: GameState, unit: UnitState) -> bool:
    """D5: starts its move orthogonally next to an enemy ground unit (flyers don't count)."""
    if unit.is_flyer:
        return False
    here = state.position(unit)
    assert here is not None
    for cell in orthogonal_neighbours(here, state.scenario.width, state.scenario.height):
        other = state.unit_at(cell)
        if other is not None and other.side is not unit.side and not other.is_flyer:
            return True
    return False


# -- helpers -----------------------------------------------------------------------------
def _step_problem(state: GameState, unit: UnitState, cell: Cell) -> IllegalAction | None:
    """D2-D4: may the unit pass through ``cell``?"""
    if not state.scenario.on_board(cell):
        return IllegalAction("D1", "off_board", cell=cell.name)
    if unit.is_flyer:
        return None  # D4: flyers ignore terrain and units while moving
    if not state.can_stand(unit, cell):
        kind = state.terrain_kind(cell)
        assert kind is not None
        return IllegalAction("D2", "blocked_by_terrain", cell=cell.name, terrain=kind.value)
    other = state.unit_at(cell)
    if _blocks(unit, other):
        assert other is not None
        return IllegalAction("D3", "blocked_by_enemy", cell=cell.name, enemy=other.id)
    return None


def _blocks(unit: UnitState, other: UnitState | None) -> bool:
    """D3: an enemy ground unit on a cell bars a ground unit's way through it."""
    return other is not None and other.side is not unit.side and not other.is_flyer


def _end_problem(
    state: GameState,
    unit: UnitState,
    cell: Cell,
    occupant: UnitState | None,
    began_in_contact: bool | None = None,
) -> IllegalAction | None:
    """D3, D4, H1, H2: may the move end on ``cell`` (where ``occupant`` stands)?"""
    # D4 names only Obstacles and SPs: a flyer may hover over Water.
    if unit.is_flyer and (state.terrain_kind(cell) is TerrainKind.OBSTACLE or cell in state.sps):
        return IllegalAction("D4", "flyer_cannot_end", cell=cell.name)
    if occupant is None:
        return charge_rule_end_problem(state, unit, cell, began_in_contact)
    if occupant.side is unit.side and occupant.sheet.is_transport and not unit.is_flyer:
        if not state.can_carry(occupant, unit):
            return IllegalAction("H1", "cannot_embark", unit=unit.id, transport=occupant.id)
        return None
    return IllegalAction("D3", "end_not_empty", cell=cell.name, occupant=occupant.id)


def _second_move_problem(
    state: GameState, unit: UnitState, path: tuple[Cell, ...]
) -> IllegalAction:
    """C2 allows one move; H3 names the reason when the second would embark or disembark."""
    if unit.embarked and unit.embarked_in is not None:
        return IllegalAction("H3", "disembark_after_embark", unit=unit.id)
    if unit.disembarked and path:
        occupant = state.unit_at(path[-1])
        if occupant is not None and occupant.side is unit.side and occupant.sheet.is_transport:
            return IllegalAction("H3", "embark_after_disembark", unit=unit.id)
    return IllegalAction("C2", "already_moved", unit=unit.id)


def _destination(
    unit: UnitState, path: tuple[Cell, ...], occupant: UnitState | None
) -> Destination:
    embarks = occupant.id if occupant is not None and occupant is not unit else None
    return Destination(path[-1], path, embarks_in=embarks)


def _disembark_destinations(state: GameState, unit: UnitState) -> list[Destination]:
    here = state.position(unit)
    assert here is not None
    return [
        Destination(cell, (cell,), disembarks=True)
        for cell in orthogonal_neighbours(here, state.scenario.width, state.scenario.height)
        if state.unit_at(cell) is None
        and state.can_stand(unit, cell)
        and charge_rule_end_problem(state, unit, cell) is None
    ]


def _check_disembark(state: GameState, unit: UnitState, path: tuple[Cell, ...]) -> None:
    """H3: one step from the transport's cell to an adjacent empty cell it may enter."""
    here = state.position(unit)
    assert here is not None
    if len(path) != 1:
        raise IllegalAction("H3", "disembark_one_step", unit=unit.id)
    cell = path[0]
    if distance(here, cell) != 1:
        raise IllegalAction("H3", "disembark_adjacent", unit=unit.id, cell=cell.name)
    if not state.scenario.on_board(cell):
        raise IllegalAction("D1", "off_board", cell=cell.name)
    if not state.can_stand(unit, cell):
        kind = state.terrain_kind(cell)
        raise IllegalAction("D2", "blocked_by_terrain", cell=cell.name, terrain=str(kind))
    occupant = state.unit_at(cell)
    if occupant is not None:
        raise IllegalAction("D3", "end_not_empty", cell=cell.name, occupant=occupant.id)
    problem = charge_rule_end_problem(state, unit, cell)
    if problem is not None:
        raise problem
