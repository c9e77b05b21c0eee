"""rulebook E1-E14: attacks, with fixed dice, and the exact odds of `damage_distribution`."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.builders import SHEETS, Place, act, c, of_type, playing, refused, sheet
from vahalite_bot.rules.actions import Advance, Attack, EndTurn, Move
from vahalite_bot.rules.combat import damage_distribution, expected_damage
from vahalite_bot.rules.dice import Die
from vahalite_bot.rules.events import (
    Advanced,
    AdvanceOffered,
    AttackResolved,
    Event,
    MoraleTested,
    Moved,
    UnitDestroyed,
    WeaponRolled,
)
from vahalite_bot.rules.scenario import Side, Terrain, TerrainKind
from vahalite_bot.rules.sheets import Names, Weapon, WeaponKind
from vahalite_bot.rules.state import GameState, PendingAdvance

S, N = Side.SOUTH, Side.NORTH
OBSTACLE, WATER, HEIGHT = TerrainKind.OBSTACLE, TerrainKind.WATER, TerrainKind.HEIGHT
COVER, FORT = TerrainKind.COVER, TerrainKind.FORTIFICATION
FAR = Place("far", "slaves", N, "F6")  # keeps the game going when a target dies (J3)
BIG = sheet("warriors", models=10)  # Defense 4, 10 HP: a few hits bring no G1 test

# Tactical Squad weapons: 0 Bolters (+1, per model), 1 Missile launcher (+3, fixed), 2 knives.
BOLTERS, MISSILE, KNIVES = 0, 1, 2


def names(english: str) -> Names:
    """The weapon's names as a refusal carries them (the catalogue picks the language)."""
    return next(
        w.name
        for s in SHEETS.values()
        for w in (*s.weapons, *(s.damaged_weapons or ()))
        if w.name.en == english
    )


def attack(
    unit: str,
    target: str,
    weapons: tuple[int, ...] | None = None,
    melee: bool | None = None,
    side: Side = S,
) -> Attack:
    return Attack(side, unit, target, weapons, melee)


def rolled(events: list[Event]) -> list[WeaponRolled]:
    (resolved,) = of_type(events, AttackResolved)
    assert isinstance(resolved, AttackResolved)
    return list(resolved.weapons)


def values(dice: tuple[Die, ...]) -> list[int]:
    return [d.value for d in dice]


def weapon(kind: WeaponKind, strength: int = 2, dice: int = 1, **more: int) -> Weapon:
    return Weapon(Names("x", kind.value), kind, strength, dice, per_model=False, **more)


# -- E1 ------------------------------------------------------------------------------------
def test_E1_diagonal_neighbour_is_at_range_two() -> None:
    state = playing([Place("tac", "tactical", S, "C3"), Place("foe", "warriors", N, "D4")])
    after, events = act(state, attack("tac", "foe", (BOLTERS,)), dice=[1] * 5)
    assert rolled(events)[0].dice_count == 5
    assert after.units["tac"].attacked


def test_E1_knight_step_is_at_range_three() -> None:
    state = playing([Place("tac", "tactical", S, "C3"), Place("foe", "warriors", N, "D5")])
    error = refused(state, attack("tac", "foe", (BOLTERS,)), "E2", "out_of_range")
    assert error.params == {"weapon": names("Bolters"), "distance": 3, "range": 2}


# -- E2 ------------------------------------------------------------------------------------
def test_E2_shooting_reaches_two() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4")])
    after, _ = act(state, attack("tac", "foe", (BOLTERS,)), dice=[3, 3, 2, 2, 2])
    assert after.units["foe"].hp == 4


def test_E2_shooting_out_of_range_refused() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C5")])
    refused(state, attack("tac", "foe", (BOLTERS,)), "E2", "out_of_range")
    refused(state, attack("tac", "foe", melee=False), "E2", "out_of_range")
    refused(state, attack("tac", "foe"), "E2", "out_of_range")  # not "melee reaches 1"


def test_E5_default_attack_explains_with_the_kind_that_fits_the_distance() -> None:
    far = playing([Place("ass", "assault", S, "C2"), Place("foe", "warriors", N, "C4")])
    refused(far, attack("ass", "foe"), "E10", "melee_out_of_reach")  # it has melee only
    near = playing(
        [
            Place("raider", "raider", S, "C2"),
            Place("kw", "warriors", S, "raider"),
            Place("foe", "tactical", N, "C3"),
            Place("far", "tactical", N, "C5"),
        ]
    )
    refused(near, attack("kw", "foe"), "E13", "embarked_shooting_only")
    refused(near, attack("kw", "far"), "E2", "out_of_range")


def test_E2_shooting_at_range_one_refused() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C3")])
    error = refused(state, attack("tac", "foe", melee=False), "E2", "too_close")
    assert error.params == {"weapon": names("Bolters"), "distance": 1, "minimum": 2}


