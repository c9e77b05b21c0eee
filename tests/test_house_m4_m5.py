"""House rules M4 (initiative each round) and M5 (tactical reserve), with fixed dice."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest
from pydantic import TypeAdapter, ValidationError

from tests.builders import SHEETS, Place, act, c, of_type, playing, refused
from vahalite_bot.app.deadlines import default_answer
from vahalite_bot.app.schemas import ActionArg
from vahalite_bot.orders import OrderError, help_text, parse_line, resolve
from vahalite_bot.orders.lexicon import VERB_WORD
from vahalite_bot.orders.model import Verb
from vahalite_bot.present.board import board_text
from vahalite_bot.present.narrate import Narrator
from vahalite_bot.present.paint import plain
from vahalite_bot.render import render_board
from vahalite_bot.rules import events as ev
from vahalite_bot.rules.actions import (
    Attack,
    Deploy,
    EndTurn,
    FinishReserves,
    HoldInReserve,
    Move,
    PlaceReserve,
)
from vahalite_bot.rules.dice import Die
from vahalite_bot.rules.events import (
    DamageStep,
    GameEnded,
    InitiativeRolled,
    ReserveHeld,
    ReservePlaced,
    ReservesDone,
    ReservesOffered,
    TurnStarted,
    UnitDestroyed,
)
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.queries import legal_actions
from vahalite_bot.rules.reserve import reserve_limit
from vahalite_bot.rules.scenario import STANDARD, Side, Terrain, TerrainKind
from vahalite_bot.rules.state import GameState, PendingReserve, Phase, new_game
from vahalite_bot.selfplay.invariants import state_problems

S, N = Side.SOUTH, Side.NORTH
M2, M4, M5 = HouseRule.DAMAGE_AT_ROUND_END, HouseRule.INITIATIVE, HouseRule.RESERVE


def with_house(state: GameState, *rules: HouseRule) -> GameState:
    state.house = frozenset(rules)
    return state


# -- M4 ------------------------------------------------------------------------------------
def round_one_second_turn(*rules: HouseRule) -> GameState:
    """South won B1; north is taking round 1's second turn."""
    state = playing(
        [Place("cap", "captain", S, "B2"), Place("arc", "archon", N, "E5")], first=S, active=N
    )
    state.round_first = S
    return with_house(state, *rules)


def test_M4_north_went_second_dice_3_and_3_north_opens_round_2() -> None:
    """rulebook M4's test: a tie goes to the player who took the previous round's second turn."""
    state, events = act(round_one_second_turn(M4), EndTurn(N), dice=[3, 3])
    assert of_type(events, InitiativeRolled) == [
        InitiativeRolled(2, Die(0, "initiative south", 3), Die(1, "initiative north", 3), N)
    ]
    assert of_type(events, TurnStarted) == [TurnStarted(2, N)]
    assert (state.active, state.round_first, state.first_player) == (N, N, S)


@pytest.mark.parametrize(("south", "north", "first"), [(5, 2, S), (2, 5, N), (6, 1, S)])
def test_M4_higher_die_takes_the_first_turn(south: int, north: int, first: Side) -> None:
    state, events = act(round_one_second_turn(M4), EndTurn(N), dice=[south, north])
    assert of_type(events, InitiativeRolled)[0].first is first
    assert state.active is first


def test_M4_the_round_first_player_then_gives_the_turn_to_the_other() -> None:
    """M4: north opened round 2, so north's turn end passes to south within round 2; the
    round-3 roll's tie then goes to south, round 2's second player."""
    state, _ = act(round_one_second_turn(M4), EndTurn(N), dice=[1, 6])
    state, events = act(state, EndTurn(N))
    assert of_type(events, InitiativeRolled) == []
    assert of_type(events, TurnStarted) == [TurnStarted(2, S)]
    state, events = act(state, EndTurn(S), dice=[4, 4])
    assert of_type(events, TurnStarted) == [TurnStarted(3, S)]


