"""rulebook M1 (natural 1 fails), M3 (orders), M7 (Overwatch), M9 (Weapon Skill), fixed dice."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

import pytest

from tests.builders import SHEETS, Place, act, c, of_type, playing, refused, sheet
from vahalite_bot.codex.loader import all_sheets, codex_factions
from vahalite_bot.rules import codec
from vahalite_bot.rules.actions import Advance, Attack, EndTurn, GiveOrders, Move, UnitOrder
from vahalite_bot.rules.combat import damage_distribution, dice_odds, die_rule
from vahalite_bot.rules.die_rule import DieRule
from vahalite_bot.rules.events import (
    AttackResolved,
    Event,
    OrdersGiven,
    OrdersRequired,
    PassengersHit,
    PlacementRequired,
    UnitDestroyed,
    WeaponRolled,
)
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.movement import reachable
from vahalite_bot.rules.order import Order
from vahalite_bot.rules.overwatch import overwatch_distribution, overwatch_odds
from vahalite_bot.rules.queries import is_legal, legal_actions
from vahalite_bot.rules.scenario import STANDARD, Side, TerrainKind
from vahalite_bot.rules.sheets import WeaponKind
from vahalite_bot.rules.state import GameState, PendingOrders, PendingPlacement, UnitState
from vahalite_bot.rules.weapon_skill import melee_modifier, weapon_skill
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.store.snapshot import Setup, decode_state, encode_state

S, N = Side.SOUTH, Side.NORTH
M1, M3, M7, M9 = (
    HouseRule.NATURAL_ONE,
    HouseRule.ORDERS,
    HouseRule.OVERWATCH,
    HouseRule.WEAPON_SKILL,
)
ADVANCE, ASSAULT, AIMED = Order.ADVANCE, Order.ASSAULT, Order.AIMED_FIRE
FAR = Place("far", "slaves", N, "F6")  # keeps the game going when a target dies (J3)
BIG = sheet("warriors", models=10)  # Defense 4, 10 HP: a few hits bring no G1 test
CODEX = all_sheets(codex_factions())
# Tactical Squad weapons: 0 Bolters (+1, per model), 1 Missile launcher (+3, fixed), 2 knives.
BOLTERS, MISSILE, KNIVES = 0, 1, 2
BOLTER_SQUAD = sheet("tactical", weapons=(SHEETS["tactical"].weapons[BOLTERS],))


def house(state: GameState, *rules: HouseRule) -> GameState:
    state.house = frozenset(rules)
    return state


def ordered(state: GameState, **orders: Order) -> GameState:
    """Orders as if given (M3 on): ``ordered(state, tac=AIMED)``."""
    for handle, order in orders.items():
        state.units[handle].order = order
    return state


def weapons_rolled(events: Sequence[Event]) -> list[WeaponRolled]:
    return [w for a in of_type(events, AttackResolved) for w in a.weapons]


def attacks(events: Sequence[Event]) -> list[AttackResolved]:
    return of_type(events, AttackResolved)


# -- M1 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("rules", "damage"), [((M1,), 0), ((), 1)])
def test_M1_strength_three_against_defense_four_face_one(
    rules: tuple[HouseRule, ...], damage: int
) -> None:
    """M1's own test: strength +3 against Defense 4, face 1: no damage (E6 alone: one HP)."""
    state = house(playing([Place("tac", "tactical", S, "C3"), Place("foe", BIG, N, "C5")]), *rules)
    after, events = act(state, Attack(S, "tac", "foe", (MISSILE,)), dice=[1])
    (weapon,) = weapons_rolled(events)
    assert weapon.damage == damage
    assert after.units["foe"].hp == 10 - damage
    assert weapon.needed == (2 if rules else 1)
    assert weapon.natural_one_fails is bool(rules)


def test_M1_wrecked_transport_passengers_fail_on_a_one() -> None:
    """M1 in H5: Defense 2 passengers, strength +1: a 1 would hurt (E6) but fails with M1."""
    tough = sheet("tactical", defense=2)
    units = [
        Place("tac", "tactical", S, "C3"),
        Place("rhino", "rhino", N, "C5", hp=1),
        Place("pas", tough, N, "rhino"),
        FAR,
    ]
    state = house(playing(units), M1)
    after, events = act(state, Attack(S, "tac", "rhino", (MISSILE,)), dice=[5, 1, 1, 1, 1, 6])
    (hit,) = of_type(events, PassengersHit)
    assert [d.value for d in hit.dice] == [1, 1, 1, 1, 6]
    assert (hit.damage, hit.needed) == (1, 2)
    assert after.units["pas"].hp == 4