def test_E2_shooting_after_moving_is_allowed() -> None:
    state = playing([Place("tac", "tactical", S, "C1"), Place("foe", "warriors", N, "C4")])
    moved, _ = act(state, Move(S, "tac", (c("C2"),)))
    after, _ = act(moved, attack("tac", "foe", (MISSILE,)), dice=[2])
    assert after.units["foe"].hp == 5


@pytest.mark.parametrize(("at", "reaches"), [("C3", True), ("C5", True), ("C6", False)])
def test_E2_artillery_reaches_two_to_four_without_sight(at: str, reaches: bool) -> None:
    state = playing(
        [Place("ww", "whirlwind", S, "C1"), Place("foe", "warriors", N, at), FAR],
        terrain={"C2": OBSTACLE, "C4": HEIGHT},  # both in the way
    )
    if reaches:
        after, events = act(state, attack("ww", "foe"), dice=[3, 2, 1])  # +2 vs 4: 2+
        assert after.units["foe"].hp == 4
        assert rolled(events)[0].kind is WeaponKind.ARTILLERY
    else:
        error = refused(state, attack("ww", "foe"), "E2", "out_of_range")
        assert error.params["distance"] == 5 and error.params["range"] == 4


def test_E2_artillery_at_range_one_refused() -> None:
    state = playing([Place("ww", "whirlwind", S, "C1"), Place("foe", "warriors", N, "C2")])
    refused(state, attack("ww", "foe"), "E2", "too_close")


def test_E2_artillery_cannot_fire_after_moving() -> None:
    state = playing([Place("ww", "whirlwind", S, "C1"), Place("foe", "warriors", N, "C5")])
    moved, _ = act(state, Move(S, "ww", (c("C2"),)))
    error = refused(moved, attack("ww", "foe"), "E2", "artillery_after_move")
    assert error.params == {"weapon": names("Vengeance launcher")}


def test_E2_no_minimum_range_against_a_flyer() -> None:
    state = playing(
        [
            Place("tac", "tactical", S, "C2"),
            Place("ww", "whirlwind", S, "D3"),
            Place("jet", "razorwing", N, "C3"),
            FAR,
        ]
    )
    # Bolters +1 vs Defense 6 need 5, the missile launcher +3 needs 3.
    after, events = act(state, attack("tac", "jet", melee=False), dice=[6, 1, 1, 1, 1, 1])
    assert [w.weapon.en for w in rolled(events)] == ["Bolters", "Missile launcher"]
    assert after.units["jet"].hp == 3
    after, _ = act(after, attack("ww", "jet"), dice=[4, 4, 3])  # artillery +2 vs 6: 4+
    assert after.units["jet"].hp == 1


def test_E2_no_minimum_range_for_a_flyer_shooting() -> None:
    state = playing([Place("jet", "razorwing", S, "C3"), Place("foe", BIG, N, "C4")])
    after, events = act(state, attack("jet", "foe"), dice=[1, 1, 6])  # +3 vs 4: 1+
    assert rolled(events)[0].successes == 3
    assert after.units["foe"].hp == 7


def test_E2_a_sheet_may_give_another_range() -> None:
    state = playing([Place("sc", "scouts", S, "C1"), Place("foe", "warriors", N, "C5"), FAR])
    after, _ = act(state, attack("sc", "foe"), dice=[2, 1, 1, 1])  # +2 vs 4: 2+
    assert after.units["foe"].hp == 5
    far = playing([Place("sc", "scouts", S, "C1"), Place("foe", "warriors", N, "C6")])
    refused(far, attack("sc", "foe", (0,)), "E2", "out_of_range")


def test_E2_a_sheet_may_give_another_minimum_range() -> None:
    gun = sheet("captain", weapons=(weapon(WeaponKind.SHOOTING, range=4, min_range=3),))
    state = playing([Place("gun", gun, S, "C1"), Place("foe", "warriors", N, "C3")])
    error = refused(state, attack("gun", "foe"), "E2", "too_close")
    assert error.params["minimum"] == 3


def test_E2_melee_reaches_only_orthogonal_neighbours() -> None:
    state = playing([Place("cap", "captain", S, "C3"), Place("foe", "warriors", N, "D4")])
    error = refused(state, attack("cap", "foe", (0,)), "E10", "melee_out_of_reach")
    assert error.params == {"target": "foe", "distance": 2}


# -- E3 ------------------------------------------------------------------------------------
def test_E3_height_adds_one_to_shooting_range() -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C5")],
        terrain={"C2": HEIGHT},
    )
    after, _ = act(state, attack("tac", "foe", (MISSILE,)), dice=[1])
    assert after.units["foe"].hp == 5


def test_E3_height_bonus_is_one_only() -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C6")],
        terrain={"C2": HEIGHT},
    )
    error = refused(state, attack("tac", "foe", (MISSILE,)), "E2", "out_of_range")
    assert error.params == {"weapon": names("Missile launcher"), "distance": 4, "range": 3}


def test_E3_height_does_not_lift_the_minimum_range() -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C3")],
        terrain={"C2": HEIGHT},
    )
    refused(state, attack("tac", "foe", (MISSILE,)), "E2", "too_close")


