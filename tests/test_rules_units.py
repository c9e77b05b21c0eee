"""rulebook F1-F3 (units, HP, models) and G1-G4 (morale)."""

from __future__ import annotations

import pytest

from tests.builders import Place, act, c, of_type, playing, refused, sheet
from vahalite_bot.codex.loader import all_sheets, demo_factions
from vahalite_bot.rules.actions import Attack, EndTurn, Move
from vahalite_bot.rules.events import (
    AdvanceOffered,
    AttackResolved,
    MoraleTested,
    UnitDestroyed,
)
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.sheets import Names, Option, SpecialRule
from vahalite_bot.rules.state import UnitState
from vahalite_bot.rules.victory import score

S, N = Side.SOUTH, Side.NORTH
HOME = Place("home", "scouts", S, "A1")  # keeps the south in the game (J3)
FAR = Place("far", "slaves", N, "F6")  # keeps the north in the game (J3)

# Tactical Squad weapons: 0 Bolters (+1, per model), 1 Missile launcher (+3, fixed), 2 knives.
BOLTERS, MISSILE = 0, 1


def shoot(unit: str, target: str, *weapons: int, side: Side = S) -> Attack:
    return Attack(side, unit, target, weapons or None)


# -- F1 ------------------------------------------------------------------------------------
def test_F1_hp_is_models_times_wounds() -> None:
    for unit_sheet in all_sheets(demo_factions()).values():
        assert unit_sheet.max_hp == unit_sheet.models * unit_sheet.wounds
    state = playing([Place("bk", "bikers", S, "C2"), Place("tac", "tactical", S, "C3"), FAR])
    assert state.units["bk"].hp == 6  # 3 models x 2 wounds
    assert state.units["tac"].hp == 5


@pytest.mark.parametrize(("hp", "models"), [(6, 3), (5, 3), (4, 2), (3, 2), (2, 1), (1, 1)])
def test_F1_current_models_round_up(hp: int, models: int) -> None:
    bikers = UnitState("bk", S, sheet("bikers"), hp=hp)  # 2 wounds each
    assert bikers.models == models


def test_F1_models_lost_take_their_dice_with_them() -> None:
    state = playing([Place("bk", "bikers", S, "C2", hp=3), Place("foe", "warriors", N, "C4")])
    _, events = act(state, shoot("bk", "foe"), dice=[1, 1, 1, 1])  # 2 models x 2 dice
    (resolved,) = of_type(events, AttackResolved)
    assert resolved.weapons[0].dice_count == 4


# -- F2 ------------------------------------------------------------------------------------
def test_F2_unit_at_zero_hp_is_destroyed_and_leaves_the_board() -> None:
    state = playing(
        [
            Place("tac", "tactical", S, "C2"),
            Place("pal", "scouts", S, "C5"),
            Place("foe", "warriors", N, "C4", hp=1),
            FAR,
        ]
    )
    after, events = act(state, shoot("tac", "foe", MISSILE), dice=[1])
    foe = after.units["foe"]
    assert foe.destroyed and foe.hp == 0 and foe.cell is None
    assert of_type(events, UnitDestroyed) == [UnitDestroyed("foe", N, "tac", "attack")]
    assert after.unit_at(c("C4")) is None
    assert "foe" not in {u.id for u in after.living()}
    refused(after, shoot("pal", "foe", side=S), "C2", "unknown_unit")


def test_F2_the_cell_of_a_destroyed_unit_is_free() -> None:
    state = playing(
        [
            Place("tac", "tactical", S, "C2"),
            Place("pal", "scouts", S, "C5"),
            Place("foe", "warriors", N, "C4", hp=1),
            FAR,
        ]
    )
    after, _ = act(state, shoot("tac", "foe", MISSILE), dice=[1])
    after, _ = act(after, EndTurn(S))
    after, _ = act(after, EndTurn(N))
    after, _ = act(after, Move(S, "pal", (c("C4"),)))
    assert after.units["pal"].cell == c("C4")


# -- F3 ------------------------------------------------------------------------------------
def test_F3_fearless_rule_overrides_the_morale_value_at_half() -> None:
    archon = sheet("archon")
    assert archon.morale == 3 and SpecialRule.FEARLESS in archon.rules
    state = playing([Place("tac", "tactical", S, "C2"), Place("ar", "archon", N, "C4")])
    # Bolters +1 vs 5 need 4: two hits; missile +3 needs 2: a miss. 4 HP -> 2: no test.
    after, events = act(state, shoot("tac", "ar"), dice=[6, 6, 1, 1, 1, 1])
    assert after.units["ar"].hp == 2
    assert of_type(events, MoraleTested) == []