def test_M4_rolls_after_the_M2_damage_step() -> None:
    """M4: from round 2, after any M2 damage step."""
    _, events = act(round_one_second_turn(M2, M4), EndTurn(N), dice=[2, 3])
    kinds = [type(e) for e in events]
    assert kinds.index(DamageStep) < kinds.index(InitiativeRolled) < kinds.index(TurnStarted)


def test_M4_off_the_B1_winner_opens_every_round() -> None:
    """B1 without M4: no initiative dice, south opens round 2."""
    _, events = act(round_one_second_turn(), EndTurn(N))
    assert of_type(events, InitiativeRolled) == []
    assert of_type(events, TurnStarted) == [TurnStarted(2, S)]


# -- M5 at B5 ---------------------------------------------------------------------------------
SOUTH_ARMY = [
    ("cap", "captain"),
    ("tac", "tactical"),
    ("rhi", "rhino"),
    ("bik", "bikers"),
    ("sco", "scouts"),
]
NORTH_ARMY = [("arc", "archon"), ("war", "warriors")]


def deploying(
    south: Sequence[tuple[str, str]] = SOUTH_ARMY, obstacles: Iterable[str] = ()
) -> GameState:
    """South deploys first, M5 on, terrain and SPs done."""
    forces = {S: [(h, SHEETS[s]) for h, s in south], N: [(h, SHEETS[s]) for h, s in NORTH_ARMY]}
    state = new_game(STANDARD, forces, frozenset({M5}))
    state.phase = Phase.DEPLOYMENT
    state.first_player = state.first_deployer = S
    for name in obstacles:
        state.with_terrain(c(name), Terrain(TerrainKind.OBSTACLE))
    return state


def test_M5_hold_back_up_to_half_the_units_rounded_down() -> None:
    """M5 at B5: five units, so two may wait in reserve; a third is refused."""
    state = deploying()
    assert reserve_limit(state, S) == 2
    state, events = act(state, HoldInReserve(S, "bik"))
    assert of_type(events, ReserveHeld) == [ReserveHeld(S, "bik", None)]
    state, _ = act(state, HoldInReserve(S, "sco"))
    error = refused(state, HoldInReserve(S, "cap"), "M5", "reserve_full")
    assert error.params["limit"] == 2


def test_M5_transport_and_passenger_count_two_and_stay_together() -> None:
    """M5: a passenger held back rides its transport held back; together they are two."""
    state, _ = act(deploying(), HoldInReserve(S, "rhi"))
    state, events = act(state, HoldInReserve(S, "tac", embarked_in="rhi"))
    assert of_type(events, ReserveHeld) == [ReserveHeld(S, "tac", "rhi")]
    assert state.units["tac"].embarked_in == "rhi" and state.units["tac"].in_reserve
    refused(state, HoldInReserve(S, "bik"), "M5", "reserve_full")


def test_M5_passenger_only_in_a_transport_held_back() -> None:
    state, _ = act(deploying(), Deploy(S, "rhi", c("C1")))
    refused(state, HoldInReserve(S, "tac", embarked_in="rhi"), "M5", "transport_not_in_reserve")


def test_M5_off_no_reserve() -> None:
    state = deploying()
    state.house = frozenset()
    refused(state, HoldInReserve(S, "bik"), "M5", "reserve_rule_off")
    assert not any(isinstance(a, HoldInReserve) for a in legal_actions(state))


def test_M5_B3_check_ignores_reserves() -> None:
    """B3/B5's check counts the units still to deploy: a reserve needs no cell."""
    # Ten of the twelve zone cells blocked: room for two of the three units only.
    blocked = ["A1", "B1", "C1", "D1", "E1", "F1", "A2", "B2", "C2", "D2"]
    army = [("cap", "captain"), ("tac", "tactical"), ("sco", "scouts")]
    refused(deploying(army, blocked), Deploy(S, "cap", c("E2")), "B5", "deploy_blocks_others")
    state, _ = act(deploying(army, blocked), HoldInReserve(S, "sco"))
    state, _ = act(state, Deploy(S, "cap", c("E2")))
    state, _ = act(state, Deploy(S, "tac", c("F2")))
    assert state.units["sco"].in_reserve and state.units["sco"].cell is None


