"""Rounds and turns (rulebook C1-C3): six rounds, move then attack, the player ends the turn."""

from __future__ import annotations

import pytest

from tests.builders import Place, act, c, of_type, playing, refused
from vahalite_bot.rules.actions import Advance, Attack, EndTurn, Move, Resign
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.errors import NO_RULE
from vahalite_bot.rules.events import (
    Advanced,
    AttackResolved,
    Event,
    GameEnded,
    Moved,
    TurnEnded,
    TurnStarted,
)
from vahalite_bot.rules.scenario import Scenario, Side
from vahalite_bot.rules.state import GameState, Phase

S, N = Side.SOUTH, Side.NORTH


def two_armies(first: Side = S, round: int = 1, scenario: Scenario | None = None) -> GameState:
    units = [
        Place("cap", "captain", S, "C2"),
        Place("tac", "tactical", S, "E2"),
        Place("arc", "archon", N, "C5"),
        Place("war", "warriors", N, "E5"),
    ]
    if scenario is None:
        return playing(units, first=first, active=first, round=round)
    return playing(units, first=first, active=first, round=round, scenario=scenario)


def end_turns(state: GameState, count: int) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    for _ in range(count):
        side = state.active
        assert side is not None
        state, new = act(state, EndTurn(side))
        events.extend(new)
    return state, events


# -- C1 rounds --------------------------------------------------------------------------------
@pytest.mark.parametrize("first", [S, N])
def test_C1_six_rounds_one_turn_each_winner_first(first: Side) -> None:
    state, events = end_turns(two_armies(first), 11)
    started = [(e.round, e.side) for e in of_type(events, TurnStarted)]
    assert started == [(r, s) for r in range(1, 7) for s in (first, first.other)][1:]
    assert of_type(events, GameEnded) == []
    assert (state.round, state.active) == (6, first.other)
    state, last = act(state, EndTurn(first.other))
    assert [type(e) for e in last] == [TurnEnded, GameEnded]
    assert last[0] == TurnEnded(6, first.other)
    assert state.phase is Phase.ENDED
    ended = last[-1]
    assert isinstance(ended, GameEnded)
    assert (ended.reason, ended.winner) == ("score", None)  # nothing happened: a draw


def test_C1_first_player_ending_round_six_does_not_end_the_game() -> None:
    _, events = act(two_armies(S, round=6), EndTurn(S))
    assert of_type(events, GameEnded) == []
    assert of_type(events, TurnStarted) == [TurnStarted(6, N)]


def test_C1_scenario_may_set_another_number_of_rounds() -> None:
    state, events = end_turns(two_armies(N, scenario=Scenario(id="short", rounds=2)), 4)
    assert [(e.round, e.side) for e in of_type(events, TurnStarted)] == [(1, S), (2, N), (2, S)]
    assert len(of_type(events, GameEnded)) == 1
    assert state.phase is Phase.ENDED


def test_C1_only_the_player_on_turn_acts() -> None:
    state = two_armies(S)
    refused(state, Move(N, "arc", (c("C4"),)), "C1", "not_your_turn")
    refused(state, Attack(N, "war", "tac"), "C1", "not_your_turn")
    refused(state, Move(S, "arc", (c("C4"),)), NO_RULE, "not_your_unit")
    state, _ = act(state, EndTurn(S))
    refused(state, Move(S, "cap", (c("C3"),)), "C1", "not_your_turn")
    state, events = act(state, Move(N, "arc", (c("C4"),)))
    assert of_type(events, Moved) == [Moved("arc", c("C5"), (c("C4"),))]


def test_C1_nothing_after_the_game_ends() -> None:
    state, _ = end_turns(two_armies(S, round=6), 2)
    assert state.phase is Phase.ENDED
    for action in (EndTurn(S), EndTurn(N), Move(S, "cap", (c("C3"),)), Resign(N)):
        refused(state, action, "J4", "game_over")


# -- C2 move, then attack ---------------------------------------------------------------------
def skirmish() -> GameState:
    """South's captain and tactical squad, each two cells from a north unit."""
    return playing(
        [
            Place("cap", "captain", S, "B2"),
            Place("tac", "tactical", S, "E2"),
            Place("sla", "slaves", N, "E4"),
            Place("arc", "archon", N, "B4"),
        ]
    )


def test_C2_units_move_in_any_order_then_attack() -> None:
    state, _ = act(skirmish(), Move(S, "tac", (c("E3"), c("D3"))))
    state, _ = act(state, Move(S, "cap", (c("A2"),)))
    # Bolters (5 dice) and the missile launcher (1) at the slaves, Defense 3: 1+1 and 1+3.
    state, events = act(state, Attack(S, "tac", "sla", melee=False), [1] * 6)
    (resolved,) = of_type(events, AttackResolved)
    assert resolved.damage == 1
    assert state.attack_step