def test_F3_fearless_units_never_test_leaving_melee() -> None:
    state = playing([Place("ar", "archon", N, "C4"), Place("tac", "tactical", S, "C3")], active=N)
    after, events = act(state, Move(N, "ar", (c("C5"),)))  # no die
    assert of_type(events, MoraleTested) == []
    assert after.units["ar"].cell == c("C5")


def test_F3_an_option_may_grant_fearless_and_changes_nothing_else() -> None:
    stubborn = Option(
        "stubborn", Names("Упорство", "Stubborn"), 5, add_rules=(SpecialRule.FEARLESS,)
    )
    base = sheet("tactical", options=(stubborn,))
    fielded = base.with_options(("stubborn",))
    assert fielded.is_fearless and not base.is_fearless
    assert (fielded.morale, fielded.models, fielded.weapons) == (3, 5, base.weapons)
    state = playing([Place("tac", "tactical", S, "C2"), Place("foe", fielded, N, "C4")])
    after, events = act(state, shoot("tac", "foe", BOLTERS), dice=[6, 6, 6, 1, 1])
    assert after.units["foe"].hp == 2
    assert of_type(events, MoraleTested) == []


# -- G1 ------------------------------------------------------------------------------------
def test_G1_test_once_at_half_hp_and_never_again() -> None:
    state = playing(
        [
            Place("t1", "tactical", S, "C2"),
            Place("t2", "tactical", S, "D3"),
            Place("foe", "warriors", N, "C4"),
        ]
    )
    # Bolters +1 vs 4 need 3: three hits; then three Morale dice at 4+, none failing.
    after, events = act(state, shoot("t1", "foe", BOLTERS), dice=[3, 3, 3, 2, 2, 4, 5, 6])
    (test,) = of_type(events, MoraleTested)
    assert (test.unit, test.reason, test.threshold, test.models_lost) == ("foe", "half", 4, 0)
    assert after.units["foe"].hp == 3 and after.units["foe"].morale_tested
    after, events = act(after, shoot("t2", "foe", BOLTERS), dice=[3, 2, 2, 2, 2])  # no test
    assert of_type(events, MoraleTested) == []
    assert after.units["foe"].hp == 2


def test_G1_no_test_above_half() -> None:
    state = playing([Place("t1", "tactical", S, "C2"), Place("foe", "tactical", N, "C4")])
    # 5 HP: losing 2 leaves 3, more than half.
    after, events = act(state, shoot("t1", "foe", BOLTERS), dice=[4, 4, 3, 3, 3])
    assert after.units["foe"].hp == 3
    assert of_type(events, MoraleTested) == [] and not after.units["foe"].morale_tested


def test_G1_test_when_an_odd_hp_falls_below_half() -> None:
    state = playing([Place("t1", "tactical", S, "C2"), Place("foe", "tactical", N, "C4")])
    # 5 HP: losing 3 leaves 2, below half; two models roll at Morale 3 and both stand.
    after, events = act(state, shoot("t1", "foe", BOLTERS), dice=[4, 4, 4, 3, 3, 3, 3])
    assert after.units["foe"].hp == 2
    (test,) = of_type(events, MoraleTested)
    assert (len(test.dice), test.models_lost) == (2, 0)


def test_G1_models_lost_to_a_morale_test_cause_no_other_test() -> None:
    # Leaving melee costs 3 of 5 models: the squad is at half through a morale test.
    state = playing(
        [
            Place("tac", "tactical", S, "C3"),
            Place("foe", "warriors", N, "C4"),
            Place("far", "scouts", N, "C6"),
        ]
    )
    after, events = act(state, Move(S, "tac", (c("C2"),)), dice=[1, 1, 1, 6, 6])
    assert after.units["tac"].hp == 2
    assert [e.reason for e in of_type(events, MoraleTested)] == ["leaving_melee"]
    after, _ = act(after, EndTurn(S))
    # Next turn an attack takes one more HP: its G1 chance was spent by the morale test.
    after, events = act(after, shoot("far", "tac", 0, side=N), dice=[3, 1, 1, 1])  # 3+
    assert after.units["tac"].hp == 1
    assert of_type(events, MoraleTested) == []


# -- G2 ------------------------------------------------------------------------------------
def test_G2_one_die_per_model_each_below_morale_removes_a_model() -> None:
    state = playing([Place("t1", "tactical", S, "C2"), Place("foe", "warriors", N, "C4"), FAR])
    # Three hits leave 3 HP = 3 models: three dice, 3 and 1 fail (Morale 4), 4 stands.
    after, events = act(state, shoot("t1", "foe", BOLTERS), dice=[3, 3, 3, 2, 2, 3, 4, 1])
    (test,) = of_type(events, MoraleTested)
    assert [d.value for d in test.dice] == [3, 4, 1]
    assert (test.models_lost, test.hp_after) == (2, 1)
    assert after.units["foe"].hp == 1


