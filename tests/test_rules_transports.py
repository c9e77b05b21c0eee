"""rulebook H1-H5: transports, embarking, disembarking, and a transport's wreck."""

from __future__ import annotations

import pytest

from tests.builders import Place, act, c, of_type, playing, refused, sheet
from vahalite_bot.rules.actions import Advance, Attack, EndTurn, Move, PlacePassenger
from vahalite_bot.rules.combat import attack_options
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.events import (
    Advanced,
    AdvanceOffered,
    AttackResolved,
    MoraleTested,
    Moved,
    PassengerPlaced,
    PassengersHit,
    PlacementRequired,
    SPCaptured,
    UnitDestroyed,
)
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.sheets import UnitType
from vahalite_bot.rules.state import GameState, PendingAdvance, PendingPlacement, Phase
from vahalite_bot.rules.victory import score

S, N = Side.SOUTH, Side.NORTH
FAR = Place("far", "slaves", N, "F6")  # keeps the north in the game (J3)
HOME = Place("home", "scouts", S, "F1")  # keeps the south in the game (J3)


def path(*names: str) -> tuple[Cell, ...]:
    return tuple(c(n) for n in names)


def move(unit: str, *names: str, side: Side = S) -> Move:
    return Move(side, unit, path(*names))


def next_turn_of(state: GameState, side: Side) -> GameState:
    """End turns until ``side`` is on turn again (per-turn flags reset)."""
    current = state.active
    assert current is not None
    state, _ = act(state, EndTurn(current))
    if state.active is not side:
        state, _ = act(state, EndTurn(side.other))
    return state


# -- H1 ------------------------------------------------------------------------------------
def test_H1_a_unit_within_capacity_embarks() -> None:
    state = playing([Place("tac", "tactical", S, "C1"), Place("rhino", "rhino", S, "C2"), FAR])
    after, events = act(state, move("tac", "C2"))
    assert of_type(events, Moved) == [Moved("tac", c("C1"), path("C2"), embarked_in="rhino")]
    assert after.units["tac"].embarked_in == "rhino" and after.units["tac"].cell is None
    assert after.unit_at(c("C2")) is after.units["rhino"]


def test_H1_too_many_models_refused() -> None:
    state = playing([Place("kw", "warriors", S, "C1"), Place("rhino", "rhino", S, "C2"), FAR])
    error = refused(state, move("kw", "C2"), "H1", "cannot_embark")  # 6 models, capacity 5
    assert error.params == {"unit": "kw", "transport": "rhino"}


def test_H1_capacity_counts_current_models() -> None:
    state = playing([Place("kw", "warriors", S, "C1", hp=5), Place("rhino", "rhino", S, "C2"), FAR])
    after, _ = act(state, move("kw", "C2"))
    assert after.units["kw"].embarked_in == "rhino"


@pytest.mark.parametrize("unit", ["bikers", "assault", "dreadnought", "grotesque"])
def test_H1_only_the_types_the_sheet_allows(unit: str) -> None:
    state = playing([Place("u", unit, S, "C1"), Place("rhino", "rhino", S, "C2"), FAR])
    refused(state, move("u", "C2"), "H1", "cannot_embark")


def test_H1_a_sheet_may_allow_other_types() -> None:
    jump_rhino = sheet("rhino", carries=frozenset({UnitType.INFANTRY, UnitType.JUMP}))
    state = playing([Place("ass", "assault", S, "C1"), Place("rhino", jump_rhino, S, "C2"), FAR])
    after, _ = act(state, move("ass", "C2"))
    assert after.units["ass"].embarked_in == "rhino"


@pytest.mark.parametrize(("unit", "transport"), [("captain", "rhino"), ("scouts", "raider")])
def test_H1_any_friendly_unit_that_fits_may_ride(unit: str, transport: str) -> None:
    state = playing([Place("u", unit, S, "C1"), Place("t", transport, S, "C2"), FAR])
    after, _ = act(state, move("u", "C2"))
    assert after.units["u"].embarked_in == "t"


def test_H1_one_unit_at_a_time() -> None:
    state = playing(
        [
            Place("rhino", "rhino", S, "C2"),
            Place("cap", "captain", S, "rhino"),
            Place("tac", "tactical", S, "C1"),
            FAR,
        ]
    )
    refused(state, move("tac", "C2"), "H1", "cannot_embark")


def test_H1_no_transport_rides_a_transport() -> None:
    carrier = sheet("rhino", carries=frozenset({UnitType.VEHICLE, UnitType.INFANTRY}))
    state = playing([Place("r1", "rhino", S, "C1"), Place("r2", carrier, S, "C2"), FAR])
    refused(state, move("r1", "C2"), "H1", "cannot_embark")