def test_M1_odds_drop_the_one() -> None:
    """M1: the missile's single die against Defense 4 hurts on 2-6 only: 5/6."""
    state = house(playing([Place("tac", "tactical", S, "C3"), Place("foe", BIG, N, "C5")]), M1)
    tac, foe = state.units["tac"], state.units["foe"]
    assert damage_distribution(state, tac, foe, (MISSILE,))[:2] == [Fraction(1, 6), Fraction(5, 6)]


# -- M3 ------------------------------------------------------------------------------------
def m3_game(units: list[Place], *rules: HouseRule) -> GameState:
    """North's turn, round 1; ending it starts south's round-2 turn with the orders due."""
    state = house(playing(units, active=N, first=S), M3, *rules)
    after, _ = act(state, EndTurn(N))
    return after


def test_M3_orders_are_pending_before_the_first_move() -> None:
    units = [Place("tac", "tactical", S, "C1"), Place("war", "warriors", S, "D1"), FAR]
    state = house(playing(units, active=N, first=S), M3)
    after, events = act(state, EndTurn(N))
    assert after.pending == (PendingOrders(S),)
    assert of_type(events, OrdersRequired) == [OrdersRequired(S)]
    refused(after, Move(S, "tac", (c("C2"),)), "M3", "orders_pending")


def test_M3_units_not_named_advance_and_orders_are_public() -> None:
    units = [Place("tac", "tactical", S, "C1"), Place("war", "warriors", S, "D1"), FAR]
    state = m3_game(units)
    after, events = act(state, GiveOrders(S, (UnitOrder("tac", AIMED),)))
    assert after.pending == ()
    assert of_type(events, OrdersGiven) == [OrdersGiven(S, (UnitOrder("tac", AIMED),))]
    assert (after.units["tac"].order, after.units["war"].order) == (AIMED, ADVANCE)


def test_M3_orders_lapse_at_the_next_turn() -> None:
    units = [Place("tac", "tactical", S, "C1"), Place("foe", "warriors", N, "F5")]
    state, _ = act(m3_game(units), GiveOrders(S, (UnitOrder("tac", AIMED),)))
    state, _ = act(state, EndTurn(S))
    assert state.pending == (PendingOrders(N),)
    state, _ = act(state, GiveOrders(N))
    state, _ = act(state, EndTurn(N))
    assert state.units["tac"].order is ADVANCE
    assert state.pending == (PendingOrders(S),)


def test_M3_flyer_always_advances() -> None:
    units = [Place("tac", "tactical", S, "C1"), Place("raz", "razorwing", S, "D1"), FAR]
    state = m3_game(units)
    refused(state, GiveOrders(S, (UnitOrder("raz", ASSAULT),)), "M3", "flyer_always_advances")
    after, _ = act(state, GiveOrders(S, (UnitOrder("raz", ADVANCE),)))
    assert after.units["raz"].order is ADVANCE


def test_M3_refuses_an_enemy_unit_and_a_unit_named_twice() -> None:
    units = [Place("tac", "tactical", S, "C1"), FAR]
    state = m3_game(units)
    refused(state, GiveOrders(S, (UnitOrder("far", AIMED),)), "M3", "not_your_unit")
    twice = GiveOrders(S, (UnitOrder("tac", AIMED), UnitOrder("tac", ASSAULT)))
    refused(state, twice, "M3", "order_given_twice")
    refused(state, GiveOrders(N), "M3", "orders_pending")


def test_M3_aimed_fire_bolter_plus_one_against_defense_five_face_three() -> None:
    """M3's own test: Aimed Fire bolter (+1) against Defense 5, face 3: 4 + 1 = 5, one HP."""
    one = sheet("tactical", models=1)
    units = [Place("tac", one, S, "C3"), Place("cap", "captain", N, "C5")]
    state = ordered(house(playing(units), M3), tac=AIMED)
    after, events = act(state, Attack(S, "tac", "cap", (BOLTERS,)), dice=[3])
    (weapon,) = weapons_rolled(events)
    assert (weapon.modifier, weapon.needed, weapon.damage) == (1, 3, 1)
    assert after.units["cap"].hp == 3


