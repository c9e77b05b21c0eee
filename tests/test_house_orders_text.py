"""M3, M7, M1, M9 as players meet them: the ``orders`` verb, refusals, narration, defaults."""

from __future__ import annotations

import pytest

from tests.builders import Place, act, c, of_type, playing, sheet
from vahalite_bot.app.deadlines import default_answer
from vahalite_bot.codex.schema import SheetModel
from vahalite_bot.i18n import describe_error
from vahalite_bot.orders import describe_report, engine_step, run_orders
from vahalite_bot.present.narrate import Narrator
from vahalite_bot.present.paint import plain
from vahalite_bot.rules.actions import Attack, EndTurn, GiveOrders, Move, UnitOrder
from vahalite_bot.rules.dice import FixedDice
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import AttackResolved, OrdersGiven
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.order import Order
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, PendingOrders

S, N = Side.SOUTH, Side.NORTH
LANGS = ("en", "ru")


def orders_due(*rules: HouseRule) -> GameState:
    """South's turn of round 2 has begun with M3's orders due."""
    units = [
        Place("tac1", "tactical", S, "C2"),
        Place("asl1", "assault", S, "A1"),
        Place("kab1", "warriors", N, "C5"),
    ]
    state = playing(units, active=N, first=S)
    state.house = frozenset({HouseRule.ORDERS, *rules})
    after, _ = act(state, EndTurn(N))
    assert after.pending == (PendingOrders(S),)
    return after


@pytest.mark.parametrize(
    "message",
    ["orders tac1 aimed, asl1 assault", "приказ tac1 прицельная, asl1 штурм"],
)
def test_M3_orders_verb_gives_the_turns_orders(message: str) -> None:
    report = run_orders(orders_due(), S, message, engine_step(FixedDice([])))
    assert report.ok, describe_report(report, "en")
    state = report.state
    assert (state.units["tac1"].order, state.units["asl1"].order) == (
        Order.AIMED_FIRE,
        Order.ASSAULT,
    )
    assert state.pending == ()


def test_M3_orders_alone_gives_every_unit_advance_then_the_turn_goes_on() -> None:
    report = run_orders(orders_due(), S, "orders\ntac1 C3", engine_step(FixedDice([])))
    assert report.ok, describe_report(report, "en")
    assert report.state.units["tac1"].cell == c("C3")
    assert report.applied[0].step.resolved == GiveOrders(S)
    results = [a.result for a in report.applied if isinstance(a.result, list)]
    given = [e for events in results for e in events if isinstance(e, OrdersGiven)]
    assert given == [OrdersGiven(S, ())]


@pytest.mark.parametrize(("lang", "words"), [("en", "orders tac1"), ("ru", "приказ tac1")])
def test_M3_a_move_while_orders_are_due_is_refused_with_what_to_type(lang: str, words: str) -> None:
    report = run_orders(orders_due(), S, "tac1 C3", engine_step(FixedDice([])))
    assert not report.ok
    (refused,) = report.refused
    assert isinstance(refused.error, IllegalAction)
    assert (refused.error.rule, refused.error.code) == ("M3", "orders_pending")
    text = describe_error(refused.error, lang)
    assert words in text and "M3" in text


@pytest.mark.parametrize(
    "message",
    [
        "ход tac A2",
        "tac A1-A2",
        "move tac A2",
        "высадка pas",
        "disembark pas E2",
        "embark sco",
        "посадка sco rhino",
    ],
)
def test_M3_aimed_fire_refuses_every_way_of_writing_a_move_with_its_rule(message: str) -> None:
    """Issue 19: only a typed path got M3's reason; the rest were told the way is blocked,
    that there is no room to disembark or no transport in reach."""
    units = [
        Place("tac", "tactical", S, "A1"),
        Place("sco", "scouts", S, "D1"),
        Place("rhino", "rhino", S, "E1"),
        Place("pas", "warriors", S, "rhino"),
        Place("kab1", "warriors", N, "F6"),
    ]
    state = playing(units)
    state.house = frozenset({HouseRule.ORDERS})
    for handle in ("tac", "sco", "pas"):
        state.units[handle].order = Order.AIMED_FIRE
    report = run_orders(state, S, message, engine_step(FixedDice([])))
    (refused,) = report.refused
    assert isinstance(refused.error, IllegalAction), refused.error
    assert (refused.error.rule, refused.error.code) == ("M3", "aimed_fire_no_move")


