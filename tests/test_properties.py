"""Property tests over complete self-play games (setup included), for random seeds and
player pairs: the state invariants after every action, the log against the state at the
end, and exact replay (K1, K2). The checkers themselves are shown to catch planted faults."""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.builders import Place, playing
from vahalite_bot.rules import combat
from vahalite_bot.rules.actions import Action, Attack
from vahalite_bot.rules.dice import Die
from vahalite_bot.rules.events import AttackResolved, Event, GameEnded, Score, UnitDestroyed
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.queries import is_legal, legal_actions
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.selfplay.cli import PLAYERS
from vahalite_bot.selfplay.game import GameRecord, game_seed, play_game
from vahalite_bot.selfplay.invariants import (
    dice_problems,
    log_problems,
    replay_problems,
    score_problems,
    state_problems,
    turn_problems,
)
from vahalite_bot.selfplay.players import Player

S, N = Side.SOUTH, Side.NORTH
PAIRS = [("greedy", "greedy"), ("greedy", "random"), ("random", "greedy"), ("random", "random")]

seeds = st.integers(min_value=0, max_value=2**32)
pairs = st.sampled_from(PAIRS)


def players(pair: tuple[str, str]) -> dict[Side, Player]:
    return {S: PLAYERS[pair[0]](), N: PLAYERS[pair[1]]()}


@cache
def checked_game(seed: int, pair: tuple[str, str]) -> GameRecord:
    """A complete game; the state invariants are asserted after every single action."""

    def check(state: GameState, action: Action, events: list[Event]) -> None:
        assert state_problems(state) == [], (action, events)

    record = play_game(players(pair), game_seed(seed, 0), observe=check)
    assert record.finished, f"{len(record.actions)} actions and no end"
    return record


@settings(max_examples=25, deadline=None)
@given(seed=seeds, pair=pairs)
def test_games_end_and_keep_invariants(seed: int, pair: tuple[str, str]) -> None:
    """B5, D2, D4, F1, F2, H1: after every action at most one unit per cell (a transport and
    its passenger aside), nobody on a cell it may not occupy, HP within bounds; at the end
    K1 dice (d6, consecutive positions), C2/E5 turn discipline and J2 VP from the events."""
    record = checked_game(seed, pair)
    assert log_problems(record) == []


@settings(max_examples=25, deadline=None)
@given(seed=seeds, pair=pairs)
def test_K1_K2_replay_reproduces_the_game(seed: int, pair: tuple[str, str]) -> None:
    """K1: the action list with the recorded dice, and K2: with the seed, give the same state
    and events; the revealed seed reproduces every die."""
    assert replay_problems(checked_game(seed, pair)) == []


def question_problems(state: GameState) -> list[str]:
    """The engine's questions and ``apply`` agree: every listed action is accepted, and an
    attack is accepted exactly when ``attack_options`` lists it (E2-E5, E10-E13, H3, H4)."""
    problems = [f"listed but refused: {a}" for a in legal_actions(state) if not is_legal(state, a)]
    if state.pending or state.active is None:
        return problems
    for unit in state.living(state.active):
        listed = {(o.target, o.melee) for o in combat.attack_options(state, unit)}
        for target in state.living(state.active.other):
            for melee in (True, False):
                attack = Attack(state.active, unit.id, target.id, melee=melee)
                if is_legal(state, attack) != ((target.id, melee) in listed):
                    problems.append(f"attack_options and apply disagree on {attack}")
    return problems


@settings(max_examples=10, deadline=None)
@given(seed=seeds, pair=pairs)
def test_questions_agree_with_apply(seed: int, pair: tuple[str, str]) -> None:
    """Checked in play (setup's lists are built from apply itself) on every third state,
    to keep the test fast."""
    found: list[str] = []
    count = 0

    def check(state: GameState, action: Action, events: list[Event]) -> None:
        nonlocal count
        if state.phase is Phase.PLAYING:
            count += 1
            if count % 3 == 0:
                found.extend(question_problems(state))

    play_game(players(pair), game_seed(seed, 1), observe=check)
    assert found == []


# -- the checkers catch what they are for --------------------------------------------------
def two_units() -> GameState:
    return playing(
        [Place("tac", "tactical", S, "B2"), Place("war", "warriors", N, "B5")],
        terrain={"C3": TerrainKind.WATER, "D3": TerrainKind.COVER},
    )


def test_state_checker_accepts_a_sound_state() -> None:
    assert state_problems(two_units()) == []


