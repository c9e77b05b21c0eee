"""rulebook D1-D6: movement, and `movement.reachable` against hand-computed answers."""

from __future__ import annotations

import itertools

import pytest

from tests.builders import Place, act, c, of_type, playing, refused, sheet
from vahalite_bot.rules.actions import Attack, Move
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import MoraleTested, Moved, UnitDestroyed
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.movement import check_move, reachable
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.state import GameState

S, N = Side.SOUTH, Side.NORTH
OBSTACLE, WATER, HEIGHT = TerrainKind.OBSTACLE, TerrainKind.WATER, TerrainKind.HEIGHT
COVER, FORT = TerrainKind.COVER, TerrainKind.FORTIFICATION
# An enemy far away keeps the game from ending at once (J3) and tests no one (D5).
FAR = Place("far", "warriors", N, "F6")


def path(*names: str) -> tuple[Cell, ...]:
    return tuple(c(n) for n in names)


def move(unit: str, *names: str, side: Side = S) -> Move:
    return Move(side, unit, path(*names))


# -- D1 ------------------------------------------------------------------------------------
def test_D1_orthogonal_path_up_to_m_moves_the_unit() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), FAR])
    before = state.copy()
    after, events = act(state, move("tac", "C3", "D3"))
    assert after.units["tac"].cell == c("D3")
    assert after.units["tac"].moved
    assert of_type(events, Moved) == [Moved("tac", c("C2"), path("C3", "D3"))]
    assert state == before  # the engine changed a copy


def test_D1_shorter_path_than_m_is_fine() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), FAR])
    after, _ = act(state, move("tac", "B2"))
    assert after.units["tac"].cell == c("B2")


def test_D1_path_longer_than_m_refused() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), FAR])
    error = refused(state, move("tac", "C3", "C4", "C5"), "D1", "path_too_long")
    assert error.params == {"unit": "tac", "length": 3, "m": 2}


@pytest.mark.parametrize("steps", [("D3",), ("C4",), ("C3", "D4"), ("C3", "C5")])
def test_D1_diagonal_or_jumping_step_refused(steps: tuple[str, ...]) -> None:
    state = playing([Place("tac", "tactical", S, "C2"), FAR])
    refused(state, move("tac", *steps), "D1", "not_orthogonal")


def test_D1_not_orthogonal_names_the_step() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), FAR])
    error = refused(state, move("tac", "C3", "D4"), "D1", "not_orthogonal")
    assert error.params == {"frm": "C3", "cell": "D4"}


@pytest.mark.parametrize("steps", [("C3", "C2"), ("C3", "C4", "C3")])
def test_D1_path_revisiting_a_cell_refused(steps: tuple[str, ...]) -> None:
    state = playing([Place("ass", "assault", S, "C2"), FAR])  # M 3
    refused(state, move("ass", *steps), "D1", "path_revisits")


def test_D1_empty_path_refused() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), FAR])
    refused(state, Move(S, "tac", ()), "D1", "empty_path")


def test_D1_off_the_board_refused() -> None:
    state = playing([Place("tac", "tactical", S, "F1"), FAR])
    refused(state, Move(S, "tac", (Cell(6, 0),)), "D1", "off_board")
    refused(state, Move(S, "tac", (Cell(5, -1),)), "D1", "off_board")


def test_D1_second_move_in_a_turn_refused() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), FAR])
    after, _ = act(state, move("tac", "C3"))
    refused(after, move("tac", "C4"), "C2", "already_moved")


# -- D2 ------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", [OBSTACLE, WATER])
@pytest.mark.parametrize("steps", [("C3",), ("C3", "C4")])
def test_D2_obstacle_and_water_never_entered(kind: TerrainKind, steps: tuple[str, ...]) -> None:
    state = playing([Place("tac", "tactical", S, "C2"), FAR], terrain={"C3": kind})
    error = refused(state, move("tac", *steps), "D2", "blocked_by_terrain")
    assert error.params == {"cell": "C3", "terrain": kind.value}


