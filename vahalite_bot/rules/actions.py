"""Actions: what a player (or the bot, for the roll-off) asks the engine to do."""

from __future__ import annotations

from dataclasses import dataclass, field

from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.order import Order
from vahalite_bot.rules.scenario import Side, TerrainKind


@dataclass(frozen=True)
class RollOff:
    """B1: the bot rolls for the first turn."""


@dataclass(frozen=True)
class ChooseDeployOrder:
    """B2: the roll-off's loser deploys first (``deploy_first``) or second."""

    side: Side
    deploy_first: bool


@dataclass(frozen=True)
class PlaceTerrain:
    side: Side
    kind: TerrainKind
    cell: Cell


@dataclass(frozen=True)
class PlaceSP:
    side: Side
    cell: Cell


@dataclass(frozen=True)
class Deploy:
    """B5: place a unit; on a friendly transport's cell it starts embarked."""

    side: Side
    unit: str
    cell: Cell


@dataclass(frozen=True)
class Move:
    """D1: ``path`` lists the cells entered, in order, not the start cell."""

    side: Side
    unit: str
    path: tuple[Cell, ...]
    # M6: leave melee without the D5 test; logs from before M6 lack it (the codec omits it).
    fall_back: bool = field(default=False, metadata={"omit_default": True})


@dataclass(frozen=True)
class Charge:
    """M8: as its attack, rush to ``cell`` (empty, next to ``target``) and strike in melee."""

    side: Side
    unit: str
    target: str
    cell: Cell


@dataclass(frozen=True)
class Attack:
    """E5: one target; ``weapons`` indexes the unit's current weapons (None: all that reach).

    ``melee`` picks melee (True) or ranged (False) weapons when both could reach; None lets
    the engine choose melee if any melee weapon reaches.
    """

    side: Side
    unit: str
    target: str
    weapons: tuple[int, ...] | None = None
    melee: bool | None = None


@dataclass(frozen=True)
class PlacePassenger:
    """H5: the owner places a surviving passenger of a destroyed transport."""

    side: Side
    unit: str
    cell: Cell


@dataclass(frozen=True)
class Advance:
    """E10: after a melee kill, move into the target's cell (``accept``) or stay."""

    side: Side
    unit: str
    accept: bool


@dataclass(frozen=True)
class EndTurn:
    side: Side


@dataclass(frozen=True)
class Resign:
    side: Side


@dataclass(frozen=True)
class HoldInReserve:
    """M5: at B5 hold an undeployed unit back; ``embarked_in`` rides a reserve transport."""

    side: Side
    unit: str
    embarked_in: str | None = None


@dataclass(frozen=True)
class PlaceReserve:
    """M5: at the start of the side's turn, place a reserve unit on ``cell``."""

    side: Side
    unit: str
    cell: Cell


@dataclass(frozen=True)
class FinishReserves:
    """M5: place no more reserves this turn."""

    side: Side


@dataclass(frozen=True)
class UnitOrder:
    """M3: one unit's order for this turn."""

    unit: str
    order: Order


@dataclass(frozen=True)
class GiveOrders:
    """M3: the turn's orders; every unit not named has Advance."""

    side: Side
    orders: tuple[UnitOrder, ...] = ()


Action = (
    RollOff
    | ChooseDeployOrder
    | PlaceTerrain
    | PlaceSP
    | Deploy
    | Move
    | Attack
    | Charge
    | PlacePassenger
    | Advance
    | EndTurn
    | Resign
    | HoldInReserve
    | PlaceReserve
    | FinishReserves
    | GiveOrders
)
