"""Where two house rules meet, as the rulebook's section M says they do, with fixed dice.

M2 with M7 and H5 (a unit shot to 0 by Overwatch still strikes; a falling transport keeps its
passenger until the damage step), M3 with M8 and E13 (orders decide who may charge; passengers
never do). M9 with M3 is ``test_M9_stacks_with_M3`` in ``test_house_m1_m3_m7_m9.py``.
"""

from __future__ import annotations

from tests.builders import SHEETS, Place, act, c, of_type, playing, refused, sheet
from vahalite_bot.rules.actions import (
    Attack,
    Charge,
    EndTurn,
    GiveOrders,
    Move,
    PlacePassenger,
    UnitOrder,
)
from vahalite_bot.rules.events import (
    AttackResolved,
    Charged,
    DamageStep,
    PassengersHit,
    PlacementRequired,
    TurnStarted,
    UnitDestroyed,
    UnitFalling,
)
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.order import Order
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, PendingOrders, PendingPlacement

S, N = Side.SOUTH, Side.NORTH
M2, M3, M7, M8 = (
    HouseRule.DAMAGE_AT_ROUND_END,
    HouseRule.ORDERS,
    HouseRule.OVERWATCH,
    HouseRule.CHARGE,
)
# Five Bolters (+1, a die per model): Overwatch hits Defense 4 and 6 on a natural 6 only.
BOLTER_SQUAD = sheet("tactical", weapons=(SHEETS["tactical"].weapons[0],))
FAR_S = Place("farS", "slaves", S, "A1")  # keep both armies on the board (J3)
FAR_N = Place("farN", "slaves", N, "F6")


def round_one(units: list[Place], *rules: HouseRule, active: Side = N) -> GameState:
    """Round 1, south went first; every unit's round-start HP (M2) is its HP now."""
    state = playing([*units, FAR_S, FAR_N], active=active)
    state.house = frozenset(rules)
    state.round_first = S
    for unit in state.units.values():
        unit.round_hp = unit.hp
    return state


def test_M2_M7_unit_shot_to_zero_by_overwatch_still_strikes_then_goes_in_step_1() -> None:
    """M7: "With M2 a unit shot to 0 still strikes"; M2 removes it in the damage step and
    credits the watcher (J2)."""
    pair = sheet("warriors", models=2)  # Defense 4, 2 HP, Knives +0 a die per model
    state = round_one([Place("tac", BOLTER_SQUAD, S, "C3"), Place("war", pair, N, "D5")], M2, M7)
    state, events = act(state, Move(N, "war", (c("D4"), c("D3"))), dice=[6, 6, 1, 1, 1])
    (shot,) = of_type(events, AttackResolved)
    assert shot.overwatch and shot.damage == 2
    assert of_type(events, UnitFalling) == [UnitFalling("war", N, "tac", "attack")]
    assert state.units["war"].cell == c("D3") and not state.units["war"].destroyed
    # Two knives (the models it had at the start of the round) against Defense 5: 5 and 6.
    state, events = act(state, Attack(N, "war", "tac"), dice=[5, 6])
    (blow,) = of_type(events, AttackResolved)
    assert (blow.attacker, blow.damage) == ("war", 2)
    assert state.units["tac"].hp == 3
    state, events = act(state, EndTurn(N))
    assert of_type(events, DamageStep)
    assert UnitDestroyed("war", N, "tac", "attack") in of_type(events, UnitDestroyed)
    assert "war" not in {u.id for u in state.living()}
    assert of_type(events, TurnStarted)[-1] == TurnStarted(2, S)


def test_M2_M7_H5_falling_transport_keeps_its_passenger_until_step_2() -> None:
    """Overwatch brings a Rhino to 0: with M2 it falls, its passenger stays inside and is hit
    only in the damage step (H5, step 2), where its owner places it."""
    squad = sheet("warriors", models=5)
    units = [
        Place("tac", BOLTER_SQUAD, S, "C3"),
        Place("rhino", "rhino", N, "D5", hp=1),
        Place("war", squad, N, "rhino"),
    ]
    state = round_one(units, M2, M7)
    state, events = act(state, Move(N, "rhino", (c("D4"), c("D3"))), dice=[6, 1, 1, 1, 1])
    assert of_type(events, UnitFalling) == [UnitFalling("rhino", N, "tac", "attack")]
    assert of_type(events, PassengersHit) == [] and not state.pending
    assert state.units["war"].embarked_in == "rhino"
    # The damage step: five dice at +1 against Defense 4 (two hit), then north places it.
    state, events = act(state, EndTurn(N), dice=[1, 1, 3, 1, 6])
    (hit,) = of_type(events, PassengersHit)
    assert (hit.unit, hit.damage) == ("war", 2)
    assert of_type(events, PlacementRequired)[0].unit == "war"
    assert isinstance(state.pending[0], PendingPlacement) and state.pending[0].side is N
    state, events = act(state, PlacePassenger(N, "war", c("D4")))
    assert state.units["war"].cell == c("D4") and state.units["war"].hp == 3
    assert state.units["rhino"].destroyed and state.units["rhino"].destroyed_by == "tac"
    assert of_type(events, AttackResolved) == []  # a placement is not a move: no Overwatch
    assert TurnStarted(2, S) in of_type(events, TurnStarted)


def test_M3_M8_E13_orders_decide_who_charges_and_passengers_never_do() -> None:
    """At round 2's start south gives orders: the Assault squad moves past its M and then
    charges (its one melee attack); the Assault passenger may not charge from inside its Rhino
    (E13); the Aimed Fire captain may not charge at all (M3)."""
    units = [
        Place("asl", "assault", S, "B1"),
        Place("rhi", "rhino", S, "F2"),
        Place("tac", "tactical", S, "rhi"),
        Place("cap", "captain", S, "D3"),
        Place("foe", sheet("warriors", models=10), N, "C6"),
    ]
    state = round_one(units, M3, M8)
    state, _ = act(state, EndTurn(N))
    assert isinstance(state.pending[0], PendingOrders)
    orders = (UnitOrder("asl", Order.ASSAULT), UnitOrder("tac", Order.ASSAULT))
    state, _ = act(state, GiveOrders(S, (*orders, UnitOrder("cap", Order.AIMED_FIRE))))
    assert SHEETS["assault"].maneuverability == 3
    path = tuple(c(name) for name in ("B2", "B3", "A3", "A4"))
    state, _ = act(state, Move(S, "asl", path))  # four steps: more than M, within Assault's 2 x M
    refused(state, Charge(S, "tac", "foe", c("B6")), "E13", "embarked_cannot_charge")
    refused(state, Charge(S, "cap", "foe", c("D6")), "M3", "aimed_fire_no_move")
    # A4 to C5 is three steps: reach 3 needs 11-12.
    _, events = act(state, Charge(S, "asl", "foe", c("C5")), dice=[6, 5] + [1] * 10)
    (charged,) = of_type(events, Charged)
    assert (charged.length, charged.reach, charged.made) == (3, 3, True)
    (blow,) = of_type(events, AttackResolved)
    assert blow.weapons[0].charge_dice == 5