def test_M3_advance_bolter_face_three_against_defense_five_misses() -> None:
    one = sheet("tactical", models=1)
    state = house(playing([Place("tac", one, S, "C3"), Place("cap", "captain", N, "C5")]), M3)
    _, events = act(state, Attack(S, "tac", "cap", (BOLTERS,)), dice=[3])
    assert weapons_rolled(events)[0].damage == 0


def test_M3_aimed_fire_melee_dice_minus_one() -> None:
    units = [Place("tac", sheet("tactical", models=1), S, "C3"), Place("sla", "slaves", N, "C4")]
    state = ordered(house(playing([*units, FAR]), M3), tac=AIMED)
    # Knives +0 against Defense 3: face 3 would do, but 3 - 1 = 2 does not.
    _, events = act(state, Attack(S, "tac", "sla", (KNIVES,)), dice=[3])
    (weapon,) = weapons_rolled(events)
    assert (weapon.modifier, weapon.needed, weapon.damage) == (-1, 4, 0)


def test_M3_aimed_fire_allows_no_move_of_any_kind() -> None:
    units = [
        Place("tac", "tactical", S, "C1"),
        Place("rhino", "rhino", S, "E1"),
        Place("pas", "warriors", S, "rhino"),
        FAR,
    ]
    state = ordered(house(playing(units), M3), tac=AIMED, pas=AIMED)
    refused(state, Move(S, "tac", (c("C2"),)), "M3", "aimed_fire_no_move")
    refused(state, Move(S, "pas", (c("E2"),)), "M3", "aimed_fire_no_move")  # disembarking
    assert reachable(state, state.units["tac"]) == {}
    assert reachable(state, state.units["rhino"]) != {}  # the transport has Advance


def test_M3_assault_moves_up_to_twice_m() -> None:
    units = [Place("ass", "assault", S, "A1"), FAR]  # M 3
    state = ordered(house(playing(units), M3), ass=ASSAULT)
    far_path = tuple(c(n) for n in ("A2", "A3", "A4", "A5", "A6", "B6"))
    after, _ = act(state, Move(S, "ass", far_path))
    assert after.units["ass"].cell == c("B6")
    too_far = (*far_path, c("C6"))
    refused(state, Move(S, "ass", too_far), "D1", "path_too_long")
    advance = house(playing(units), M3)
    refused(advance, Move(S, "ass", far_path[:4]), "D1", "path_too_long")


def test_M3_assault_allows_only_a_melee_attack() -> None:
    units = [Place("tac", "tactical", S, "C3"), Place("foe", BIG, N, "C5")]
    state = ordered(house(playing(units), M3), tac=ASSAULT)
    refused(state, Attack(S, "tac", "foe", (BOLTERS,)), "M3", "assault_melee_only")


def test_M3_passenger_order_governs_open_topped_fire() -> None:
    """E13 with M3: a passenger of an open-topped Raider shoots with its own order's dice."""
    units = [
        Place("raider", "raider", S, "C3"),
        Place("war", sheet("warriors", models=1), S, "raider"),
        Place("foe", BIG, N, "C5"),
    ]
    aimed = ordered(house(playing(units), M3), war=AIMED)
    # Splinter rifle +1 against Defense 4: face 2 needs the +1.
    _, events = act(aimed, Attack(S, "war", "foe", (0,)), dice=[2])
    assert weapons_rolled(events)[0].damage == 1
    assault = ordered(house(playing(units), M3), war=ASSAULT)
    refused(assault, Attack(S, "war", "foe", (0,)), "M3", "assault_melee_only")


def test_M3_legal_actions_list_all_advance_and_each_single_order() -> None:
    units = [Place("tac", "tactical", S, "C1"), Place("raz", "razorwing", S, "D1"), FAR]
    state = m3_game(units)
    listed = legal_actions(state)
    assert listed == [
        GiveOrders(S),
        GiveOrders(S, (UnitOrder("tac", ASSAULT),)),
        GiveOrders(S, (UnitOrder("tac", AIMED),)),
    ]
    both = [Place("a", "tactical", S, "C1"), Place("b", "tactical", S, "D1"), FAR]
    combined = GiveOrders(S, (UnitOrder("a", AIMED), UnitOrder("b", ASSAULT)))
    assert combined not in legal_actions(m3_game(both))
    assert is_legal(m3_game(both), combined)