def test_H1_enemy_transports_are_enemy_units() -> None:
    state = playing([Place("tac", "tactical", S, "C1"), Place("rhino", "rhino", N, "C2")])
    refused(state, move("tac", "C2"), "D3", "blocked_by_enemy")


# -- H2 ------------------------------------------------------------------------------------
def test_H2_embarking_ends_the_move() -> None:
    state = playing([Place("tac", "tactical", S, "C1"), Place("rhino", "rhino", S, "C2"), FAR])
    after, _ = act(state, move("tac", "C2"))
    assert after.units["tac"].moved and after.units["tac"].embarked
    refused(after, move("tac", "C3"), "H3", "disembark_after_embark")


def test_H2_passing_through_a_transport_is_not_embarking() -> None:
    state = playing([Place("tac", "tactical", S, "C1"), Place("rhino", "rhino", S, "C2"), FAR])
    after, _ = act(state, move("tac", "C2", "C3"))
    assert after.units["tac"].cell == c("C3") and after.passenger_of("rhino") is None


def test_H2_the_transport_may_then_move_with_its_passenger() -> None:
    state = playing([Place("tac", "tactical", S, "C1"), Place("rhino", "rhino", S, "C2"), FAR])
    after, _ = act(state, move("tac", "C2"))
    after, events = act(after, move("rhino", "C3", "C4", "C5"))
    assert of_type(events, Moved) == [
        Moved("rhino", c("C2"), path("C3", "C4", "C5"), passenger="tac")
    ]
    assert after.position(after.units["tac"]) == c("C5")


def test_H2_a_transport_that_moved_stays_put_after_embarking() -> None:
    state = playing([Place("tac", "tactical", S, "C1"), Place("rhino", "rhino", S, "B3"), FAR])
    after, _ = act(state, move("rhino", "B2"))
    after, _ = act(after, move("tac", "B1", "B2"))
    assert after.units["tac"].embarked_in == "rhino"
    refused(after, move("rhino", "B3"), "C2", "already_moved")


def test_H2_embarking_path_obeys_the_movement_rules() -> None:
    state = playing(
        [Place("tac", "tactical", S, "A1"), Place("rhino", "rhino", S, "D1"), FAR],
    )
    refused(state, move("tac", "B1", "C1", "D1"), "D1", "path_too_long")


# -- H3 ------------------------------------------------------------------------------------
def carried(transport_at: str = "C2", **terrain: TerrainKind) -> GameState:
    return playing(
        [
            Place("rhino", "rhino", S, transport_at),
            Place("tac", "tactical", S, "rhino"),
            Place("pal", "scouts", S, "D2"),
            Place("foe", "warriors", N, "F5"),
        ],
        terrain=terrain,
    )


def test_H3_disembarking_is_one_step_to_a_free_neighbour() -> None:
    after, events = act(carried(), move("tac", "B2"))
    assert of_type(events, Moved) == [Moved("tac", c("C2"), path("B2"), disembarked_from="rhino")]
    tac = after.units["tac"]
    assert tac.cell == c("B2") and tac.embarked_in is None and tac.disembarked
    assert after.passenger_of("rhino") is None


def test_H3_disembarking_further_refused() -> None:
    state = carried()
    refused(state, move("tac", "B2", "A2"), "H3", "disembark_one_step")
    error = refused(state, move("tac", "C4"), "H3", "disembark_adjacent")
    assert error.params == {"unit": "tac", "cell": "C4"}
    refused(state, move("tac", "B3"), "H3", "disembark_adjacent")  # diagonal


def test_H3_disembarking_needs_a_cell_it_may_enter() -> None:
    state = carried("A2", A3=TerrainKind.WATER)
    refused(state, move("tac", "A3"), "D2", "blocked_by_terrain")
    refused(state, Move(S, "tac", (Cell(-1, 1),)), "D1", "off_board")
    occupied = carried()
    error = refused(occupied, move("tac", "D2"), "D3", "end_not_empty")
    assert error.params == {"cell": "D2", "occupant": "pal"}


def test_H3_disembarking_after_the_transport_moved() -> None:
    state = carried()
    after, _ = act(state, move("rhino", "C3", "C4"))
    after, events = act(after, move("tac", "B4"))
    assert after.units["tac"].cell == c("B4")
    assert of_type(events, Moved)[0].start == c("C4")


def test_H3_a_unit_that_disembarked_cannot_attack() -> None:
    state = carried()
    after, _ = act(state, move("tac", "C3"))
    error = refused(after, Attack(S, "tac", "foe"), "H3", "disembarked_cannot_attack")
    assert error.params == {"unit": "tac"}