@pytest.mark.parametrize("vehicle", ["predator", "rhino", "whirlwind"])
@pytest.mark.parametrize("kind", [COVER, FORT])
@pytest.mark.parametrize("steps", [("C3",), ("C3", "C4")])
def test_D2_vehicles_cannot_enter_or_cross_cover(
    vehicle: str, kind: TerrainKind, steps: tuple[str, ...]
) -> None:
    state = playing([Place("v", vehicle, S, "C2"), FAR], terrain={"C3": kind})
    refused(state, move("v", *steps), "D2", "blocked_by_terrain")


@pytest.mark.parametrize(
    "unit", ["tactical", "assault", "bikers", "dreadnought", "ravager", "grotesque"]
)
@pytest.mark.parametrize("kind", [COVER, FORT])
def test_D2_infantry_bikes_walkers_skimmers_monsters_enter_cover(
    unit: str, kind: TerrainKind
) -> None:
    state = playing([Place("u", unit, S, "C2"), FAR], terrain={"C3": kind, "C4": kind})
    after, _ = act(state, move("u", "C3"))
    assert after.units["u"].cell == c("C3")
    after, _ = act(state, move("u", "C3", "C4"))
    assert after.units["u"].cell == c("C4")


@pytest.mark.parametrize("unit", ["tactical", "predator"])
def test_D2_heights_cost_nothing_extra(unit: str) -> None:
    state = playing([Place("u", unit, S, "C2"), FAR], terrain={"C3": HEIGHT})
    after, _ = act(state, move("u", "C3", "C4"))  # M 2: one step on, one step off
    assert after.units["u"].cell == c("C4")
    after, _ = act(state, move("u", "C3"))
    assert after.units["u"].cell == c("C3")


# -- D3 ------------------------------------------------------------------------------------
def test_D3_path_passes_through_friendly_units() -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("pal", "scouts", S, "C3"), FAR],
    )
    after, _ = act(state, move("tac", "C3", "C4"))
    assert after.units["tac"].cell == c("C4")
    assert after.units["pal"].cell == c("C3")


def test_D3_cannot_end_on_a_friendly_unit() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("pal", "scouts", S, "C3"), FAR])
    error = refused(state, move("tac", "C3"), "D3", "end_not_empty")
    assert error.params == {"cell": "C3", "occupant": "pal"}


@pytest.mark.parametrize("enemy", ["warriors", "ravager", "grotesque"])
def test_D3_enemy_ground_units_block_the_path(enemy: str) -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("foe", enemy, N, "C3"), FAR])
    error = refused(state, move("tac", "C3", "C4"), "D3", "blocked_by_enemy")
    assert error.params == {"cell": "C3", "enemy": "foe"}
    refused(state, move("tac", "C3"), "D3", "blocked_by_enemy")


def test_D3_path_passes_under_an_enemy_flyer_but_cannot_end_there() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("jet", "razorwing", N, "C3"), FAR])
    after, _ = act(state, move("tac", "C3", "C4"))
    assert after.units["tac"].cell == c("C4")
    refused(state, move("tac", "C3"), "D3", "end_not_empty")


# -- D4 ------------------------------------------------------------------------------------
def test_D4_flyer_ignores_terrain_and_units_while_moving() -> None:
    state = playing(
        [Place("jet", "razorwing", S, "A1"), Place("foe", "grotesque", N, "A3"), FAR],
        terrain={"A2": OBSTACLE, "A4": WATER, "A5": COVER, "B6": HEIGHT},
    )
    after, events = act(state, move("jet", "A2", "A3", "A4", "A5", "A6", "B6"))
    assert after.units["jet"].cell == c("B6")
    assert of_type(events, MoraleTested) == []  # it started next to nothing, and no D5 anyway


@pytest.mark.parametrize("kind", [WATER, COVER, FORT, HEIGHT])
def test_D4_flyer_may_end_over_water_cover_and_heights(kind: TerrainKind) -> None:
    state = playing([Place("jet", "razorwing", S, "C2"), FAR], terrain={"C4": kind})
    after, _ = act(state, move("jet", "C3", "C4"))
    assert after.units["jet"].cell == c("C4")


