"""``resolve(order, state, side)``: an ``Order`` to an engine action or a ``Request``.

It names units (``refs.find_unit``) and turns a destination into a path; it does not
judge legality, which stays the engine's: an action that the rules forbid is returned as
it is, and ``apply`` refuses it with its rule ID. Raises only ``OrderError`` (the order
names nothing sensible here) and ``IllegalAction`` (where resolving already meets a rule:
a destination off the board or in Water, a weapon that cannot reach for ``odds``).

Decisions:

* A destination becomes the shortest legal path (``movement.reachable``). If none exists,
  the refusal says why: the engine's own reason when the cell itself is the problem
  (terrain, occupied, full transport), ``path_too_long`` with the real distance when only
  Maneuverability is short, an enemy on the cell is answered with the attack to type
  instead, and otherwise ``no_path`` lists the cells the unit can reach.
* "Only Maneuverability is short" means the straight way (a shortest orthogonal path): a
  cell two steps away behind an enemy is "blocked by the enemy at C3", not "that path is
  4" for a detour the player never meant (issue 12); a cell farther than M gets its real
  distance as the length.
* When the unit may not move at all now (not your turn, moved already, attacks begun, a
  decision pending), the move goes to the engine unchanged, so that its reason is given.
* A passenger waiting to be placed after its transport's wreck (H5) is placed by the
  ``deploy``/``place``, ``disembark`` or ``move`` order naming it and a cell; a reserve
  while its side brings reserves in (M5) arrives by the ``arrive``, ``place`` or ``move``
  order naming it and a cell. The slash commands build the same orders, so both adapters
  choose here, in one place (issue 17).
* ``embark`` without a transport picks the only friendly transport the unit can reach;
  ``disembark`` without a cell the only free cell; several make a refusal listing them.
"""

from __future__ import annotations

from dataclasses import replace

from vahalite_bot.orders.lexicon import near_words
from vahalite_bot.orders.model import (
    AdvanceOrder,
    ArmyOrder,
    ArriveOrder,
    AttackOrder,
    BoardOrder,
    ChargeOrder,
    DeployOrder,
    DeployOrderChoice,
    DisembarkOrder,
    EmbarkOrder,
    EndTurnOrder,
    FallBackOrder,
    GiveOrdersOrder,
    HelpOrder,
    HintOrder,
    LogOrder,
    MoveOrder,
    OddsOrder,
    Order,
    OrderEntry,
    OrderError,
    Ref,
    ReserveOrder,
    ResignOrder,
    RollOffOrder,
    RuleOrder,
    SPOrder,
    StatusOrder,
    Suggestion,
    TerrainOrder,
    UndoOrder,
    VerifyOrder,
)
from vahalite_bot.orders.refs import describe_units, find_unit
from vahalite_bot.orders.requests import (
    ArmyRequest,
    BoardRequest,
    HelpRequest,
    HintRequest,
    LogRequest,
    OddsRequest,
    Resolved,
    RuleRequest,
    StatusRequest,
    UndoRequest,
    VerifyRequest,
)
from vahalite_bot.rules import charge, combat, movement, reserve, unit_orders
from vahalite_bot.rules.actions import (
    Advance,
    Attack,
    Charge,
    ChooseDeployOrder,
    Deploy,
    EndTurn,
    FinishReserves,
    GiveOrders,
    HoldInReserve,
    Move,
    PlacePassenger,
    PlaceReserve,
    PlaceSP,
    PlaceTerrain,
    Resign,
    RollOff,
    UnitOrder,
)
from vahalite_bot.rules.contact import charge_rule_end_problem
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.geometry import Cell, distance, orthogonal_neighbours
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.state import GameState, PendingPlacement, PendingReserve, Phase, UnitState


