"""Geometry in detail: cells, E1 distances and E4 line of sight (the corner rule)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from vahalite_bot.rules.geometry import Cell, distance, has_line_of_sight, orthogonal_neighbours

BOARD = [Cell(col, row) for row in range(6) for col in range(6)]


def cells(*names: str) -> frozenset[Cell]:
    return frozenset(Cell.parse(n) for n in names)


def sight(a: str, b: str, *blocking: str) -> bool:
    return has_line_of_sight(Cell.parse(a), Cell.parse(b), cells(*blocking))


# -- cells ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "col", "row"),
    [("A1", 0, 0), ("a1", 0, 0), (" C3 ", 2, 2), ("F6", 5, 5), ("z99", 25, 98)],
)
def test_cell_parse(text: str, col: int, row: int) -> None:
    assert Cell.parse(text) == Cell(col, row)


@pytest.mark.parametrize("text", ["", "A", "A0", "AA1", "1A", "A100", "Ж1", "A-1"])
def test_cell_parse_refuses_what_is_not_a_cell(text: str) -> None:
    with pytest.raises(ValueError):
        Cell.parse(text)


def test_cell_name_round_trips() -> None:
    for cell in BOARD:
        assert Cell.parse(cell.name) == cell
    assert Cell(3, 1).name == "D2"
    assert str(Cell(0, 5)) == "A6"


# -- E1 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("C3", "C3", 0),
        ("C3", "C4", 1),
        ("C3", "D3", 1),
        ("C3", "D4", 2),  # one diagonal step counts 2
        ("A1", "C1", 2),
        ("A1", "B3", 3),
        ("A1", "C3", 4),
        ("A1", "F6", 10),
    ],
)
def test_E1_distance_counts_a_diagonal_step_as_two(a: str, b: str, expected: int) -> None:
    assert distance(Cell.parse(a), Cell.parse(b)) == expected
    assert distance(Cell.parse(b), Cell.parse(a)) == expected


def test_orthogonal_neighbours_stay_on_the_board() -> None:
    def around(name: str, width: int = 6, height: int = 6) -> set[str]:
        return {n.name for n in orthogonal_neighbours(Cell.parse(name), width, height)}

    assert around("A1") == {"A2", "B1"}
    assert around("F6") == {"F5", "E6"}
    assert around("C1") == {"B1", "D1", "C2"}
    assert around("C3") == {"C2", "C4", "B3", "D3"}
    assert around("B2", width=2, height=2) == {"A2", "B1"}


# -- E4: hand-computed cases ---------------------------------------------------------------
def test_E4_nothing_blocking_means_sight() -> None:
    assert sight("A1", "F6")
    assert sight("A1", "F1")


def test_E4_straight_line_blocked_by_the_cell_between() -> None:
    assert not sight("A1", "A3", "A2")
    assert sight("A1", "A3", "B2")
    assert sight("A1", "A3", "B1", "B2", "B3")  # a wall beside the line does not block
    assert not sight("A1", "E1", "C1")


def test_E4_end_cells_never_block() -> None:
    assert sight("A1", "A3", "A1", "A3")
    assert sight("B2", "D4", "B2", "D4")
    assert sight("A1", "B2", "A1", "B2")


def test_E4_knight_like_line_crosses_two_cells() -> None:
    # A1 -> C2 runs through B1 and B2 (meeting their shared edge, not a corner).
    assert not sight("A1", "C2", "B1")
    assert not sight("A1", "C2", "B2")
    assert sight("A1", "C2", "A2", "C1")


def test_E4_long_line_crosses_a_cell_only_barely() -> None:
    # Doubled coordinates (1,1)->(7,5): crosses A1 B1 B2 C2 C3 D3; B1 only near its corner.
    for blocking in ("B1", "B2", "C2", "C3"):
        assert not sight("A1", "D3", blocking), blocking
    for open_cell in ("A2", "B3", "C1", "D1", "D2", "A3"):
        assert sight("A1", "D3", open_cell), open_cell


def test_E4_diagonal_through_the_cell_between() -> None:
    assert not sight("A1", "C3", "B2")


def test_E4_corner_blocks_only_when_both_cells_block() -> None:
    # A1 -> C3 passes the corner of A1/B1/A2/B2, touching only B1 and A2 there.
    assert sight("A1", "C3", "B1")
    assert sight("A1", "C3", "A2")
    assert not sight("A1", "C3", "B1", "A2")
    # ... and the corner of B2/C2/B3/C3, touching only C2 and B3.
    assert not sight("A1", "C3", "C2", "B3")
    # One cell at each of two different corners is not a closed corner.
    assert sight("A1", "C3", "B1", "B3")
    assert sight("A1", "C3", "A2", "C2")


def test_E4_corner_rule_between_diagonal_neighbours() -> None:
    assert sight("A1", "B2", "B1")
    assert sight("A1", "B2", "A2")
    assert not sight("A1", "B2", "B1", "A2")
    assert not sight("B2", "A1", "B1", "A2")
    assert sight("B1", "A2", "A1")  # the anti-diagonal touches A1 and B2
    assert not sight("B1", "A2", "A1", "B2")


# -- E4: against an independent computation --------------------------------------------------
def reference_sight(a: Cell, b: Cell, blocking: frozenset[Cell]) -> bool:
    """E4 computed another way: walk the segment from one grid line crossing to the next.

    Between two consecutive crossings the segment lies inside one cell, found from the
    midpoint; at a crossing that is a grid corner it touches the two cells off its way.
    """
    ax, ay, bx, by = 2 * a.col + 1, 2 * a.row + 1, 2 * b.col + 1, 2 * b.row + 1
    dx, dy = bx - ax, by - ay
    ts = {Fraction(0), Fraction(1)}
    for p0, d in ((ax, dx), (ay, dy)):
        if d:
            ts.update(Fraction(line - p0, d) for line in range(0, 2 * 7, 2))
    times = sorted(t for t in ts if 0 <= t <= 1)
    crossed = set()
    for t0, t1 in itertools.pairwise(times):
        mid = (t0 + t1) / 2
        x, y = ax + dx * mid, ay + dy * mid
        crossed.add(Cell(int(x // 2), int(y // 2)))
    if any(cell in blocking for cell in crossed - {a, b}):
        return False
    sx, sy = (1 if dx > 0 else -1), (1 if dy > 0 else -1)
    for t in times[1:-1]:
        x, y = ax + dx * t, ay + dy * t
        if x.denominator != 1 or y.denominator != 1 or x % 2 or y % 2:
            continue  # not a corner
        cx, cy = int(x) // 2, int(y) // 2  # the cell north-east of the corner
        off_way = {
            Cell(cx if sx > 0 else cx - 1, cy - 1 if sy > 0 else cy),
            Cell(cx - 1 if sx > 0 else cx, cy if sy > 0 else cy - 1),
        }
        if off_way <= blocking:
            return False
    return True


def test_E4_reference_agrees_with_the_hand_cases() -> None:
    a, c = Cell.parse("A1"), Cell.parse("C3")
    assert reference_sight(a, c, cells("B1")) is True
    assert reference_sight(a, c, cells("B1", "A2")) is False
    assert reference_sight(a, Cell.parse("D3"), cells("B1")) is False
    assert reference_sight(a, Cell.parse("D3"), cells("A2")) is True


@pytest.mark.parametrize("seed", range(4))
def test_E4_line_of_sight_matches_the_reference_for_every_pair(seed: int) -> None:
    rng = random.Random(seed)
    blocking = frozenset(rng.sample(BOARD, rng.randint(3, 10)))
    for a, b in itertools.combinations(BOARD, 2):
        expected = reference_sight(a, b, blocking)
        assert has_line_of_sight(a, b, blocking) is expected, (a.name, b.name)
        assert has_line_of_sight(b, a, blocking) is expected, (b.name, a.name)