def test_M5_hold_is_offered_by_legal_actions_in_the_deploy_step() -> None:
    actions = legal_actions(deploying())
    assert HoldInReserve(S, "bik") in actions and Deploy(S, "bik", c("A1")) in actions


# -- M5 in play -------------------------------------------------------------------------------
def in_play(*rules: HouseRule, active: Side = S, round_: int = 1) -> GameState:
    """South holds bikers and a rhino carrying scouts in reserve; north stands at C3 and E6."""
    state = playing(
        [
            Place("cap", "captain", S, "A1"),
            Place("bik", "bikers", S, "F1"),
            Place("rhi", "rhino", S, "F2"),
            Place("sco", "scouts", S, "rhi"),
            Place("war", "warriors", N, "C3"),
            Place("arc", "archon", N, "E6"),
        ],
        active=active,
        round=round_,
    )
    state.round_first = S
    for handle in ("bik", "rhi", "sco"):
        unit = state.units[handle]
        unit.cell, unit.in_reserve = None, True
    return with_house(state, M5, *rules)


def start_south_turn(state: GameState) -> tuple[GameState, list[object]]:
    """North ends its turn, so south's next turn (a new round) begins."""
    state.active = N
    after, events = act(state, EndTurn(N))
    return after, list(events)


def test_M5_reserves_offered_at_the_start_of_the_turn() -> None:
    state, events = start_south_turn(in_play())
    assert events[-2:] == [TurnStarted(2, S), ReservesOffered(S, ("bik", "rhi"))]
    assert state.pending == (PendingReserve(S, ("bik", "rhi")),)
    choices = legal_actions(state)
    assert FinishReserves(S) in choices and PlaceReserve(S, "rhi", c("A2")) in choices
    assert not any(isinstance(a, PlaceReserve) and a.unit == "sco" for a in choices)


def test_M5_placed_in_the_deploy_zone_not_beside_an_enemy() -> None:
    """M5: an empty deployment-zone cell allowed by B5, not orthogonally next to an enemy."""
    state, _ = start_south_turn(in_play())
    refused(state, PlaceReserve(S, "bik", c("C3")), "M5", "reserve_cell_not_allowed")  # zone
    refused(state, PlaceReserve(S, "bik", c("C2")), "M5", "reserve_cell_not_allowed")  # war C3
    refused(state, PlaceReserve(S, "bik", c("A1")), "M5", "reserve_cell_not_allowed")  # taken
    refused(state, Move(S, "cap", (c("A2"),)), "M5", "reserves_pending")
    state, events = act(state, PlaceReserve(S, "bik", c("B2")))
    assert of_type(events, ReservePlaced) == [ReservePlaced(S, "bik", c("B2"), None)]
    assert state.pending == (PendingReserve(S, ("rhi",)),)
    assert state_problems(state) == []


def test_M5_transport_arrives_with_its_passenger_then_moves_as_usual() -> None:
    """M5: placing is not a move: the rhino then makes its move, carrying the scouts."""
    state, _ = start_south_turn(in_play())
    state, events = act(state, PlaceReserve(S, "rhi", c("E1")))
    assert of_type(events, ReservePlaced) == [ReservePlaced(S, "rhi", c("E1"), "sco")]
    assert not state.units["sco"].in_reserve and state.units["sco"].embarked_in == "rhi"
    state, events = act(state, FinishReserves(S))
    assert events == [ReservesDone(S)] and state.pending == ()
    state, _ = act(state, Move(S, "rhi", (c("E2"), c("E3"), c("E4"))))
    assert state.position(state.units["sco"]) == c("E4")