def resolve(order: Order, state: GameState, side: Side) -> Resolved:
    match order:
        case MoveOrder():
            return _move(order, state, side)
        case AttackOrder():
            unit = find_unit(state, order.unit, side)
            target = find_unit(state, order.target, side.other)
            weapons = None if order.weapons is None else tuple(w - 1 for w in order.weapons)
            return Attack(side, unit.id, target.id, weapons, order.melee)
        case EmbarkOrder():
            return _embark(order, state, side)
        case FallBackOrder():
            return _fall_back(order, state, side)
        case ChargeOrder():
            return _charge(order, state, side)
        case GiveOrdersOrder():
            return GiveOrders(side, tuple(_unit_order(e, state, side) for e in order.entries))
        case DisembarkOrder():
            return _disembark(order, state, side)
        case DeployOrder():
            return _deploy(order, state, side)
        case OddsOrder():
            return _odds(order, state, side)
        case AdvanceOrder():
            if not state.pending:
                raise IllegalAction("E10", "nothing_pending")
            return Advance(side, state.pending[0].unit, order.accept)
        case TerrainOrder():
            _on_board(state, order.cell, "B3")
            return PlaceTerrain(side, order.kind, order.cell)
        case SPOrder():
            _on_board(state, order.cell, "B4")
            return PlaceSP(side, order.cell)
        case DeployOrderChoice():
            return ChooseDeployOrder(side, order.first)
        case RollOffOrder():
            return RollOff()
        case EndTurnOrder():
            return FinishReserves(side) if _reserves_pending(state, side) else EndTurn(side)
        case ReserveOrder():
            return _reserve(order, state, side)
        case ArriveOrder():
            return _arrive(order, state, side)
        case ResignOrder():
            return Resign(side)
        case UndoOrder():
            return UndoRequest(order.count)
        case BoardOrder():
            return BoardRequest()
        case StatusOrder():
            return StatusRequest()
        case ArmyOrder():
            return ArmyRequest(side.other if order.enemy else side)
        case LogOrder():
            return LogRequest(order.count)
        case HelpOrder():
            return HelpRequest(order.topic)
        case RuleOrder():
            return RuleRequest(order.rule_id)
        case VerifyOrder():
            return VerifyRequest()
        case HintOrder():
            return HintRequest()


# -- moving ------------------------------------------------------------------------------
def _move(order: MoveOrder, state: GameState, side: Side) -> Move | PlacePassenger | PlaceReserve:
    """``unit cell`` (typed, or ``/vl move``): the move; for a passenger waiting to be placed
    after its transport's wreck, its placement (H5); for a reserve while reserves are
    brought in, its arrival (M5)."""
    unit = _mover(state, order.unit, side)
    path = order.path
    if len(path) == 1:
        placing = _placing(state, unit)
        if placing is not None:
            return PlacePassenger(side, unit.id, path[0])
        if unit.in_reserve and _reserves_pending(state, side):
            return PlaceReserve(side, unit.id, path[0])
        return _move_to(state, side, unit, path[0])
    if path[0] == state.position(unit):
        path = path[1:]
    return Move(side, unit.id, path)


def _unit_order(entry: OrderEntry, state: GameState, side: Side) -> UnitOrder:
    """M3: the unit an entry names (its own side's first: an enemy is the engine's refusal)."""
    return UnitOrder(find_unit(state, entry.unit, side, passenger=True).id, entry.order)


def _fall_back(
    order: FallBackOrder, state: GameState, side: Side
) -> Move | PlacePassenger | PlaceReserve:
    """M6: the move the same words would make, as a fall back (the engine judges it)."""
    moved = _move(MoveOrder(order.unit, order.path), state, side)
    return replace(moved, fall_back=True) if isinstance(moved, Move) else moved


