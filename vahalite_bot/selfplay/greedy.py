"""The greedy player: sensible setup, then each turn moves toward objectives and makes the
attacks with the best expected value. It asks the engine the same questions a human's
interface would (reachable cells, attack options, damage odds) and never looks ahead."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from vahalite_bot.rules import combat, reserve, unit_orders
from vahalite_bot.rules.actions import (
    Action,
    Advance,
    Attack,
    Charge,
    ChooseDeployOrder,
    Deploy,
    EndTurn,
    Move,
    PlacePassenger,
    PlaceSP,
    PlaceTerrain,
    RollOff,
)
from vahalite_bot.rules.combat import DieOdds
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.geometry import Cell, distance
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.movement import reachable
from vahalite_bot.rules.order import Order
from vahalite_bot.rules.scenario import Scenario, Side, Terrain, TerrainKind
from vahalite_bot.rules.sheets import UnitSheet, WeaponKind
from vahalite_bot.rules.state import (
    GameState,
    PendingOrders,
    PendingPlacement,
    PendingReserve,
    Phase,
    UnitState,
)
from vahalite_bot.selfplay.greedy_charge import best_charge
from vahalite_bot.selfplay.greedy_fallback import as_fall_back
from vahalite_bot.selfplay.greedy_orders import greedy_orders
from vahalite_bot.selfplay.greedy_reserve import hold_rank, place_reserve
from vahalite_bot.selfplay.players import NoLegalAction, deploy_candidates, first_legal

# Values are in "expected HP of damage"; the bonuses say how much more than raw damage a
# result is worth to the player.
KILL_BONUS = 3.0  # J2: a kill is a VP and ends the victim's attacks
HQ_TARGET_BONUS = 1.0  # HQs hit hard: removing one is worth more than its HP
HQ_BY_HQ_BONUS = 4.0  # J2: +2 VP more when an HQ destroys an HQ
CAPTURE_BONUS = 4.0  # J1: ending the turn on an SP one does not hold swings 4 VP
HOLD_BONUS = 0.5  # standing on one's own SP keeps the enemy off it
DISTANCE_WEIGHT = 0.5  # per step between the unit and its nearest objective
MIN_GAIN = 1e-9  # a move must improve on staying put by more than rounding noise

# B3: pieces that help the placer go to the front, the ones that only get in the way to the
# back corners.
TERRAIN_ORDER = (TerrainKind.HEIGHT, TerrainKind.COVER, TerrainKind.OBSTACLE, TerrainKind.WATER)
FRONT_TERRAIN = frozenset({TerrainKind.HEIGHT, TerrainKind.COVER})
# Members named through an enum class cost a call of the metaclass's __getattr__ hook each
# on Python 3.11 (EnumType defines one): what every decision asks compares with these.
_ROLL_OFF, _DEPLOY_ORDER, _PLAYING = Phase.ROLL_OFF, Phase.DEPLOY_ORDER, Phase.PLAYING
_MELEE = WeaponKind.MELEE

Rank = tuple[int, ...]  # a setup candidate's rank: the lowest first
_OddsKey = tuple[tuple[tuple[DieOdds, int], ...], int]
# What of an attacker its attacks' odds depend on (see _value_of): its sheet by number, HP,
# round HP and order.
_Attacker = tuple[int, int, int | None, Order]
# An attack's value by what its odds depend on: the attacker's part, the target's sheet by
# number, HP and terrain piece, the weapons; stored with the house rules it holds for.
_ValueKey = tuple[_Attacker, int, int, Terrain | None, tuple[int, ...]]
MAX_VALUES = 100_000  # entries kept before the value cache starts afresh


class GreedyPlayer:
    name = "greedy"

    def __init__(self) -> None:
        # damage_distribution is exact (Fractions) and slow; it depends only on the dice odds
        # and the target's HP, so each distinct case is computed once per player.
        self._odds: dict[_OddsKey, tuple[float, float]] = {}
        # Each move of a turn asks again what every other unit's spots are worth; while the
        # enemy, the SPs and the terrain stay as they were, the answers do too. By the
        # unit as it stands (id, HP, transport, order), then the cell (None: where it is).
        self._spots: dict[tuple[object, ...], dict[Cell | None, float]] = {}
        self._spots_context: tuple[object, ...] = ()
        # Each unit's best conceivable attack value for the same board (see _attack_bound),
        # with the sheet it was worked out for.
        self._bounds: dict[
            tuple[object, ...], tuple[UnitSheet, float, list[tuple[Cell, int, float]]]
        ] = {}
        # Each cell's distance to the nearest objective for the same board, by whether the
        # unit is a flyer (the objectives are the enemy units and, but for flyers, the SPs
        # the side does not hold: nothing else).
        self._nearest: dict[bool, dict[Cell, int]] = {}
        # Whether any enemy is within a reach of a cell, by the reach, for the same board.
        self._in_reach: dict[int, dict[Cell, bool]] = {}
        # Working out an attack's dice to look its odds up costs more than the odds: a unit
        # weighed on many cells asks the same attacks again and again.
        self._values: dict[_ValueKey, tuple[frozenset[HouseRule], float]] = {}
        self._sheet_numbers: dict[UnitSheet, int] = {}  # equal sheets, one number
        self._places: tuple[Scenario | None, dict[Side, _Board]] = (None, {})
        self._sheet_ids: dict[int, tuple[UnitSheet, int]] = {}  # by id(sheet)
        # _attack_options' answers by what they depend on, for one board.
        self._options: dict[tuple[object, ...], list[combat.AttackOption]] = {}
        self._options_board: tuple[object, ...] = ()

    def choose(self, state: GameState, rng: random.Random) -> Action:
        if state.pending:
            return self._decide_pending(state)
        if state.phase is _ROLL_OFF:
            return RollOff()
        side = acting_side(state)
        if side is None:
            raise NoLegalAction(f"nobody acts in phase {state.phase.value}")
        if state.phase is _DEPLOY_ORDER:
            # B2: the loser of the roll-off deploys second and so sees the enemy's setup.
            return ChooseDeployOrder(side, deploy_first=False)
        if state.phase is _PLAYING:
            return self._play(state, side)
        # A cell's place (gap and offset) depends only on the board and the side: kept for
        # as long as the games are on the same scenario object.
        if self._places[0] is not state.scenario:
            self._places = (state.scenario, {Side.SOUTH: _Board.new(), Side.NORTH: _Board.new()})
        return first_legal(state, _setup_choices(state, side, self._places[1][side]))

    # -- the turn ----------------------------------------------------------------------
    def _play(self, state: GameState, side: Side) -> Action:
        if not state.attack_step:
            move = self._best_move(state, side)
            if move is not None:
                return move
        attack = self._best_attack(state, side)
        return attack if attack is not None else EndTurn(side)

    def _best_move(self, state: GameState, side: Side) -> Move | None:
        """The first unit (transports before passengers) that gains by moving, and where."""
        movers = [u for u in state.living(side) if not u.moved and state.position(u) is not None]
        movers.sort(key=lambda u: (u.embarked_in is not None, u.id))
        if not movers:
            return None
        foes = state.living(side.other)
        spots = self._spot_cache(state, side, foes)
        self._options_for(state, foes)
        enemies = {u.cell for u in foes if u.cell is not None}
        objectives: dict[bool, list[Cell]] = {}  # they depend on the side and is_flyer
        for unit in movers:
            flyer = unit.is_flyer
            nearest = self._nearest.setdefault(flyer, {})
            reach = _reach(unit)
            in_reach = self._in_reach.setdefault(reach, {})
            aims = objectives.get(flyer)
            if aims is None:
                aims = objectives[flyer] = _objectives(state, unit)
            spot = _Spot(aims, enemies, reach, nearest, in_reach)
            known = spots.setdefault(
                (unit.id, unit.hp, unit.round_hp, unit.embarked_in, unit.order), {}
            )
            stay = known.get(None)
            if stay is None:
                stay = known[None] = self._position_value(state, unit, spot)
            # The unit moves only to a spot worth more than this. Spots that cannot be are
            # not worked out (nor, when none can be, where the unit could go): the best
            # spot, and whether it beats staying, come out the same at a fraction of the
            # attack questions (see _attack_bound).
            enough = stay + MIN_GAIN
            bound, near = self._attack_bound(state, unit, spot)
            if _move_bound(bound, state, unit, spot) <= enough:
                continue
            # The best spot is the first of the highest value (in reachable's order). Spots
            # whose value is known come first; the others are tried most promising first,
            # and only while their ceiling could still beat the best found, ties included.
            destinations = [d for d in reachable(state, unit).values() if d.embarks_in is None]
            # (embarking mid-game costs the passenger a turn: not worth it)
            best: tuple[float, int] | None = None
            untried: list[tuple[float, int]] = []
            for index, destination in enumerate(destinations):
                cell = destination.cell
                value = known.get(cell)
                if value is None:
                    ceiling = _bound_at(cell, near)
                    if ceiling == 0.0:
                        # Nothing worth attacking from there (_best_attack_value's answer
                        # is 0): the spot is worth its place alone, known without trying it.
                        value = known[cell] = _placed(0.0, state, unit, cell, cell, spot)
                    else:
                        ceiling = _placed(ceiling, state, unit, cell, cell, spot)
                        if ceiling > enough:
                            untried.append((ceiling, index))
                        continue
                if best is None or value > best[0]:
                    best = (value, index)
            untried.sort(key=lambda entry: -entry[0])
            # The unit is tried on each spot on a view of the board with its own copy of
            # the unit (moved there and back); everything else is shared and only read.
            trial: GameState | None = None
            for ceiling, index in untried:
                if best is not None and (ceiling, -index) <= (best[0], -best[1]):
                    continue
                if trial is None:
                    trial = state.view().units_changed(unit.id)
                cell = destinations[index].cell
                value = self._value_after_move(trial, trial.units[unit.id], cell, spot)
                known[cell] = value
                if best is None or (value, -index) > (best[0], -best[1]):
                    best = (value, index)
            if best is not None and best[0] > enough:
                path = destinations[best[1]].path
                return as_fall_back(state, Move(side, unit.id, path))  # M6
        return None

    def _spot_cache(
        self, state: GameState, side: Side, foes: list[UnitState]
    ) -> dict[tuple[object, ...], dict[Cell | None, float]]:
        """The spot values known for this board: the enemy units (``foes``) as they stand
        (with their HP at the round's start: M2), the round, the SPs' holders, the terrain
        (the same dict object: terrain is copy-on-write)."""
        context = (
            state.terrain,
            side,
            state.house,
            state.round,
            tuple((u.id, u.cell, u.hp, u.round_hp, u.embarked_in) for u in foes),
            tuple(sorted((cell, sp.holder) for cell, sp in state.sps.items())),
        )
        if len(context) != len(self._spots_context) or any(
            a is not b and a != b for a, b in zip(context, self._spots_context, strict=True)
        ):
            self._spots, self._spots_context, self._bounds = {}, context, {}
            self._nearest, self._in_reach = {}, {}
        return self._spots

    def _attack_bound(
        self, state: GameState, unit: UnitState, spot: _Spot
    ) -> tuple[float, list[tuple[Cell, int, float]]]:
        """No attack of ``unit`` from any cell is worth more than the first answer: each
        enemy attacked with every melee, or every other, weapon. More dice never lower the
        expected damage or the chance to kill (and float rounding keeps that order), so the
        bound holds. The second: each of those values above 0, best first, with the
        target's cell and the group's reach, for the bound from one cell (``_bound_at``)."""
        key = (unit.id, unit.hp, unit.round_hp, unit.order)
        known = self._bounds.get(key)
        if known is not None and known[0] is unit.sheet:
            return known[1], known[2]
        weapons = unit.weapons
        melee = tuple(i for i, w in enumerate(weapons) if w.kind is _MELEE)
        others = tuple(i for i, w in enumerate(weapons) if w.kind is not _MELEE)
        # attack_options offers a group's weapons against a target only within their reach
        # (E3's Height bonus included for the others).
        reaches = (
            max((weapons[i].max_range for i in melee), default=0),
            max((weapons[i].max_range for i in others), default=0) + 1,
        )
        bound = 0.0
        near: list[tuple[Cell, int, float]] = []
        attacker = self._attacker(unit)
        for target in state.living(unit.side.other):
            if target.cell is None:
                continue
            for group, reach in zip((melee, others), reaches, strict=True):
                if group:
                    value = self._value_of(state, unit, attacker, target, group)
                    bound = max(bound, value)
                    if value > 0:
                        near.append((target.cell, reach, value))
        near.sort(key=lambda entry: -entry[2])
        self._bounds[key] = (unit.sheet, bound, near)
        return bound, near

    def _value_after_move(
        self, trial: GameState, ghost: UnitState, cell: Cell, spot: _Spot
    ) -> float:
        saved = (ghost.cell, ghost.embarked_in, ghost.moved, ghost.disembarked)
        if ghost.embarked_in is not None:
            ghost.embarked_in, ghost.disembarked = None, True
        ghost.cell, ghost.moved = cell, True
        try:
            return self._position_value(trial, ghost, spot)
        finally:
            ghost.cell, ghost.embarked_in, ghost.moved, ghost.disembarked = saved

    def _position_value(self, state: GameState, unit: UnitState, spot: _Spot) -> float:
        here = state.position(unit)
        assert here is not None
        attack = self._best_attack_value(state, unit, here, spot)
        return _placed(attack, state, unit, here, unit.cell, spot)

    def _best_attack_value(
        self, state: GameState, unit: UnitState, here: Cell, spot: _Spot
    ) -> float:
        # A cheap bound before asking attack_options: is any enemy within the longest reach?
        if not _enemy_in_reach(here, spot):
            return 0.0
        options = self._attack_options(state, unit)
        if not options:
            return 0.0
        best = 0.0
        attacker = self._attacker(unit)
        for option in options:
            target = state.units[option.target]
            best = max(best, self._value_of(state, unit, attacker, target, option.weapons))
        return best

    def _value_of(
        self,
        state: GameState,
        unit: UnitState,
        attacker: _Attacker,
        target: UnitState,
        weapons: tuple[int, ...],
    ) -> float:
        """``_attack_value``, remembered. The odds depend on the attacker's sheet, HP (E7,
        M2's round HP) and order (M3), the target's sheet, HP and the terrain piece it
        stands in (cover, E8), and the house rules: nothing else. Keyed by the sheets (not
        the units) and the piece (not the cell), a value holds for every unit of a kind, as
        targets move between open cells, and in the next game. ``attacker``: ``unit``'s
        part of the key (``_attacker``), made once for all the attacks it is weighed with."""
        cell = target.cell
        key = (
            attacker,
            self._sheet_number(target.sheet),
            target.hp,
            None if cell is None else state.terrain.get(cell),
            weapons,
        )
        known = self._values.get(key)
        if known is not None and known[0] == state.house:
            return known[1]
        value = self._attack_value(state, unit, target, weapons)
        if len(self._values) >= MAX_VALUES:
            self._values = {}
        self._values[key] = (state.house, value)
        return value

    def _attacker(self, unit: UnitState) -> _Attacker:
        return (self._sheet_number(unit.sheet), unit.hp, unit.round_hp, unit.order)

    def _sheet_number(self, sheet: UnitSheet) -> int:
        """The same number for equal sheets: each game fields its own copies of them."""
        # Hashing a sheet costs more than a lookup by identity: each object is numbered
        # once (and kept, so that its id cannot be reused while it is in the table).
        known = self._sheet_ids.get(id(sheet))
        if known is not None and known[0] is sheet:
            return known[1]
        number = self._sheet_numbers.setdefault(sheet, len(self._sheet_numbers))
        if len(self._sheet_ids) >= MAX_VALUES:
            self._sheet_ids = {}
        self._sheet_ids[id(sheet)] = (sheet, number)
        return number

    def _best_attack(self, state: GameState, side: Side) -> Attack | Charge | None:
        found: tuple[float, str, combat.AttackOption] | None = None
        self._options_for(state, state.living(side.other))
        for unit in state.living(side):
            options = self._attack_options(state, unit)
            if not options:
                continue
            attacker = self._attacker(unit)
            for option in options:
                target = state.units[option.target]
                value = self._value_of(state, unit, attacker, target, option.weapons)
                if value > 0 and (found is None or value > found[0]):
                    found = (value, unit.id, option)
        best: tuple[float, Attack | Charge] | None = None
        if found is not None:
            value, unit_id, option = found
            best = (value, Attack(side, unit_id, option.target, option.weapons, option.melee))
        charged = best_charge(state, side, kill_bonus)  # M8
        if charged is not None and (best is None or charged[0] > best[0]):
            best = charged
        return None if best is None else best[1]

    def _options_for(self, state: GameState, foes: list[UnitState]) -> None:
        """Keep ``_attack_options``' answers for the units of the side ``foes`` (the other's
        living units) face while the board is the same: the terrain (by identity: the same
        game, whose terrain is fixed once play starts), the house rules and the enemies'
        places; forget them otherwise."""
        board = (
            state.terrain,
            state.house,
            tuple((u.id, u.cell) for u in foes),
        )
        kept = self._options_board
        if not kept or kept[0] is not board[0] or kept[1:] != board[1:]:
            self._options, self._options_board = {}, board

    def _attack_options(self, state: GameState, unit: UnitState) -> list[combat.AttackOption]:
        """``combat.attack_options`` for the board of the last ``_options_for``, remembered
        for the unit as it stands: each decision of an attack step asks about every unit, and
        an attack changes the answers of few; a unit that moved asks what it was weighed
        with on its spot. Beyond the board, the answers depend on the unit's sheet, HP (its
        profile), order, flags and position."""
        asked = (
            unit.id,
            self._sheet_number(unit.sheet),
            unit.hp,
            unit.round_hp,
            unit.order,
            unit.attacked,
            unit.fell_back,
            unit.disembarked,
            unit.in_reserve,
            unit.embarked_in,
            unit.moved,
            state.position(unit),
        )
        options = self._options.get(asked)
        if options is None:
            options = self._options[asked] = combat.attack_options(state, unit)
        return options

    def _attack_value(
        self, state: GameState, unit: UnitState, target: UnitState, weapons: Sequence[int]
    ) -> float:
        if target.falling:
            return 0.0  # M2: a falling unit is already credited; hitting it does nothing
        expected, kill = self.odds(state, unit, target, weapons)
        return expected + kill * kill_bonus(unit, target)

    def odds(
        self, state: GameState, unit: UnitState, target: UnitState, weapons: Sequence[int]
    ) -> tuple[float, float]:
        """The attack's expected damage and its chance to destroy the target (E6-E9)."""
        key = (tuple(combat.dice_groups(state, unit, target, weapons)), target.hp)
        odds = self._odds.get(key)
        if odds is None:
            dist = combat.damage_distribution(state, unit, target, weapons)
            expected = float(sum(k * p for k, p in enumerate(dist)))
            odds = (expected, float(dist[-1]))  # the last entry: damage >= HP, a kill
            self._odds[key] = odds
        return odds

    # -- decisions in the middle of a turn ---------------------------------------------
    def _decide_pending(self, state: GameState) -> Action:
        pending = state.pending[0]
        if isinstance(pending, PendingOrders):
            return greedy_orders(state, pending.side)
        if isinstance(pending, PendingReserve):
            return place_reserve(state, pending)  # M5
        if isinstance(pending, PendingPlacement):
            unit = state.units[pending.unit]
            objectives = _objectives(state, unit)

            def nearness(cell: Cell) -> tuple[int, Cell]:
                return (min((distance(cell, o) for o in objectives), default=0), cell)

            return PlacePassenger(pending.side, pending.unit, min(pending.cells, key=nearness))
        return Advance(pending.side, pending.unit, accept=True)


