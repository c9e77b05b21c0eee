"""Issue 22: the search player explains itself in practice games — ``hint`` / ``подсказка``
shows the three best actions it sees, as orders that can be typed; never in hot-seat."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from tests.test_console_game import _precompute, lobby_answers, refusals, run_console
from tests.test_selfplay_levels import duel
from vahalite_bot.orders import OrderSyntaxError, parse_line, resolve
from vahalite_bot.orders.model import HintOrder
from vahalite_bot.present.advice import advise, can_hint
from vahalite_bot.rules.actions import Action, Attack
from vahalite_bot.rules.dice import FairDice
from vahalite_bot.rules.engine import acting_side, apply
from vahalite_bot.rules.queries import is_legal
from vahalite_bot.rules.state import GameState
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.selfplay.hard import HardPlayer

LINE = re.compile(r"^(\d)\. (.+?) — ", re.MULTILINE)


def hinted(text: str) -> list[str]:
    return [order for _, order in LINE.findall(text)]


def typed_action(order: str, state: GameState) -> Action:
    parsed = parse_line(order)
    side = acting_side(state)
    assert side is not None
    assert not isinstance(parsed, OrderSyntaxError), order
    resolved = resolve(parsed, state, side)
    assert isinstance(resolved, Action), (order, resolved)
    return resolved


@pytest.mark.parametrize("word", ["hint", "подсказка", "подскажи", "tip"])
def test_the_hint_words_are_read(word: str) -> None:
    assert parse_line(word) == HintOrder()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_hint_shows_three_ranked_orders_that_are_typed_back_to_legal_actions(lang: str) -> None:
    """Along a real game, at turns with an attack on offer: three lines, best first, each an
    order that the order language reads back to the very action the search ranked."""
    record = duel(GreedyPlayer(), GreedyPlayer(), 3, 5)
    state = record.initial
    checked = 0
    for number, action in enumerate(record.actions):
        if can_hint(state) and isinstance(action, Attack) and checked < 4:
            player = HardPlayer(node_limit=80)
            text = advise(state, lang, player, seed=number)
            orders = hinted(text)
            assert len(orders) == 3, text
            assert [int(p) for p, _ in LINE.findall(text)] == [1, 2, 3]
            ranked = [c.action for c in player.last]
            for order in orders:
                typed = typed_action(order, state)
                assert is_legal(state, typed), order
                assert typed in ranked, order
            # In the search's order: the first is the action the bot itself would take.
            assert [typed_action(o, state) for o in orders] == ranked[:3]
            checked += 1
        state, _ = apply(state, action, FairDice(record.seed))
    assert checked == 4


def test_no_hint_outside_a_turn() -> None:
    record = duel(GreedyPlayer(), GreedyPlayer(), 3, 5)
    assert not can_hint(record.initial)  # the set-up: nothing for the search to rank
    text = advise(record.initial, "en", HardPlayer(node_limit=10), seed=1)
    assert "no move to hint now" in text


def _turn_lines(vs: str | None, folder: Path) -> list[str]:
    """The lobby and South's orders up to its first move of the battle."""
    script = asyncio.run(_precompute(folder / "expected", vs))
    first_move = next(i for i, line in enumerate(script.lines) if line.startswith("ход "))
    return [*lobby_answers(), *script.lines[:first_move]]


def test_the_terminal_hints_in_a_game_against_the_bot(tmp_path: Path) -> None:
    lines = _turn_lines("hard", tmp_path)
    config = tmp_path / "config.toml"
    config.write_text("[game]\nbot_think_ms = 40\n", encoding="utf-8")
    output = run_console(
        tmp_path, [*lines, "подсказка", "выход"], "--config", str(config), vs="hard"
    )
    assert refusals(output) == []
    text = output.split("Лучшие действия, которые сейчас видит поиск (3):")[1]
    assert len(hinted(text)) == 3
    for order in hinted(text):
        assert not isinstance(parse_line(order), OrderSyntaxError), order


def test_the_terminal_refuses_a_hint_in_hot_seat(tmp_path: Path) -> None:
    lines = _turn_lines(None, tmp_path)
    output = run_console(tmp_path, [*lines, "подсказка", "выход"], vs=None)
    assert "Подсказка есть только в партии против автоматического игрока" in output
    assert "Лучшие действия" not in output
