"""Victory (rulebook J1-J4): SP control, victory points, annihilation, the result."""

from __future__ import annotations

from collections.abc import Sequence

from tests.builders import Place, act, c, of_type, playing, refused
from vahalite_bot.rules.actions import (
    Advance,
    Attack,
    EndTurn,
    Move,
    PlacePassenger,
    Resign,
    RollOff,
)
from vahalite_bot.rules.events import (
    Event,
    GameEnded,
    PassengersHit,
    PlacementRequired,
    Score,
    SPCaptured,
    TurnEnded,
    UnitDestroyed,
)
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.rules.state import GameState, Phase, new_game
from vahalite_bot.rules.victory import score

S, N = Side.SOUTH, Side.NORTH


def game_end(events: Sequence[Event]) -> GameEnded:
    (ended,) = of_type(events, GameEnded)
    assert isinstance(ended, GameEnded)
    return ended


# -- J1 strategic positions -------------------------------------------------------------------
def sp_board(*south: Place) -> GameState:
    """North's SP on C4; north's archon far away; the given south units."""
    return playing([*south, Place("arc", "archon", N, "F6")], sps={"C4": N})


def test_J1_sp_taken_when_a_ground_unit_ends_the_turn_on_it() -> None:
    state, _ = act(sp_board(Place("cap", "captain", S, "C2")), Move(S, "cap", (c("C3"), c("C4"))))
    assert state.sps[c("C4")].holder is N  # standing there is not yet ending the turn there
    state, events = act(state, EndTurn(S))
    assert of_type(events, SPCaptured) == [SPCaptured(c("C4"), S, "cap")]
    assert events.index(of_type(events, SPCaptured)[0]) < events.index(TurnEnded(1, S))
    assert (state.sps[c("C4")].holder, state.sps[c("C4")].placed_by) == (S, N)


def test_J1_passing_over_an_sp_takes_nothing() -> None:
    state, _ = act(
        sp_board(Place("bik", "bikers", S, "C2")), Move(S, "bik", (c("C3"), c("C4"), c("C5")))
    )
    state, events = act(state, EndTurn(S))
    assert of_type(events, SPCaptured) == []
    assert state.sps[c("C4")].holder is N


def test_J1_transport_counts_with_or_without_passengers() -> None:
    state = sp_board(Place("rhi", "rhino", S, "C4"), Place("tac", "tactical", S, "rhi"))
    state, events = act(state, EndTurn(S))
    assert of_type(events, SPCaptured) == [SPCaptured(c("C4"), S, "rhi")]


def test_J1_flyer_does_not_take_an_sp() -> None:
    # A flyer may not end a move on an SP (D4); put there anyway, it still takes nothing.
    state = sp_board(Place("wing", "razorwing", S, "C4"))
    state, events = act(state, EndTurn(S))
    assert of_type(events, SPCaptured) == []
    assert state.sps[c("C4")].holder is N


def test_J1_sp_stays_until_the_other_side_ends_a_turn_on_it() -> None:
    state = playing(
        [
            Place("cap", "captain", S, "C4"),
            Place("arc", "archon", N, "E4"),
            Place("war", "warriors", N, "F6"),
        ],
        sps={"C4": N},
    )
    state, _ = act(state, EndTurn(S))
    assert state.sps[c("C4")].holder is S
    state, events = act(state, EndTurn(N))  # north's turn ends with south still on it
    assert of_type(events, SPCaptured) == []
    state, _ = act(state, Move(S, "cap", (c("B4"),)))  # south walks away
    state, events = act(state, EndTurn(S))
    assert of_type(events, SPCaptured) == []
    assert state.sps[c("C4")].holder is S  # held with nobody on it
    state, _ = act(state, Move(N, "arc", (c("D4"), c("C4"))))
    state, events = act(state, EndTurn(N))
    assert of_type(events, SPCaptured) == [SPCaptured(c("C4"), N, "arc")]
    assert state.sps[c("C4")].holder is N


