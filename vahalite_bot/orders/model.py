"""What a typed order means before the game is consulted, and the two kinds of refusal.

Two layers, as python-chess separates ``InvalidMoveError`` (syntax) from
``IllegalMoveError`` (rules):

* an ``Order`` is what one line *says* — a verb and its words, unit references still as
  typed (a ``Ref``). ``parse_line`` returns one, or an ``OrderSyntaxError`` value when the
  line cannot be read at all;
* ``resolve`` turns an ``Order`` into an engine action or a ``Request`` using the state,
  and raises ``OrderError`` when a reference or a destination makes no sense there. What
  the rules forbid stays the engine's ``IllegalAction``.

Weapon numbers are the ones players see: 1-based. Both error kinds carry a ``code`` (the
message ``orders-<code>`` in ``i18n/locales/<lang>/orders.ftl``), its parameters and,
for near misses, ``suggestions`` ("did you mean ..."); no sentence is built here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.order import Order as TurnOrder
from vahalite_bot.rules.scenario import TerrainKind
from vahalite_bot.rules.sheets import Names


class Verb(StrEnum):
    """What an order does; also the help topics (``help move``)."""

    MOVE = "move"
    ATTACK = "attack"
    EMBARK = "embark"
    DISEMBARK = "disembark"
    END = "end"
    UNDO = "undo"
    BOARD = "board"
    STATUS = "status"
    ODDS = "odds"
    ARMY = "army"
    LOG = "log"
    HELP = "help"
    ROLL = "roll"
    DEPLOY_ORDER = "deploy_order"
    TERRAIN = "terrain"
    SP = "sp"
    DEPLOY = "deploy"
    ADVANCE = "advance"
    RESIGN = "resign"
    RULE = "rule"
    VERIFY = "verify"
    HINT = "hint"  # the search player's best actions, in a game against it
    FALL_BACK = "fall_back"  # M6
    CHARGE = "charge"  # M8
    ORDERS = "orders"  # M3
    RESERVE = "reserve"  # M5, at B5
    ARRIVE = "arrive"  # M5, at the start of a turn


@dataclass(frozen=True)
class Ref:
    """A unit as the player named it: a handle, a name prefix (words) or a cell.

    ``text`` is the typed words, lower-cased, ``ё`` read as ``е``, joined by one space;
    ``cell`` is set when the text also reads as a cell (``c2``, ``С2``), so that the
    resolver can try the handle first (a handle such as ``u1`` reads as a cell too).
    """

    text: str
    cell: Cell | None = None


# -- orders ------------------------------------------------------------------------------
@dataclass(frozen=True)
class MoveOrder:
    """D1: one cell is a destination (the resolver finds the path); several are the path.

    A path may start with the unit's own cell (``move tac1 C2-C3-C4`` with tac1 on C2).
    """

    unit: Ref
    path: tuple[Cell, ...]


@dataclass(frozen=True)
class AttackOrder:
    """E5: ``weapons`` are 1-based numbers (None: all that reach); ``melee`` as the verb says."""

    unit: Ref
    target: Ref
    weapons: tuple[int, ...] | None = None
    melee: bool | None = None


@dataclass(frozen=True)
class EmbarkOrder:
    """H2: into ``transport``, or into the only friendly transport the unit can reach."""

    unit: Ref
    transport: Ref | None = None


@dataclass(frozen=True)
class DisembarkOrder:
    """H3: onto ``cell``, or onto the only free cell next to the transport."""

    unit: Ref
    cell: Cell | None = None


@dataclass(frozen=True)
class EndTurnOrder:
    pass


@dataclass(frozen=True)
class UndoOrder:
    count: int = 1


@dataclass(frozen=True)
class BoardOrder:
    pass


@dataclass(frozen=True)
class StatusOrder:
    pass


@dataclass(frozen=True)
class OddsOrder:
    unit: Ref
    target: Ref
    weapons: tuple[int, ...] | None = None
    melee: bool | None = None


@dataclass(frozen=True)
class ArmyOrder:
    """The army list: the player's own, or the opponent's (``enemy``)."""

    enemy: bool = False


@dataclass(frozen=True)
class LogOrder:
    count: int | None = None


@dataclass(frozen=True)
class HelpOrder:
    topic: Verb | None = None


@dataclass(frozen=True)
class RollOffOrder:
    pass


@dataclass(frozen=True)
class DeployOrderChoice:
    """B2: the roll-off's loser deploys first or second."""

    first: bool