# -- helpers -----------------------------------------------------------------------------
def kill_bonus(unit: UnitState, target: UnitState) -> float:
    """What destroying ``target`` with ``unit``'s attack is worth beyond its HP."""
    bonus = KILL_BONUS
    if target.is_hq:
        bonus += HQ_TARGET_BONUS + (HQ_BY_HQ_BONUS if unit.is_hq else 0.0)
    return bonus


def _objectives(state: GameState, unit: UnitState) -> list[Cell]:
    """Enemy units on the board, and (for units that can take them) SPs not held (J1)."""
    cells = [u.cell for u in state.living(unit.side.other) if u.cell is not None]
    if not unit.is_flyer:
        cells.extend(cell for cell, sp in state.sps.items() if sp.holder is not unit.side)
    return cells


def _placed(
    attack: float,
    state: GameState,
    unit: UnitState,
    here: Cell,
    cell: Cell | None,
    spot: _Spot,
) -> float:
    """A spot's value from its best attack's: nearness to the objectives and the SP the
    unit stands on (``cell``; None while embarked) count too."""
    value = attack
    if spot.objectives:
        nearest = spot.nearest.get(here)
        if nearest is None:
            col, row = here
            nearest = spot.nearest[here] = min(
                [abs(col - o_col) + abs(row - o_row) for o_col, o_row in spot.objectives]
            )  # E1's distance, inlined (and a list: cheaper than a generator), for every spot
        value -= DISTANCE_WEIGHT * nearest
    if cell is not None and not unit.is_flyer:
        sp = state.sps.get(cell)
        if sp is not None:
            value += CAPTURE_BONUS if sp.holder is not unit.side else HOLD_BONUS
    return value


