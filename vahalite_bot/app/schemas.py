"""What every service command accepts: one declared schema per command, checked at the edge.

The adapters are not trusted to send sane values (a gateway replays, a client is careless or
hostile), so each public method validates its arguments here before any of them reaches the
engine or the database: integers fit PostgreSQL's INTEGER, ids and channels fit their 64
characters and hold no control characters, cells lie within the largest board a scenario can
have, army lists have their declared shape and a bounded size. A value that does not fit is
answered with ``InvalidRequest`` naming the argument, in both languages, the same way on both
databases. Whether a cell is on *this* game's board is checked once the game is loaded.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Annotated, Any, Final, TypeVar

from pydantic import BaseModel, ConfigDict, PlainValidator, ValidationError
from pydantic_core import PydanticCustomError

from vahalite_bot.app.errors import InvalidRequest
from vahalite_bot.app.results import Actor
from vahalite_bot.rules import actions
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.order import Order
from vahalite_bot.rules.roster import Roster, RosterEntry
from vahalite_bot.rules.scenario import Side, TerrainKind

DB_INT_MAX: Final = 2**31 - 1  # PostgreSQL's INTEGER (SQLite's would take more, silently)
ID_MAX: Final = 64  # the width of every id column (models.ID)
MAX_ROLES: Final = 250  # Discord's own limit of roles on a server
MAX_COLS, MAX_ROWS = 26, 99  # the largest board a scenario may declare (Scenario.problems)
MAX_PATH: Final = 64  # cells in one move's path: far beyond any legal move
MAX_WEAPONS: Final = 16
MAX_ENTRIES: Final = 100  # units in one army list
MAX_OPTIONS: Final = 16
MAX_HOUSE_RULES: Final = 16  # ids in one house-rules choice (there are nine; repeats allowed)
MAX_HOUSE_TEXT: Final = 200


# -- the building blocks ---------------------------------------------------------------------
def _error(kind: str, **context: Any) -> PydanticCustomError:
    return PydanticCustomError(kind, kind, context)


def _integer(value: Any, low: int, high: int) -> int:
    # bool is an int to Python, never to a client: True is not game 1.
    if type(value) is not int:
        raise _error("bad_type")
    if not low <= value <= high:
        raise _error("bad_range", low=low, high=high)
    return value


def _int(low: int, high: int = DB_INT_MAX) -> PlainValidator:
    return PlainValidator(lambda v: _integer(v, low, high))


# NUL (which PostgreSQL refuses) and the other control bytes: one search, not a loop per
# character (every command checks its caller's ids and roles).
_CONTROL = re.compile("[\x00-\x1f\x7f]")


def _text(value: Any, minimum: int = 1) -> str:
    if type(value) is not str:
        raise _error("bad_type")
    if not minimum <= len(value) <= ID_MAX:
        raise _error("bad_length", maximum=ID_MAX)
    if _CONTROL.search(value):
        raise _error("bad_text")
    if not value.isascii():
        try:
            value.encode()
        except UnicodeEncodeError:  # a lone surrogate: no database driver can store it
            raise _error("bad_text") from None
    return value


def _flag(value: Any) -> bool:
    if type(value) is not bool:
        raise _error("bad_type")
    return value


def _instance(kind: type[Any]) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if not isinstance(value, kind):
            raise _error("bad_type")
        return value

    return check


def _cell(value: Any) -> Cell:
    if not isinstance(value, Cell):
        raise _error("bad_type")
    col, row = value
    if type(col) is not int or type(row) is not int:
        raise _error("bad_type")
    if not (0 <= col < MAX_COLS and 0 <= row < MAX_ROWS):
        raise _error("bad_cell")
    return value


def _tuple_of(item: Callable[[Any], Any], maximum: int) -> Callable[[Any], tuple[Any, ...]]:
    def check(value: Any) -> tuple[Any, ...]:
        if type(value) is not tuple:
            raise _error("bad_type")
        if len(value) > maximum:
            raise _error("bad_count", maximum=maximum)
        return tuple(item(v) for v in value)

    return check


_CELLS = _tuple_of(_cell, MAX_PATH)


def _path(value: Any) -> tuple[Cell, ...]:
    """A move's path: at least one cell (the engine's own rule), at most MAX_PATH."""
    if value == ():
        raise _error("empty_path")
    return _CELLS(value)


def _roles(value: Any) -> frozenset[str]:
    if not isinstance(value, frozenset | set):
        raise _error("bad_type")
    if len(value) > MAX_ROLES:
        raise _error("bad_count", maximum=MAX_ROLES)
    return frozenset(_text(v) for v in value)


def _optional(check: Any) -> Any:
    return lambda v: None if v is None else check(v)


def _house_ids(value: Any) -> tuple[str, ...]:
    """M1-M9 as typed ("M2, m7") or as a collection of ids; which ids exist is the lobby's
    check, so that its refusal can list them (an empty or blank id too: it names no rule)."""
    if type(value) is str:
        if len(value) > MAX_HOUSE_TEXT:
            raise _error("bad_length", maximum=MAX_HOUSE_TEXT)
        value = tuple(part for part in re.split(r"[\s,;]+", value) if part)
    if not isinstance(value, tuple | list | frozenset | set):
        raise _error("bad_type")
    if len(value) > MAX_HOUSE_RULES:
        raise _error("bad_count", maximum=MAX_HOUSE_RULES)
    if not all(isinstance(v, str) for v in value):
        raise _error("bad_type")
    return tuple(_text(str(v), minimum=0) for v in value)


def _role_setting(value: Any) -> str | None:
    """A referee role to set: an id, or empty (or None) for "nobody but the administrator"."""
    return None if value is None or value == "" else _text(value)


Id = Annotated[str, PlainValidator(_text)]
Flag = Annotated[bool, PlainValidator(_flag)]
GameId = Annotated[int, _int(1)]
Version = Annotated[int, _int(0)]
Count = Annotated[int, _int(0)]
Hours = Annotated[int, _int(0)]
BoardCell = Annotated[Cell, PlainValidator(_cell)]
Key = Annotated[str, PlainValidator(_text)]
HouseIds = Annotated[tuple[str, ...], PlainValidator(_house_ids)]


# -- composite values: who calls, army lists, engine actions -----------------------------------
def _actor(value: Any) -> Actor:
    if not isinstance(value, Actor):
        raise _error("bad_type")
    _text(value.user)
    _roles(value.roles)
    _flag(value.admin)
    _optional(_text)(value.guild)
    return value


def _entry(value: Any) -> RosterEntry:
    if not isinstance(value, RosterEntry):
        raise _error("bad_type")
    _text(value.sheet)
    _tuple_of(_text, MAX_OPTIONS)(value.options)
    _optional(_text)(value.transport)
    _tuple_of(_text, MAX_OPTIONS)(value.transport_options)
    return value


def _roster(value: Any) -> Roster:
    if not isinstance(value, Roster):
        raise _error("bad_type")
    _text(value.faction)
    _tuple_of(_entry, MAX_ENTRIES)(value.entries)
    return value


_SIDE = _instance(Side)


def _unit_order(value: Any) -> actions.UnitOrder:
    """M3: one unit's order, as ``GiveOrders`` carries it."""
    if not isinstance(value, actions.UnitOrder):
        raise _error("bad_type")
    _text(value.unit)
    _instance(Order)(value.order)
    return value