def test_E3_artillery_on_a_height_reaches_five() -> None:
    state = playing(
        [Place("ww", "whirlwind", S, "A1"), Place("foe", "warriors", N, "A6"), FAR],
        terrain={"A1": HEIGHT},
    )
    after, _ = act(state, attack("ww", "foe"), dice=[1, 1, 2])
    assert after.units["foe"].hp == 5
    further = playing(
        [Place("ww", "whirlwind", S, "A1"), Place("foe", "warriors", N, "B6")],
        terrain={"A1": HEIGHT},
    )
    refused(further, attack("ww", "foe"), "E2", "out_of_range")


def test_E3_sheet_range_gets_the_bonus_too() -> None:
    state = playing(
        [Place("sc", "scouts", S, "A1"), Place("foe", "warriors", N, "A6"), FAR],
        terrain={"A1": HEIGHT},
    )
    after, _ = act(state, attack("sc", "foe"), dice=[1, 1, 1, 2])
    assert after.units["foe"].hp == 5


def test_E3_passengers_of_an_open_transport_on_a_height_get_the_bonus() -> None:
    state = playing(
        [
            Place("raider", "raider", N, "C5"),
            Place("kw", "warriors", N, "raider"),
            Place("tac", "tactical", S, "C2"),
            Place("cap", "captain", S, "A1"),
        ],
        terrain={"C5": HEIGHT},
        active=N,
    )
    after, events = act(state, attack("kw", "tac", side=N), dice=[4, 4, 1, 1, 1, 1])
    assert rolled(events)[0].dice_count == 6
    assert after.units["tac"].hp == 3


def test_E3_flyers_get_no_height_bonus() -> None:
    state = playing(
        [Place("jet", "razorwing", S, "C2"), Place("foe", "warriors", N, "C5")],
        terrain={"C2": HEIGHT},
    )
    error = refused(state, attack("jet", "foe"), "E2", "out_of_range")
    assert error.params["range"] == 2


# -- E4 ------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", [OBSTACLE, HEIGHT])
def test_E4_los_blocked_by_obstacle_and_height(kind: TerrainKind) -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4")],
        terrain={"C3": kind},
    )
    error = refused(state, attack("tac", "foe", melee=False), "E4", "no_line_of_sight")
    assert error.params == {"target": "foe", "cells": "C3"}  # D6: names the blocker


@pytest.mark.parametrize("kind", [WATER, COVER, FORT])
def test_E4_water_and_cover_do_not_block(kind: TerrainKind) -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4")],
        terrain={"C3": kind},
    )
    after, _ = act(state, attack("tac", "foe", (MISSILE,)), dice=[1])
    assert after.units["foe"].hp == 5


def test_E4_units_never_block() -> None:
    state = playing(
        [
            Place("tac", "tactical", S, "C2"),
            Place("big", "predator", N, "C3"),
            Place("foe", "warriors", N, "C4"),
        ]
    )
    after, _ = act(state, attack("tac", "foe", (MISSILE,)), dice=[1])
    assert after.units["foe"].hp == 5


def test_E4_end_cells_never_block() -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C5")],
        terrain={"C2": HEIGHT, "C5": HEIGHT},
    )
    after, _ = act(state, attack("tac", "foe", (MISSILE,)), dice=[1])
    assert after.units["foe"].hp == 5


def test_E4_corner_blocks_only_when_both_cells_block() -> None:
    units = [Place("tac", "tactical", S, "B2"), Place("foe", "warriors", N, "C3")]
    one = playing(units, terrain={"C2": HEIGHT})
    after, _ = act(one, attack("tac", "foe", (MISSILE,)), dice=[1])
    assert after.units["foe"].hp == 5
    both = playing(units, terrain={"C2": HEIGHT, "B3": OBSTACLE})
    refused(both, attack("tac", "foe", (MISSILE,)), "E4", "no_line_of_sight")


def test_E4_artillery_ignores_line_of_sight() -> None:
    state = playing(
        [Place("ww", "whirlwind", S, "C1"), Place("foe", "warriors", N, "C3")],
        terrain={"C2": OBSTACLE},
    )
    after, _ = act(state, attack("ww", "foe"), dice=[1, 1, 1])
    assert after.units["foe"].hp == 6


# -- E5 ------------------------------------------------------------------------------------
def test_E5_one_attack_per_unit_per_turn() -> None:
    state = playing(
        [
            Place("tac", "tactical", S, "C2"),
            Place("foe", "warriors", N, "C4"),
            Place("other", "warriors", N, "D3"),
        ]
    )
    after, _ = act(state, attack("tac", "foe", (MISSILE,)), dice=[1])
    refused(after, attack("tac", "other", (BOLTERS,)), "E5", "already_attacked")
    refused(after, attack("tac", "foe", (BOLTERS,)), "E5", "already_attacked")


