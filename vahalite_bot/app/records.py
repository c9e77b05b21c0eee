"""What the service writes in a game's log besides the engine's actions, and what it shows.

Every entry of the log is one of: a lobby record, the start (the fielded setup), an engine
action, a referee override (rulebook N2), an undo, or a note. Overrides change the state
outside the rules; replaying the log applies them in order, so that a game's state is always
the replay of its log.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from vahalite_bot.rules import victory
from vahalite_bot.rules.context import Context
from vahalite_bot.rules.dice import NoDice
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.store import valuecodec
from vahalite_bot.store.snapshot import Setup

# Log entry kinds.
LOBBY = "lobby"
START = "start"
ACTION = "action"
OVERRIDE = "override"
UNDO = "undo"
NOTE = "note"

# Kinds whose entries change the state, and so can be undone.
UNDOABLE = frozenset({ACTION, OVERRIDE})


# -- lobby and notes: the record is also the event the adapters show -------------------------
@dataclass(frozen=True)
class GameCreated:
    scenario: str
    points_limit: int
    deadline_seconds: int
    language: str
    commitment: str  # K2: the hash of the secret seed, published now
    house: frozenset[HouseRule] = frozenset()  # M: the switches chosen at creation


@dataclass(frozen=True)
class HouseRulesSet:
    """M: the creator (before anyone joined) or the referee (before B1) changed the set."""

    house: frozenset[HouseRule]
    before: frozenset[HouseRule]


@dataclass(frozen=True)
class PlayerJoined:
    side: Side
    user: str
    word: str | None = None  # K2: mixed into the dice seed (docs/dice.md); None: no word


@dataclass(frozen=True)
class ArmySubmitted:
    """The list itself stays hidden until both are in: the second player must not tailor."""

    side: Side
    points: int


@dataclass(frozen=True)
class LobbyClosed:
    """The game ended before it began (a player left, or the referee closed it): the
    channel is free for another game."""

    side: Side | None  # None: the referee


@dataclass(frozen=True)
class Paused:
    pass


@dataclass(frozen=True)
class Resumed:
    due_at: datetime | None


@dataclass(frozen=True)
class DeadlineExtended:
    seconds: int
    due_at: datetime | None  # None while paused: the time left grew instead


@dataclass(frozen=True)
class PauseAsked:
    """A player asks to pause (or resume) the game; it happens when the other agrees."""

    side: Side
    pause: bool


@dataclass(frozen=True)
class TurnMissed:
    """N1: a deadline passed; ``count`` missed turns in a row."""

    side: Side
    count: int


@dataclass(frozen=True)
class UndoRequested:
    side: Side
    seqs: tuple[int, ...]


@dataclass(frozen=True)
class UndoDeclined:
    side: Side
    seqs: tuple[int, ...]


@dataclass(frozen=True)
class SeedRevealed:
    """K2: the seed, in hex, now that the game has ended."""

    seed: str
    commitment: str


# -- records with an effect on the state --------------------------------------------------------
@dataclass(frozen=True)
class StartGame:
    setup: Setup


@dataclass(frozen=True)
class PlaceUnit:
    """N2: the referee puts a unit on a cell (out of a transport, if it rode one)."""

    unit: str
    cell: Cell


@dataclass(frozen=True)
class RemoveUnit:
    """N2: the referee takes a unit off the board; it counts as destroyed (J2)."""

    unit: str


@dataclass(frozen=True)
class SetHP:
    unit: str
    hp: int


@dataclass(frozen=True)
class DecideGame:
    """N2 (the referee decides) or N1 (``forfeit``: too many missed turns)."""

    winner: Side | None
    reason: str


@dataclass(frozen=True)
class Undo:
    """Takes back the entries ``seqs``; dice already shown are never dealt again.

    ``dice_position`` is where the next die is drawn after the undo: the position reached
    before it, so an undone roll's dice (which the players saw) are burnt, not re-used.
    """

    seqs: tuple[int, ...]
    dice_position: int
    requested_by: str | None = None  # set when the opponent agreed to this player's request


# -- events of the state-changing records -------------------------------------------------------
@dataclass(frozen=True)
class GameStarted:
    south_points: int
    north_points: int


@dataclass(frozen=True)
class UnitPlaced:
    unit: str
    start: Cell | None
    cell: Cell


@dataclass(frozen=True)
class UnitRemoved:
    unit: str
    side: Side


@dataclass(frozen=True)
class HPSet:
    unit: str
    before: int
    after: int


@dataclass(frozen=True)
class Undone:
    seqs: tuple[int, ...]


Record = (
    GameCreated
    | HouseRulesSet
    | PlayerJoined
    | ArmySubmitted
    | LobbyClosed
    | Paused
    | Resumed
    | DeadlineExtended
    | PauseAsked
    | TurnMissed
    | UndoRequested
    | UndoDeclined
    | SeedRevealed
    | StartGame
    | PlaceUnit
    | RemoveUnit
    | SetHP
    | DecideGame
    | Undo
)
Override = PlaceUnit | RemoveUnit | SetHP | DecideGame

REGISTRY: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        GameCreated,
        HouseRulesSet,
        PlayerJoined,
        ArmySubmitted,
        LobbyClosed,
        Paused,
        Resumed,
        DeadlineExtended,
        PauseAsked,
        TurnMissed,
        UndoRequested,
        UndoDeclined,
        SeedRevealed,
        StartGame,
        PlaceUnit,
        RemoveUnit,
        SetHP,
        DecideGame,
        Undo,
        GameStarted,
        UnitPlaced,
        UnitRemoved,
        HPSet,
        Undone,
    )
}


def decode(data: dict[str, Any]) -> Any:
    return valuecodec.decode_tagged(data, REGISTRY)


def apply_override(state: GameState, record: Override) -> tuple[GameState, list[Any]]:
    """N2: change a copy of the state as the referee says; the rules are not asked.

    A unit must still be somewhere a unit can be (on the board, on an empty cell), since
    the engine relies on that; anything else the referee may set as they see fit.
    """
    if state.phase is Phase.ENDED:
        raise IllegalAction("J4", "game_over")
    state = state.copy()
    events: list[Any] = []
    match record:
        case PlaceUnit(unit_id, cell):
            unit = state.unit(unit_id)
            start = state.position(unit)
            if not state.scenario.on_board(cell):
                raise IllegalAction("D1", "off_board", cell=cell.name)
            occupant = state.unit_at(cell)
            if occupant is not None and occupant is not unit:
                raise IllegalAction("D3", "end_not_empty", cell=cell.name, occupant=occupant.id)
            unit.cell, unit.embarked_in, unit.deployed = cell, None, True
            events.append(UnitPlaced(unit.id, start, cell))
        case RemoveUnit(unit_id):
            unit = state.unit(unit_id)
            here = state.position(unit)
            passenger = state.passenger_of(unit.id)
            unit.hp, unit.destroyed, unit.destroyed_by = 0, True, None
            unit.cell, unit.embarked_in = None, None
            events.append(UnitRemoved(unit.id, unit.side))
            if passenger is not None and here is not None:
                # The passenger is set down where its transport stood, now empty.
                passenger.embarked_in, passenger.cell = None, here
                events.append(UnitPlaced(passenger.id, here, here))
            ctx = Context(state, NoDice())
            victory.check_annihilation(ctx)  # J3, as after any attack
            events.extend(ctx.events)
        case SetHP(unit_id, hp):
            unit = state.unit(unit_id)
            before = unit.hp
            unit.hp = hp
            events.append(HPSet(unit.id, before, hp))
        case DecideGame(winner, reason):
            ctx = Context(state, NoDice())
            victory.finish(ctx, winner, reason)
            events.extend(ctx.events)
    return state, events