def _move_bound(bound: float, state: GameState, unit: UnitState, spot: _Spot) -> float:
    """No spot ``unit`` can move to is worth more than this: ``_placed`` with its best
    conceivable attack, as near the objectives as any move could bring it (no nearer than
    one step to an enemy, whose cell it cannot end on), and the SP bonus of an SP within
    reach. A move ends at most M steps away (D1), a disembark one (H3)."""
    here = state.position(unit)
    assert here is not None
    steps = 1 if unit.embarked_in is not None else unit_orders.max_move(state, unit)
    value = bound
    col, row = here
    if spot.objectives:
        taken = spot.enemies
        nearest: int | None = None
        for o in spot.objectives:  # a loop, E1's distance inlined: asked for every mover
            left = abs(col - o[0]) + abs(row - o[1]) - steps
            left = max(1 if o in taken else 0, left)
            if nearest is None or left < nearest:
                nearest = left
        assert nearest is not None
        value -= DISTANCE_WEIGHT * nearest
    if unit.is_flyer:
        return value
    holders = {
        sp.holder
        for (s_col, s_row), sp in state.sps.items()
        if abs(col - s_col) + abs(row - s_row) <= steps  # E1's distance, inlined
    }
    if any(holder is not unit.side for holder in holders):
        return value + CAPTURE_BONUS
    return value + HOLD_BONUS if holders else value