def test_E5_every_reaching_weapon_fires_by_default() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4")])
    _, events = act(state, attack("tac", "foe"), dice=[1] * 5 + [1])
    assert [w.weapon.en for w in rolled(events)] == ["Bolters", "Missile launcher"]


def test_E5_default_prefers_melee_and_never_mixes() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C3")])
    _, events = act(state, attack("tac", "foe"), dice=[1] * 5)
    assert [w.weapon.en for w in rolled(events)] == ["Combat knives"]
    (resolved,) = of_type(events, AttackResolved)
    assert resolved.kind is WeaponKind.MELEE


def test_E5_ranged_weapons_on_request_when_melee_also_reaches() -> None:
    state = playing([Place("cap", "captain", S, "C2"), Place("jet", "razorwing", N, "C3"), FAR])
    _, events = act(state, attack("cap", "jet", melee=False), dice=[6])
    assert [w.weapon.en for w in rolled(events)] == ["Bolt pistol"]


def test_E5_chosen_weapons_only_fire() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4")])
    _, events = act(state, attack("tac", "foe", (MISSILE, MISSILE)), dice=[1])
    assert [w.weapon.en for w in rolled(events)] == ["Missile launcher"]


def test_E5_melee_and_ranged_mixed_refused() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C3")])
    refused(state, attack("tac", "foe", (BOLTERS, KNIVES)), "E5", "melee_and_ranged_mixed")


def test_E5_a_chosen_weapon_that_cannot_reach_is_refused_with_its_reason() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4")])
    refused(state, attack("tac", "foe", (KNIVES,)), "E10", "melee_out_of_reach")
    refused(state, attack("tac", "foe", (KNIVES,), melee=True), "E10", "melee_out_of_reach")


def test_E5_other_refusals() -> None:
    state = playing(
        [
            Place("tac", "tactical", S, "C2"),
            Place("bk", "bikers", S, "B3"),
            Place("pal", "scouts", S, "C4"),
            Place("foe", "warriors", N, "B4"),
        ]
    )
    error = refused(state, attack("tac", "foe", (7,)), "E5", "no_such_weapon")
    assert error.params == {"unit": "tac", "weapon": 8}
    refused(state, attack("tac", "foe", ()), "E5", "no_weapon_chosen")
    refused(state, attack("bk", "foe", melee=True), "E5", "no_weapon_of_kind")
    refused(state, attack("tac", "pal"), "E5", "target_is_friendly")


# -- E6 ------------------------------------------------------------------------------------
def test_E6_strength_zero_never_hurts_defense_seven() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("tank", "predator", N, "C3")])
    after, events = act(state, attack("tac", "tank"), dice=[6] * 5)
    (knives,) = rolled(events)
    assert knives.needed == 7 and knives.successes == 0 and knives.damage == 0
    assert after.units["tank"].hp == 6


def test_E6_strength_three_always_hurts_defense_four() -> None:
    state = playing([Place("cap", "captain", S, "C2"), Place("foe", BIG, N, "C3")])
    after, events = act(state, attack("cap", "foe"), dice=[1, 1, 1])
    (sword,) = rolled(events)
    assert sword.needed == 1 and sword.successes == 3
    assert after.units["foe"].hp == 7


def test_E6_die_plus_strength_must_reach_defense() -> None:
    foe = sheet("tactical", models=10)  # Defense 5
    state = playing([Place("tac", "tactical", S, "C2"), Place("foe", foe, N, "C4")])
    _, events = act(state, attack("tac", "foe", (BOLTERS,)), dice=[4, 3, 6, 1, 5])
    (bolters,) = rolled(events)
    assert bolters.needed == 4 and bolters.successes == 3  # +1 vs Defense 5


# -- E7 ------------------------------------------------------------------------------------
def test_E7_dice_per_current_model_and_fixed_weapons_as_listed() -> None:
    state = playing([Place("tac", "tactical", S, "C2", hp=3), Place("foe", "warriors", N, "C4")])
    _, events = act(state, attack("tac", "foe"), dice=[1, 1, 1, 1])
    bolters, missile = rolled(events)
    assert (bolters.dice_count, bolters.models) == (3, 3)
    assert (missile.dice_count, missile.models) == (1, None)


def test_E7_models_count_from_hp_and_wounds() -> None:
    state = playing([Place("bk", "bikers", S, "C2", hp=3), Place("foe", "warriors", N, "C4")])
    _, events = act(state, attack("bk", "foe"), dice=[1] * 4)  # 2 models x 2 dice
    (twin,) = rolled(events)
    assert (twin.dice_count, twin.models) == (4, 2)