def _charge(order: ChargeOrder, state: GameState, side: Side) -> Charge:
    """M8: without a cell, the legal one beside the target with the shortest path; with
    none legal, the nearest cell beside it, for the engine to say why."""
    unit = find_unit(state, order.unit, side)
    target = find_unit(state, order.target, side.other)
    if order.cell is not None:
        return Charge(side, unit.id, target.id, order.cell)
    options = [o for o in charge.charge_options(state, unit) if o.target == target.id]
    if options:
        best = min(options, key=lambda o: (len(o.path), o.cell))
        return Charge(side, unit.id, target.id, best.cell)
    here, there = state.position(unit), state.position(target)
    if here is None or there is None:
        return Charge(side, unit.id, target.id, there or here or Cell(0, 0))
    beside = [
        cell
        for cell in orthogonal_neighbours(there, state.scenario.width, state.scenario.height)
        if cell != here
    ]
    cell = min(beside, key=lambda c: (distance(here, c), c), default=there)
    return Charge(side, unit.id, target.id, cell)


def _mover(state: GameState, ref: Ref, side: Side) -> UnitState:
    """The unit a move names. ``укрыте C3`` reads as a move of a unit "укрыте": when no unit
    is called so but an order or (while terrain is placed) a terrain word nearly is, the
    refusal offers those words first, not only the nearest units."""
    try:
        return find_unit(state, ref, side)
    except OrderError as error:
        if error.code != "unknown_unit" or ref.cell is not None:
            raise
        words = near_words(ref.text, terrain=state.phase is Phase.TERRAIN)
        if not words:
            raise
        suggestions = tuple(Suggestion(w) for w in words) + error.suggestions
        raise OrderError("unknown_word", suggestions, word=ref.text) from None


def _embark(order: EmbarkOrder, state: GameState, side: Side) -> Move:
    unit = find_unit(state, order.unit, side)
    if unit.embarked_in is not None:
        raise OrderError("already_embarked", unit=unit.id, transport=unit.embarked_in)
    if order.transport is not None:
        transport = find_unit(state, order.transport, side)
        if not transport.sheet.is_transport:
            raise OrderError("not_a_transport", unit=transport.id)
        if transport.cell is None:
            raise IllegalAction("C2", "not_on_board", unit=transport.id)
        return _move_to(state, side, unit, transport.cell)
    if not _may_move_now(state, side, unit):
        return Move(side, unit.id, ())
    options = [d for d in movement.reachable(state, unit).values() if d.embarks_in is not None]
    if len(options) == 1:
        return Move(side, unit.id, options[0].path)
    if not options:
        raise OrderError("no_transport_in_reach", unit=unit.id)
    transports = describe_units(
        state.units[handle] for handle in sorted(d.embarks_in for d in options if d.embarks_in)
    )
    raise OrderError("which_transport", transports, unit=unit.id)


def _disembark(order: DisembarkOrder, state: GameState, side: Side) -> Move | PlacePassenger:
    unit = find_unit(state, order.unit, side, passenger=True)
    placing = _placing(state, unit)
    if placing is not None:
        if order.cell is None:
            raise OrderError("which_cell", _cells(placing.cells), unit=unit.id)
        return PlacePassenger(side, unit.id, order.cell)
    if unit.embarked_in is None:
        raise OrderError("not_embarked", unit=unit.id)
    if order.cell is not None:
        return Move(side, unit.id, (order.cell,))
    if not _may_move_now(state, side, unit):
        return Move(side, unit.id, ())
    cells = sorted(movement.reachable(state, unit))
    if len(cells) == 1:
        return Move(side, unit.id, (cells[0],))
    if not cells:
        raise OrderError("no_room_to_disembark", unit=unit.id)
    raise OrderError("which_cell", _cells(cells), unit=unit.id)


def _move_to(state: GameState, side: Side, unit: UnitState, cell: Cell) -> Move:
    """A move to ``cell`` by the shortest legal path, or the clearest reason there is none."""
    if not _may_move_now(state, side, unit):
        return Move(side, unit.id, (cell,))
    found = movement.reachable(state, unit).get(cell)
    if found is not None:
        return Move(side, unit.id, found.path)
    if cell == state.position(unit):
        raise OrderError("already_there", unit=unit.id, cell=cell.name)
    if not state.scenario.on_board(cell):
        raise IllegalAction("D1", "off_board", cell=cell.name)
    if unit.embarked_in is not None:
        return Move(side, unit.id, (cell,))  # H3: the engine says why this step is wrong
    _check_end(state, unit, cell)
    if _relaxed(state, unit).get(cell) is not None:
        # Some way exists, only longer than M: the reason is the straight way's, a blocker
        # on it or its length (D6), never the length of a detour the player did not mean.
        return Move(side, unit.id, _straight_path(state, unit, cell))
    reach = sorted(movement.reachable(state, unit))
    raise OrderError("no_path", _cells(reach), unit=unit.id, cell=cell.name)


