"""No text crashes a reply (issue 12, must-fix 1): whatever a player types, however long,
the order runner answers with a report, and every catalogue message formats whatever its
parameters hold. A refused line of 800 characters used to raise ``MissingMessage`` (Fluent
refuses placeables over 1000 characters) and end the terminal game."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from fluent.syntax import FluentParser, ast
from fluent.syntax.visitor import Visitor
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.builders import SHEETS, Place, playing
from vahalite_bot.i18n import ECHO_LIMIT, LANGUAGES, LOCALES, shorten, translate
from vahalite_bot.orders import describe_report, engine_step, run_orders
from vahalite_bot.orders.lexicon import VERBS
from vahalite_bot.rules.actions import ChooseDeployOrder, RollOff
from vahalite_bot.rules.dice import FairDice, FixedDice
from vahalite_bot.rules.engine import acting_side, apply
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.rules.state import GameState, Phase, new_game
from vahalite_bot.selfplay.greedy import GreedyPlayer

S, N = Side.SOUTH, Side.NORTH
ISSUE_LINE = "reap1 > twar1 " * 400  # the line of the report: 5600 characters


@cache
def states() -> tuple[GameState, ...]:
    """A state of each setup step and one of play: each reads orders differently."""
    state = new_game(
        STANDARD,
        {
            S: [("tac1", SHEETS["tactical"]), ("rhi1", SHEETS["rhino"])],
            N: [("kab1", SHEETS["warriors"]), ("sla1", SHEETS["slaves"])],
        },
    )
    state, _ = apply(state, RollOff(), FixedDice([1]))
    state, _ = apply(state, ChooseDeployOrder(N, False), FixedDice([]))
    seen, player = [], GreedyPlayer()
    while state.phase is not Phase.PLAYING:
        seen.append(state)
        state, _ = apply(state, player.choose(state, random.Random(0)), FixedDice([]))
    seen.append(
        playing(
            [
                Place("tac1", "tactical", S, "C2"),
                Place("rhi1", "rhino", S, "E2"),
                Place("kab1", "warriors", N, "C4"),
                Place("sla1", "slaves", N, "F6"),
            ]
        )
    )
    return tuple(seen)


def reply(state: GameState, text: str, lang: str) -> str:
    side = acting_side(state) or S
    report = run_orders(state, side, text, engine_step(FairDice(b"crash")))
    return describe_report(report, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_reported_long_line_is_answered_with_its_start(lang: str) -> None:
    for state in states():
        text = reply(state, ISSUE_LINE, lang)
        assert text.startswith("✗ reap1 > twar1 reap1")  # what was refused, recognisably
        assert "…" in text and len(text) < 600  # shortened, not pasted back whole


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("word", ["cover", "укрытие", "rule", "help", "move", "deploy"])
def test_a_long_line_after_any_verb_is_answered(lang: str, word: str) -> None:
    for state in states():
        assert reply(state, f"{word} " + "x" * 3000, lang)
        assert reply(state, f"{word} " + "tac1 " * 700, lang)


# Words the order language knows, mixed with junk, so that lines get past the first check.
WORDS = [*sorted(VERBS)[::2], "tac1", "kab1", "rhi1", "C3", "Z9", ">", "-", "→", "1", "🙂"]
lines = st.one_of(
    st.text(max_size=3000),
    st.lists(st.sampled_from(WORDS), max_size=900).map(" ".join),
    st.tuples(st.sampled_from(WORDS), st.text(min_size=900, max_size=4000)).map(" ".join),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=lines, index=st.integers(min_value=0), lang=st.sampled_from(LANGUAGES))
def test_no_text_crashes_the_order_runner(text: str, index: int, lang: str) -> None:
    every = states()
    state = every[index % len(every)]
    answer = reply(state, text, lang)
    assert isinstance(answer, str)
    assert answer or not text.strip()  # something typed is answered


# -- every catalogue message, any parameters ------------------------------------------------
@cache
def message_variables(lang: str) -> dict[str, frozenset[str]]:
    """Each message's variables, with those of the messages it refers to (which Fluent
    formats with the same arguments)."""
    direct: dict[str, set[str]] = {}
    refers: dict[str, set[str]] = {}
    for path in sorted((LOCALES / lang).glob("*.ftl")):
        resource = FluentParser().parse(path.read_text(encoding="utf-8"))
        for entry in resource.body:
            if not isinstance(entry, ast.Message):
                continue
            finder = _References()
            finder.visit(entry)
            direct[entry.id.name] = finder.variables
            refers[entry.id.name] = finder.messages
    result: dict[str, frozenset[str]] = {}
    for name in direct:
        seen, todo, found = {name}, [name], set()
        while todo:
            current = todo.pop()
            found |= direct.get(current, set())
            for other in refers.get(current, set()) - seen:
                seen.add(other)
                todo.append(other)
        result[name] = frozenset(found)
    return result


class _References(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.variables: set[str] = set()
        self.messages: set[str] = set()

    def visit_VariableReference(self, node: ast.VariableReference) -> None:
        self.variables.add(node.id.name)
        self.generic_visit(node)

    def visit_MessageReference(self, node: ast.MessageReference) -> None:
        self.messages.add(node.id.name)
        self.generic_visit(node)


values = st.one_of(
    st.text(max_size=50),
    st.text(min_size=900, max_size=5000),
    st.integers(),
    st.sampled_from(["yes", "no", "other", "south", "north", "one", "few", "many"]),
)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_variable_scan_finds_the_messages(lang: str) -> None:
    found = message_variables(lang)
    assert len(found) > 300
    assert found["orders-report-refused"] == {"line", "reason"}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), lang=st.sampled_from(LANGUAGES))
def test_every_catalogue_message_survives_any_parameters(data: st.DataObject, lang: str) -> None:
    catalogue = message_variables(lang)
    message_id = data.draw(st.sampled_from(sorted(catalogue)))
    args: dict[str, Any] = {name: data.draw(values) for name in sorted(catalogue[message_id])}
    assert isinstance(translate(lang, message_id, **args), str)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalogue_message_takes_a_huge_text_in_every_parameter(lang: str) -> None:
    huge = "x" * 5000
    for message_id, names in message_variables(lang).items():
        assert isinstance(translate(lang, message_id, **dict.fromkeys(names, huge)), str)


def test_shorten_keeps_short_text_and_marks_the_cut() -> None:
    assert shorten("tac1 C4") == "tac1 C4"
    cut = shorten("y" * 500)
    assert len(cut) == ECHO_LIMIT and cut.endswith("…")
    assert shorten("abc def", 5) == "abc…"
