"""Cells, distances (rulebook E1) and line of sight (E4) on a rectangular grid."""

from __future__ import annotations

import re
import string
from collections.abc import Collection, Iterator, Mapping
from functools import lru_cache
from math import gcd
from typing import NamedTuple

_CELL_RE = re.compile(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")


class Cell(NamedTuple):
    """A board cell: ``col`` 0 is column A (west), ``row`` 0 is row 1 (south)."""

    col: int
    row: int

    @classmethod
    def parse(cls, text: str) -> Cell:
        """Parse ``A1``..``Z99`` (case-insensitive); raises ``ValueError`` otherwise."""
        match = _CELL_RE.match(text)
        if match is None:
            raise ValueError(f"not a cell: {text!r}")
        col = string.ascii_uppercase.index(match.group(1).upper())
        row = int(match.group(2)) - 1
        if row < 0:
            raise ValueError(f"not a cell: {text!r}")
        return cls(col, row)

    @property
    def name(self) -> str:
        return f"{string.ascii_uppercase[self.col]}{self.row + 1}"

    def __str__(self) -> str:
        return self.name


_CELLS: dict[str, Cell] = {}


def cell_of(text: str) -> Cell:
    """``Cell.parse``, each text parsed once: decoding a log or a state parses the same few
    names thousands of times. Cells are immutable, so sharing one is safe; the texts kept
    are only those that parsed (a board has at most 26 x 99 cells)."""
    cell = _CELLS.get(text)
    if cell is None:
        cell = Cell.parse(text)
        if len(_CELLS) < 4096:  # a bound all the same, whatever a caller passes
            _CELLS[text] = cell
    return cell


def distance(a: Cell, b: Cell) -> int:
    """E1: steps, a diagonal step counting 2."""
    return abs(a.col - b.col) + abs(a.row - b.row)


def orthogonal_neighbours(cell: Cell, width: int, height: int) -> tuple[Cell, ...]:
    """The cells one orthogonal step away on a ``width`` x ``height`` board (N, E, S, W)."""
    neighbours = board_neighbours(width, height).get(cell)
    if neighbours is None:  # off the board: the same rule, worked out for this cell
        return tuple(_steps(cell, width, height))
    return neighbours


@lru_cache(maxsize=16)
def board_neighbours(width: int, height: int) -> Mapping[Cell, tuple[Cell, ...]]:
    """``orthogonal_neighbours`` of every cell of the board (do not change it). Movement
    searches ask for the neighbours of every cell they reach, many times a turn: a board's
    are worked out once."""
    return {
        cell: tuple(_steps(cell, width, height))
        for cell in (Cell(c, r) for r in range(height) for c in range(width))
    }


def _steps(cell: Cell, width: int, height: int) -> Iterator[Cell]:
    col, row = cell
    for dc, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        c, r = col + dc, row + dr
        if 0 <= c < width and 0 <= r < height:
            yield Cell(c, r)


def has_line_of_sight(a: Cell, b: Cell, blocking: Collection[Cell]) -> bool:
    """E4: the segment between cell centres crosses no blocking cell but the end cells.

    A segment that only touches a corner is blocked there only if both cells that it
    touches at that corner block.
    """
    if not blocking:
        return True
    return _line_of_sight(a, b, frozenset(blocking))


@lru_cache(maxsize=65536)
def _line_of_sight(a: Cell, b: Cell, blocking: frozenset[Cell]) -> bool:
    # Work in doubled coordinates so that centres are odd integers and corners even ones.
    ax, ay = 2 * a.col + 1, 2 * a.row + 1
    bx, by = 2 * b.col + 1, 2 * b.row + 1
    for cell in blocking:
        if cell in (a, b):
            continue
        if _crosses_interior(ax, ay, bx, by, cell):
            return False
    for cx, cy in _corners_on_segment(ax, ay, bx, by):
        touched = _cells_touched_only_at(cx, cy, ax, ay, bx, by)
        if len(touched) == 2 and all(cell in blocking for cell in touched):
            return False
    return True


def sight_blockers(a: Cell, b: Cell, blocking: Collection[Cell]) -> tuple[Cell, ...]:
    """E4, D6: the cells that block the line from ``a`` to ``b``, in column-row order (a
    corner blocks with both its cells); empty when the line is clear. For explaining."""
    return _sight_blockers(a, b, frozenset(blocking))


@lru_cache(maxsize=16384)
def _sight_blockers(a: Cell, b: Cell, blocking: frozenset[Cell]) -> tuple[Cell, ...]:
    ax, ay = 2 * a.col + 1, 2 * a.row + 1
    bx, by = 2 * b.col + 1, 2 * b.row + 1
    found = {c for c in blocking if c not in (a, b) and _crosses_interior(ax, ay, bx, by, c)}
    for cx, cy in _corners_on_segment(ax, ay, bx, by):
        touched = _cells_touched_only_at(cx, cy, ax, ay, bx, by)
        if len(touched) == 2 and all(cell in blocking for cell in touched):
            found.update(touched)
    return tuple(sorted(found))


def _crosses_interior(ax: int, ay: int, bx: int, by: int, cell: Cell) -> bool:
    """Does the open segment pass through the cell's open interior? In exact integers: the
    segment's parameter t in (0, 1) is scaled by a common denominator of both axes."""
    dx, dy = bx - ax, by - ay
    scale = (abs(dx) or 1) * (abs(dy) or 1)
    lo, hi = 0, scale
    for start, step, low in ((ax, dx, 2 * cell.col), (ay, dy, 2 * cell.row)):
        if step == 0:
            if not low < start < low + 2:
                return False
            continue
        factor = scale // step  # exact: |step| divides the scale; the sign orders the ends
        t1, t2 = (low - start) * factor, (low + 2 - start) * factor
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    return lo < hi


def _corners_on_segment(ax: int, ay: int, bx: int, by: int) -> Iterator[tuple[int, int]]:
    """Grid corners (even doubled coordinates) strictly inside the segment."""
    dx, dy = bx - ax, by - ay
    steps = max(abs(dx), abs(dy))
    if steps == 0:
        return
    # Corners lie on even coordinates; the segment meets integer points only at t = k/g.
    g = gcd(abs(dx), abs(dy))
    for k in range(1, g):
        x, y = ax + dx * k // g, ay + dy * k // g
        if x % 2 == 0 and y % 2 == 0:
            yield x, y


def _cells_touched_only_at(cx: int, cy: int, ax: int, ay: int, bx: int, by: int) -> list[Cell]:
    around = [Cell((cx + ox) // 2, (cy + oy) // 2) for ox in (-1, 1) for oy in (-1, 1)]
    return [c for c in around if not _crosses_interior(ax, ay, bx, by, c)]