def test_H3_no_embarking_and_disembarking_in_one_turn() -> None:
    embarked, _ = act(
        playing([Place("tac", "tactical", S, "C1"), Place("rhino", "rhino", S, "C2"), FAR]),
        move("tac", "C2"),
    )
    refused(embarked, move("tac", "B2"), "H3", "disembark_after_embark")
    later = next_turn_of(embarked, S)
    after, _ = act(later, move("tac", "B2"))
    assert after.units["tac"].cell == c("B2")


def test_H3_no_disembarking_and_embarking_again_in_one_turn() -> None:
    state = playing(
        [
            Place("r1", "rhino", S, "C2"),
            Place("tac", "tactical", S, "r1"),
            Place("r2", "rhino", S, "A2"),
            FAR,
        ]
    )
    after, _ = act(state, move("tac", "B2"))
    refused(after, move("tac", "A2"), "H3", "embark_after_disembark")
    refused(after, move("tac", "B3"), "C2", "already_moved")


# -- H4 ------------------------------------------------------------------------------------
def test_H4_embarked_units_cannot_be_attacked() -> None:
    state = playing(
        [
            Place("tac", "tactical", S, "C2"),
            Place("rhino", "rhino", N, "C4"),
            Place("kw", "warriors", N, "rhino"),
        ]
    )
    error = refused(state, Attack(S, "tac", "kw"), "H4", "target_embarked")
    assert error.params == {"target": "kw"}
    targets = {o.target for o in attack_options(state, state.units["tac"])}
    assert targets == {"rhino"}


def test_H4_only_the_transport_takes_an_sp() -> None:
    state = playing(
        [
            Place("rhino", "rhino", S, "C3"),
            Place("tac", "tactical", S, "rhino"),
            FAR,
        ],
        sps={"C4": N},
    )
    after, _ = act(state, move("rhino", "C4"))
    after, events = act(after, EndTurn(S))
    assert of_type(events, SPCaptured) == [SPCaptured(c("C4"), S, "rhino")]
    assert after.unit_at(c("C4")) is after.units["rhino"]


# -- H5 ------------------------------------------------------------------------------------
def wreck(
    passenger: str = "tactical",
    passenger_hp: int | None = None,
    transport_at: str = "C3",
    attacker_at: str = "E3",
    neighbours: list[Place] | None = None,
    **terrain: TerrainKind,
) -> GameState:
    """A north Ravager (Dark lances +4, 3 dice) about to shoot a south Rhino down to 0."""
    units = [
        Place("rhino", "rhino", S, transport_at, hp=2),
        Place("p", passenger, S, "rhino", hp=passenger_hp),
        Place("rav", "ravager", N, attacker_at),
        HOME,
        *(neighbours or []),
    ]
    return playing(units, terrain=terrain, active=N)


SHOOT = Attack(N, "rav", "rhino")
KILL = [2, 2, 1]  # +4 vs Defense 6: 2+, two hits finish the Rhino


def test_H5_passengers_take_a_die_per_hp_then_their_owner_places_them() -> None:
    state = wreck(transport_at="D4", D3=TerrainKind.WATER)
    # Tactical Squad, 5 HP, Defense 5: +1 needs 4: two hits.
    after, events = act(state, SHOOT, dice=[*KILL, 4, 3, 1, 1, 6])
    assert [type(e) for e in events] == [
        AttackResolved,
        UnitDestroyed,
        PassengersHit,
        PlacementRequired,
    ]
    assert of_type(events, UnitDestroyed) == [UnitDestroyed("rhino", S, "rav", "attack")]
    (hit,) = of_type(events, PassengersHit)
    assert (hit.unit, hit.transport, hit.strength, hit.defense, hit.needed) == (
        "p",
        "rhino",
        1,
        5,
        4,
    )
    assert [d.value for d in hit.dice] == [4, 3, 1, 1, 6]
    assert (hit.damage, hit.hp_after) == (2, 3)
    cells = path("D5", "E4", "C4")  # not D3 (Water), not the wreck's own cell
    assert of_type(events, PlacementRequired) == [PlacementRequired("p", S, cells)]
    assert after.pending == (PendingPlacement(S, "p", cells),)
    assert acting_side(after) is S
    assert after.units["p"].cell is None and after.units["p"].embarked_in is None

    placed, events = act(after, PlacePassenger(S, "p", c("C4")))
    assert of_type(events, PassengerPlaced) == [PassengerPlaced("p", c("C4"))]
    assert placed.units["p"].cell == c("C4") and placed.pending == ()
    assert acting_side(placed) is N


def test_H5_placement_must_be_one_of_the_offered_cells() -> None:
    after, _ = act(wreck(), SHOOT, dice=[*KILL, 1, 1, 1, 1, 1])
    error = refused(after, PlacePassenger(S, "p", c("C5")), "H5", "placement_not_allowed")
    assert error.params["cell"] == "C5"
    refused(after, EndTurn(N), "H5", "decision_pending")
    refused(after, PlacePassenger(N, "p", c("C4")), "H5", "decision_pending")