def test_M3_orders_round_trip_through_the_log_and_the_snapshot() -> None:
    action = GiveOrders(S, (UnitOrder("tac", AIMED), UnitOrder("war", ASSAULT)))
    assert codec.decode(json.loads(json.dumps(codec.encode(action)))) == action
    event = OrdersGiven(S, (UnitOrder("tac", AIMED),))
    assert codec.decode(json.loads(json.dumps(codec.encode(event)))) == event
    units = [Place("tac", "tactical", S, "C1"), FAR]
    due = m3_game(units)
    state, _ = act(due, GiveOrders(S, (UnitOrder("tac", AIMED),)))
    forces = {
        side: tuple((u.id, u.sheet) for u in state.units.values() if u.side is side)
        for side in Side
    }
    setup = Setup(STANDARD, {}, forces, state.house)
    back = decode_state(json.loads(json.dumps(encode_state(state))), setup)
    assert back.units["tac"].order is AIMED
    assert back.pending == state.pending == ()
    waiting = decode_state(json.loads(json.dumps(encode_state(due))), setup)
    assert waiting.pending == (PendingOrders(S),)


# -- M7 ------------------------------------------------------------------------------------
def m7_game(units: list[Place], *rules: HouseRule) -> GameState:
    """North is moving (its turn); south's units watch."""
    return house(playing(units, active=N), M7, *rules)


def test_M7_five_bolters_against_defense_four_faces_6_5_6_1_2_two_hp() -> None:
    """M7's own test: only natural 6s that meet E6 succeed; minimum range 2 is ignored."""
    units = [Place("tac", BOLTER_SQUAD, S, "C3"), Place("foe", BIG, N, "D5")]
    state = m7_game(units)
    after, events = act(state, Move(N, "foe", (c("D4"), c("D3"))), dice=[6, 5, 6, 1, 2])
    (shot,) = attacks(events)
    assert shot.overwatch and (shot.attacker, shot.target) == ("tac", "foe")
    (weapon,) = shot.weapons
    assert (weapon.needed, weapon.natural_six_only, weapon.damage) == (6, True, 2)
    assert after.units["foe"].hp == 8
    assert after.units["tac"].overwatch_fired and not after.units["tac"].attacked
    assert not after.attack_step  # C2: north may still move other units


def test_M7_orders_do_not_apply_and_a_six_must_meet_e6() -> None:
    """Aimed Fire's +1 is not added; strength +1 against Defense 7: a 6 makes 7, it hurts;
    against Defense 8 nothing can."""
    units = [
        Place("tac", BOLTER_SQUAD, S, "C3"),
        Place("foe", sheet("warriors", models=10, defense=8), N, "D5"),
    ]
    state = ordered(m7_game(units, M3), tac=AIMED)
    _, events = act(state, Move(N, "foe", (c("D4"), c("D3"))), dice=[6] * 5)
    (weapon,) = weapons_rolled(events)
    assert (weapon.modifier, weapon.damage) == (0, 0)


def test_M7_no_fire_when_the_move_ends_diagonal_or_farther() -> None:
    units = [Place("tac", BOLTER_SQUAD, S, "C3"), Place("foe", BIG, N, "D6")]
    after, events = act(m7_game(units), Move(N, "foe", (c("D5"), c("D4"))))
    assert attacks(events) == [] and not after.units["tac"].overwatch_fired


def test_M7_cover_applies() -> None:
    units = [Place("tac", BOLTER_SQUAD, S, "C3"), Place("foe", BIG, N, "D5")]
    state = playing(units, terrain={"D3": TerrainKind.COVER}, active=N)
    house(state, M7)
    _, events = act(state, Move(N, "foe", (c("D4"), c("D3"))), dice=[6, 6, 1, 1, 1, 3, 2])
    (weapon,) = weapons_rolled(events)
    assert (weapon.successes, weapon.cover_value, weapon.damage) == (2, 3, 1)


