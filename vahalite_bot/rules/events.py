"""Events: everything a player needs to read what happened (rulebook E14)."""

from __future__ import annotations

from dataclasses import dataclass, field

from vahalite_bot.rules.actions import UnitOrder
from vahalite_bot.rules.dice import Die
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.sheets import Names, WeaponKind


@dataclass(frozen=True)
class RolledOff:
    die: Die
    winner: Side


@dataclass(frozen=True)
class DeployOrderChosen:
    side: Side
    first_deployer: Side


@dataclass(frozen=True)
class TerrainPlaced:
    side: Side
    kind: TerrainKind
    cell: Cell


@dataclass(frozen=True)
class SPPlaced:
    side: Side
    cell: Cell


@dataclass(frozen=True)
class UnitDeployed:
    side: Side
    unit: str
    cell: Cell
    embarked_in: str | None


@dataclass(frozen=True)
class SetupStep:
    """Who acts next in setup, and at which step."""

    step: str
    side: Side | None


@dataclass(frozen=True)
class TurnStarted:
    round: int
    side: Side


@dataclass(frozen=True)
class MoraleTested:
    """G2: ``threshold`` is the unit's Morale; each die below it removes a model."""

    unit: str
    reason: str  # "half" (G1) or "leaving_melee" (D5)
    threshold: int
    dice: tuple[Die, ...]
    models_lost: int
    hp_after: int
    # D5: the move the unit set out on (its cell, then each cell), told even if it fled
    move: tuple[Cell, ...] = field(default=(), metadata={"omit_default": True})


@dataclass(frozen=True)
class Moved:
    unit: str
    start: Cell
    path: tuple[Cell, ...]
    embarked_in: str | None = None
    disembarked_from: str | None = None
    passenger: str | None = None  # carried along inside this transport


@dataclass(frozen=True)
class WeaponRolled:
    """One weapon's dice (E6-E8): each die + strength must reach the target's Defense."""

    weapon: Names
    kind: WeaponKind
    strength: int
    dice_count: int
    models: int | None  # the models rolling (E7), None for a fixed weapon
    defense: int
    needed: int  # the lowest d6 that succeeds; 7 or more means it cannot succeed
    dice: tuple[Die, ...]
    successes: int
    cover_value: int | None  # E8: re-rolls of successes must reach this
    rerolls: tuple[Die, ...]
    damage: int
    modifier: int = 0  # M3 and M9: added to each die's face, kept within 1-6
    natural_one_fails: bool = False  # M1
    natural_six_only: bool = False  # M7: Overwatch
    charge_dice: int = 0  # M8: extra dice for the charge, counted in dice_count


@dataclass(frozen=True)
class AttackResolved:
    attacker: str
    target: str
    kind: WeaponKind
    weapons: tuple[WeaponRolled, ...]
    damaged_profile: bool  # E7: the attacker fired its damaged profile's weapons
    damage: int
    hp_before: int
    hp_after: int
    overwatch: bool = False  # M7: fired unasked at a unit that ended a move adjacent


@dataclass(frozen=True)
class PassengersHit:
    """H5: one die per current HP at strength +1 against the passenger's Defense."""

    unit: str
    transport: str
    strength: int
    defense: int
    needed: int
    dice: tuple[Die, ...]
    damage: int
    hp_after: int


@dataclass(frozen=True)
class UnitDestroyed:
    unit: str
    side: Side
    by: str | None  # the enemy unit credited (G4, H5), None when no unit is
    cause: str  # "attack", "morale", "transport", "no_room"


@dataclass(frozen=True)
class PlacementRequired:
    """H5: the owner must place a passenger on one of ``cells``."""

    unit: str
    side: Side
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class PassengerPlaced:
    unit: str
    cell: Cell


@dataclass(frozen=True)
class AdvanceOffered:
    unit: str
    cell: Cell


@dataclass(frozen=True)
class Advanced:
    unit: str
    start: Cell
    cell: Cell | None  # None: the unit chose to stay


@dataclass(frozen=True)
class SPCaptured:
    cell: Cell
    side: Side
    unit: str


@dataclass(frozen=True)
class TurnEnded:
    round: int
    side: Side


@dataclass(frozen=True)
class Score:
    """J2 for one side: SP held, enemy units destroyed, enemy HQs destroyed by an HQ."""

    sp: int
    kills: int
    hq_kills: int

    @property
    def vp(self) -> int:
        return 2 * self.sp + self.kills + 2 * self.hq_kills


@dataclass(frozen=True)
class GameEnded:
    winner: Side | None  # None: a draw (J4)
    reason: str  # "score", "annihilation", "resignation"
    south: Score
    north: Score


@dataclass(frozen=True)
class UnitFalling:
    """M2: a unit at 0 HP stays on the board until the damage step; ``by`` is credited."""

    unit: str
    side: Side
    by: str | None
    cause: str


@dataclass(frozen=True)
class AdvanceChosen:
    """M2: the E10 advance is chosen now and made in the damage step (step 3)."""

    unit: str
    cell: Cell


@dataclass(frozen=True)
class DamageStep:
    """M2: the damage step at the end of round ``round`` begins."""

    round: int


@dataclass(frozen=True)
class InitiativeRolled:
    """M4: each player's d6 for the round's first turn; ``first`` takes it."""

    round: int
    south: Die
    north: Die
    first: Side


@dataclass(frozen=True)
class ReserveHeld:
    """M5: held back at B5 (``embarked_in``: inside a transport also held back)."""

    side: Side
    unit: str
    embarked_in: str | None


@dataclass(frozen=True)
class ReservesOffered:
    """M5: the side may place these reserves now, one by one, then say it is done."""

    side: Side
    units: tuple[str, ...]


@dataclass(frozen=True)
class ReservePlaced:
    side: Side
    unit: str
    cell: Cell
    passenger: str | None


@dataclass(frozen=True)
class ReservesDone:
    side: Side


@dataclass(frozen=True)
class OrdersRequired:
    """M3: ``side`` gives its orders before the turn's first move."""

    side: Side


@dataclass(frozen=True)
class OrdersGiven:
    """M3: the orders other than Advance; every other unit of ``side`` has Advance."""

    side: Side
    orders: tuple[UnitOrder, ...]


@dataclass(frozen=True)
class FellBack:
    """M6: the unit falls back instead of taking the D5 test; it makes no attack this turn."""

    unit: str


@dataclass(frozen=True)
class Charged:
    """M8: a charge at ``target`` toward ``cell``, ``length`` steps away by ``path``.

    ``dice`` is the 2D6 (none when ``length`` is 1) and ``reach`` what they give (None: no
    roll); with ``made`` the unit now stands on ``cell`` and its melee attack follows.
    """

    unit: str
    target: str
    start: Cell
    cell: Cell
    path: tuple[Cell, ...]
    length: int
    dice: tuple[Die, ...]
    reach: int | None
    made: bool


Event = (
    RolledOff
    | DeployOrderChosen
    | TerrainPlaced
    | SPPlaced
    | UnitDeployed
    | SetupStep
    | TurnStarted
    | MoraleTested
    | Moved
    | AttackResolved
    | PassengersHit
    | UnitDestroyed
    | PlacementRequired
    | PassengerPlaced
    | AdvanceOffered
    | Advanced
    | SPCaptured
    | TurnEnded
    | GameEnded
    | FellBack
    | Charged
    | UnitFalling
    | AdvanceChosen
    | DamageStep
    | InitiativeRolled
    | ReserveHeld
    | ReservesOffered
    | ReservePlaced
    | ReservesDone
    | OrdersRequired
    | OrdersGiven
)