_FIELD_CHECKS: dict[str, Any] = {
    "side": _SIDE,
    "unit": _text,
    "target": _text,
    "cell": _cell,
    "kind": _instance(TerrainKind),
    "path": _path,
    "weapons": _optional(_tuple_of(lambda v: _integer(v, 0, MAX_WEAPONS), MAX_WEAPONS)),
    "melee": _optional(_flag),
    "deploy_first": _flag,
    "accept": _flag,
    "fall_back": _flag,
    "orders": _tuple_of(_unit_order, MAX_ENTRIES),
    "embarked_in": _optional(_text),  # M5: a reserve passenger's transport
}
# Each action's field names, found once per class.
_ACTIONS: dict[type[Any], tuple[str, ...]] = {
    kind: tuple(f.name for f in dataclasses.fields(kind))
    for kind in (
        actions.RollOff,
        actions.ChooseDeployOrder,
        actions.PlaceTerrain,
        actions.PlaceSP,
        actions.Deploy,
        actions.Move,
        actions.Attack,
        actions.Charge,
        actions.PlacePassenger,
        actions.Advance,
        actions.EndTurn,
        actions.Resign,
        actions.GiveOrders,
        actions.HoldInReserve,
        actions.PlaceReserve,
        actions.FinishReserves,
    )
}


def _action(value: Any) -> actions.Action:
    """An engine action, each of its fields checked as the commands check the same values."""
    names = _ACTIONS.get(type(value))
    if names is None:
        raise _error("bad_type")
    for name in names:
        _FIELD_CHECKS[name](getattr(value, name))
    return value  # type: ignore[no-any-return]