def test_D4_flyer_cannot_end_on_an_obstacle() -> None:
    state = playing([Place("jet", "razorwing", S, "C2"), FAR], terrain={"C4": OBSTACLE})
    error = refused(state, move("jet", "C3", "C4"), "D4", "flyer_cannot_end")
    assert error.params == {"cell": "C4"}


@pytest.mark.parametrize("owner", [S, N])
def test_D4_flyer_cannot_end_on_an_sp(owner: Side) -> None:
    state = playing([Place("jet", "razorwing", S, "C2"), FAR], sps={"C4": owner})
    refused(state, move("jet", "C3", "C4"), "D4", "flyer_cannot_end")
    after, _ = act(state, move("jet", "C3", "C4", "C5"))  # flying over an SP is fine
    assert after.units["jet"].cell == c("C5")


@pytest.mark.parametrize("occupant", [("pal", "tactical", S), ("foe", "warriors", N)])
def test_D4_flyer_must_end_on_an_empty_cell(occupant: tuple[str, str, Side]) -> None:
    handle, unit, side = occupant
    state = playing([Place("jet", "razorwing", S, "C2"), Place(handle, unit, side, "C4"), FAR])
    refused(state, move("jet", "C3", "C4"), "D3", "end_not_empty")


def test_D4_flyer_still_moves_orthogonally_within_m() -> None:
    state = playing([Place("jet", "razorwing", S, "A1"), FAR])  # M 6
    refused(state, move("jet", "B2"), "D1", "not_orthogonal")
    steps = ("A2", "A3", "A4", "A5", "A6", "B6", "C6")
    refused(state, move("jet", *steps), "D1", "path_too_long")


# -- D5 ------------------------------------------------------------------------------------
def test_D5_leaving_melee_tests_morale_before_moving() -> None:
    state = playing([Place("tac", "tactical", S, "C3"), Place("foe", "warriors", N, "C4")])
    after, events = act(state, move("tac", "C2", "C1"), dice=[2, 3, 1, 6, 5])  # Morale 3
    (test,) = of_type(events, MoraleTested)
    assert test.unit == "tac" and test.reason == "leaving_melee"
    assert [d.value for d in test.dice] == [2, 3, 1, 6, 5]  # one die per model
    assert test.models_lost == 2 and test.hp_after == 3
    assert events.index(test) < events.index(of_type(events, Moved)[0])
    assert after.units["tac"].hp == 3
    assert after.units["tac"].cell == c("C1")


def test_D5_unit_destroyed_leaving_melee_does_not_move() -> None:
    state = playing(
        [
            Place("tac", "tactical", S, "C3", hp=1),
            Place("pal", "scouts", S, "A1"),
            Place("foe", "warriors", N, "D3"),
        ]
    )
    after, events = act(state, move("tac", "C2"), dice=[2])
    assert after.units["tac"].destroyed and after.units["tac"].cell is None
    assert of_type(events, Moved) == []
    assert of_type(events, UnitDestroyed) == [UnitDestroyed("tac", S, None, "morale")]


def test_D5_passed_test_loses_nothing() -> None:
    state = playing([Place("tac", "tactical", S, "C3"), Place("foe", "warriors", N, "B3")])
    after, _ = act(state, move("tac", "C2"), dice=[3, 3, 4, 5, 6])
    assert after.units["tac"].hp == 5


def test_D5_diagonal_neighbours_do_not_count() -> None:
    state = playing([Place("tac", "tactical", S, "C3"), Place("foe", "warriors", N, "D4")])
    after, events = act(state, move("tac", "C2"))  # no dice
    assert of_type(events, MoraleTested) == []
    assert after.units["tac"].cell == c("C2")


def test_D5_flyers_do_not_take_the_test() -> None:
    jet = sheet("razorwing", morale=4, damaged_weapons=None)  # it could test, but flies
    state = playing([Place("jet", jet, S, "C3"), Place("foe", "warriors", N, "C4")])
    after, events = act(state, move("jet", "C2"))
    assert of_type(events, MoraleTested) == []
    assert after.units["jet"].cell == c("C2")


def test_D5_enemy_flyers_do_not_cause_the_test() -> None:
    state = playing([Place("tac", "tactical", S, "C3"), Place("jet", "razorwing", N, "C4")])
    _, events = act(state, move("tac", "C2"))
    assert of_type(events, MoraleTested) == []