def test_J1_own_sp_is_not_captured_again() -> None:
    state = playing(
        [Place("cap", "captain", S, "C2"), Place("arc", "archon", N, "F6")], sps={"C2": S}
    )
    state, events = act(state, EndTurn(S))
    assert of_type(events, SPCaptured) == []


# -- J2 victory points ------------------------------------------------------------------------
def last_turn(*units: Place, sps: dict[str, Side] | None = None) -> GameState:
    """Round 6, south's turn: the last of the game (north went first)."""
    return playing(list(units), sps=sps or {}, first=N, active=S, round=6)


def test_J2_two_per_sp_one_per_unit_two_more_per_hq_killed_by_an_hq() -> None:
    state = last_turn(
        Place("cap", "captain", S, "C3"),
        Place("tac", "tactical", S, "F1"),
        Place("arc", "archon", N, "C4", hp=3),
        Place("war", "warriors", N, "F6"),
        sps={"B2": S, "C2": S, "E5": N},
    )
    # Power sword: 3 dice at +3 against Defense 5.
    state, _ = act(state, Attack(S, "cap", "arc"), [2, 2, 2])
    state, _ = act(state, Advance(S, "cap", False))
    state, events = act(state, EndTurn(S))
    ended = game_end(events)
    assert ended.south == Score(sp=2, kills=1, hq_kills=1)
    assert ended.north == Score(sp=1, kills=0, hq_kills=0)
    assert (ended.south.vp, ended.north.vp) == (2 * 2 + 1 + 2, 2 * 1)
    assert (ended.reason, ended.winner) == ("score", S)


def test_J2_hq_killed_by_a_non_hq_is_worth_one() -> None:
    state = last_turn(
        Place("tac", "tactical", S, "C2"),
        Place("arc", "archon", N, "C4", hp=1),
        Place("war", "warriors", N, "F6"),
    )
    state, _ = act(state, Attack(S, "tac", "arc", weapons=(1,)), [6])  # the missile launcher
    assert state.units["arc"].destroyed_by == "tac"
    assert score(state, S) == Score(sp=0, kills=1, hq_kills=0)
    _, events = act(state, EndTurn(S))
    assert game_end(events).south.vp == 1


def test_J2_non_hq_killed_by_an_hq_is_worth_one() -> None:
    state = last_turn(
        Place("cap", "captain", S, "C3"),
        Place("war", "warriors", N, "C4", hp=1),
        Place("arc", "archon", N, "F6"),
    )
    state, _ = act(state, Attack(S, "cap", "war"), [6, 6, 6])
    assert score(state, S) == Score(sp=0, kills=1, hq_kills=0)


def test_J2_transports_are_units() -> None:
    state = last_turn(
        Place("cap", "captain", S, "C3"),
        Place("rai", "raider", N, "C4", hp=1),
        Place("arc", "archon", N, "F6"),
    )
    state, events = act(state, Attack(S, "cap", "rai"), [6, 1, 1])  # Defense 6: 3+ needed
    assert of_type(events, UnitDestroyed) == [UnitDestroyed("rai", N, "cap", "attack")]
    assert score(state, S) == Score(sp=0, kills=1, hq_kills=0)
    assert score(state, N) == Score(sp=0, kills=0, hq_kills=0)


def test_J2_sp_held_counts_whoever_placed_it() -> None:
    state = last_turn(
        Place("cap", "captain", S, "C4"),
        Place("arc", "archon", N, "F6"),
        sps={"C4": N, "D5": N, "B2": S},
    )
    _, events = act(state, EndTurn(S))
    ended = game_end(events)
    assert (ended.south.sp, ended.north.sp) == (2, 1)
    assert ended.winner is S


# -- J3 annihilation --------------------------------------------------------------------------
def test_J3_destroying_the_last_enemy_unit_wins_at_once() -> None:
    state = playing([Place("cap", "captain", S, "C3"), Place("sla", "slaves", N, "C4", hp=1)])
    state, events = act(state, Attack(S, "cap", "sla"), [6, 6, 6])
    ended = game_end(events)
    assert (ended.winner, ended.reason) == (S, "annihilation")
    assert ended.south == Score(sp=0, kills=1, hq_kills=0)
    assert isinstance(events[-1], GameEnded)
    assert (state.phase, state.winner, state.pending) == (Phase.ENDED, S, ())
    refused(state, Advance(S, "cap", True), "J4", "game_over")