@dataclass(frozen=True)
class TerrainOrder:
    kind: TerrainKind
    cell: Cell


@dataclass(frozen=True)
class SPOrder:
    cell: Cell


@dataclass(frozen=True)
class DeployOrder:
    """B5: ``at`` is a cell, or a friendly transport to start embarked in.

    While a wrecked transport's passenger waits to be placed (H5), the same words place it.
    """

    unit: Ref
    at: Ref


@dataclass(frozen=True)
class AdvanceOrder:
    """E10: move into the destroyed target's cell (``accept``) or stay."""

    accept: bool = True


@dataclass(frozen=True)
class ResignOrder:
    pass


@dataclass(frozen=True)
class RuleOrder:
    """A rule of the rules reference by its ID (``rule E8``); None: the list of IDs."""

    rule_id: str | None = None


@dataclass(frozen=True)
class FallBackOrder:
    """M6: a move out of melee without the D5 test; ``path`` as in ``MoveOrder``."""

    unit: Ref
    path: tuple[Cell, ...]


@dataclass(frozen=True)
class ChargeOrder:
    """M8: charge ``target``, ending on ``cell`` (None: the nearest cell beside it)."""

    unit: Ref
    target: Ref
    cell: Cell | None = None


@dataclass(frozen=True)
class OrderEntry:
    """M3: one unit and the order it is given (``war1 assault``)."""

    unit: Ref
    order: TurnOrder


@dataclass(frozen=True)
class GiveOrdersOrder:
    """M3: the turn's orders; units not named have Advance (``orders`` alone: all Advance)."""

    entries: tuple[OrderEntry, ...] = ()


@dataclass(frozen=True)
class ReserveOrder:
    """M5 at B5: hold ``unit`` back, inside ``transport`` (also held back) if named."""

    unit: Ref
    transport: Ref | None = None


@dataclass(frozen=True)
class ArriveOrder:
    """M5: a reserve arrives on ``cell`` (None: the only cell it may arrive on)."""

    unit: Ref
    cell: Cell | None = None


@dataclass(frozen=True)
class VerifyOrder:
    """K2: check every die of the game from its exported log (docs/dice.md)."""


@dataclass(frozen=True)
class HintOrder:
    """The best actions the search player sees now (games against the automatic player)."""


Order = (
    MoveOrder
    | AttackOrder
    | EmbarkOrder
    | DisembarkOrder
    | EndTurnOrder
    | UndoOrder
    | BoardOrder
    | StatusOrder
    | OddsOrder
    | ArmyOrder
    | LogOrder
    | HelpOrder
    | RollOffOrder
    | DeployOrderChoice
    | TerrainOrder
    | SPOrder
    | DeployOrder
    | AdvanceOrder
    | ResignOrder
    | RuleOrder
    | VerifyOrder
    | HintOrder
    | FallBackOrder
    | ChargeOrder
    | GiveOrdersOrder
    | ReserveOrder
    | ArriveOrder
)


# -- refusals ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Suggestion:
    """A near miss offered back: what to type, and the unit's name when it is one."""

    text: str
    name: Names | None = None


class OrderProblem(ValueError):
    """An order refused before the engine saw it: a message key, parameters, suggestions."""

    def __init__(self, code: str, suggestions: tuple[Suggestion, ...] = (), **params: Any) -> None:
        self.code = code
        self.params = params
        self.suggestions = suggestions
        detail = ", ".join(f"{k}={v}" for k, v in params.items())
        super().__init__(code + (f" ({detail})" if detail else ""))

    @property
    def message_id(self) -> str:
        return f"orders-{self.code}"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, OrderProblem)
            and (self.code, self.params, self.suggestions)
            == (other.code, other.params, other.suggestions)
        )

    def __hash__(self) -> int:
        return hash((type(self), self.code))


class OrderSyntaxError(OrderProblem):
    """The line cannot be read as an order (returned by the parser, not raised)."""


class OrderError(OrderProblem):
    """The order reads well but names nothing sensible in this game (raised by resolve)."""
