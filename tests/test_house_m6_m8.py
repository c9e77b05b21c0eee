"""House rules M6 (fall back) and M8 (charge), with fixed dice."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tests.builders import SHEETS, Place, act, c, of_type, playing, refused, sheet
from vahalite_bot.codex.loader import all_sheets, codex_factions
from vahalite_bot.i18n import describe_error
from vahalite_bot.orders import Order, OrderSyntaxError, parse_line, resolve
from vahalite_bot.present.narrate import Narrator
from vahalite_bot.present.paint import plain
from vahalite_bot.rules.actions import Attack, Charge, EndTurn, Move
from vahalite_bot.rules.charge import charge_odds, reach_of
from vahalite_bot.rules.codec import decode, encode
from vahalite_bot.rules.dice import FixedDice
from vahalite_bot.rules.engine import apply
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import (
    AttackResolved,
    Charged,
    FellBack,
    MoraleTested,
    Moved,
)
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.movement import reachable
from vahalite_bot.rules.order import Order as Order3
from vahalite_bot.rules.queries import legal_actions
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.sheets import Names, Weapon, WeaponKind
from vahalite_bot.rules.state import GameState
from vahalite_bot.selfplay.greedy_fallback import as_fall_back

S, N = Side.SOUTH, Side.NORTH
BOYZ = all_sheets(codex_factions())["boyz"]  # 10 Orks, Defense 4
BIG = sheet("warriors", models=10)  # Defense 4, 10 HP: a few hits bring no G1 test
FAR = Place("far", "slaves", N, "F6")  # keeps the game going when a target dies (J3)


def house(state: GameState, *rules: HouseRule) -> GameState:
    state.house = frozenset(rules)
    return state


# -- M6 ------------------------------------------------------------------------------------
def beside_boyz(*rules: HouseRule) -> GameState:
    state = playing([Place("tac", "tactical", S, "C3"), Place("boyz", BOYZ, N, "C4"), FAR])
    return house(state, *rules)


def test_M6_squad_beside_boyz_falls_back_no_dice_attack_refused() -> None:
    """rulebook M6's test: a squad beside Boyz falls back: no dice; its attack is refused."""
    state = beside_boyz(HouseRule.FALL_BACK)
    after, events = act(state, Move(S, "tac", (c("B3"), c("B2")), fall_back=True), dice=[])
    assert of_type(events, FellBack) == [FellBack("tac")]
    assert of_type(events, MoraleTested) == []
    assert after.units["tac"].cell == c("B2")
    refused(after, Attack(S, "tac", "far"), "M6", "fell_back_cannot_attack")
    assert not any(isinstance(a, Attack | Charge) and a.unit == "tac" for a in legal_actions(after))


def test_M6_plain_move_out_of_melee_still_tests_morale() -> None:
    """D5 stands beside M6: leaving melee without saying "fall back" rolls the test."""
    state = beside_boyz(HouseRule.FALL_BACK)
    _, events = act(state, Move(S, "tac", (c("B3"),)), dice=[6] * 5)
    assert len(of_type(events, MoraleTested)) == 1
    assert of_type(events, FellBack) == []


def test_M6_fall_back_without_the_house_rule_is_refused() -> None:
    refused(
        beside_boyz(), Move(S, "tac", (c("B3"),), fall_back=True), "M6", "fall_back_not_in_game"
    )


def test_M6_fall_back_out_of_melee_is_refused() -> None:
    state = house(
        playing([Place("tac", "tactical", S, "C2"), Place("boyz", BOYZ, N, "C5")]),
        HouseRule.FALL_BACK,
    )
    refused(state, Move(S, "tac", (c("B2"),), fall_back=True), "M6", "fall_back_not_in_melee")


def test_M6_fall_back_must_end_out_of_contact() -> None:
    state = beside_boyz(HouseRule.FALL_BACK)
    refused(
        state, Move(S, "tac", (c("D3"), c("D4")), fall_back=True), "M6", "fall_back_ends_in_contact"
    )


