"""Reads the scenario files of ``boards/`` (rulebook L) into ``Scenario`` values.

A file is refused with every reason at once: first its shape (schema.py), then, when the
shape is right, what its values mean (``Scenario.problems()``) and what only the file can
show (two pre-placed pieces on one cell, an id that is not the file's name).

``boards/`` sits at the root of a checkout; a wheel installs it as ``vahalite_bot/boards``
(setup.py maps it, like the migrations), and ``find_boards`` finds either.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Scenario, ScenarioError, Side, Terrain
from vahalite_bot.scenarios.schema import ScenarioModel, SideModel

STANDARD_ID = "standard"
_REPR_LIMIT = 60


class ScenarioFileError(ValueError):
    """A scenario file that cannot be used, with every reason in ``reasons``."""

    def __init__(self, file: str, reasons: Sequence[str]) -> None:
        self.file, self.reasons = file, list(reasons)
        super().__init__(f"{file}: " + "; ".join(self.reasons))


def find_boards(package: Path | None = None) -> Path:
    """The scenario files: inside the installed package (a wheel), or at the root of the
    checkout the package is in (a source tree or an editable install)."""
    root = Path(__file__).resolve().parents[1] if package is None else package
    candidates = (root / "boards", root.parent / "boards")
    for candidate in candidates:
        if (candidate / f"{STANDARD_ID}.toml").is_file():
            return candidate
    raise FileNotFoundError(f"no scenario files in {' or '.join(map(str, candidates))}")


BOARDS = find_boards()


# -- loading -------------------------------------------------------------------------------
def load_scenario(path: Path) -> Scenario:
    scenario, reasons = read_scenario(path)
    if scenario is None:
        raise ScenarioFileError(path.name, reasons)
    return scenario


def load_scenarios(folder: Path | None = None) -> dict[str, Scenario]:
    """Every scenario of ``folder`` (``boards/`` by default), the standard one first;
    raises the first file's ScenarioFileError."""
    paths = sorted((BOARDS if folder is None else folder).glob("*.toml"), key=_standard_first)
    return {s.id: s for s in map(load_scenario, paths)}


@cache
def shipped_scenarios() -> dict[str, Scenario]:
    """The scenarios of the product's own ``boards/``, read once."""
    return load_scenarios()


def shipped(scenario_id: str) -> Scenario:
    return shipped_scenarios()[scenario_id]


def _standard_first(path: Path) -> tuple[bool, str]:
    return path.stem != STANDARD_ID, path.stem


# -- checking: every reason ------------------------------------------------------------------
def read_scenario(path: Path) -> tuple[Scenario | None, list[str]]:
    """The scenario, or None and every reason it is refused."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return None, [f"cannot read the file: {error}"]
    return scenario_from(raw, path.stem)


def scenario_from(
    raw: Mapping[str, Any], name: str | None = None
) -> tuple[Scenario | None, list[str]]:
    """``raw`` (a parsed TOML document) as a scenario; ``name`` is the file's stem, which
    the id must equal so that a game's stored id always finds its file."""
    try:
        data = ScenarioModel.model_validate(raw)
    except ValidationError as error:
        return None, [_reason(e) for e in error.errors()]
    reasons: list[str] = []
    if name is not None and data.id != name:
        reasons.append(f"id {data.id!r} differs from the file name {name!r}")
    reasons += _shared_cells(data)
    try:
        scenario = Scenario(**_fields(data))
    except ScenarioError as error:
        return None, reasons + error.reasons
    return (None if reasons else scenario), reasons


def _shared_cells(data: ScenarioModel) -> list[str]:
    counts = Counter(piece.cell for piece in data.preplaced)
    return [f"{n} pre-placed pieces share cell {cell}" for cell, n in counts.items() if n > 1]


def _fields(data: ScenarioModel) -> dict[str, Any]:
    """The Scenario's fields, rows turned 0-based."""
    sides: dict[Side, SideModel] = {Side.SOUTH: data.south, Side.NORTH: data.north}
    return {
        "id": data.id,
        "width": data.board.columns,
        "height": data.board.rows,
        "half_rows": {side: _band(s.half) for side, s in sides.items()},
        "deploy_rows": {side: _band(s.deploy) for side, s in sides.items()},
        "neutral_rows": tuple(row - 1 for row in data.board.neutral_rows),
        "terrain_set": dict(data.terrain),
        "side_terrain": {side: dict(s.terrain) for side, s in sides.items() if s.terrain},
        "preplaced": {Cell.parse(p.cell): Terrain(p.kind, p.improvement) for p in data.preplaced},
        "sp_per_player": data.sp,
        "side_sp": {side: s.sp for side, s in sides.items() if s.sp is not None},
        "rounds": data.rounds,
        "points_limits": tuple(data.south.points or data.points),
        "north_points_limits": tuple(data.north.points or ()),
        "slot_maxima": dict(data.army.maxima),
        "names": {"ru": data.name.ru, "en": data.name.en},
        "descriptions": {"ru": data.description.ru, "en": data.description.en},
    }


def _band(rows: tuple[int, int]) -> tuple[int, int]:
    return rows[0] - 1, rows[1] - 1


def _reason(error: Mapping[str, Any]) -> str:
    where = ".".join(str(part) for part in error["loc"]) or "the file"
    kind = error["type"]
    if kind == "scenario":
        return f"{where}: {error['msg']}"
    if kind == "missing":
        return f"{where}: missing"
    if kind == "extra_forbidden":
        return f"{where}: unknown key"
    shown = repr(error.get("input"))
    if len(shown) > _REPR_LIMIT:
        shown = shown[: _REPR_LIMIT - 3] + "..."
    return f"{where}: {error['msg']} (got {shown})"


def problems_of(paths: Iterable[Path]) -> dict[str, list[str]]:
    """Every refused file of ``paths`` with its reasons (for a server owner's check)."""
    found: dict[str, list[str]] = {}
    for path in paths:
        scenario, reasons = read_scenario(path)
        if scenario is None:
            found[path.name] = reasons
    return found