def _straight_path(state: GameState, unit: UnitState, cell: Cell) -> tuple[Cell, ...]:
    """The way the player meant: a shortest orthogonal path, the one that gets furthest
    before something blocks it (columns first on a tie), for the engine to refuse.

    Longer than M, the engine names its real length; within M, every such path is blocked
    (else ``reachable`` would have found one), and the engine names the blocker.
    """
    start = state.position(unit)
    assert start is not None
    paths = _monotone_paths(start, cell)
    if len(paths[0]) > unit.sheet.maneuverability:
        return paths[0]
    return max(paths, key=lambda path: _clear_steps(state, unit, path))


def _monotone_paths(start: Cell, end: Cell) -> list[tuple[Cell, ...]]:
    """Every shortest orthogonal path from ``start`` to ``end``, columns-first ones first."""
    dcol = 1 if end.col > start.col else -1
    drow = 1 if end.row > start.row else -1
    if start == end:
        return [()]
    found: list[tuple[Cell, ...]] = []
    if start.col != end.col:
        step = Cell(start.col + dcol, start.row)
        found += [(step, *rest) for rest in _monotone_paths(step, end)]
    if start.row != end.row:
        step = Cell(start.col, start.row + drow)
        found += [(step, *rest) for rest in _monotone_paths(step, end)]
    return found


def _clear_steps(state: GameState, unit: UnitState, path: tuple[Cell, ...]) -> int:
    """How many steps of ``path`` the unit can take before one is blocked (D2, D3)."""
    for index, step in enumerate(path):
        if movement.step_problem(state, unit, step) is not None:
            return index
    return len(path)


def _check_end(state: GameState, unit: UnitState, cell: Cell) -> None:
    """D2-D4, H1: the engine's reason when the destination itself is what is wrong."""
    kind = state.terrain_kind(cell)
    if unit.is_flyer:
        if kind is TerrainKind.OBSTACLE or cell in state.sps:
            raise IllegalAction("D4", "flyer_cannot_end", cell=cell.name)
    elif not state.can_stand(unit, cell):
        assert kind is not None
        raise IllegalAction("D2", "blocked_by_terrain", cell=cell.name, terrain=kind.value)
    occupant = state.unit_at(cell)
    if occupant is None:
        problem = charge_rule_end_problem(state, unit, cell)  # M8
        if problem is not None:
            raise problem
        return
    if occupant.side is not unit.side:
        attack = f"{unit.id} > {occupant.id}"
        raise OrderError("destination_enemy", unit=unit.id, target=occupant.id, attack=attack)
    if occupant.sheet.is_transport and not unit.is_flyer:
        if not state.can_carry(occupant, unit):
            raise IllegalAction("H1", "cannot_embark", unit=unit.id, transport=occupant.id)
        return
    raise IllegalAction("D3", "end_not_empty", cell=cell.name, occupant=occupant.id)


def _relaxed(state: GameState, unit: UnitState) -> dict[Cell, movement.Destination]:
    """Where the unit could go if Maneuverability were no limit."""
    unlimited = state.scenario.width * state.scenario.height
    free = replace(unit, sheet=replace(unit.sheet, maneuverability=unlimited))
    return movement.reachable(state, free)