def test_G2_the_most_damaged_model_goes_first() -> None:
    state = playing([Place("t1", "tactical", S, "C2"), Place("bk", "bikers", N, "C4"), FAR])
    # Bikers: 3 models x 2 wounds. Three hits (+1 vs 5: 4+) leave 3 HP: a whole model and
    # a wounded one, so 2 dice; one failure removes the wounded model: 3 -> 2, not 3 -> 1.
    after, events = act(state, shoot("t1", "bk", BOLTERS), dice=[4, 5, 6, 1, 1, 2, 3])
    (test,) = of_type(events, MoraleTested)
    assert len(test.dice) == 2 and test.threshold == 3
    assert (test.models_lost, test.hp_after) == (1, 2)
    assert after.units["bk"].hp == 2 and after.units["bk"].models == 1


def test_G2_every_model_failing_destroys_the_unit() -> None:
    state = playing([Place("t1", "tactical", S, "C2"), Place("bk", "bikers", N, "C4"), FAR])
    after, events = act(state, shoot("t1", "bk", BOLTERS), dice=[4, 5, 6, 1, 1, 2, 1])
    assert after.units["bk"].destroyed
    assert of_type(events, UnitDestroyed) == [UnitDestroyed("bk", N, "t1", "morale")]


# -- G3 ------------------------------------------------------------------------------------
def test_G3_damaged_profile_units_never_test() -> None:
    brute = sheet("grotesque", morale=4)  # a Morale value, but a damaged profile
    state = playing([Place("t1", "tactical", S, "C2"), Place("gr", brute, N, "C4")])
    # Defense 6: bolters (+1) need 5, three hit; the missile launcher (+3) needs 3, hits.
    after, events = act(state, shoot("t1", "gr"), dice=[6, 6, 6, 1, 1, 6])
    assert after.units["gr"].hp == 2
    assert of_type(events, MoraleTested) == [] and not after.units["gr"].morale_tested


def test_G3_flyers_never_test() -> None:
    jet = sheet("razorwing", morale=4, damaged_weapons=None)
    state = playing([Place("t1", "tactical", S, "C2"), Place("jet", jet, N, "C3")])
    after, events = act(state, shoot("t1", "jet", BOLTERS), dice=[5, 5, 5, 1, 1])
    assert after.units["jet"].hp == 1
    assert of_type(events, MoraleTested) == [] and not after.units["jet"].morale_tested


def test_G3_damaged_profile_units_never_test_leaving_melee() -> None:
    brute = sheet("grotesque", morale=4)
    state = playing([Place("gr", brute, N, "C4"), Place("t1", "tactical", S, "C3")], active=N)
    after, events = act(state, Move(N, "gr", (c("C5"),)))
    assert of_type(events, MoraleTested) == []
    assert after.units["gr"].cell == c("C5")


# -- G4 ------------------------------------------------------------------------------------
def test_G4_destroyed_by_morale_counts_for_the_attacking_unit() -> None:
    state = playing(
        [Place("ar", "archon", N, "C3"), Place("cap", "captain", S, "C2"), HOME], active=N
    )
    # Huskblade +3 vs 5: 2+ twice of three; the captain (1 model, 4 wounds) is at half and
    # fails its single die (2 < Morale 3).
    after, events = act(state, Attack(N, "ar", "cap"), dice=[2, 2, 1, 2])
    assert of_type(events, UnitDestroyed) == [UnitDestroyed("cap", S, "ar", "morale")]
    assert after.units["cap"].destroyed_by == "ar"
    north = score(after, N)
    assert (north.kills, north.hq_kills, north.vp) == (1, 1, 3)  # an HQ killed by an HQ


def test_G4_destroyed_leaving_melee_counts_for_the_opponent() -> None:
    state = playing([Place("cap", "captain", S, "C2", hp=1), Place("ar", "archon", N, "C3"), HOME])
    after, events = act(state, Move(S, "cap", (c("B2"),)), dice=[2])
    assert of_type(events, UnitDestroyed) == [UnitDestroyed("cap", S, None, "morale")]
    assert after.units["cap"].destroyed_by is None
    north = score(after, N)
    assert (north.kills, north.hq_kills, north.vp) == (1, 0, 1)  # no unit, no HQ bonus


def test_E10_G4_a_melee_attack_that_breaks_its_target_may_advance() -> None:
    state = playing(
        [Place("ar", "archon", N, "C3"), Place("cap", "captain", S, "C2"), HOME], active=N
    )
    after, events = act(state, Attack(N, "ar", "cap"), dice=[2, 2, 1, 2])
    assert of_type(events, AdvanceOffered) == [AdvanceOffered("ar", c("C2"))]
    assert after.units["cap"].destroyed