@pytest.mark.parametrize(
    ("unit", "hp", "dice", "damaged"),
    [
        ("dreadnought", 6, 4, False),
        ("dreadnought", 4, 4, False),  # lost 2 of 6
        ("dreadnought", 3, 2, True),  # lost 3 of 6: 2 * 3 >= 6
        ("rhino", 3, 2, False),  # lost 2 of 5
        ("rhino", 2, 1, True),  # lost 3 of 5
    ],
)
def test_E7_damaged_profile_from_half_hp_lost(unit: str, hp: int, dice: int, damaged: bool) -> None:
    state = playing([Place("u", unit, S, "C2", hp=hp), Place("foe", "warriors", N, "C4"), FAR])
    _, events = act(state, attack("u", "foe", melee=False), dice=[1] * dice)
    (resolved,) = of_type(events, AttackResolved)
    assert resolved.damaged_profile is damaged
    assert resolved.weapons[0].dice_count == dice


def test_E7_damaged_profile_may_change_the_weapon() -> None:
    state = playing([Place("r", "raider", S, "C2", hp=2), Place("foe", "warriors", N, "C4")])
    _, events = act(state, attack("r", "foe"), dice=[1, 1])
    (cannon,) = rolled(events)
    assert cannon.weapon.en == "Splinter cannon" and cannon.strength == 1


# -- E8 ------------------------------------------------------------------------------------
def test_E8_cover_rerolls_each_success_once() -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4")],
        terrain={"C4": COVER},
    )
    after, events = act(state, attack("tac", "foe", (BOLTERS,)), dice=[6, 5, 3, 2, 1, 3, 2, 6])
    (bolters,) = rolled(events)
    assert bolters.successes == 3 and bolters.cover_value == 3
    assert values(bolters.rerolls) == [3, 2, 6]
    assert bolters.damage == 2
    assert after.units["foe"].hp == 4


def test_E8_no_reroll_without_successes() -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4")],
        terrain={"C4": COVER},
    )
    _, events = act(state, attack("tac", "foe", (BOLTERS,)), dice=[2] * 5)
    (bolters,) = rolled(events)
    assert bolters.rerolls == () and bolters.damage == 0


@pytest.mark.parametrize(
    ("improvement", "cover", "rerolls", "damage"),
    [(0, 3, [2, 3, 6], 2), (2, 5, [4, 5, 6], 2), (5, 6, [5, 6, 6], 2), (9, 6, [5, 5, 6], 1)],
)
def test_E8_fortification_improvements_raise_the_cover_value_up_to_six(
    improvement: int, cover: int, rerolls: list[int], damage: int
) -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4")],
        terrain={"C4": Terrain(FORT, improvement=improvement)},
    )
    after, events = act(state, attack("tac", "foe", (BOLTERS,)), dice=[6, 6, 6, 1, 1, *rerolls])
    (bolters,) = rolled(events)
    assert bolters.cover_value == cover
    assert bolters.damage == damage
    assert after.units["foe"].hp == 6 - damage


@pytest.mark.parametrize("target", ["reavers", "ravager", "razorwing", "predator"])
def test_E8_cover_does_not_protect_bikes_skimmers_flyers_vehicles(target: str) -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("t", target, N, "C4"), FAR],
        terrain={"C4": COVER},
    )
    _, events = act(state, attack("tac", "t", (MISSILE,)), dice=[6])
    (missile,) = rolled(events)
    assert missile.cover_value is None and missile.rerolls == () and missile.damage == 1


@pytest.mark.parametrize("target", ["warriors", "assault", "dreadnought", "grotesque"])
def test_E8_cover_protects_infantry_jump_walkers_monsters(target: str) -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("t", target, N, "C4"), FAR],
        terrain={"C4": COVER},
    )
    _, events = act(state, attack("tac", "t", (MISSILE,)), dice=[6, 2])
    (missile,) = rolled(events)
    assert missile.cover_value == 3 and values(missile.rerolls) == [2] and missile.damage == 0


def test_E8_artillery_is_stopped_by_cover_too() -> None:
    state = playing(
        [Place("ww", "whirlwind", S, "C1"), Place("foe", "warriors", N, "C4")],
        terrain={"C4": COVER},
    )
    _, events = act(state, attack("ww", "foe"), dice=[6, 6, 1, 1, 4])
    (launcher,) = rolled(events)
    assert values(launcher.rerolls) == [1, 4] and launcher.damage == 1


def test_E8_melee_ignores_cover() -> None:
    state = playing(
        [Place("cap", "captain", S, "C3"), Place("foe", BIG, N, "C4")],
        terrain={"C4": FORT},
    )
    after, events = act(state, attack("cap", "foe"), dice=[1, 1, 1])
    (sword,) = rolled(events)
    assert sword.cover_value is None and sword.rerolls == ()
    assert after.units["foe"].hp == 7


# -- E9 ------------------------------------------------------------------------------------
def test_E9_each_standing_success_removes_one_hp() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("foe", BIG, N, "C4")])
    after, events = act(state, attack("tac", "foe"), dice=[3, 2, 3, 2, 1, 1])
    (resolved,) = of_type(events, AttackResolved)
    assert [w.damage for w in resolved.weapons] == [2, 1]
    assert (resolved.damage, resolved.hp_before, resolved.hp_after) == (3, 10, 7)
    assert after.units["foe"].hp == 7