def test_M6_fall_back_into_a_transport_beside_the_enemy() -> None:
    """Embarked, the squad is out of the fight even if its transport stands next to Boyz."""
    state = playing(
        [
            Place("tac", "tactical", S, "C3"),
            Place("rhi", "rhino", S, "D3"),
            Place("boyz", BOYZ, N, "C4"),
        ]
    )
    house(state, HouseRule.FALL_BACK)
    after, events = act(state, Move(S, "tac", (c("D3"),), fall_back=True))
    assert after.units["tac"].embarked_in == "rhi"
    assert of_type(events, FellBack) == [FellBack("tac")]


def test_M6_legal_actions_offer_fall_backs_only_out_of_contact() -> None:
    falls = [
        a
        for a in legal_actions(beside_boyz(HouseRule.FALL_BACK))
        if isinstance(a, Move) and a.fall_back
    ]
    assert falls and all(a.unit == "tac" for a in falls)
    ends = {a.path[-1] for a in falls}
    assert c("B2") in ends and c("B4") not in ends and c("D4") not in ends


# -- M8: moving ------------------------------------------------------------------------------
def test_M8_move_may_not_end_beside_an_enemy_ground_unit() -> None:
    state = house(
        playing([Place("tac", "tactical", S, "C2"), Place("boyz", BOYZ, N, "C5")]),
        HouseRule.CHARGE,
    )
    error = refused(state, Move(S, "tac", (c("C3"), c("C4"))), "M8", "move_ends_in_contact")
    assert error.params["enemy"] == "boyz"
    cells = reachable(state, state.units["tac"])
    assert c("C4") not in cells and c("C3") in cells and c("B3") in cells


def test_M8_move_adjacency_only_with_the_house_rule() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("boyz", BOYZ, N, "C5")])
    assert c("C4") in reachable(state, state.units["tac"])


def test_M8_unit_that_began_adjacent_may_end_adjacent() -> None:
    state = house(beside_boyz(), HouseRule.CHARGE)
    after, _ = act(state, Move(S, "tac", (c("D3"), c("D4"))), dice=[6] * 5)
    assert after.units["tac"].cell == c("D4")


def test_M8_embarking_beside_an_enemy_is_allowed() -> None:
    state = playing(
        [
            Place("tac", "tactical", S, "C2"),
            Place("rhi", "rhino", S, "C4"),
            Place("boyz", BOYZ, N, "C5"),
        ]
    )
    house(state, HouseRule.CHARGE)
    after, _ = act(state, Move(S, "tac", (c("C3"), c("C4"))))
    assert after.units["tac"].embarked_in == "rhi"


# -- M8: charging ----------------------------------------------------------------------------
def assault_vs(target: str = "warriors", **terrain: TerrainKind) -> GameState:
    """The demo Assault Squad (five Chainswords, +1, a die per model) two steps from a foe."""
    units = [Place("asl", "assault", S, "C2"), Place("foe", BIG, N, "C5"), FAR]
    return house(playing(units, terrain=terrain), HouseRule.CHARGE)


def test_M8_L2_dice_3_and_4_reach_2_five_chainswords_roll_ten_dice() -> None:
    """rulebook M8's test: L = 2, dice 3 + 4: reach 2; five Chainswords roll ten dice."""
    after, events = act(assault_vs(), Charge(S, "asl", "foe", c("C4")), dice=[3, 4] + [1] * 10)
    (charged,) = of_type(events, Charged)
    assert (charged.length, charged.reach, charged.made) == (2, 2, True)
    assert [d.value for d in charged.dice] == [3, 4]
    assert charged.path == (c("C3"), c("C4"))
    (blow,) = of_type(events, AttackResolved)
    (swords,) = blow.weapons
    assert (swords.dice_count, swords.charge_dice, len(swords.dice)) == (10, 5, 10)
    assert after.units["asl"].cell == c("C4") and after.units["asl"].attacked
    assert of_type(events, Moved) == []  # not a move under C2
    refused(after, Move(S, "asl", (c("B4"),)), "C2", "move_after_attack")