def test_M7_once_per_watcher_per_turn_and_again_next_turn() -> None:
    units = [
        Place("tac", BOLTER_SQUAD, S, "C3"),
        Place("a", BIG, N, "D5"),
        Place("b", BIG, N, "B5"),
    ]
    state, events = act(m7_game(units), Move(N, "a", (c("D4"), c("D3"))), dice=[1] * 5)
    assert len(attacks(events)) == 1
    state, events = act(state, Move(N, "b", (c("B4"), c("B3"))))
    assert attacks(events) == []
    state, _ = act(state, EndTurn(N))  # round 2: south's turn, then north again
    state, _ = act(state, EndTurn(S))
    assert not state.units["tac"].overwatch_fired


def test_M7_watchers_fire_in_roster_order() -> None:
    """Roster order, not the order of cells or names: "zed" was listed first."""
    units = [
        Place("zed", BOLTER_SQUAD, S, "D2"),
        Place("abe", BOLTER_SQUAD, S, "C3"),
        Place("foe", BIG, N, "D5"),
    ]
    dice = [6, 6, 1, 1, 1, 6, 1, 1, 1, 1]  # zed's five, then abe's
    _, events = act(m7_game(units), Move(N, "foe", (c("D4"), c("D3"))), dice=dice)
    shots = attacks(events)
    assert [s.attacker for s in shots] == ["zed", "abe"]
    assert [s.damage for s in shots] == [2, 1]


def test_M7_flyers_neither_watch_nor_are_watched() -> None:
    units = [Place("raz", "razorwing", S, "C3"), Place("foe", BIG, N, "D5")]
    _, events = act(m7_game(units), Move(N, "foe", (c("D4"), c("D3"))))
    assert attacks(events) == []
    units = [Place("tac", BOLTER_SQUAD, S, "C3"), Place("raz", "razorwing", N, "D5")]
    _, events = act(m7_game(units), Move(N, "raz", (c("D4"), c("D3"))))
    assert attacks(events) == []


def test_M7_passengers_watch_only_from_open_topped_transports() -> None:
    one_rifle = sheet("warriors", models=1)
    units = [
        Place("raider", "raider", S, "C3"),
        Place("war", one_rifle, S, "raider"),
        Place("rhino", sheet("rhino", weapons=SHEETS["slaves"].weapons), S, "E3"),
        Place("tac", BOLTER_SQUAD, S, "rhino"),
        Place("foe", BIG, N, "D5"),
    ]
    # The Raider's own Dark lance and its passenger's rifle fire; the Rhino has no Shooting
    # weapon here and its passenger sits in a closed hull.
    _, events = act(m7_game(units), Move(N, "foe", (c("D4"), c("D3"))), dice=[6, 6])
    assert [s.attacker for s in attacks(events)] == ["raider", "war"]


def test_M7_a_disembark_step_triggers_but_embarking_does_not() -> None:
    units = [
        Place("tac", BOLTER_SQUAD, S, "C3"),
        Place("rhino", "rhino", N, "D4"),
        Place("war", BIG, N, "rhino"),
        FAR,
    ]
    after, events = act(m7_game(units), Move(N, "war", (c("D3"),)), dice=[6, 6, 1, 1, 1])
    assert [s.target for s in attacks(events)] == ["war"]
    assert after.units["war"].hp == 8
    units = [
        Place("tac", BOLTER_SQUAD, S, "C3"),
        Place("rhino", "rhino", N, "D3"),
        Place("war", sheet("warriors", models=5), N, "D5"),
    ]
    _, events = act(m7_game(units), Move(N, "war", (c("D4"), c("D3"))))
    assert attacks(events) == []


def test_M7_wrecked_transport_passengers_wait_for_placement_and_kills_score() -> None:
    """G1, H5 and J2 as for any attack: the watcher destroys the Rhino, the passenger is hit
    and its owner (north, the mover) must place it."""
    units = [
        Place("tac", BOLTER_SQUAD, S, "C3"),
        Place("rhino", "rhino", N, "D5", hp=1),
        Place("war", sheet("warriors", models=5), N, "rhino"),
        FAR,
    ]
    after, events = act(
        m7_game(units), Move(N, "rhino", (c("D4"), c("D3"))), dice=[6, 1, 1, 1, 1] + [1] * 5
    )
    destroyed = of_type(events, UnitDestroyed)
    assert destroyed[0] == UnitDestroyed("rhino", N, "tac", "attack")
    assert of_type(events, PassengersHit)[0].damage == 0
    assert of_type(events, PlacementRequired)[0].unit == "war"
    assert isinstance(after.pending[0], PendingPlacement) and after.pending[0].side is N