def test_E9_damage_beyond_the_hp_is_lost() -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4", hp=2), FAR]
    )
    after, events = act(state, attack("tac", "foe"), dice=[6] * 6)
    (resolved,) = of_type(events, AttackResolved)
    assert (resolved.damage, resolved.hp_after) == (2, 0)
    assert after.units["foe"].destroyed


# -- E10 -----------------------------------------------------------------------------------
def melee_kill() -> GameState:
    """The captain has moved next to the warriors (2 HP left) and is about to cut them down."""
    state = playing(
        [
            Place("cap", "captain", S, "C1"),
            Place("foe", "warriors", N, "C4", hp=2),
            Place("next", "slaves", N, "D3"),  # beside the captain's cell
        ]
    )
    moved, _ = act(state, Move(S, "cap", (c("C2"), c("C3"))))
    return moved


def test_E10_melee_kill_offers_the_advance() -> None:
    after, events = act(melee_kill(), attack("cap", "foe"), dice=[6, 6, 1])
    assert after.units["foe"].destroyed
    assert of_type(events, AdvanceOffered) == [AdvanceOffered("cap", c("C4"))]
    assert after.pending == (PendingAdvance(S, "cap", c("C4")),)


def test_E10_advancing_is_not_a_move() -> None:
    after, _ = act(melee_kill(), attack("cap", "foe"), dice=[6, 6, 1])
    # The captain has moved already and now stands next to an enemy: still no test, no roll.
    advanced, events = act(after, Advance(S, "cap", True))
    assert of_type(events, Advanced) == [Advanced("cap", c("C3"), c("C4"))]
    assert of_type(events, Moved) == [] and of_type(events, MoraleTested) == []
    assert advanced.units["cap"].cell == c("C4")
    assert advanced.pending == ()
    refused(advanced, Move(S, "cap", (c("B4"),)), "C2", "move_after_attack")


def test_E10_the_advance_may_be_declined() -> None:
    after, _ = act(melee_kill(), attack("cap", "foe"), dice=[6, 6, 1])
    stayed, events = act(after, Advance(S, "cap", False))
    assert of_type(events, Advanced) == [Advanced("cap", c("C3"), None)]
    assert stayed.units["cap"].cell == c("C3") and stayed.pending == ()


def test_E10_the_advance_must_be_decided_first() -> None:
    after, _ = act(melee_kill(), attack("cap", "foe"), dice=[6, 6, 1])
    refused(after, EndTurn(S), "E10", "decision_pending")


def test_E10_no_advance_without_a_kill_or_after_shooting() -> None:
    missed = playing([Place("tac", "tactical", S, "C2"), Place("foe", BIG, N, "C3")])
    after, events = act(missed, attack("tac", "foe"), dice=[1] * 5)
    assert of_type(events, AttackResolved)[0].kind is WeaponKind.MELEE
    assert of_type(events, AdvanceOffered) == [] and after.pending == ()
    shot = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4", hp=1), FAR]
    )
    after, events = act(shot, attack("tac", "foe", (MISSILE,)), dice=[1])
    assert after.units["foe"].destroyed
    assert of_type(events, AdvanceOffered) == [] and after.pending == ()


# -- E11 -----------------------------------------------------------------------------------
RAM = weapon(WeaponKind.MELEE, strength=2, dice=2)


@pytest.mark.parametrize("kind", [COVER, FORT])
def test_E11_vehicles_cannot_melee_a_unit_in_cover(kind: TerrainKind) -> None:
    tank = sheet("predator", weapons=(RAM,), damaged_weapons=(RAM,))
    state = playing(
        [Place("tank", tank, S, "C3"), Place("foe", "warriors", N, "C4")],
        terrain={"C4": kind},
    )
    error = refused(state, attack("tank", "foe"), "E11", "vehicle_melee_into_cover")
    assert error.params == {"target": "foe"}


def test_E11_vehicles_may_melee_a_unit_in_the_open() -> None:
    tank = sheet("predator", weapons=(RAM,), damaged_weapons=(RAM,))
    state = playing(
        [Place("tank", tank, S, "C3"), Place("foe", "warriors", N, "C4")],
        terrain={"C4": HEIGHT},
    )
    after, _ = act(state, attack("tank", "foe"), dice=[2, 1])
    assert after.units["foe"].hp == 5


@pytest.mark.parametrize("attacker", ["dreadnought", "ravager"])
def test_E11_walkers_and_skimmers_may_melee_into_cover(attacker: str) -> None:
    base = sheet(attacker)
    melee = base.weapons if attacker == "dreadnought" else (RAM,)
    unit = sheet(attacker, weapons=melee, damaged_weapons=melee)
    state = playing(
        [Place("u", unit, S, "C3"), Place("foe", "warriors", N, "C4")],
        terrain={"C4": COVER},
    )
    after, events = act(state, attack("u", "foe", melee=True), dice=[6, 1])
    assert of_type(events, AttackResolved)[0].kind is WeaponKind.MELEE
    assert after.units["foe"].hp < 6