def test_D5_friendly_neighbours_do_not_cause_the_test() -> None:
    state = playing([Place("tac", "tactical", S, "C3"), Place("pal", "scouts", S, "C4"), FAR])
    _, events = act(state, move("tac", "C2"))
    assert of_type(events, MoraleTested) == []


def test_D5_embarking_counts_as_leaving_melee() -> None:
    state = playing(
        [
            Place("tac", "tactical", S, "B3"),
            Place("rhino", "rhino", S, "B2"),
            Place("foe", "warriors", N, "B4"),
        ]
    )
    after, events = act(state, move("tac", "B2"), dice=[1, 6, 6, 6, 6])
    assert of_type(events, MoraleTested)[0].reason == "leaving_melee"
    assert after.units["tac"].embarked_in == "rhino"
    assert after.units["tac"].hp == 4


def test_D5_disembarking_counts_as_leaving_melee() -> None:
    # The transport's cell is where the passenger starts: next to the enemy at C4.
    state = playing(
        [
            Place("rhino", "rhino", S, "C3"),
            Place("tac", "tactical", S, "rhino"),
            Place("foe", "warriors", N, "C4"),
        ]
    )
    after, events = act(state, move("tac", "B3"), dice=[6, 6, 6, 6, 1])
    assert of_type(events, MoraleTested)[0].reason == "leaving_melee"
    assert after.units["tac"].cell == c("B3") and after.units["tac"].hp == 4


def test_D5_illegal_move_next_to_an_enemy_rolls_no_morale_die() -> None:
    state = playing([Place("tac", "tactical", S, "C3"), Place("foe", "warriors", N, "C4")])
    refused(state, move("tac", "C2", "C1", "B1"), "D1", "path_too_long")


# -- D6 ------------------------------------------------------------------------------------
def test_D6_refusals_say_why_and_change_nothing() -> None:
    state = playing(
        [
            Place("rav", "ravager", S, "A1"),  # M 4
            Place("tac", "tactical", S, "C1"),
            Place("foe", "warriors", N, "D2"),
        ],
        terrain={"C3": WATER},
    )
    error = refused(state, move("tac", "C2", "C3"), "D2", "blocked_by_terrain")
    assert error.params == {"cell": "C3", "terrain": "water"}
    error = refused(state, move("rav", "A2", "A3", "A4", "A5", "A6"), "D1", "path_too_long")
    assert error.params == {"unit": "rav", "length": 5, "m": 4}
    error = refused(state, move("tac", "D1", "D2"), "D3", "blocked_by_enemy")
    assert error.params == {"cell": "D2", "enemy": "foe"}


def test_D6_a_refused_move_leaves_the_unit_free_to_move() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), FAR], terrain={"C3": WATER})
    refused(state, move("tac", "C3"), "D2", "blocked_by_terrain")
    after, _ = act(state, move("tac", "B2", "B3"))
    assert after.units["tac"].cell == c("B3")


# -- reachable -----------------------------------------------------------------------------
def names(cells: object) -> set[str]:
    assert isinstance(cells, dict)
    return {cell.name for cell in cells}


def crowded(mover: str, extra_terrain: dict[str, TerrainKind] | None = None) -> GameState:
    """C3 hemmed in: Water north, a friend east, an enemy west, an enemy flyer south."""
    return playing(
        [
            Place("me", mover, S, "C3"),
            Place("pal", "scouts", S, "D3"),
            Place("foe", "warriors", N, "B3"),
            Place("jet", "razorwing", N, "C2"),
        ],
        terrain={"C4": WATER, **(extra_terrain or {})},
    )


def test_D3_reachable_hand_computed() -> None:
    state = crowded("tactical")
    # Step 1 ends nowhere: D3 and C2 are taken but may be crossed; C4, B3 are closed.
    assert names(reachable(state, state.units["me"])) == {"D4", "E3", "D2", "C1", "B2"}