def test_M7_odds_need_a_natural_six() -> None:
    units = [Place("tac", "tactical", S, "C3"), Place("foe", BIG, N, "D3")]
    state = m7_game(units)
    tac, foe = state.units["tac"], state.units["foe"]
    odds = overwatch_odds(state, tac, foe)
    assert [o.needed for o in odds] == [6] * 6  # five bolters and the missile launcher
    dist = overwatch_distribution(state, tac, foe)
    assert dist[0] == Fraction(5, 6) ** 6
    assert sum(dist) == 1


# -- M9 ------------------------------------------------------------------------------------
def unit(handle: str, sheet_value: object, side: Side = S) -> UnitState:
    assert not isinstance(sheet_value, str)
    return UnitState(handle, side, sheet_value, 1)  # type: ignore[arg-type]


def test_M9_gretchin_against_captain_minus_one_captain_against_boyz_plus_one() -> None:
    """M9's own test: Gretchin (2) against a Captain (5): -1; the Captain against Boyz (3): +1."""
    captain = sheet("captain", ws=5)
    units = [
        Place("cap", captain, S, "C3"),
        Place("boyz", CODEX["boyz"], N, "C4"),
        Place("grot", CODEX["gretchin"], N, "B3"),
    ]
    state = house(playing(units), M9)
    cap, boyz, grot = (state.units[h] for h in ("cap", "boyz", "grot"))
    assert (weapon_skill(grot), weapon_skill(cap), weapon_skill(boyz)) == (2, 5, 3)
    assert melee_modifier(state, grot, cap) == -1
    assert melee_modifier(state, cap, boyz) == 1
    assert melee_modifier(state, boyz, grot) == 1
    assert melee_modifier(house(state, M3), cap, boyz) == 0  # M9 off


def test_M9_roll_the_gretchin_fists_against_the_captain() -> None:
    units = [
        Place("grot", CODEX["gretchin"], N, "C4"),
        Place("cap", sheet("captain", ws=5), S, "C3"),
    ]
    state = house(playing([*units, Place("x", "slaves", S, "A1")], active=N), M9)
    # Ten fists +0 against Defense 5: fives would hurt, but -1 makes them 4s.
    after, events = act(state, Attack(N, "grot", "cap"), dice=[5] * 9 + [6])
    (weapon,) = weapons_rolled(events)
    assert (weapon.modifier, weapon.needed, weapon.damage) == (-1, 6, 1)
    assert after.units["cap"].hp == 3


def test_M9_derived_skills_fearless_and_vehicle_targets() -> None:
    tac, dread, rhino = (unit(h, SHEETS[h]) for h in ("tactical", "dreadnought", "rhino"))
    assert weapon_skill(tac) == 4  # 7 - Morale 3
    assert weapon_skill(dread) == 4  # Fearless
    state = house(playing([FAR]), M9)
    assert melee_modifier(state, tac, rhino) == 1  # vehicles count 1 as targets
    raider = unit("raider", replace(SHEETS["raider"], ws=6))
    assert melee_modifier(state, tac, raider) == 1  # skimmers too, whatever the sheet says


def test_M9_stacks_with_M3() -> None:
    """Aimed Fire's melee -1 with WS's -1: a Gretchin needs a natural 6 where a 4 did."""
    units = [
        Place("grot", CODEX["gretchin"], N, "C4"),
        Place("cap", sheet("captain", ws=5), S, "C3"),
    ]
    state = ordered(house(playing([*units, FAR], active=N), M3, M9), grot=AIMED)
    grot, cap = state.units["grot"], state.units["cap"]
    fists = grot.weapons[1]
    assert fists.kind is WeaponKind.MELEE
    rule = die_rule(state, grot, cap, fists)
    assert (rule.modifier, rule.needed) == (-2, 7)  # 6 - 2 = 4 + 0 < 5: none can hurt
    boyz_state = ordered(
        house(
            playing(
                [
                    Place("cap", sheet("captain", ws=5), S, "C3"),
                    Place("boyz", CODEX["boyz"], N, "C4"),
                ]
            ),
            M3,
            M9,
        ),
        cap=AIMED,
    )
    cap2, boyz = boyz_state.units["cap"], boyz_state.units["boyz"]
    sword = cap2.weapons[0]
    assert die_rule(boyz_state, cap2, boyz, sword).modifier == 0  # +1 and -1