def _bound_at(here: Cell, near: list[tuple[Cell, int, float]]) -> float:
    """No attack of the unit standing on ``here`` is worth more than this (see
    ``_attack_bound``): ``near`` is best first, so the first target within reach bounds."""
    col, row = here
    for (t_col, t_row), reach, value in near:
        if abs(col - t_col) + abs(row - t_row) <= reach:
            return value
    return 0.0


def _enemy_in_reach(here: Cell, spot: _Spot) -> bool:
    """Could any enemy be within reach of a weapon of the unit standing on ``here``?"""
    found = spot.in_reach.get(here)
    if found is None:
        reach, (col, row) = spot.reach, here
        found = False
        for e_col, e_row in spot.enemies:  # a loop, E1's distance inlined: for every spot
            if abs(col - e_col) + abs(row - e_row) <= reach:
                found = True
                break
        spot.in_reach[here] = found
    return found


def _reach(unit: UnitState) -> int:
    """The farthest any of the unit's weapons could reach an enemy."""
    return max((w.max_range for w in unit.weapons), default=0) + 1  # +1: E3 Height bonus


class _Spot(NamedTuple):
    """What valuing one unit's spots in one move decision needs, gathered once."""

    objectives: list[Cell]
    enemies: set[Cell]  # the cells of the enemy units on the board
    reach: int
    nearest: dict[Cell, int]  # a cell's distance to the nearest objective, once known
    in_reach: dict[Cell, bool]  # _enemy_in_reach's answers for this reach, once known