def test_H5_no_cover_for_passengers() -> None:
    # A Raider (a skimmer) may stand in Cover; its passengers roll with no re-roll there.
    state = playing(
        [
            Place("raider", "raider", S, "C3", hp=1),
            Place("kw", "warriors", S, "raider"),
            Place("rav", "ravager", N, "C5"),
            HOME,
        ],
        terrain={"C3": TerrainKind.COVER},
        active=N,
    )
    # Warriors, Defense 4: +1 needs 3; six dice, two hits, no re-rolls.
    after, events = act(state, Attack(N, "rav", "raider"), dice=[2, 1, 1, 3, 6, 2, 2, 2, 2])
    (hit,) = of_type(events, PassengersHit)
    assert (hit.needed, hit.damage) == (3, 2)
    assert after.units["kw"].hp == 4


def test_H5_one_free_cell_places_the_passenger_at_once() -> None:
    state = wreck("tactical", None, "A1", "C1", [Place("pal", "scouts", S, "B1")])
    after, events = act(state, SHOOT, dice=[*KILL, 1, 1, 1, 1, 1])
    assert of_type(events, PassengerPlaced) == [PassengerPlaced("p", c("A2"))]
    assert of_type(events, PlacementRequired) == [] and after.pending == ()
    assert after.units["p"].cell == c("A2")


def test_H5_no_free_cell_destroys_the_passenger() -> None:
    pal = Place("pal", "scouts", S, "B1")
    state = wreck("tactical", None, "A1", "C1", [pal], A2=TerrainKind.WATER)
    after, events = act(state, SHOOT, dice=[*KILL, 1, 1, 1, 1, 1])
    assert of_type(events, UnitDestroyed) == [
        UnitDestroyed("rhino", S, "rav", "attack"),
        UnitDestroyed("p", S, "rav", "no_room"),
    ]
    assert after.units["p"].destroyed_by == "rav"
    assert score(after, N).kills == 2


def test_H5_passengers_killed_by_the_wreck_count_for_the_attacker() -> None:
    state = wreck(passenger_hp=2)
    after, events = act(state, SHOOT, dice=[*KILL, 4, 5])
    assert of_type(events, UnitDestroyed)[-1] == UnitDestroyed("p", S, "rav", "transport")
    assert of_type(events, PlacementRequired) == []
    assert after.units["p"].destroyed_by == "rav"
    assert score(after, N).kills == 2


def test_H5_G1_the_wreck_may_bring_the_morale_test() -> None:
    state = wreck()
    # Three hits leave 2 of 5 HP: two Morale dice (3+), one fails; then the placement.
    after, events = act(state, SHOOT, dice=[*KILL, 4, 4, 4, 1, 1, 2, 3])
    assert [type(e) for e in events][2:] == [PassengersHit, MoraleTested, PlacementRequired]
    (test,) = of_type(events, MoraleTested)
    assert (test.unit, test.reason, test.models_lost, test.hp_after) == ("p", "half", 1, 1)
    assert after.units["p"].morale_tested


def test_H5_passengers_count_as_left_for_the_game() -> None:
    state = playing(
        [
            Place("rhino", "rhino", S, "C3", hp=2),
            Place("p", "tactical", S, "rhino"),
            Place("rav", "ravager", N, "E3"),
        ],
        active=N,
    )
    after, _ = act(state, SHOOT, dice=[*KILL, 1, 1, 1, 1, 1])
    assert after.phase is Phase.PLAYING


def test_H5_the_passenger_is_placed_before_the_E10_advance() -> None:
    state = playing(
        [
            Place("dread", "dreadnought", S, "C2"),
            Place("raider", "raider", N, "C3", hp=2),
            Place("kw", "warriors", N, "raider"),
            FAR,
        ]
    )
    # Power fist +4 vs 6: 2+, two hits; six Warriors dice at 3+ all miss.
    after, events = act(state, Attack(S, "dread", "raider"), dice=[2, 2, 1, 1, 1, 1, 1, 1])
    cells = path("C4", "D3", "B3")
    assert after.pending == (
        PendingPlacement(N, "kw", cells),
        PendingAdvance(S, "dread", c("C3")),
    )
    assert of_type(events, AdvanceOffered) == [AdvanceOffered("dread", c("C3"))]
    assert acting_side(after) is N
    refused(after, Advance(S, "dread", True), "H5", "decision_pending")

    placed, _ = act(after, PlacePassenger(N, "kw", c("D3")))
    assert acting_side(placed) is S
    advanced, events = act(placed, Advance(S, "dread", True))
    assert of_type(events, Advanced) == [Advanced("dread", c("C2"), c("C3"))]
    assert advanced.units["dread"].cell == c("C3") and advanced.units["kw"].cell == c("D3")