def test_M9_a_plus_one_never_lifts_a_face_above_six() -> None:
    """Section M: the cap at 6 keeps E6: strength +0 never hurts Defense 7."""
    assert not DieRule(strength=0, defense=7, modifier=1).succeeds(6)
    assert DieRule(strength=0, defense=7, modifier=1).needed == 7
    assert DieRule(strength=0, defense=3, modifier=-1).succeeds(1) is False  # 1 stays 1


# -- one die rule for rolling and odds -----------------------------------------------------
@pytest.mark.parametrize("rules", [(), (M1,), (M3,), (M9,), (M1, M3, M9)])
@pytest.mark.parametrize("order", [ADVANCE, AIMED])
def test_M1_M3_M9_rolled_dice_agree_with_the_odds_face_by_face(
    rules: tuple[HouseRule, ...], order: Order
) -> None:
    """For every face, the die hurts when rolled exactly when the odds say it can."""
    captain = sheet("captain", ws=5)
    units = [Place("cap", captain, S, "C3"), Place("boyz", CODEX["boyz"], N, "C4"), FAR]
    for weapon_index, target_cell in ((0, "C4"), (1, "C5")):  # sword in melee, pistol at 2
        placed = [units[0], Place("boyz", CODEX["boyz"], N, target_cell), FAR]
        state = house(playing(placed), *rules)
        if M3 in rules:
            ordered(state, cap=order)
        cap, boyz = state.units["cap"], state.units["boyz"]
        (die,) = set(dice_odds(state, cap, boyz, (weapon_index,)))
        for face in range(1, 7):
            count = len(dice_odds(state, cap, boyz, (weapon_index,)))
            _, events = act(state, Attack(S, "cap", "boyz", (weapon_index,)), dice=[face] * count)
            hurt = weapons_rolled(events)[0].successes
            assert hurt == (count if face >= die.needed else 0), (rules, order, face)


def test_M7_an_E10_advance_is_not_a_move() -> None:
    """The captain kills in melee and advances beside a watcher: no Overwatch."""
    units = [
        Place("cap", "captain", S, "C3"),
        Place("sla", "slaves", N, "C4", hp=1),
        Place("tac", BOLTER_SQUAD, N, "C5"),
    ]
    state = house(playing(units), M7)
    state, _ = act(state, Attack(S, "cap", "sla"), dice=[6, 6, 6])
    after, events = act(state, Advance(S, "cap", True))
    assert after.units["cap"].cell == c("C4")
    assert attacks(events) == [] and not after.units["tac"].overwatch_fired


def test_M7_later_watchers_hold_fire_once_the_mover_is_destroyed() -> None:
    units = [
        Place("a", BOLTER_SQUAD, S, "D2"),
        Place("b", BOLTER_SQUAD, S, "C3"),
        Place("foe", sheet("warriors", models=2), N, "D5"),
        FAR,
    ]
    after, events = act(m7_game(units), Move(N, "foe", (c("D4"), c("D3"))), dice=[6] * 5)
    assert [s.attacker for s in attacks(events)] == ["a"]
    assert after.units["foe"].destroyed and not after.units["b"].overwatch_fired


def test_M3_greedy_player_orders_aimed_fire_assault_and_advance() -> None:
    """Aimed Fire for a unit that can already shoot, Assault for a melee unit 2-4 cells from
    an enemy, Advance for the rest (and always for flyers)."""
    units = [
        Place("tac", "tactical", S, "C3"),  # Bolters reach kab at C5
        Place("asl", "assault", S, "F1"),  # melee only, 3 from sla at F4
        Place("cap", "captain", S, "A1"),  # far from everyone: Advance
        Place("raz", "razorwing", S, "B1"),
        Place("kab", BIG, N, "C5"),
        Place("sla", "slaves", N, "F4"),
    ]
    state = house(playing(units), M3)
    state.pending = (PendingOrders(S),)
    answer = GreedyPlayer().choose(state, random.Random(1))
    assert answer == GiveOrders(S, (UnitOrder("tac", AIMED), UnitOrder("asl", ASSAULT)))
    assert is_legal(state, answer)