@pytest.mark.parametrize(
    ("unit", "change", "expected"),
    [
        ("war", {"cell": (1, 1)}, "share B2"),
        ("tac", {"cell": (2, 2)}, "on C3"),  # D2: nobody stands in Water
        ("tac", {"hp": 6}, "hp 6 outside 1..5"),
        ("tac", {"hp": 0}, "hp 0 outside"),
        ("tac", {"destroyed": True}, "destroyed tac"),
        ("tac", {"cell": None, "embarked_in": "war"}, "not a friendly transport"),
        ("tac", {"cell": None}, "nowhere"),
    ],
)
def test_state_checker_catches_broken_states(
    unit: str, change: dict[str, object], expected: str
) -> None:
    state = two_units()
    target = state.units[unit]
    for name, value in change.items():
        if name == "cell" and isinstance(value, tuple):
            value = Cell(*value)
        setattr(target, name, value)
    problems = state_problems(state)
    assert any(expected in p for p in problems), problems


def test_state_checker_catches_a_unit_deployed_outside_its_zone() -> None:
    state = playing([Place("tac", "tactical", S, "B3")])
    assert state_problems(state) == []  # in play a unit may stand anywhere it can enter
    state.round = 0
    assert any("outside its zone" in p for p in state_problems(state))


def test_state_checker_catches_a_vehicle_in_cover() -> None:
    state = playing([Place("pred", "predator", S, "D3")], terrain={"D3": TerrainKind.COVER})
    assert state_problems(state) != []


@cache
def sample_game() -> GameRecord:
    return play_game(players(("greedy", "greedy")), game_seed(5, 0))


def test_log_checkers_accept_a_real_game() -> None:
    record = sample_game()
    assert record.finished
    assert log_problems(record) == []
    assert any(isinstance(e, UnitDestroyed) for e in record.events)


def tampered(record: GameRecord, index: int, event: Event) -> GameRecord:
    events = list(record.events)
    events[index] = event
    return dataclasses.replace(record, events=tuple(events))


def first(record: GameRecord, kind: type[Event]) -> int:
    return next(i for i, e in enumerate(record.events) if isinstance(e, kind))


def test_dice_checker_catches_a_bad_value_and_a_gap() -> None:
    record = sample_game()
    at = first(record, AttackResolved)
    attack = record.events[at]
    assert isinstance(attack, AttackResolved)
    rolled = attack.weapons[0]
    die = rolled.dice[0]
    for bad in (Die(die.position, die.purpose, 7), Die(die.position + 1, die.purpose, 3)):
        weapon = dataclasses.replace(rolled, dice=(bad, *rolled.dice[1:]))
        event = dataclasses.replace(attack, weapons=(weapon, *attack.weapons[1:]))
        assert dice_problems(tampered(record, at, event)) != []


def test_score_checker_catches_wrong_vp() -> None:
    record = sample_game()
    end = record.events[-1]
    assert isinstance(end, GameEnded)
    wrong = Score(end.south.sp + 1, end.south.kills, end.south.hq_kills)
    assert score_problems(
        tampered(record, len(record.events) - 1, dataclasses.replace(end, south=wrong))
    )


def test_score_checker_catches_a_lost_kill() -> None:
    """J2: a UnitDestroyed missing from the log changes the VP the events imply."""
    record = sample_game()
    at = first(record, UnitDestroyed)
    events = record.events[:at] + record.events[at + 1 :]
    assert score_problems(dataclasses.replace(record, events=events)) != []


def test_turn_checker_catches_a_second_attack() -> None:
    record = sample_game()
    at = first(record, AttackResolved)
    events = (*record.events[: at + 1], record.events[at], *record.events[at + 1 :])
    problems = turn_problems(dataclasses.replace(record, events=events))
    assert any("attacked twice" in p for p in problems), problems


def test_replay_checker_catches_a_missing_action() -> None:
    record = sample_game()
    assert replay_problems(dataclasses.replace(record, actions=record.actions[:-1])) != []


def test_replay_checker_catches_another_seed() -> None:
    """K2: dice that the revealed seed does not reproduce are reported."""
    record = sample_game()
    problems = replay_problems(dataclasses.replace(record, seed=game_seed(6, 0)))
    assert any("differs from the seed" in p for p in problems), problems


def test_question_checker_catches_a_missing_attack_option(monkeypatch: pytest.MonkeyPatch) -> None:
    state = playing([Place("tac", "tactical", S, "B2"), Place("war", "warriors", N, "B4")])
    assert question_problems(state) == []
    monkeypatch.setattr(combat, "attack_options", lambda state, unit: [])
    assert question_problems(state) != []