@pytest.mark.parametrize("lang", LANGS)
def test_M3_an_order_without_its_word_is_refused_with_an_example(lang: str) -> None:
    report = run_orders(orders_due(), S, "orders tac1", engine_step(FixedDice([])))
    assert not report.ok
    text = describe_report(report, lang)
    assert "tac1" in text and ("orders" in text or "приказ" in text)


def test_M3_deadline_default_is_all_advance() -> None:
    """N1 with M3: nobody answered, so every unit Advances."""
    assert default_answer(PendingOrders(N)) == GiveOrders(N)
    after, events = act(orders_due(), default_answer(PendingOrders(S)))
    assert of_type(events, OrdersGiven) == [OrdersGiven(S, ())]
    assert after.pending == ()


@pytest.mark.parametrize("lang", LANGS)
def test_M3_narration_asks_for_orders_and_tells_them(lang: str) -> None:
    state = orders_due()
    narrator = Narrator(lang, plain)
    after, events = act(state, GiveOrders(S, (UnitOrder("tac1", Order.AIMED_FIRE),)))
    told = "\n".join(narrator.tell(events, after))
    assert "tac1" in told and ("Aimed Fire" in told or "Прицельная стрельба" in told)
    units = [Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "C5")]
    before = playing(units, active=N, first=S)
    before.house = frozenset({HouseRule.ORDERS})
    after, events = act(before, EndTurn(N))
    question = "\n".join(narrator.tell(events, after))
    assert ("orders tac1 aimed" in question) or ("приказ tac1 прицельная" in question)


@pytest.mark.parametrize("lang", LANGS)
def test_M7_M1_M9_narration_names_overwatch_and_the_modifier(lang: str) -> None:
    units = [
        Place("tac1", sheet("tactical", models=1), S, "C3"),
        Place("kab1", sheet("warriors", models=10), N, "C5"),
    ]
    state = playing(units, active=N)
    state.house = frozenset({HouseRule.OVERWATCH, HouseRule.NATURAL_ONE, HouseRule.WEAPON_SKILL})
    after, events = act(state, Move(N, "kab1", (c("C4"),)), dice=[6, 6])
    (shot,) = of_type(events, AttackResolved)
    assert shot.overwatch
    told = "\n".join(Narrator(lang, plain).tell(events, after))
    assert ("Overwatch" in told) or ("дозорную стрельбу" in told)
    # M9 in melee: the marine (WS 4) against a Kabalite (WS 3): +1, told with its dice.
    state = playing([Place("tac1", sheet("tactical", models=1), S, "C3"), *units[1:]])
    state.units["kab1"].cell = c("C4")
    state.house = frozenset({HouseRule.WEAPON_SKILL, HouseRule.NATURAL_ONE})
    after, events = act(state, Attack(S, "tac1", "kab1", (2,)), dice=[1])
    told = "\n".join(Narrator(lang, plain).tell(events, after))
    assert "+1" in told and ("1-6" in told)


def test_M9_ws_is_an_optional_codex_field() -> None:
    raw = {
        "id": "vet",
        "name": {"ru": "Ветераны", "en": "Veterans"},
        "slot": "elite",
        "points": 100,
        "type": "infantry",
        "models": 5,
        "wounds": 1,
        "defense": 5,
        "maneuverability": 2,
        "morale": 3,
        "weapons": [
            {"name": {"ru": "Ножи", "en": "Knives"}, "kind": "melee", "strength": 0, "dice": 1}
        ],
    }
    assert SheetModel.model_validate(raw).ws is None
    assert SheetModel.model_validate({**raw, "ws": 5}).ws == 5
    with pytest.raises(ValueError):
        SheetModel.model_validate({**raw, "ws": 0})