def test_M8_extra_die_per_current_model() -> None:
    """E7: three models left, so three extra dice on the per-model Chainswords."""
    state = assault_vs()
    state.units["asl"].hp = 3
    state.units["asl"].morale_tested = True
    _, events = act(state, Charge(S, "asl", "foe", c("C4")), dice=[6, 6] + [1] * 6)
    (swords,) = of_type(events, AttackResolved)[0].weapons
    assert (swords.dice_count, swords.charge_dice) == (6, 3)


def test_M8_extra_die_on_a_fixed_weapon_is_one_die() -> None:
    fist = Weapon(Names("кулак", "fist"), WeaponKind.MELEE, 4, 1, per_model=False)
    units = [Place("cap", sheet("captain", weapons=(fist,)), S, "C2"), Place("foe", BIG, N, "C5")]
    state = house(playing([*units, FAR]), HouseRule.CHARGE)
    _, events = act(state, Charge(S, "cap", "foe", c("C4")), dice=[5, 5, 1, 1])
    (weapon,) = of_type(events, AttackResolved)[0].weapons
    assert (weapon.dice_count, weapon.charge_dice) == (2, 1)


def test_M8_failed_charge_stays_and_cannot_attack() -> None:
    after, events = act(assault_vs(), Charge(S, "asl", "foe", c("C4")), dice=[1, 2])
    (charged,) = of_type(events, Charged)
    assert (charged.reach, charged.made) == (1, False)
    assert of_type(events, AttackResolved) == []
    assert after.units["asl"].cell == c("C2")
    refused(after, Attack(S, "asl", "far"), "E5", "already_attacked")
    refused(after, Charge(S, "asl", "foe", c("C4")), "E5", "already_attacked")


def test_M8_no_extra_die_into_cover() -> None:
    state = assault_vs(C5=TerrainKind.COVER)
    _, events = act(state, Charge(S, "asl", "foe", c("C4")), dice=[6, 6] + [1] * 5)
    (swords,) = of_type(events, AttackResolved)[0].weapons
    assert (swords.dice_count, swords.charge_dice) == (5, 0)


def test_M8_adjacent_cell_one_step_away_rolls_no_reach() -> None:
    state = assault_vs()
    state.units["asl"].cell = c("C3")
    _, events = act(state, Charge(S, "asl", "foe", c("C4")), dice=[1] * 10)
    (charged,) = of_type(events, Charged)
    assert (charged.length, charged.dice, charged.reach, charged.made) == (1, (), None, True)


def test_M8_vehicle_cannot_charge() -> None:
    ram = Weapon(Names("таран", "ram"), WeaponKind.MELEE, 2, 1, per_model=False)
    units = [Place("tank", sheet("predator", weapons=(ram,)), S, "C2"), Place("foe", BIG, N, "C5")]
    state = house(playing(units), HouseRule.CHARGE)
    refused(state, Charge(S, "tank", "foe", c("C4")), "M8", "cannot_charge_type")


def test_M8_walker_may_charge() -> None:
    units = [Place("dread", "dreadnought", S, "C2"), Place("foe", BIG, N, "C5"), FAR]
    state = house(playing(units), HouseRule.CHARGE)
    _, events = act(state, Charge(S, "dread", "foe", c("C4")), dice=[6, 6, 1, 1, 1])
    assert of_type(events, Charged)[0].made


def test_M8_passenger_and_disembarked_unit_cannot_charge() -> None:
    units = [
        Place("rhi", "rhino", S, "C2"),
        Place("tac", "tactical", S, "rhi"),
        Place("foe", BIG, N, "C5"),
    ]
    state = house(playing(units), HouseRule.CHARGE)
    refused(state, Charge(S, "tac", "foe", c("C4")), "E13", "embarked_cannot_charge")
    out, _ = act(state, Move(S, "tac", (c("B2"),)))
    refused(out, Charge(S, "tac", "foe", c("B5")), "H3", "disembarked_cannot_attack")


