"""Messages of several orders: applied in order, stopped at the first refusal, reported."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.builders import Place, playing
from vahalite_bot.i18n import describe_error
from vahalite_bot.orders import (
    BoardRequest,
    OrderError,
    OrderSyntaxError,
    Step,
    describe_report,
    engine_step,
    parse_message,
    resolve,
    run_orders,
    run_orders_async,
    split_lines,
)
from vahalite_bot.orders.lexicon import LINK_WORDS, VERBS
from vahalite_bot.rules.dice import FairDice, FixedDice
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState

S, N = Side.SOUTH, Side.NORTH


def board() -> GameState:
    return playing(
        [
            Place("tac1", "tactical", S, "C2"),
            Place("cap1", "captain", S, "A1"),
            Place("rhi1", "rhino", S, "E2"),
            Place("kab1", "warriors", N, "C4"),
            Place("sla1", "slaves", N, "F6"),
        ]
    )


def test_every_line_applies_in_order_against_the_state_the_last_one_left() -> None:
    state = playing(
        [
            Place("tac1", "tactical", S, "C2"),
            Place("cap1", "captain", S, "B2"),
            Place("kab1", "warriors", N, "F6"),
        ]
    )
    message = "tac1 C3\n\nB2-C2\n"
    report = run_orders(state, S, message, engine_step(FixedDice([])))
    assert report.ok and report.skipped == ()
    assert [a.line for a in report.applied] == ["tac1 C3", "B2-C2"]
    # "B2-C2" alone would be refused (C2 is tac1's): it is judged after "tac1 C3".
    assert report.state.units["cap1"].cell == Cell.parse("C2")
    assert report.state.units["tac1"].cell == Cell.parse("C3")


def test_stops_at_the_first_refusal_and_says_what_applied_and_what_did_not() -> None:
    message = "tac1 C3\ncap1 A2\ncap1 A3\nend"
    report = run_orders(board(), S, message, engine_step(FixedDice([])))
    assert [a.line for a in report.applied] == ["tac1 C3", "cap1 A2"]
    (refused,) = report.refused
    assert refused.line == "cap1 A3"
    assert isinstance(refused.error, IllegalAction) and refused.error.code == "already_moved"
    assert report.skipped == ("end",)
    assert report.state.units["cap1"].cell == Cell.parse("A2")
    assert report.state.active is S  # "end" was not applied
    text = describe_report(report, "en")
    assert text.splitlines() == [
        "✓ tac1 C3",
        "✓ cap1 A2",
        "✗ cap1 A3 — (rule C2) cap1 has already moved this turn.",
        "… not tried: end",
    ]


def test_an_order_error_stops_the_run_with_its_suggestion() -> None:
    report = run_orders(board(), S, "tac1 C3\nmove tak1 C4\nend", engine_step(FixedDice([])))
    assert [a.line for a in report.applied] == ["tac1 C3"]
    assert isinstance(report.refused[0].error, OrderError)
    assert "Может быть, «tac1» (Тактическое отделение)?" in describe_report(report, "ru")


def test_a_line_that_does_not_parse_stops_the_whole_message_before_anything_applies() -> None:
    state = board()
    report = run_orders(state, S, "tac1 C3\nfly cap1 A2\nend\nзабей", engine_step(FixedDice([])))
    assert report.applied == ()
    assert [r.line for r in report.refused] == ["fly cap1 A2", "забей"]
    assert all(isinstance(r.error, OrderSyntaxError) for r in report.refused)
    assert report.skipped == ("tac1 C3", "end")
    assert report.state is state


def test_attack_then_end_rolls_the_dice_through_the_callback() -> None:
    """E6: the dice come from the caller's stream; the attack resolves, the turn ends."""
    state = playing(
        [
            Place("tac1", "tactical", S, "C2"),
            Place("kab1", "warriors", N, "C4"),
            Place("sla1", "slaves", N, "F6"),
        ]
    )
    report = run_orders(state, S, "shoot tac1 kab1 1\nend", engine_step(FixedDice([6, 6, 1, 1, 1])))
    assert report.ok
    assert report.state.units["kab1"].hp == 6 - 2  # bolters: a die per model, two hit ...
    assert report.state.active is N  # ... and the turn passed


