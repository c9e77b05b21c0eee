"""The game state: a plain value the engine copies and returns, never shares."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import TypeVar

from vahalite_bot.rules.errors import IllegalAction, UnknownUnit
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.order import Order
from vahalite_bot.rules.scenario import Scenario, Side, Terrain, TerrainKind
from vahalite_bot.rules.sheets import GROUND_VEHICLES, Slot, UnitSheet, UnitType, Weapon


class Phase(StrEnum):
    ROLL_OFF = "roll_off"  # B1
    DEPLOY_ORDER = "deploy_order"  # B2
    TERRAIN = "terrain"  # B3
    SP = "sp"  # B4
    DEPLOYMENT = "deployment"  # B5
    PLAYING = "playing"  # C
    ENDED = "ended"  # J


@dataclass
class UnitState:
    id: str
    side: Side
    sheet: UnitSheet  # as fielded, options applied
    hp: int
    cell: Cell | None = None  # None while embarked, undeployed or destroyed
    embarked_in: str | None = None
    deployed: bool = False
    destroyed: bool = False
    destroyed_by: str | None = None
    morale_tested: bool = False  # G1 happens once per game
    moved: bool = False
    attacked: bool = False
    embarked: bool = False  # this turn (H3: no embark and disembark in one turn)
    disembarked: bool = False  # this turn (H3: no attack after)
    fell_back: bool = False  # this turn (M6: no attack after)
    round_hp: int | None = None  # M2: HP at the start of the round (dice and profile, E7)
    in_reserve: bool = False  # M5: held back at B5, not yet placed
    order: Order = Order.ADVANCE  # M3: this turn's order, set afresh at each turn's start
    overwatch_fired: bool = False  # M7: once per watcher per turn

    @property
    def alive(self) -> bool:
        return not self.destroyed

    @property
    def models(self) -> int:
        """F1: current models = ceil(HP / wounds)."""
        return math.ceil(self.hp / self.sheet.wounds)

    @property
    def falling(self) -> bool:
        """M2: at 0 HP but still on the board until the round's damage step."""
        return self.hp == 0 and not self.destroyed

    @property
    def profile_hp(self) -> int:
        """E7's HP: with M2 the HP at the start of the round, else the current HP."""
        return self.hp if self.round_hp is None else self.round_hp

    @property
    def attack_models(self) -> int:
        """E7: the models that roll a per-model weapon's dice."""
        return math.ceil(self.profile_hp / self.sheet.wounds)

    @property
    def on_board(self) -> bool:
        return self.cell is not None

    @property
    def is_damaged(self) -> bool:
        """E7: half the HP or more lost."""
        return 2 * (self.sheet.max_hp - self.hp) >= self.sheet.max_hp

    @property
    def weapons(self) -> tuple[Weapon, ...]:
        """E7: the damaged profile's weapons once it applies."""
        damaged = self.sheet.damaged_weapons
        if damaged is not None and 2 * (self.sheet.max_hp - self.profile_hp) >= self.sheet.max_hp:
            return damaged
        return self.sheet.weapons

    # What the sheet says is asked constantly, and a unit keeps its sheet (a changed unit is
    # a new one, made by dataclasses.replace): kept in the instance once asked.
    @cached_property
    def type(self) -> UnitType:
        return self.sheet.type

    @cached_property
    def is_flyer(self) -> bool:
        return self.sheet.type is UnitType.FLYER

    @cached_property
    def is_ground_vehicle(self) -> bool:
        return self.sheet.type in GROUND_VEHICLES

    @cached_property
    def is_hq(self) -> bool:
        return self.sheet.slot is Slot.HQ


@dataclass
class SPState:
    placed_by: Side
    holder: Side  # J1


@dataclass(frozen=True)
class PendingPlacement:
    """H5: a surviving passenger waits for its owner to place it."""

    side: Side
    unit: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class PendingAdvance:
    """E10: the attacker may move into the destroyed target's cell."""

    side: Side
    unit: str
    cell: Cell


@dataclass(frozen=True)
class PendingReserve:
    """M5: at the start of its turn a side may place its reserves, one by one."""

    side: Side
    units: tuple[str, ...]  # the reserves that could be placed now

    @property
    def unit(self) -> str:
        """The first reserve, for code that names a pending decision by its unit."""
        return self.units[0]