class _Board(NamedTuple):
    """What the setup choices of one side on one board keep from step to step."""

    places: dict[Cell, tuple[int, int]]  # a cell's place (see _setup_choices)
    # The side's half (or zone) sorted by a key of its cells' places, by the key's name: a
    # stable sort of some of the cells keeps them in this order, so each step filters it.
    orders: dict[str, list[Cell]]

    @classmethod
    def new(cls) -> _Board:
        return cls({}, {})


def _setup_choices(state: GameState, side: Side, board: _Board) -> Iterator[Action]:
    """The B3-B5 candidates (``setup_candidates``) best first, in the order a stable sort
    by their rank gives, each action built only when it is tried: there are hundreds of
    candidates a step, and the first is nearly always legal. ``board``: the ``place`` of
    the cells of ``side`` on this board known so far (many candidates share a cell), and
    its half in the orders asked so far."""
    places = board.places

    def place(cell: Cell) -> tuple[int, int]:
        """The cell's gap to the enemy's half and its offset from the centre."""
        found = places.get(cell)
        if found is None:
            found = places[cell] = (_gap(state, side, cell), _off_centre(state, cell))
        return found

    def order(name: str, key: Callable[[Cell], tuple[int, int]]) -> list[Cell]:
        """The side's half sorted by ``key`` (stable), once per board."""
        found = board.orders.get(name)
        if found is None:
            half = state.scenario.half_cells(side)
            found = board.orders[name] = sorted(half, key=key)
        return found

    if state.phase is Phase.TERRAIN:
        terrain = state.terrain
        # A piece's rank starts with its kind's place in TERRAIN_ORDER, so the kinds come
        # one after the other; pieces that help the placer go to the front, the ones that
        # only get in the way to the back corners.
        for kind in sorted(state.pieces_left(side), key=TERRAIN_ORDER.index):
            if kind in FRONT_TERRAIN:
                cells = order("front", place)
            else:
                cells = order("back", lambda c: _negated(place(c)))
            for cell in [c for c in cells if c not in terrain]:
                yield PlaceTerrain(side, kind, cell)
    elif state.phase is Phase.SP:
        # Deep in one's own half: the enemy has the longest way to come and take it. B4
        # refuses SPs on the edge: left out, they cost no trial applies.
        sps, scenario = state.sps, state.scenario
        deep = order("deep", lambda c: (-place(c)[0], place(c)[1]))
        for cell in [c for c in deep if c not in sps and not scenario.is_edge(c)]:
            yield PlaceSP(side, cell)
    else:
        occupied = state.occupied()
        candidates = deploy_candidates(state, side, occupied)
        holds = list(reserve.hold_candidates(state, side))  # M5
        # The first candidate is nearly always legal: it is found without ranking them all.
        # Each unit's cells, with their index among the candidates: its best is its first
        # free cell in its look's order of the zone, or a transport it boards.
        indexes_of: dict[str, tuple[UnitState, dict[Cell, int]]] = {}
        for i, (unit, cell) in enumerate(candidates):
            entry = indexes_of.get(unit.id)
            if entry is None:
                entry = indexes_of[unit.id] = (unit, {})
            entry[1][cell] = i
        ranked: list[tuple[Rank, int, Action | tuple[str, Cell]]] = [
            (hold_rank(state, hold), len(candidates) + i, hold) for i, hold in enumerate(holds)
        ]
        for unit, indexes in indexes_of.values():
            look = _deploy_look(unit)

            def standing(c: Cell, unit: UnitState = unit, look: tuple[int, bool] = look) -> Rank:
                return _deploy_rank(unit, c, False, look, place(c))

            # The zone by the rank of standing there, which depends on the look alone.
            zone = board.orders.get(f"zone {look}")
            if zone is None:
                zone = board.orders[f"zone {look}"] = sorted(
                    state.scenario.zone_cells(side), key=standing
                )
            for cell in zone:
                i = indexes.get(cell, -1)
                if i >= 0 and cell not in occupied:
                    ranked.append((standing(cell), i, (unit.id, cell)))
                    break
            for cell in occupied:
                i = indexes.get(cell, -1)
                if i >= 0:
                    rank = _deploy_rank(unit, cell, True, look, place(cell))
                    ranked.append((rank, i, (unit.id, cell)))
        if not ranked:
            return
        first = min(ranked)  # the index breaks ties, as in the full order below
        yield _deploy_choice(side, first[2])
        ranked = [
            (
                _deploy_rank(unit, cell, cell in occupied, _deploy_look(unit), place(cell)),
                i,
                (unit.id, cell),
            )
            for i, (unit, cell) in enumerate(candidates)
        ]
        ranked += [
            (hold_rank(state, hold), len(candidates) + i, hold) for i, hold in enumerate(holds)
        ]
        ranked.sort()  # the index breaks ties: candidates of equal rank keep their order
        for _, i, choice in ranked:
            if i != first[1]:
                yield _deploy_choice(side, choice)