def test_J3_embarked_units_count_as_left() -> None:
    state = playing(
        [
            Place("cap", "captain", S, "C3"),
            Place("rai", "raider", N, "C4", hp=1),
            Place("war", "warriors", N, "rai"),
        ]
    )
    # The Raider falls (3+ needed); its six warriors take 6 dice at +1 vs Defense 4: all miss.
    state, events = act(state, Attack(S, "cap", "rai"), [6, 1, 1, 1, 1, 1, 1, 1, 1])
    assert of_type(events, PassengersHit)[0].damage == 0
    assert of_type(events, GameEnded) == []
    assert state.phase is Phase.PLAYING
    assert of_type(events, PlacementRequired)[0].unit == "war"
    state, _ = act(state, PlacePassenger(N, "war", c("B4")))
    assert state.units["war"].cell == c("B4")


def test_J3_passengers_lost_with_their_transport_end_the_game() -> None:
    state = playing(
        [
            Place("cap", "captain", S, "C3"),
            Place("rai", "raider", N, "C4", hp=1),
            Place("war", "warriors", N, "rai", hp=1),
        ]
    )
    state, events = act(state, Attack(S, "cap", "rai"), [6, 1, 1, 6])
    ended = game_end(events)
    assert (ended.winner, ended.reason) == (S, "annihilation")
    assert ended.south.kills == 2


def test_J3_game_goes_on_while_the_enemy_has_a_unit() -> None:
    state = playing(
        [
            Place("cap", "captain", S, "C3"),
            Place("sla", "slaves", N, "C4", hp=1),
            Place("arc", "archon", N, "F6"),
        ]
    )
    state, events = act(state, Attack(S, "cap", "sla"), [6, 6, 6])
    assert of_type(events, GameEnded) == []
    assert state.phase is Phase.PLAYING


# -- J4 the result ----------------------------------------------------------------------------
def test_J4_more_vp_wins() -> None:
    state = last_turn(
        Place("cap", "captain", S, "C2"),
        Place("arc", "archon", N, "C5"),
        sps={"C3": N},
    )
    _, events = act(state, EndTurn(S))
    ended = game_end(events)
    assert (ended.south.vp, ended.north.vp) == (0, 2)
    assert ended.winner is N


def test_J4_equal_vp_is_a_draw() -> None:
    state = last_turn(
        Place("cap", "captain", S, "C2"),
        Place("arc", "archon", N, "C5"),
        sps={"C3": N, "C2": S},
    )
    state, events = act(state, EndTurn(S))
    ended = game_end(events)
    assert ended.south.vp == ended.north.vp == 2
    assert (ended.winner, ended.reason) == (None, "score")
    assert state.winner is None


def test_J4_resign_on_own_turn_and_on_the_opponents() -> None:
    board = [Place("cap", "captain", S, "C2"), Place("arc", "archon", N, "C5")]
    for side in (S, N):
        state, events = act(playing(board, active=S), Resign(side))
        ended = game_end(events)
        assert (ended.winner, ended.reason) == (side.other, "resignation")
        assert (state.phase, state.resigned) == (Phase.ENDED, side)


def test_J4_resign_during_setup() -> None:
    state = new_game(STANDARD, {S: [], N: []})
    state, events = act(state, Resign(S))
    assert game_end(events).winner is N
    refused(state, RollOff(), "J4", "game_over")


def test_J4_resign_while_a_decision_is_pending() -> None:
    state = playing(
        [
            Place("cap", "captain", S, "C3"),
            Place("sla", "slaves", N, "C4", hp=1),
            Place("arc", "archon", N, "F6"),
        ]
    )
    state, _ = act(state, Attack(S, "cap", "sla"), [6, 6, 6])
    assert state.pending  # south may advance
    state, events = act(state, Resign(N))
    ended = game_end(events)
    assert (ended.winner, ended.south.kills) == (S, 1)
    assert state.pending == ()