@dataclass(frozen=True)
class Fall:
    """M2: a unit brought to 0 HP, credited to ``by`` (G4, J2) until the damage step."""

    unit: str
    by: str | None
    cause: str


@dataclass(frozen=True)
class Halved:
    """M2: a unit that reached half HP; its G1 test waits for the damage step."""

    unit: str
    by: str | None


@dataclass(frozen=True)
class PendingOrders:
    """M3: before the turn's first move the player gives orders (one ``GiveOrders``)."""

    side: Side

    @property
    def unit(self) -> str:
        """No single unit waits: adapters that show ``pending.unit`` get an empty name."""
        return ""


Pending = PendingPlacement | PendingAdvance | PendingReserve | PendingOrders


@dataclass
class GameState:
    scenario: Scenario
    units: dict[str, UnitState]
    terrain: dict[Cell, Terrain]
    sps: dict[Cell, SPState] = field(default_factory=dict)
    phase: Phase = Phase.ROLL_OFF
    first_player: Side | None = None  # B1 winner: first turn of every round (M4: of round 1)
    round_first: Side | None = None  # who took the current round's first turn (M4)
    first_deployer: Side | None = None  # B2
    round: int = 0
    active: Side | None = None  # whose turn (C)
    attack_step: bool = False  # C2: once set, no unit moves this turn
    pending: tuple[Pending, ...] = ()
    dice_position: int = 0  # K2: the position of the next die in the game
    resigned: Side | None = None
    winner: Side | None = None  # meaningful once phase is ENDED
    house: frozenset[HouseRule] = frozenset()  # M: fixed for the game, kept in its setup
    falls: tuple[Fall, ...] = ()  # M2: in the order the units fell
    halved: tuple[Halved, ...] = ()  # M2: G1 tests due, in the order the units reached half
    advances: tuple[PendingAdvance, ...] = ()  # M2: E10 advances chosen, made in step 3
    damage_stage: int = 0  # M2: the damage step under way (1-4), 0 outside it
    _blocking: tuple[dict[Cell, Terrain], frozenset[Cell]] | None = field(
        default=None, compare=False, repr=False
    )
    _pieces: tuple[dict[Cell, Terrain], dict[Side, dict[TerrainKind, int]]] | None = field(
        default=None, compare=False, repr=False
    )

    def copy(self) -> GameState:
        """A copy that ``apply`` may change: units and SPs copied, terrain shared.

        Terrain is copy-on-write: code that changes it assigns a new dict (see
        ``with_terrain``), so copies can share it and the sight-blocking set cached for it.
        """
        clone = _shallow(self)
        # _shallow inlined: every apply copies every unit, and the calls add up.
        new = object.__new__
        units: dict[str, UnitState] = {}
        for uid, unit in self.units.items():
            units[uid] = copied = new(type(unit))
            copied.__dict__ = unit.__dict__.copy()
        clone.units = units
        sps: dict[Cell, SPState] = {}
        for cell, sp in self.sps.items():
            sps[cell] = held = new(type(sp))
            held.__dict__ = sp.__dict__.copy()
        clone.sps = sps
        return clone

    def view(self) -> GameState:
        """A copy that shares the units and SPs: to be read, or changed only by replacing
        the terrain (``with_terrain``), the SP dict or units (``units_changed``) whole."""
        return _shallow(self)

    def units_changed(self, unit_id: str) -> GameState:
        """This view with its own copy of unit ``unit_id`` (to change), the others shared."""
        self.units = {**self.units, unit_id: _shallow(self.units[unit_id])}
        return self

    def with_terrain(self, cell: Cell, piece: Terrain) -> None:
        self.terrain = {**self.terrain, cell: piece}

    # -- looking things up --------------------------------------------------------------
    def has(self, rule: HouseRule) -> bool:
        """Is house rule ``rule`` (section M) on in this game?"""
        return rule in self.house

    def unit(self, unit_id: str) -> UnitState:
        unit = self.units.get(unit_id)
        if unit is None or unit.destroyed:
            raise UnknownUnit(unit_id)
        return unit

    def living(self, side: Side | None = None) -> list[UnitState]:
        # A list, not a generator: asked many times at every decision, nearly always to be
        # read to the end, and a comprehension costs half as much per unit as a generator.
        units = self.units.values()
        if side is None:
            return [unit for unit in units if not unit.destroyed]
        return [unit for unit in units if unit.side is side and not unit.destroyed]

    def unit_at(self, cell: Cell) -> UnitState | None:
        """The unit standing on ``cell`` (a transport, not its passenger)."""
        for unit in self.units.values():
            if unit.cell == cell and not unit.destroyed:
                return unit
        return None

    def occupied(self) -> dict[Cell, UnitState]:
        """``unit_at`` for every occupied cell at once."""
        found: dict[Cell, UnitState] = {}
        for unit in self.units.values():
            cell = unit.cell
            if cell is not None and not unit.destroyed and cell not in found:
                found[cell] = unit
        return found

    def passenger_of(self, transport_id: str) -> UnitState | None:
        for unit in self.units.values():
            if unit.embarked_in == transport_id and not unit.destroyed:
                return unit
        return None

    def position(self, unit: UnitState) -> Cell | None:
        """Where a unit is: its cell, or its transport's cell while embarked."""
        if unit.embarked_in is not None:
            return self.units[unit.embarked_in].cell
        return unit.cell

    def terrain_kind(self, cell: Cell) -> TerrainKind | None:
        piece = self.terrain.get(cell)
        return None if piece is None else piece.kind

    def blocking_cells(self) -> frozenset[Cell]:
        """E4: the cells that block sight, cached while the terrain dict stays the same."""
        cached = self._blocking
        if cached is not None and cached[0] is self.terrain:
            return cached[1]
        blocking = frozenset(c for c, t in self.terrain.items() if t.kind.blocks_sight)
        self._blocking = (self.terrain, blocking)
        return blocking

    def pieces_left(self, side: Side) -> dict[TerrainKind, int]:
        """B3: the pieces of ``side``'s set not yet placed on its half, none at 0 (do not
        change the answer). Every setup step asks whose step it is, which asks this; it
        depends only on the terrain, so it is kept while the terrain dict stays the same."""
        cached = self._pieces
        if cached is None or cached[0] is not self.terrain:
            cached = self._pieces = (self.terrain, {})
        left = cached[1].get(side)
        if left is None:
            scenario = self.scenario
            left = scenario.terrain_for(side)
            for cell, piece in self.terrain.items():
                if cell not in scenario.preplaced and scenario.in_half(side, cell):
                    left[piece.kind] = left.get(piece.kind, 0) - 1
            left = cached[1][side] = {kind: count for kind, count in left.items() if count > 0}
        return left

    def can_stand(self, unit: UnitState | UnitSheet, cell: Cell) -> bool:
        """D2: may this unit enter (and stand on) ``cell``, terrain-wise?"""
        unit_type = unit.type
        if not self.scenario.on_board(cell):
            return False
        kind = self.terrain_kind(cell)
        if kind is None:
            return True
        if not kind.enterable:
            return False
        return not (kind.gives_cover and unit_type in GROUND_VEHICLES)

    def can_carry(self, transport: UnitState, passenger: UnitState) -> bool:
        """H1: a friendly, empty transport that fits the passenger."""
        return (
            transport.side is passenger.side
            and fits(transport, passenger)
            and self.passenger_of(transport.id) is None
        )