# -- E12 -----------------------------------------------------------------------------------
def test_E12_flyers_cannot_be_attacked_in_melee() -> None:
    state = playing([Place("cap", "captain", S, "C2"), Place("jet", "razorwing", N, "C3")])
    error = refused(state, attack("cap", "jet", melee=True), "E12", "flyer_no_melee")
    assert error.params == {"unit": "cap", "target": "jet"}
    refused(state, attack("cap", "jet", (0,)), "E12", "flyer_no_melee")


def test_E12_flyers_make_no_melee_attacks() -> None:
    jet = sheet("razorwing", weapons=(RAM,), damaged_weapons=(RAM,))
    state = playing([Place("jet", jet, S, "C2"), Place("foe", "warriors", N, "C3")])
    refused(state, attack("jet", "foe"), "E12", "flyer_no_melee")


# -- E13 -----------------------------------------------------------------------------------
def test_E13_units_in_a_closed_transport_cannot_attack() -> None:
    state = playing(
        [
            Place("rhino", "rhino", S, "C2"),
            Place("tac", "tactical", S, "rhino"),
            Place("foe", "warriors", N, "C4"),
        ]
    )
    refused(state, attack("tac", "foe"), "E13", "embarked_cannot_attack")


def test_E13_open_topped_passengers_shoot_from_the_transport_cell() -> None:
    state = playing(
        [
            Place("raider", "raider", S, "C2"),
            Place("kw", "warriors", S, "raider"),
            Place("foe", sheet("tactical", models=10), N, "C4"),
        ]
    )
    after, events = act(state, attack("kw", "foe"), dice=[4, 4, 3, 3, 3, 3])  # +1 vs 5
    (resolved,) = of_type(events, AttackResolved)
    assert resolved.attacker == "kw" and resolved.damage == 2
    assert after.units["kw"].attacked and after.units["kw"].embarked_in == "raider"
    # The raider fires on its own.
    after, _ = act(after, attack("raider", "foe"), dice=[1])
    assert after.units["foe"].hp == 7


def test_E13_open_topped_passengers_measure_from_the_transport() -> None:
    state = playing(
        [
            Place("raider", "raider", S, "C2"),
            Place("kw", "warriors", S, "raider"),
            Place("foe", "tactical", N, "C5"),
        ]
    )
    error = refused(state, attack("kw", "foe"), "E2", "out_of_range")
    assert error.params["distance"] == 3


def test_E13_open_topped_passengers_need_line_of_sight_from_the_transport() -> None:
    state = playing(
        [
            Place("raider", "raider", S, "C2"),
            Place("kw", "warriors", S, "raider"),
            Place("foe", "tactical", N, "C4"),
        ],
        terrain={"C3": HEIGHT},
    )
    refused(state, attack("kw", "foe", melee=False), "E4", "no_line_of_sight")


def test_E13_open_topped_passengers_may_not_melee() -> None:
    state = playing(
        [
            Place("raider", "raider", S, "C2"),
            Place("kw", "warriors", S, "raider"),
            Place("foe", "tactical", N, "C3"),
        ]
    )
    refused(state, attack("kw", "foe", melee=True), "E13", "embarked_shooting_only")
    refused(state, attack("kw", "foe"), "E13", "embarked_shooting_only")


def test_E13_open_topped_passengers_may_not_fire_artillery() -> None:
    gunners = sheet("warriors", weapons=(weapon(WeaponKind.ARTILLERY),))
    state = playing(
        [
            Place("raider", "raider", S, "C2"),
            Place("g", gunners, S, "raider"),
            Place("foe", "tactical", N, "C5"),
        ]
    )
    refused(state, attack("g", "foe"), "E13", "embarked_shooting_only")


# -- E14 -----------------------------------------------------------------------------------
def test_E14_attack_event_carries_every_die() -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4")],
        terrain={"C4": COVER},
    )
    state.dice_position = 40
    # Bolters: 5 dice need 3 -> 6, 3, 4 succeed; re-rolls 3, 1, 5 at 3+: 2 stand.
    # Missile launcher: 1 die needs 1 -> succeeds; re-roll 2 at 3+: falls.
    after, events = act(state, attack("tac", "foe"), dice=[6, 2, 3, 1, 4, 3, 1, 5, 1, 2])
    (resolved,) = events
    assert isinstance(resolved, AttackResolved)
    bolters, missile = resolved.weapons
    purpose = "attack tac>foe Bolters"
    assert bolters == WeaponRolled(
        weapon=Names("Болтеры", "Bolters"),
        kind=WeaponKind.SHOOTING,
        strength=1,
        dice_count=5,
        models=5,
        defense=4,
        needed=3,
        dice=tuple(Die(40 + i, purpose, v) for i, v in enumerate([6, 2, 3, 1, 4])),
        successes=3,
        cover_value=3,
        rerolls=tuple(Die(45 + i, "cover foe", v) for i, v in enumerate([3, 1, 5])),
        damage=2,
    )
    assert (missile.weapon.en, missile.dice_count, missile.models, missile.needed) == (
        "Missile launcher",
        1,
        None,
        1,
    )
    assert values(missile.dice) == [1] and values(missile.rerolls) == [2]
    assert missile.damage == 0
    assert resolved == AttackResolved(
        "tac", "foe", WeaponKind.SHOOTING, (bolters, missile), False, 2, 6, 4
    )
    assert after.dice_position == 50