ActorArg = Annotated[Actor, PlainValidator(_actor)]
RosterArg = Annotated[Roster, PlainValidator(_roster)]
ActionArg = Annotated[actions.Action, PlainValidator(_action)]
TerrainArg = Annotated[TerrainKind, PlainValidator(_instance(TerrainKind))]
Weapons = Annotated[tuple[int, ...] | None, PlainValidator(_FIELD_CHECKS["weapons"])]
OptionalFlag = Annotated[bool | None, PlainValidator(_optional(_flag))]


# -- the schemas ---------------------------------------------------------------------------------
class Schema(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, extra="forbid")


class GameCall(Schema):
    """What every command on one game carries: the envelope's fields."""

    game_id: GameId
    actor: ActorArg
    expected_version: Version | None = None
    key: Key | None = None


class Read(Schema):
    game_id: GameId


class ReadLog(Read):
    since: Version = 0


class ReadRecap(Read):
    side: Annotated[Side, PlainValidator(_SIDE)]


class Channel(Schema):
    channel: Id


class Guild(Schema):
    guild: Id | None


class Configure(Schema):
    actor: ActorArg
    guild: Id
    referee_role: Annotated[str | None, PlainValidator(_role_setting)] = None
    language: Id | None = None
    deadline_hours: Hours | None = None
    missed_turns_forfeit: Count | None = None
    referee_may_play: Flag | None = None
    remind_hours: Hours | None = None
    key: Key | None = None


class Create(Schema):
    actor: ActorArg
    channel: Id
    guild: Id | None = None
    scenario: Id = "standard"
    house_rules: HouseIds = ()
    points_limit: Count | None = None
    deadline_hours: Hours | None = None
    language: Id | None = None
    key: Key | None = None


class Join(GameCall):
    pass


class SetHouseRules(GameCall):
    house_rules: HouseIds


class SubmitArmy(GameCall):
    roster: RosterArg


class Act(GameCall):
    action: ActionArg


class ChooseDeployOrder(GameCall):
    deploy_first: Flag


class PlaceTerrain(GameCall):
    kind: TerrainArg
    cell: BoardCell


class OnCell(GameCall):
    """place_sp: a cell."""

    cell: BoardCell


class UnitToCell(GameCall):
    """deploy, move, disembark, place_passenger, ref_move_unit: a unit and a cell."""

    unit: Id
    cell: BoardCell


class Embark(GameCall):
    unit: Id
    transport: Id


class Attack(GameCall):
    unit: Id
    target: Id
    weapons: Weapons = None
    melee: OptionalFlag = None


class Advance(GameCall):
    unit: Id
    accept: Flag


class Plain(GameCall):
    """end_turn, resign, ref_pause, ref_resume, ref_end_turn, reveal_seed: nothing more."""


class Undo(GameCall):
    count: Count = 1


class Answer(GameCall):
    accept: Flag


class OnUnit(GameCall):
    """ref_remove_unit: a unit."""

    unit: Id


class SetHP(GameCall):
    unit: Id
    hp: Count


class Decide(GameCall):
    winner: Annotated[Side | None, PlainValidator(_optional(_SIDE))] = None


class Extend(GameCall):
    hours: Hours


class UserOnGuild(Schema):
    user: Id
    guild: Id | None


class Switch(Schema):
    actor: ActorArg
    on: Flag
    key: Key | None = None


S = TypeVar("S", bound=Schema)


def check(schema: type[S], **values: Any) -> S:
    """``values`` as ``schema`` declares them, or InvalidRequest naming the first misfit."""
    try:
        return schema.model_validate(values)
    except ValidationError as error:
        raise _refusal(error) from None


def _refusal(error: ValidationError) -> InvalidRequest:
    first = error.errors(include_url=False, include_input=False)[0]
    argument = ".".join(str(part) for part in first["loc"])[:40] or "?"
    kind = first["type"]
    context = first.get("ctx") or {}
    if kind == "bad_range":
        return InvalidRequest(
            "bad_range", argument=argument, low=context["low"], high=context["high"]
        )
    if kind == "bad_length":
        return InvalidRequest("bad_length", argument=argument, maximum=context["maximum"])
    if kind == "bad_count":
        return InvalidRequest("bad_count", argument=argument, maximum=context["maximum"])
    if kind == "bad_text":
        return InvalidRequest("bad_text", argument=argument)
    if kind == "bad_cell":
        return InvalidRequest("bad_cell", argument=argument)
    if kind == "empty_path":
        return InvalidRequest("empty_path", argument=argument)
    if kind == "extra_forbidden":
        return InvalidRequest("bad_argument", argument=argument)
    return InvalidRequest("bad_type", argument=argument)