def fits(transport: UnitState, passenger: UnitState) -> bool:
    """H1: a type the transport's sheet allows, with no more models than its capacity."""
    sheet = transport.sheet
    return (
        sheet.is_transport
        and transport.id != passenger.id
        and not passenger.sheet.is_transport
        and passenger.type in sheet.carries
        and passenger.models <= sheet.capacity
    )


_T = TypeVar("_T")


def _shallow(value: _T) -> _T:
    """A field-for-field copy of a plain dataclass, faster than copy.copy or replace()
    (and a copied ``__dict__`` faster than filling a new one)."""
    clone = object.__new__(type(value))
    clone.__dict__ = value.__dict__.copy()
    return clone


def new_game(
    scenario: Scenario,
    forces: Mapping[Side, Sequence[tuple[str, UnitSheet]]],
    house: frozenset[HouseRule] = frozenset(),
) -> GameState:
    """A game before the roll-off: each side's units by handle, none deployed yet."""
    units: dict[str, UnitState] = {}
    for side in Side:
        for handle, sheet in forces.get(side, ()):
            if handle in units:
                raise IllegalAction("A7", "duplicate_handle", unit=handle)
            units[handle] = UnitState(id=handle, side=side, sheet=sheet, hp=sheet.max_hp)
    return GameState(scenario=scenario, units=units, terrain=dict(scenario.preplaced), house=house)