def test_E14_morale_follows_the_attack() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4")])
    _, events = act(state, attack("tac", "foe"), dice=[3, 3, 2, 2, 2, 1, 4, 4, 4])
    assert [type(e) for e in events] == [AttackResolved, MoraleTested]
    (test,) = of_type(events, MoraleTested)
    assert test.reason == "half" and values(test.dice) == [4, 4, 4]


def test_E14_destruction_follows_the_attack() -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4", hp=1), FAR]
    )
    _, events = act(state, attack("tac", "foe", (MISSILE,)), dice=[1])
    assert [type(e) for e in events] == [AttackResolved, UnitDestroyed]
    assert of_type(events, UnitDestroyed) == [UnitDestroyed("foe", N, "tac", "attack")]


# -- damage_distribution -------------------------------------------------------------------
F = Fraction


def odds(state: GameState, unit: str, target: str, weapons: tuple[int, ...]) -> list[Fraction]:
    return damage_distribution(state, state.units[unit], state.units[target], weapons)


def test_E6_damage_distribution_one_die() -> None:
    state = playing([Place("cap", "captain", S, "C2"), Place("sc", "scouts", N, "C4")])
    # Bolt pistol +1 vs Defense 4: 3+, p = 2/3; the scouts have 4 HP.
    assert odds(state, "cap", "sc", (1,)) == [F(1, 3), F(2, 3), 0, 0, 0]


def test_E8_damage_distribution_with_cover() -> None:
    state = playing(
        [Place("cap", "captain", S, "C2"), Place("sc", "scouts", N, "C4")],
        terrain={"C4": COVER},
    )
    assert odds(state, "cap", "sc", (1,)) == [F(5, 9), F(4, 9), 0, 0, 0]  # 2/3 * 2/3
    state.with_terrain(c("C4"), Terrain(FORT, improvement=2))
    assert odds(state, "cap", "sc", (1,)) == [F(7, 9), F(2, 9), 0, 0, 0]  # 2/3 * 1/3


def test_E7_damage_distribution_two_dice() -> None:
    state = playing([Place("tac", "tactical", S, "C2", hp=2), Place("sc", "scouts", N, "C4")])
    dist = odds(state, "tac", "sc", (BOLTERS,))
    assert dist == [F(1, 9), F(4, 9), F(4, 9), 0, 0]
    assert expected_damage(state, state.units["tac"], state.units["sc"], (BOLTERS,)) == F(4, 3)


def test_E9_damage_distribution_is_capped_at_the_target_hp() -> None:
    state = playing([Place("dread", "dreadnought", S, "C2"), Place("sc", "scouts", N, "C4", hp=2)])
    # Assault cannon: 4 dice at +2 vs Defense 4, p = 5/6; at most 2 HP can be lost.
    assert odds(state, "dread", "sc", (0,)) == [F(1, 1296), F(20, 1296), F(1275, 1296)]


def test_E6_damage_distribution_when_nothing_can_hurt() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("tank", "predator", N, "C3")])
    assert odds(state, "tac", "tank", (KNIVES,)) == [1, 0, 0, 0, 0, 0, 0]


@pytest.mark.parametrize("cover", [None, COVER])
def test_E9_damage_distribution_sums_to_one(cover: TerrainKind | None) -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4")],
        terrain={} if cover is None else {"C4": cover},
    )
    dist = odds(state, "tac", "foe", (BOLTERS, MISSILE))
    assert len(dist) == 7
    assert sum(dist, F(0)) == 1
    assert all(p >= 0 for p in dist)


def test_the_damage_distribution_is_the_exact_product_of_its_dice() -> None:
    """Worked in integers over one denominator: the same Fractions, die by die, as the
    textbook recurrence, for attacks of every size (cover re-rolls included)."""
    from fractions import Fraction
    from random import Random

    from vahalite_bot.rules.combat import DieOdds, distribution_of

    rng = Random(5)
    for size in (0, 1, 2, 7, 25):
        dice = [DieOdds(rng.randint(1, 7), rng.choice([None, 3, 5])) for _ in range(size)]
        for cap in (0, 1, size, size + 2):
            dist = [Fraction(1)]
            for die in dice:
                p = die.probability
                dist = [
                    (dist[k] if k < len(dist) else 0) * (1 - p) + (dist[k - 1] * p if k else 0)
                    for k in range(len(dist) + 1)
                ]
            expected = [*dist[:cap], sum(dist[cap:], Fraction(0))]
            expected += [Fraction(0)] * (cap + 1 - len(expected))
            assert distribution_of(dice, cap) == expected