def test_M5_reserves_and_their_passengers_neither_move_nor_attack_until_they_arrive() -> None:
    """Found by self-play on Big battle: a passenger waiting in a held-back transport was
    offered a disembark step from a transport that is not on the board."""
    state, _ = start_south_turn(in_play())
    state, _ = act(state, FinishReserves(S))  # the rhino and its scouts stay in reserve
    choices = legal_actions(state)
    assert not any(getattr(a, "unit", None) in {"bik", "rhi", "sco"} for a in choices)
    refused(state, Move(S, "sco", (c("E1"),)), "M5", "reserve_off_board")
    refused(state, Move(S, "rhi", (c("E1"),)), "M5", "reserve_off_board")
    refused(state, Attack(S, "sco", "war"), "M5", "reserve_off_board")


def test_M5_finished_reserves_are_offered_again_next_turn() -> None:
    state, _ = start_south_turn(in_play())
    state, _ = act(state, FinishReserves(S))
    state, _ = act(state, EndTurn(S))
    assert state.pending == ()  # north has no reserves
    state, events = act(state, EndTurn(N))
    assert of_type(events, ReservesOffered) == [ReservesOffered(S, ("bik", "rhi"))]


def test_M5_reserves_cannot_be_attacked() -> None:
    state = in_play(active=N)
    refused(state, Attack(N, "war", "bik"), "M5", "target_in_reserve")


def test_M5_reserves_count_as_left_for_J3() -> None:
    """J3: south's last unit on the board dies, its reserves still wait: no annihilation."""
    state = in_play(active=N)
    state.units["cap"].hp = 1
    state.units["war"].cell = c("A2")
    after, events = act(state, Attack(N, "war", "cap", melee=True), dice=[6] * 6)
    assert of_type(events, UnitDestroyed)[0].unit == "cap"
    assert of_type(events, GameEnded) == [] and after.phase is Phase.PLAYING


def test_M5_reserves_left_at_the_end_of_round_4_are_destroyed_one_vp_each() -> None:
    """M5: the bikers, rhino and scouts never came: three VP to north."""
    state = in_play(active=N, round_=4)
    state, events = act(state, EndTurn(N))
    gone = of_type(events, UnitDestroyed)
    assert {(d.unit, d.by, d.cause) for d in gone} == {
        ("bik", None, "reserve"),
        ("rhi", None, "reserve"),
        ("sco", None, "reserve"),
    }
    assert state.round == 5 and not any(u.in_reserve for u in state.units.values())
    assert state_problems(state) == []


def test_M5_reserves_not_destroyed_before_the_end_of_round_4() -> None:
    state, events = act(in_play(active=N, round_=3), EndTurn(N))
    assert of_type(events, UnitDestroyed) == [] and state.units["bik"].in_reserve


def test_M5_with_M2_late_reserves_go_in_step_1() -> None:
    _, events = act(in_play(M2, active=N, round_=4), EndTurn(N))
    kinds = [type(e) for e in events]
    assert kinds.index(DamageStep) < kinds.index(UnitDestroyed) < kinds.index(TurnStarted)
    assert sum(1 for e in events if isinstance(e, UnitDestroyed)) == 3


# -- the orders language, help, narration, the board ------------------------------------------
def typed(text: str, state: GameState, side: Side = S) -> object:
    parsed = parse_line(text)
    assert not isinstance(parsed, Exception), parsed
    return resolve(parsed, state, side)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("reserve bik", HoldInReserve(S, "bik")),
        ("резерв bik", HoldInReserve(S, "bik")),
        ("reserve tac rhi", HoldInReserve(S, "tac", "rhi")),
    ],
)
def test_M5_orders_hold_back_at_deployment(text: str, expected: HoldInReserve) -> None:
    assert typed(text, deploying()) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("arrive bik B2", PlaceReserve(S, "bik", c("B2"))),
        ("прибыть bik B2", PlaceReserve(S, "bik", c("B2"))),
        ("place bik B2", PlaceReserve(S, "bik", c("B2"))),
        ("bik B2", PlaceReserve(S, "bik", c("B2"))),  # as /vl move bik B2 (issue 17)
        ("done", FinishReserves(S)),
        ("готово", FinishReserves(S)),
    ],
)
def test_M5_orders_bring_in_reserves(text: str, expected: object) -> None:
    state, _ = start_south_turn(in_play())
    assert typed(text, state) == expected