def test_M8_charge_refusals() -> None:
    state = assault_vs()
    refused(state, Charge(S, "asl", "foe", c("D4")), "M8", "charge_cell_not_beside")
    far = assault_vs()
    far.units["asl"].cell = c("A1")
    refused(far, Charge(S, "asl", "foe", c("C4")), "M8", "charge_too_far")
    off = playing([Place("asl", "assault", S, "C2"), Place("foe", BIG, N, "C5")])
    refused(off, Charge(S, "asl", "foe", c("C4")), "M8", "charge_not_in_game")
    touching = assault_vs()
    touching.units["far"].cell = c("C3")
    refused(touching, Charge(S, "asl", "foe", c("C4")), "M8", "charge_from_contact")


def test_M8_charge_after_falling_back_is_refused() -> None:
    """M6 and M8 meet: a unit that fell back makes no attack, a charge included."""
    state = playing([Place("asl", "assault", S, "C3"), Place("boyz", BOYZ, N, "C4"), FAR])
    house(state, HouseRule.FALL_BACK, HouseRule.CHARGE)
    after, _ = act(state, Move(S, "asl", (c("B3"), c("A3")), fall_back=True))
    refused(after, Charge(S, "asl", "boyz", c("B4")), "M6", "fell_back_cannot_attack")


def test_M8_reach_table() -> None:
    assert [reach_of(t) for t in range(2, 13)] == [1] * 5 + [2] * 4 + [3] * 2


def test_M8_exact_odds_of_a_charge() -> None:
    odds = charge_odds(assault_vs(), assault_vs().units["asl"], assault_vs().units["foe"], c("C4"))
    assert (odds.length, odds.made) == (2, Fraction(21, 36))
    # Ten dice at 3+ (2/3 each), made 21/36 of the time; a failed charge deals nothing.
    assert odds.expected == Fraction(21, 36) * 10 * Fraction(2, 3)
    assert sum(odds.damage) == 1
    assert odds.damage[0] == Fraction(15, 36) + Fraction(21, 36) * Fraction(1, 3) ** 10


def test_M8_legal_actions_list_charges_and_every_one_applies() -> None:
    state = assault_vs()
    state.units["asl"].cell = c("C3")
    charges = [a for a in legal_actions(state) if isinstance(a, Charge)]
    assert {(a.target, a.cell) for a in charges} == {
        ("foe", c("C4")),
        ("foe", c("B5")),
        ("foe", c("D5")),
    }
    for action in charges:
        after, _ = apply(state, action, FixedDice([6] * 40))
        assert after.units["asl"].cell == action.cell


def test_M8_charge_triggers_overwatch_before_the_blow() -> None:
    """M7 meets M8: the charged unit's bolters fire before the Chainswords strike."""
    units = [Place("asl", "assault", S, "C2"), Place("tac", "tactical", N, "C5"), FAR]
    state = house(playing(units), HouseRule.CHARGE, HouseRule.OVERWATCH)
    _, events = act(state, Charge(S, "asl", "tac", c("C4")), dice=[6, 6] + [1] * 6 + [1] * 10)
    attacks = of_type(events, AttackResolved)
    assert [a.attacker for a in attacks] == ["tac", "asl"]
    assert attacks[0].overwatch


# -- the log ---------------------------------------------------------------------------------
def test_M6_M8_actions_and_events_round_trip_through_the_log() -> None:
    """K1: the new action and event values survive JSON; an old Move keeps its shape."""
    _, charge_events = act(assault_vs(), Charge(S, "asl", "foe", c("C4")), dice=[3, 4] + [1] * 10)
    _, fall_events = act(
        beside_boyz(HouseRule.FALL_BACK), Move(S, "tac", (c("B3"),), fall_back=True)
    )
    values = [
        Charge(S, "asl", "foe", c("C4")),
        Move(S, "tac", (c("B3"),), fall_back=True),
        *charge_events,
        *fall_events,
    ]
    for value in values:
        assert decode(json.loads(json.dumps(encode(value)))) == value
    assert "fall_back" not in encode(Move(S, "tac", (c("B3"),)))
    assert decode({"type": "Move", "side": "south", "unit": "tac", "path": ["B3"]}) == Move(
        S, "tac", (c("B3"),)
    )


