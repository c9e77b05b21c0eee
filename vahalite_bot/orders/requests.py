"""What an order asks for that is not an engine action: a view of the game, or an undo.

The adapter answers these (through the service); the units in them are resolved handles
and the weapons 0-based indexes into the unit's current weapons, as the engine counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from vahalite_bot.orders.model import Verb
from vahalite_bot.rules.actions import Action
from vahalite_bot.rules.scenario import Side


@dataclass(frozen=True)
class BoardRequest:
    pass


@dataclass(frozen=True)
class StatusRequest:
    pass


@dataclass(frozen=True)
class OddsRequest:
    """The odds of ``unit`` attacking ``target`` with ``weapons`` (the engine's choice)."""

    unit: str
    target: str
    weapons: tuple[int, ...]


@dataclass(frozen=True)
class ArmyRequest:
    side: Side


@dataclass(frozen=True)
class LogRequest:
    count: int | None = None


@dataclass(frozen=True)
class HelpRequest:
    topic: Verb | None = None


@dataclass(frozen=True)
class RuleRequest:
    """The text of rule ``rule_id`` (``E8``, as typed, normalised); None: every rule's ID."""

    rule_id: str | None = None


@dataclass(frozen=True)
class VerifyRequest:
    """K2: check every die of the game from its exported log (docs/dice.md)."""


@dataclass(frozen=True)
class HintRequest:
    """The search player's best actions now, for the side asking (against the bot only)."""


@dataclass(frozen=True)
class UndoRequest:
    """Take back the player's own last ``count`` actions (the service decides if it may)."""

    count: int = 1


Request = (
    BoardRequest
    | StatusRequest
    | OddsRequest
    | ArmyRequest
    | LogRequest
    | HelpRequest
    | UndoRequest
    | RuleRequest
    | VerifyRequest
    | HintRequest
)
Resolved = Action | Request