def test_C2_no_unit_moves_after_the_first_attack() -> None:
    state, _ = act(skirmish(), Attack(S, "tac", "sla", weapons=(0,)), [1] * 5)
    refused(state, Move(S, "cap", (c("A2"),)), "C2", "move_after_attack")
    refused(state, Move(S, "tac", (c("D2"),)), "C2", "move_after_attack")
    # ... while a unit that has not attacked yet still may.
    state, events = act(state, Attack(S, "cap", "arc", weapons=(1,)), [1])
    assert [(e.attacker, e.target) for e in of_type(events, AttackResolved)] == [("cap", "arc")]


def test_C2_attack_after_move_even_by_a_unit_that_did_not_move() -> None:
    state, _ = act(skirmish(), Move(S, "cap", (c("A2"),)))
    state, events = act(state, Attack(S, "tac", "sla", weapons=(0,)), [1] * 5)
    assert len(of_type(events, AttackResolved)) == 1


def test_C2_one_move_per_unit() -> None:
    state, _ = act(skirmish(), Move(S, "cap", (c("A2"),)))
    refused(state, Move(S, "cap", (c("A1"),)), "C2", "already_moved")


def test_C2_one_attack_per_unit() -> None:
    state, _ = act(skirmish(), Attack(S, "tac", "sla", weapons=(0,)), [1] * 5)
    refused(state, Attack(S, "tac", "sla", weapons=(1,)), "E5", "already_attacked")


def test_C2_either_may_be_skipped() -> None:
    state, events = act(skirmish(), Attack(S, "tac", "sla", weapons=(1,)), [1])
    assert of_type(events, AttackResolved)[0].damage == 1  # no move needed first
    state, events = act(state, EndTurn(S))  # the captain did nothing at all
    assert of_type(events, TurnEnded) == [TurnEnded(1, S)]


def test_C2_an_advance_is_not_a_move() -> None:
    state = playing(
        [
            Place("cap", "captain", S, "B2"),
            Place("sla", "slaves", N, "B4", hp=1),
            Place("arc", "archon", N, "F6"),
        ]
    )
    state, _ = act(state, Move(S, "cap", (c("B3"),)))
    state, events = act(state, Attack(S, "cap", "sla"), [6, 6, 6])
    assert state.units["sla"].destroyed
    state, events = act(state, Advance(S, "cap", True))
    assert of_type(events, Advanced) == [Advanced("cap", c("B3"), c("B4"))]
    assert state.units["cap"].cell == c("B4")


def test_C2_the_next_turn_allows_moves_again() -> None:
    state, _ = act(skirmish(), Move(S, "cap", (c("A2"),)))
    state, _ = act(state, Attack(S, "tac", "sla", weapons=(0,)), [1] * 5)
    state, _ = end_turns(state, 2)
    assert state.active is S
    state, events = act(state, Move(S, "cap", (c("A1"),)))
    assert of_type(events, Moved) == [Moved("cap", c("A2"), (c("A1"),))]
    state, events = act(state, Attack(S, "tac", "sla", weapons=(0,)), [1] * 5)
    assert len(of_type(events, AttackResolved)) == 1


# -- C3 the player ends the turn --------------------------------------------------------------
def test_C3_turn_ends_when_its_player_says_so() -> None:
    state = two_armies(S)
    refused(state, EndTurn(N), "C1", "not_your_turn")
    state, events = act(state, EndTurn(S))
    assert events == [TurnEnded(1, S), TurnStarted(1, N)]
    assert acting_side(state) is N
    refused(state, EndTurn(S), "C1", "not_your_turn")


def test_C3_units_that_did_nothing_simply_did_nothing() -> None:
    before = two_armies(S)
    state, _ = act(before, EndTurn(S))
    assert state.units == before.units
    assert state.sps == before.sps


def test_C3_turn_cannot_end_while_a_decision_is_pending() -> None:
    state = playing(
        [
            Place("cap", "captain", S, "B3"),
            Place("sla", "slaves", N, "B4", hp=1),
            Place("arc", "archon", N, "F6"),
        ]
    )
    state, _ = act(state, Attack(S, "cap", "sla"), [6, 6, 6])
    assert acting_side(state) is S
    refused(state, EndTurn(S), "E10", "decision_pending")
    state, _ = act(state, Advance(S, "cap", False))
    state, events = act(state, EndTurn(S))
    assert of_type(events, TurnStarted) == [TurnStarted(1, N)]