def test_M6_end_turn_clears_fall_back() -> None:
    state = beside_boyz(HouseRule.FALL_BACK)
    after, _ = act(state, Move(S, "tac", (c("B3"), c("B2")), fall_back=True))
    after, _ = act(after, EndTurn(S))
    assert not after.units["tac"].fell_back
    assert SHEETS["assault"].weapons[0].per_model  # the M8 test's premise: a die per model


# -- the order language ----------------------------------------------------------------------
def test_M8_charge_order_picks_the_nearest_cell_or_the_named_one() -> None:
    state = assault_vs()
    assert resolve(parse(state, "charge asl foe"), state, S) == Charge(S, "asl", "foe", c("C4"))
    named = resolve(parse(state, "натиск asl на foe B5"), state, S)
    assert named == Charge(S, "asl", "foe", c("B5"))


def test_M8_charge_order_without_the_rule_is_refused_by_the_engine() -> None:
    state = playing([Place("asl", "assault", S, "C2"), Place("foe", BIG, N, "C5")])
    action = resolve(parse(state, "charge asl foe"), state, S)
    assert isinstance(action, Charge)
    refused(state, action, "M8", "charge_not_in_game")


def test_M6_fall_back_order_is_a_move_with_fall_back() -> None:
    state = beside_boyz(HouseRule.FALL_BACK)
    action = resolve(parse(state, "отступить tac B2"), state, S)
    assert isinstance(action, Move) and action.fall_back
    assert (action.unit, len(action.path), action.path[-1]) == ("tac", 2, c("B2"))
    assert resolve(parse(state, "fall back tac C3-B3"), state, S) == Move(
        S, "tac", (c("B3"),), fall_back=True
    )


def test_M8_move_order_into_contact_names_the_rule() -> None:
    state = house(
        playing([Place("tac", "tactical", S, "C2"), Place("boyz", BOYZ, N, "C5")]),
        HouseRule.CHARGE,
    )
    with pytest.raises(IllegalAction) as caught:
        resolve(parse(state, "move tac C4"), state, S)
    assert (caught.value.rule, caught.value.code) == ("M8", "move_ends_in_contact")
    for lang in ("en", "ru"):
        assert "boyz" in describe_error(caught.value, lang)


def parse(state: GameState, text: str) -> Order:
    order = parse_line(text)
    assert not isinstance(order, OrderSyntaxError), order
    return order


def test_M8_aimed_fire_unit_cannot_charge() -> None:
    """M3 meets M8: Aimed Fire allows no move of any kind, a charge included."""
    state = assault_vs()
    house(state, HouseRule.CHARGE, HouseRule.ORDERS)
    state.units["asl"].order = Order3.AIMED_FIRE
    refused(state, Charge(S, "asl", "foe", c("C4")), "M3", "aimed_fire_no_move")
    state.units["asl"].order = Order3.ASSAULT  # Assault's one melee attack may be a charge
    _, events = act(state, Charge(S, "asl", "foe", c("C4")), dice=[6, 6] + [1] * 10)
    assert of_type(events, Charged)[0].made


def test_M8_charge_and_M6_fall_back_are_told_in_both_languages() -> None:
    """E14 for the new events: the 2D6, the reach, the extra dice, the fall back."""
    charged, charge_events = act(
        assault_vs(), Charge(S, "asl", "foe", c("C4")), dice=[3, 4] + [1] * 10
    )
    fell, fall_events = act(
        beside_boyz(HouseRule.FALL_BACK), Move(S, "tac", (c("B3"),), fall_back=True)
    )
    for lang in ("en", "ru"):
        narrator = Narrator(lang, plain)
        told = "\n".join(narrator.tell(charge_events, charged))
        assert "3 4" in told and "+5" in told and "C4" in told
        assert len(narrator.tell(fall_events, fell)) == 2


def test_M6_greedy_player_falls_back_when_it_has_nothing_to_attack() -> None:
    """The automatic player uses M6: out of melee with nothing in reach, no morale test."""
    state = beside_boyz(HouseRule.FALL_BACK)
    away = Move(S, "tac", (c("B3"), c("B2")))
    assert as_fall_back(state, away) == Move(S, "tac", (c("B3"), c("B2")), fall_back=True)
    assert as_fall_back(beside_boyz(), away) == away  # M6 off: the plain move