def test_M5_arrive_without_a_cell_asks_which() -> None:
    state, _ = start_south_turn(in_play())
    with pytest.raises(OrderError) as caught:
        typed("arrive bik", state)
    assert caught.value.code == "which_cell"


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_M5_help_names_reserve_and_arrive(lang: str) -> None:
    text = help_text(lang)
    assert VERB_WORD[lang][Verb.RESERVE] in text and VERB_WORD[lang][Verb.ARRIVE] in text
    assert "M5" in help_text(lang, Verb.ARRIVE)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_M2_M4_M5_events_are_told_in_both_languages(lang: str) -> None:
    state = in_play(M2, M4)
    events = [
        ev.UnitFalling("war", N, "cap", "attack"),
        ev.UnitFalling("war", N, None, "morale"),
        ev.AdvanceChosen("cap", c("C3")),
        ev.DamageStep(1),
        ev.InitiativeRolled(2, Die(0, "initiative south", 3), Die(1, "initiative north", 3), N),
        ev.ReserveHeld(S, "sco", "rhi"),
        ev.ReservesOffered(S, ("bik", "rhi")),
        ev.ReservePlaced(S, "rhi", c("E1"), "sco"),
        ev.ReservesDone(S),
        ev.UnitDestroyed("bik", S, None, "reserve"),
    ]
    lines = Narrator(lang, plain).tell(events, state)
    assert len(lines) == len(events)
    assert all("{" not in line and line.strip() for line in lines)
    assert "M4" in lines[4] and "3" in lines[4]
    assert "B1" in lines[6]  # the first cell the rules accept: free, in the zone, safe


def test_M2_M5_board_shows_falling_units_and_reserves() -> None:
    """The text board and the image do not crash on a falling unit or reserves."""
    state = in_play(M2)
    state.units["war"].hp = 0
    text = board_text(state, "en", plain)
    assert "In reserve (M5): bik, rhi+sco" in text
    assert "rhi → sco" not in text
    told: list[ev.Event] = [
        ev.UnitFalling("war", N, "cap", "attack"),
        ev.DamageStep(1),
        ev.ReservePlaced(S, "bik", c("B2"), None),
        ev.UnitDestroyed("rhi", S, None, "reserve"),
        ev.Advanced("cap", c("A1"), c("A2")),
    ]
    png = render_board(state, events=told, before=state, lang="en", size=400)
    assert png.startswith(b"\x89PNG")


def test_M5_deadline_places_no_reserve() -> None:
    state, _ = start_south_turn(in_play())
    assert default_answer(state.pending[0]) == FinishReserves(S)


@pytest.mark.parametrize(
    "action",
    [
        HoldInReserve(S, "bik"),
        HoldInReserve(S, "tac", "rhi"),
        PlaceReserve(N, "war", c("B5")),
        FinishReserves(S),
    ],
)
def test_M5_actions_pass_the_service_act_schema(action: object) -> None:
    """The service's generic ``act`` accepts the new actions, each field checked."""
    assert TypeAdapter(ActionArg).validate_python(action) == action


def test_M5_act_schema_checks_the_transport_field() -> None:
    with pytest.raises(ValidationError):
        TypeAdapter(ActionArg).validate_python(HoldInReserve(S, "tac", 7))  # type: ignore[arg-type]