def test_D2_reachable_hand_computed_with_cover_and_obstacle() -> None:
    extra = {"E3": OBSTACLE, "D4": COVER}
    state = crowded("tactical", extra)
    assert names(reachable(state, state.units["me"])) == {"D4", "D2", "C1", "B2"}
    vehicle = crowded("predator", extra)
    assert names(reachable(vehicle, vehicle.units["me"])) == {"D2", "C1", "B2"}


def test_D4_reachable_hand_computed_for_a_flyer() -> None:
    jet = sheet("razorwing", maneuverability=2)
    state = playing(
        [
            Place("me", jet, S, "C3"),
            Place("pal", "scouts", S, "D3"),
            Place("foe", "warriors", N, "B3"),
        ],
        terrain={"C4": WATER, "C5": OBSTACLE, "E3": COVER},
        sps={"C1": S},
    )
    # Every cell within 2 steps but the start, taken cells, the Obstacle and the SP.
    expected = {"C2", "C4", "A3", "E3", "B2", "B4", "D2", "D4"}
    assert names(reachable(state, state.units["me"])) == expected


def test_H3_reachable_for_a_passenger_is_one_step_out() -> None:
    state = playing(
        [
            Place("rhino", "rhino", S, "A2"),
            Place("tac", "tactical", S, "rhino"),
            Place("pal", "scouts", S, "B2"),
            FAR,
        ],
        terrain={"A3": WATER},
    )
    destinations = reachable(state, state.units["tac"])
    assert names(destinations) == {"A1"}
    assert destinations[c("A1")].disembarks


def test_H2_reachable_marks_embarking() -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("rhino", "rhino", S, "C3"), FAR],
    )
    destinations = reachable(state, state.units["tac"])
    assert destinations[c("C3")].embarks_in == "rhino"
    assert destinations[c("C4")].embarks_in is None  # passing through, not embarking


def test_D1_reachable_is_empty_once_the_unit_may_not_move() -> None:
    state = playing(
        [
            Place("tac", "tactical", S, "C1"),
            Place("rhino", "rhino", S, "C2"),
            Place("sc", "scouts", S, "A1"),
            Place("foe", "warriors", N, "A3"),
        ]
    )
    assert reachable(state, state.units["sc"])
    embarked, _ = act(state, move("tac", "C2"))
    assert reachable(embarked, embarked.units["tac"]) == {}  # moved: no disembarking (H3)
    assert reachable(embarked, embarked.units["rhino"])  # the transport still may (H2)
    attacked, _ = act(embarked, Attack(S, "sc", "foe"), dice=[1, 1, 1, 1])
    assert reachable(attacked, attacked.units["rhino"]) == {}  # C2: attacks have begun


def every_path(start: Cell, length: int) -> list[tuple[Cell, ...]]:
    found: list[tuple[Cell, ...]] = []
    for n in range(1, length + 1):
        for steps in itertools.product(((0, 1), (1, 0), (0, -1), (-1, 0)), repeat=n):
            here, cells = start, []
            for dc, dr in steps:
                here = Cell(here.col + dc, here.row + dr)
                cells.append(here)
            found.append(tuple(cells))
    return found


@pytest.mark.parametrize(
    "mover", ["tactical", "predator", "assault", "razorwing", "ravager", "bikers"]
)
def test_D1_reachable_equals_the_ends_of_every_legal_path(mover: str) -> None:
    unit = sheet(mover, maneuverability=min(3, sheet(mover).maneuverability))
    state = playing(
        [
            Place("me", unit, S, "C3"),
            Place("pal", "scouts", S, "D3"),
            Place("rhino", "rhino", S, "C1"),
            Place("foe", "warriors", N, "B3"),
            Place("jet", "razorwing", N, "C2"),
        ],
        terrain={"C4": WATER, "E3": OBSTACLE, "D4": COVER, "B5": HEIGHT},
        sps={"B4": S},
    )
    me = state.units["me"]
    ends: set[Cell] = set()
    for candidate in every_path(c("C3"), me.sheet.maneuverability):
        try:
            check_move(state, me, candidate)
        except IllegalAction:
            continue
        ends.add(candidate[-1])
    destinations = reachable(state, me)
    assert set(destinations) == ends
    for cell, destination in destinations.items():
        check_move(state, me, destination.path)  # the path given is legal
        assert destination.path[-1] == cell
