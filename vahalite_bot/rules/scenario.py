"""Sides, terrain and the scenario a game is played on (rulebook coordinates, I, L)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.sheets import Slot


# The members' derived properties are cached_property: the engine and the players ask them
# constantly, and a member's answer never changes.
class Side(StrEnum):
    SOUTH = "south"
    NORTH = "north"

    @cached_property
    def other(self) -> Side:
        return Side.NORTH if self is Side.SOUTH else Side.SOUTH


class TerrainKind(StrEnum):
    OBSTACLE = "obstacle"  # I1
    WATER = "water"  # I2
    HEIGHT = "height"  # I3
    COVER = "cover"  # I4
    FORTIFICATION = "fortification"  # I5

    @cached_property
    def enterable(self) -> bool:
        return self not in (TerrainKind.OBSTACLE, TerrainKind.WATER)

    @cached_property
    def blocks_sight(self) -> bool:
        return self in (TerrainKind.OBSTACLE, TerrainKind.HEIGHT)

    @cached_property
    def gives_cover(self) -> bool:
        return self in (TerrainKind.COVER, TerrainKind.FORTIFICATION)


MAX_COLUMNS, MAX_ROWS = 26, 99  # letters A-Z; two-digit row numbers
BASE_COVER_VALUE = 3
MAX_COVER_VALUE = 6


@dataclass(frozen=True)
class Terrain:
    kind: TerrainKind
    improvement: int = 0  # E8: each improvement raises the cover value by one

    @property
    def cover_value(self) -> int:
        return min(MAX_COVER_VALUE, BASE_COVER_VALUE + self.improvement)


STANDARD_TERRAIN_SET: dict[TerrainKind, int] = {
    TerrainKind.OBSTACLE: 1,
    TerrainKind.WATER: 1,
    TerrainKind.HEIGHT: 2,
    TerrainKind.COVER: 2,
}

# A2: (minimum, maximum) per slot; transports take no slot (A4). A scenario may raise the
# maxima (``Scenario.slot_maxima``); the minima, and so A3's untradeable core, never change.
FORCE_ORGANISATION: dict[Slot, tuple[int, int]] = {
    Slot.HQ: (1, 2),
    Slot.TROOPS: (2, 4),
    Slot.HEAVY: (0, 2),
    Slot.FAST: (0, 2),
    Slot.ELITE: (0, 2),
}


class ScenarioError(ValueError):
    """An inconsistent scenario (L): every reason at once in ``reasons``."""

    def __init__(self, reasons: list[str]) -> None:
        self.reasons = list(reasons)
        super().__init__("; ".join(self.reasons))


@dataclass(frozen=True)
class Scenario:
    """A board and how a game on it is set up; rows are 0-based from the south edge.

    The per-side fields (``side_terrain``, ``side_sp``) override the common ones for the
    sides they name; ``north_points_limits`` pairs with ``points_limits`` by position (the
    game's chosen limit is the south one, L Fortress). The defaults are the standard board
    of sections B-J; the shipped scenarios themselves are read from ``boards/*.toml``.
    """

    id: str = "standard"
    width: int = 6
    height: int = 6
    half_rows: dict[Side, tuple[int, int]] = field(
        default_factory=lambda: {Side.SOUTH: (0, 2), Side.NORTH: (3, 5)}
    )
    deploy_rows: dict[Side, tuple[int, int]] = field(
        default_factory=lambda: {Side.SOUTH: (0, 1), Side.NORTH: (4, 5)}
    )
    terrain_set: dict[TerrainKind, int] = field(default_factory=lambda: dict(STANDARD_TERRAIN_SET))
    preplaced: dict[Cell, Terrain] = field(default_factory=dict)
    sp_per_player: int = 3
    rounds: int = 6
    points_limits: tuple[int, ...] = (500, 750, 1000)
    side_terrain: dict[Side, dict[TerrainKind, int]] = field(default_factory=dict)
    side_sp: dict[Side, int] = field(default_factory=dict)
    north_points_limits: tuple[int, ...] = ()
    slot_maxima: dict[Slot, int] = field(default_factory=dict)
    neutral_rows: tuple[int, ...] = ()
    names: dict[str, str] = field(default_factory=dict)  # language -> display name
    descriptions: dict[str, str] = field(default_factory=dict)  # language -> one paragraph

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise ScenarioError(problems)

    # -- what the setup and the army check ask -------------------------------------------
    def terrain_for(self, side: Side) -> dict[TerrainKind, int]:
        """B3: the pieces ``side`` places on its half."""
        return dict(self.side_terrain.get(side, self.terrain_set))

    def sp_for(self, side: Side) -> int:
        """B4: how many SP ``side`` places."""
        return self.side_sp.get(side, self.sp_per_player)

    def points_for(self, side: Side, limit: int) -> int:
        """A1: ``side``'s own limit in a game created with ``limit`` (the south one)."""
        if side is Side.SOUTH or not self.north_points_limits or limit not in self.points_limits:
            return limit
        return self.north_points_limits[self.points_limits.index(limit)]

    def organisation(self) -> dict[Slot, tuple[int, int]]:
        """A2 as this scenario has it: the standard minima, maybe raised maxima."""
        return {
            slot: (low, self.slot_maxima.get(slot, high))
            for slot, (low, high) in FORCE_ORGANISATION.items()
        }

    def title(self, lang: str) -> str:
        """The display name in ``lang`` (English, then the id, when it has none)."""
        return self.names.get(lang) or self.names.get("en") or self.id

    def description(self, lang: str) -> str:
        return self.descriptions.get(lang) or self.descriptions.get("en") or ""

    # -- consistency (L) -----------------------------------------------------------------
    def problems(self) -> list[str]:
        """L: every reason an inconsistent scenario is refused (empty: consistent)."""
        found = _size_problems(self)
        if found:  # nothing else can be judged on a board that does not exist
            return found
        found += _band_problems(self)
        found += _terrain_problems(self)
        found += _count_problems(self)
        if not found:
            found += _room_problems(self)
        return found

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell.col < self.width and 0 <= cell.row < self.height

    def cells(self) -> list[Cell]:
        return list(self._cells)

    def in_half(self, side: Side, cell: Cell) -> bool:
        lo, hi = self.half_rows[side]
        return lo <= cell.row <= hi and 0 <= cell.col < self.width

    def in_deploy_zone(self, side: Side, cell: Cell) -> bool:
        lo, hi = self.deploy_rows[side]
        return lo <= cell.row <= hi and 0 <= cell.col < self.width

    def half_cells(self, side: Side) -> tuple[Cell, ...]:
        """B3-B5: the cells of ``side``'s half, in ``cells()`` order."""
        return self._half_cells[side]

    def zone_cells(self, side: Side) -> tuple[Cell, ...]:
        """B5: the cells of ``side``'s deployment zone, in ``cells()`` order."""
        return self._zone_cells[side]

    # A scenario never changes once made: the setup asks for these cells at every step.
    @cached_property
    def _cells(self) -> tuple[Cell, ...]:
        return tuple(Cell(c, r) for r in range(self.height) for c in range(self.width))

    @cached_property
    def _half_cells(self) -> dict[Side, tuple[Cell, ...]]:
        return {side: tuple(c for c in self._cells if self.in_half(side, c)) for side in Side}

    @cached_property
    def _zone_cells(self) -> dict[Side, tuple[Cell, ...]]:
        return {
            side: tuple(c for c in self._cells if self.in_deploy_zone(side, c)) for side in Side
        }

    def is_edge(self, cell: Cell) -> bool:
        return cell.col in (0, self.width - 1) or cell.row in (0, self.height - 1)


# -- the reasons, one kind per function ----------------------------------------------------
def _rows(lo: int, hi: int) -> str:
    return f"{lo + 1}" if lo == hi else f"{lo + 1}-{hi + 1}"


def _size_problems(s: Scenario) -> list[str]:
    if not (1 <= s.width <= MAX_COLUMNS and 1 <= s.height <= MAX_ROWS):
        return [f"board {s.width}x{s.height} is out of bounds (1-{MAX_COLUMNS} x 1-{MAX_ROWS})"]
    return []


def _band_problems(s: Scenario) -> list[str]:
    found: list[str] = []
    halves_found = _bands_problems(s, "half", "halves", s.half_rows)
    zones_found = _bands_problems(s, "deployment zone", "deployment zones", s.deploy_rows)
    found += halves_found + zones_found
    for row in s.neutral_rows:
        if not 0 <= row < s.height:
            found.append(f"neutral row {row + 1} is off the board")
    if halves_found:  # what follows reads the halves
        return found
    if not zones_found:
        for side in Side:
            lo, hi = s.deploy_rows[side]
            h_lo, h_hi = s.half_rows[side]
            if not (h_lo <= lo and hi <= h_hi):
                found.append(f"{side.value} deployment zone lies outside its half")
    found += _cover_problems(s)
    return found


def _bands_problems(
    s: Scenario, name: str, plural: str, bands: dict[Side, tuple[int, int]]
) -> list[str]:
    """One band of rows per side, on the board, the south one south of the north one."""
    if set(bands) != set(Side):
        return [f"every side needs a {name}"]
    found: list[str] = []
    for side, (lo, hi) in bands.items():
        if not 0 <= lo <= hi < s.height:
            found.append(f"{side.value} {name} rows {_rows(lo, hi)} are off the board")
    (a_lo, a_hi), (b_lo, b_hi) = bands[Side.SOUTH], bands[Side.NORTH]
    if a_lo <= b_hi and b_lo <= a_hi:
        found.append(f"the {plural} overlap")
    elif a_lo > b_hi:
        found.append(f"the south {name} lies north of the north {name}")
    return found


def _cover_problems(s: Scenario) -> list[str]:
    """The halves and the neutral rows share the board's rows out, each row to one."""
    found: list[str] = []
    owners: dict[int, list[str]] = {row: [] for row in range(s.height)}
    for side, (lo, hi) in s.half_rows.items():
        for row in range(lo, hi + 1):
            owners[row].append(f"the {side.value} half")
    for row in s.neutral_rows:
        if row in owners:
            owners[row].append("the neutral rows")
    for row, holders in owners.items():
        if not holders:
            found.append(
                f"row {row + 1} is in neither half: declare it neutral (neutral_rows = [{row + 1}])"
            )
        elif len(holders) > 1 and "the neutral rows" in holders:
            found.append(f"neutral row {row + 1} is also in {holders[0]}")
    return found


def _terrain_problems(s: Scenario) -> list[str]:
    found: list[str] = []
    for cell, piece in s.preplaced.items():
        if not s.on_board(cell):
            found.append(f"pre-placed terrain at {cell} is off the board")
        if piece.improvement < 0:
            found.append(f"pre-placed terrain at {cell} has a negative improvement")
        elif piece.improvement and piece.kind is not TerrainKind.FORTIFICATION:
            found.append(f"only a fortification can be improved ({piece.kind.value} at {cell})")
    sets = {"both sides": s.terrain_set} | {
        f"the {side.value} side": pieces for side, pieces in s.side_terrain.items()
    }
    for owner, pieces in sets.items():
        for kind, count in pieces.items():
            if kind is TerrainKind.FORTIFICATION:
                found.append(f"{owner} cannot place fortifications: they are pre-placed only")
            if count < 0:
                found.append(f"{owner} has a negative number of {kind.value} pieces")
    return found


def _count_problems(s: Scenario) -> list[str]:
    found: list[str] = []
    for owner, count in [("both sides", s.sp_per_player)] + [
        (f"the {side.value} side", n) for side, n in s.side_sp.items()
    ]:
        if count < 0:
            found.append(f"{owner} has a negative SP count")
    if s.rounds < 1:
        found.append("a game needs at least one round")
    if not s.points_limits:
        found.append("the scenario needs at least one points limit")
    for limit in (*s.points_limits, *s.north_points_limits):
        if limit < 1:
            found.append(f"points limit {limit} is not positive")
    if s.north_points_limits and len(s.north_points_limits) != len(s.points_limits):
        found.append(
            f"{len(s.north_points_limits)} north points limits for "
            f"{len(s.points_limits)} south ones: they pair by position"
        )
    for slot, high in s.slot_maxima.items():
        low = FORCE_ORGANISATION[slot][0] if slot in FORCE_ORGANISATION else None
        if low is None:
            found.append(f"{slot.value} takes no slot: it has no maximum")
        elif high < low:
            found.append(f"the {slot.value} maximum {high} is below its minimum {low}")
    return found


def _room_problems(s: Scenario) -> list[str]:
    """B3/B4: each side's pieces and SP fit its half, whatever order it places them in."""
    found: list[str] = []
    for side in Side:
        half = [c for c in s.cells() if s.in_half(side, c)]
        free = [c for c in half if c not in s.preplaced]
        pieces = s.terrain_for(side)
        if sum(pieces.values()) > len(free):
            found.append(
                f"the {side.value} side has {sum(pieces.values())} terrain pieces "
                f"for {len(free)} free cells of its half"
            )
        # The side's own Obstacles and Water may land on the very cells an SP needs.
        blocking = sum(n for kind, n in pieces.items() if not kind.enterable)
        open_inside = [
            c
            for c in half
            if not s.is_edge(c) and (c not in s.preplaced or s.preplaced[c].kind.enterable)
        ]
        if s.sp_for(side) + blocking > len(open_inside):
            found.append(
                f"the {side.value} side cannot place {s.sp_for(side)} SP: its half has "
                f"{len(open_inside)} enterable cells off the edge and it places "
                f"{blocking} Obstacle/Water pieces of its own"
            )
    return found


STANDARD = Scenario()