def _deploy_choice(side: Side, choice: Action | tuple[str, Cell]) -> Action:
    return Deploy(side, *choice) if isinstance(choice, tuple) else choice


def _deploy_look(unit: UnitState) -> tuple[int, bool]:
    """What of ``unit`` its deploy rank asks: its group and whether it has artillery."""
    group = 0 if unit.sheet.is_transport else 2
    return group, any(w.kind is WeaponKind.ARTILLERY for w in unit.weapons)


def _deploy_rank(
    unit: UnitState,
    cell: Cell,
    boards: bool,
    look: tuple[int, bool],
    place: tuple[int, int],
) -> Rank:
    """Transports first, then the biggest unit that fits into each, then the rest toward
    the front; artillery (which cannot fire after moving) at the back. ``boards``: the
    cell holds a transport that takes the unit (a deploy candidate on an occupied cell
    always boards); ``look``: ``_deploy_look``; ``place``: the cell's gap to the enemy's
    half and its offset from the centre."""
    if boards:
        return (1, -unit.models, *cell)
    group, artillery = look
    gap, offset = place
    return (group, -gap if artillery else gap, offset, *cell)


def _negated(place: tuple[int, int]) -> tuple[int, int]:
    return (-place[0], -place[1])


def _gap(state: GameState, side: Side, cell: Cell) -> int:
    """Rows between ``cell`` and the enemy's half (0: adjacent to it)."""
    lo, hi = state.scenario.half_rows[side.other]
    return lo - cell.row - 1 if cell.row < lo else cell.row - hi - 1


def _off_centre(state: GameState, cell: Cell) -> int:
    """Twice the column distance from the board's centre line (integers sort exactly)."""
    return abs(2 * cell.col - (state.scenario.width - 1))