def _may_move_now(state: GameState, side: Side, unit: UnitState) -> bool:
    """Whether working out a path makes sense, or the engine should just say why not.

    A unit whose order forbids any move (M3 Aimed Fire) is refused here with that rule,
    as the engine refuses a typed path: else a move by its end cell, a disembark or an
    embark would be told the way is blocked or there is no room (issue 19)."""
    may = (
        state.phase is Phase.PLAYING
        and not state.pending
        and state.active is side
        and unit.side is side
        and not unit.moved
        and not state.attack_step
        and state.position(unit) is not None
    )
    ordered = unit_orders.move_problem(state, unit) if may else None
    if ordered is not None:
        raise ordered
    return may


# -- setup, decisions, questions ---------------------------------------------------------
def _deploy(
    order: DeployOrder, state: GameState, side: Side
) -> Deploy | PlacePassenger | PlaceReserve:
    unit = find_unit(state, order.unit, side)
    cell = _place_cell(state, order.at, side)
    if _placing(state, unit) is not None:
        return PlacePassenger(side, unit.id, cell)
    if unit.in_reserve and _reserves_pending(state, side):
        return PlaceReserve(side, unit.id, cell)  # M5: "place bik1 B2" as "arrive"
    return Deploy(side, unit.id, cell)


# -- M5 reserves -----------------------------------------------------------------------------
def _reserves_pending(state: GameState, side: Side) -> bool:
    return (
        bool(state.pending)
        and isinstance(state.pending[0], PendingReserve)
        and state.pending[0].side is side
    )


def _reserve(order: ReserveOrder, state: GameState, side: Side) -> HoldInReserve:
    unit = find_unit(state, order.unit, side)
    if order.transport is None:
        return HoldInReserve(side, unit.id)
    return HoldInReserve(side, unit.id, find_unit(state, order.transport, side).id)


def _arrive(order: ArriveOrder, state: GameState, side: Side) -> PlaceReserve:
    """M5: without a cell, the only cell the reserve may arrive on."""
    unit = find_unit(state, order.unit, side)
    if order.cell is not None:
        return PlaceReserve(side, unit.id, order.cell)
    cells = reserve.arrival_cells(state, unit) if unit.in_reserve else []
    if len(cells) == 1:
        return PlaceReserve(side, unit.id, cells[0])
    if not cells:
        raise IllegalAction("M5", "not_a_reserve", unit=unit.id)
    raise OrderError("which_cell", _cells(cells), unit=unit.id)


def _on_board(state: GameState, cell: Cell, rule: str) -> None:
    """A setup cell off the board (``cover Z9``) is off the board, not "not in your half"."""
    if not state.scenario.on_board(cell):
        raise IllegalAction(rule, "off_board", cell=cell.name)


def _place_cell(state: GameState, at: Ref, side: Side) -> Cell:
    """A cell as typed, or the cell of the unit named (a transport to start embarked in)."""
    if at.text.replace(" ", "") not in state.units and at.cell is not None:
        _on_board(state, at.cell, "B5")
        return at.cell
    transport = find_unit(state, at, side)
    cell = transport.cell
    if cell is None:
        raise IllegalAction("C2", "not_on_board", unit=transport.id)
    return cell


def _odds(order: OddsOrder, state: GameState, side: Side) -> OddsRequest:
    unit = find_unit(state, order.unit, side)
    target = find_unit(state, order.target, unit.side.other)
    if target.side is unit.side:
        raise IllegalAction("E5", "target_is_friendly", target=target.id)
    if state.position(unit) is None:
        raise IllegalAction("C2", "not_on_board", unit=unit.id)
    chosen = None if order.weapons is None else tuple(w - 1 for w in order.weapons)
    weapons = combat.choose_weapons(state, unit, target, chosen, order.melee)
    return OddsRequest(unit.id, target.id, weapons)


def _placing(state: GameState, unit: UnitState) -> PendingPlacement | None:
    """H5: the pending placement of this unit, if it is the decision due now."""
    if state.pending and isinstance(state.pending[0], PendingPlacement):
        pending = state.pending[0]
        return pending if pending.unit == unit.id else None
    return None


def _cells(cells: list[Cell] | tuple[Cell, ...]) -> tuple[Suggestion, ...]:
    return tuple(Suggestion(c.name) for c in cells)