def test_requests_reach_the_callback_and_change_nothing() -> None:
    state = board()
    seen: list[Any] = []

    def callback(current: GameState, step: Step) -> tuple[GameState, None]:
        seen.append(step.resolved)
        return current, None

    report = run_orders(state, S, "board\nhelp", callback)
    assert report.ok and seen[0] == BoardRequest()


def test_the_callers_own_refusals_stop_the_run_too() -> None:
    class NotAllowed(Exception):
        pass

    def callback(current: GameState, step: Step) -> tuple[GameState, None]:
        raise NotAllowed("game paused")

    report = run_orders(board(), S, "tac1 C3\nend", callback, refusals=(NotAllowed,))
    assert isinstance(report.refused[0].error, NotAllowed)
    assert report.skipped == ("end",)
    text = describe_report(report, "en", other=lambda e, lang: f"paused ({lang})")
    assert text.splitlines()[0] == "✗ tac1 C3 — paused (en)"


def test_async_callback_gives_the_same_report() -> None:
    step_sync = engine_step(FixedDice([]))

    async def callback(current: GameState, step: Step) -> tuple[GameState, Any]:
        return step_sync(current, step)

    message = "tac1 C3\ncap1 A2\ncap1 A3\nend"
    report = asyncio.run(run_orders_async(board(), S, message, callback))
    assert [a.line for a in report.applied] == ["tac1 C3", "cap1 A2"]
    assert report.refused[0].line == "cap1 A3" and report.skipped == ("end",)


def test_lines_may_come_as_a_list() -> None:
    report = run_orders(board(), S, ["tac1 C3", "", "cap1 A2"], engine_step(FixedDice([])))
    assert [a.line for a in report.applied] == ["tac1 C3", "cap1 A2"]


# -- never an exception but the documented ones ------------------------------------------
TOKENS = [
    *[v for v in VERBS if " " not in v][::3],
    *sorted(LINK_WORDS)[::4],
    "tac1",
    "cap1",
    "rhi1",
    "kab1",
    "sla1",
    "tak1",
    "такт",
    "воинов",
    "rhino",
    "C2",
    "С3",
    "C4",
    "A1",
    "E2",
    "E3",
    "F6",
    "G9",
    "Z99",
    "1",
    "2",
    "7",
    "-",
    ">",
    "\n",
    "melee",
    "cover",
    "first",
    "no",
]


@st.composite
def order_lines(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=7))
    return " ".join(words)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(order_lines(), st.text(max_size=40)), st.sampled_from([S, N]))
def test_parse_and_resolve_never_raise_but_order_error_or_illegal_action(
    text: str, side: Side
) -> None:
    state = board()
    for parsed in parse_message(text):
        if isinstance(parsed, OrderSyntaxError):
            continue
        with contextlib.suppress(OrderError, IllegalAction):
            resolve(parsed, state, side)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(order_lines(), min_size=1, max_size=4), st.sampled_from([S, N]))
def test_running_any_message_through_the_engine_always_reports(
    lines: list[str], side: Side
) -> None:
    report = run_orders(board(), side, lines, engine_step(FairDice(b"orders")))
    accounted = [a.line for a in report.applied] + [r.line for r in report.refused]
    readable = split_lines("\n".join(lines))
    if not "".join(lines).strip():  # nothing typed at all: nothing to answer
        assert not report.applied and not report.refused
        return
    if not readable:  # nothing but signs: answered, never silence (issue 12)
        assert [r.error.code for r in report.refused if isinstance(r.error, OrderSyntaxError)] == [
            "no_order"
        ]
        return
    assert sorted(accounted + list(report.skipped)) == sorted(readable)


def test_an_enemy_unit_is_refused_as_not_yours_in_the_games_word_with_no_rule() -> None:
    """Issue 19: "kop1 — не ваш юнит (правило C2)": the game says «отряд», and C2 (move,
    then attack) is not the reason; no rule says it, so none is named."""
    state = playing(
        [Place("tac1", "tactical", S, "C2"), Place("kop1", "warriors", N, "C5")],
    )
    report = run_orders(state, S, "kop1 C4", engine_step(FixedDice([])))
    (refused,) = report.refused
    assert isinstance(refused.error, IllegalAction)
    assert describe_error(refused.error, "ru") == "kop1 — не ваш отряд."
    assert describe_error(refused.error, "en") == "kop1 is not your unit."
