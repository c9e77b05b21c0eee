"""Sides, terrain and the scenario a game is played on (RULES.md coordinates, I, L)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from vahalite_bot.rules.geometry import Cell


class Side(StrEnum):
    SOUTH = "south"
    NORTH = "north"

    @property
    def other(self) -> Side:
        return Side.NORTH if self is Side.SOUTH else Side.SOUTH


class TerrainKind(StrEnum):
    OBSTACLE = "obstacle"  # I1
    WATER = "water"  # I2
    HEIGHT = "height"  # I3
    COVER = "cover"  # I4
    FORTIFICATION = "fortification"  # I5

    @property
    def enterable(self) -> bool:
        return self not in (TerrainKind.OBSTACLE, TerrainKind.WATER)

    @property
    def blocks_sight(self) -> bool:
        return self in (TerrainKind.OBSTACLE, TerrainKind.HEIGHT)

    @property
    def gives_cover(self) -> bool:
        return self in (TerrainKind.COVER, TerrainKind.FORTIFICATION)


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


@dataclass(frozen=True)
class Scenario:
    """A board and how a game on it is set up; rows are 0-based from the south edge."""

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

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise ValueError("; ".join(problems))

    def problems(self) -> list[str]:
        """L: the reasons an inconsistent scenario is refused."""
        found: list[str] = []
        if not (1 <= self.width <= 26 and 1 <= self.height <= 99):
            found.append(f"board {self.width}x{self.height} is out of bounds")
        for name, bands in (("half", self.half_rows), ("deployment zone", self.deploy_rows)):
            if set(bands) != set(Side):
                found.append(f"every side needs a {name}")
                continue
            for side, (lo, hi) in bands.items():
                if not 0 <= lo <= hi < self.height:
                    found.append(f"{side.value} {name} rows {lo + 1}-{hi + 1} are off the board")
            (a_lo, a_hi), (b_lo, b_hi) = bands[Side.SOUTH], bands[Side.NORTH]
            if a_lo <= b_hi and b_lo <= a_hi:
                found.append(f"the {name}s overlap")
        if not found:
            for side in Side:
                lo, hi = self.deploy_rows[side]
                h_lo, h_hi = self.half_rows[side]
                if not (h_lo <= lo and hi <= h_hi):
                    found.append(f"{side.value} deployment zone lies outside its half")
        for cell in self.preplaced:
            if not self.on_board(cell):
                found.append(f"pre-placed terrain at {cell} is off the board")
        if self.rounds < 1:
            found.append("a game needs at least one round")
        return found

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell.col < self.width and 0 <= cell.row < self.height

    def cells(self) -> list[Cell]:
        return [Cell(c, r) for r in range(self.height) for c in range(self.width)]

    def in_half(self, side: Side, cell: Cell) -> bool:
        lo, hi = self.half_rows[side]
        return lo <= cell.row <= hi and 0 <= cell.col < self.width

    def in_deploy_zone(self, side: Side, cell: Cell) -> bool:
        lo, hi = self.deploy_rows[side]
        return lo <= cell.row <= hi and 0 <= cell.col < self.width

    def is_edge(self, cell: Cell) -> bool:
        return cell.col in (0, self.width - 1) or cell.row in (0, self.height - 1)


STANDARD = Scenario()
