"""The shape of a scenario file in ``boards/`` (rulebook L; boards/README.md).

pydantic checks the shape only: the tables and keys, their types, cells written like
``C2``, row numbers from 1. What the values mean together (zones overlap, terrain off the
board, SP that cannot be placed, ...) is ``Scenario.problems()``'s to judge, so that a
scenario built in code is held to the same reasons as one read from a file.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, StrictStr
from pydantic_core import PydanticCustomError

from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import MAX_COLUMNS, MAX_ROWS, STANDARD_TERRAIN_SET, TerrainKind
from vahalite_bot.rules.sheets import Slot

_ID = re.compile(r"^[a-z][a-z0-9-]*$")
MAX_NAME, MAX_DESCRIPTION = 40, 400


def _check_id(value: str) -> str:
    if not _ID.match(value):
        raise PydanticCustomError(
            "scenario", "{value} is not a lowercase id (a-z, 0-9, -)", {"value": repr(value)}
        )
    return value


def _check_cell(value: str) -> str:
    try:
        Cell.parse(value)
    except ValueError:
        raise PydanticCustomError(
            "scenario", "{value} is not a cell such as C2", {"value": repr(value)}
        ) from None
    return value.strip().upper()


def _check_text(value: str) -> str:
    if not value.strip() or value != value.strip():
        raise PydanticCustomError("scenario", "empty, or with stray spaces", {})
    return value


Id = Annotated[StrictStr, AfterValidator(_check_id)]
CellName = Annotated[StrictStr, AfterValidator(_check_cell)]
Row = Annotated[StrictInt, Field(ge=1, le=MAX_ROWS)]
Rows = tuple[Row, Row]  # the first and last row of a band, as players number them
Count = StrictInt  # signs and sums are problems()'s to judge
Name = Annotated[StrictStr, Field(max_length=MAX_NAME), AfterValidator(_check_text)]
Description = Annotated[StrictStr, Field(max_length=MAX_DESCRIPTION), AfterValidator(_check_text)]


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class NamesModel(_Table):
    ru: Name
    en: Name


class DescriptionsModel(_Table):
    ru: Description
    en: Description


class BoardModel(_Table):
    columns: Annotated[StrictInt, Field(ge=1, le=MAX_COLUMNS)]
    rows: Annotated[StrictInt, Field(ge=1, le=MAX_ROWS)]
    neutral_rows: list[Row] = []


class SideModel(_Table):
    half: Rows
    deploy: Rows
    # Each unset key falls back to the top-level one of the same name.
    terrain: dict[TerrainKind, Count] | None = None
    sp: Count | None = None
    points: list[Count] | None = None


class PieceModel(_Table):
    cell: CellName
    kind: TerrainKind
    improvement: Count = 0


class ArmyModel(_Table):
    maxima: dict[Slot, Count] = {}


class ScenarioModel(_Table):
    id: Id
    name: NamesModel
    description: DescriptionsModel
    rounds: Count = 6
    points: list[Count] = [500, 750, 1000]
    sp: Count = 3
    terrain: dict[TerrainKind, Count] = dict(STANDARD_TERRAIN_SET)
    board: BoardModel
    south: SideModel
    north: SideModel
    # An array of tables in TOML, so singular there: [[preplaced]].
    preplaced: list[PieceModel] = []
    army: ArmyModel = ArmyModel()
