"""The order language, resolution layer: units named, paths found, refusals explained."""

from __future__ import annotations

import pytest

from tests.builders import SHEETS, Place, act, c, playing, sheet
from vahalite_bot.orders import (
    ArmyRequest,
    BoardRequest,
    HelpRequest,
    LogRequest,
    OddsRequest,
    OrderError,
    StatusRequest,
    UndoRequest,
    Verb,
    describe,
    parse_line,
    resolve,
)
from vahalite_bot.orders.requests import Request, Resolved
from vahalite_bot.rules.actions import (
    Action,
    Advance,
    Attack,
    ChooseDeployOrder,
    Deploy,
    EndTurn,
    Move,
    PlacePassenger,
    PlaceSP,
    PlaceTerrain,
    Resign,
    RollOff,
)
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import STANDARD, Side, TerrainKind
from vahalite_bot.rules.sheets import Names
from vahalite_bot.rules.state import GameState, PendingAdvance, PendingPlacement, Phase, new_game

S, N = Side.SOUTH, Side.NORTH


def path(*names: str) -> tuple[Cell, ...]:
    return tuple(c(n) for n in names)


def order(text: str, state: GameState, side: Side = S) -> Resolved:
    parsed = parse_line(text)
    assert not isinstance(parsed, Exception), parsed
    return resolve(parsed, state, side)


def action(text: str, state: GameState, side: Side = S) -> Action:
    """An order that resolves to an engine action (not a request)."""
    result = order(text, state, side)
    assert not isinstance(result, Request)
    return result


def refusal(text: str, state: GameState, side: Side = S) -> OrderError:
    with pytest.raises(OrderError) as caught:
        order(text, state, side)
    return caught.value


def board() -> GameState:
    """South: a Tactical Squad, a Captain and an empty Rhino; north: Warriors and Slaves."""
    return playing(
        [
            Place("tac1", "tactical", S, "C2"),
            Place("cap1", "captain", S, "A1"),
            Place("rhi1", "rhino", S, "E2"),
            Place("kab1", "warriors", N, "C5"),
            Place("sla1", "slaves", N, "F6"),
        ]
    )


# -- naming units ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "move tac1 C3",
        "move TAC1 C3",
        "move tac 1 C3",
        "move тас1 C3",  # Cyrillic т, а, с
        "move C2 C3",
        "C2-C3",
        "С2-С3",
        "tac1 C3",
        "move Tactical Squad C3",
        "move tactical C3",
        "move tac C3",
        "move tac sq C3",
        "ход Тактическое отделение C3",
        "ход такт C3",
        "ход тактическое отд C3",
        "такт C3",
    ],
)
def test_unit_named_by_handle_name_prefix_or_cell(text: str) -> None:
    assert order(text, board()) == Move(S, "tac1", path("C3"))


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("attack tac1 kab1", "kab1"),
        ("attack tac1 warriors", "kab1"),
        ("атака tac1 воины", "kab1"),
        ("атака tac1 на воинов кабала", "kab1"),  # Russian case endings
        ("атака tac1 кабала", "kab1"),
        ("атака tac1 > воинам", "kab1"),
        ("стреляй тактическим по рабам", "sla1"),
        ("атака tac1 рабов", "sla1"),
        ("C2>C5", "kab1"),
        ("attack C2 F6", "sla1"),
    ],
)
def test_targets_named_in_either_language(text: str, target: str) -> None:
    result = order(text, board())
    assert isinstance(result, Attack)
    assert (result.unit, result.target) == ("tac1", target)


def test_attack_carries_weapons_zero_based_and_the_mode() -> None:
    assert order("shoot tac1 kab1 1 2", board()) == Attack(S, "tac1", "kab1", (0, 1), False)
    assert order("fight tac1 kab1", board()) == Attack(S, "tac1", "kab1", None, True)


def test_unknown_unit_suggests_the_near_miss() -> None:
    error = refusal("move tak1 C3", board())
    assert error.code == "unknown_unit"
    assert [s.text for s in error.suggestions][:1] == ["tac1"]
    assert describe(error, "en").startswith("There is no unit “tak1”.")
    assert "Did you mean “tac1” (Tactical Squad)?" in describe(error, "en")
    assert "Может быть, «tac1» (Тактическое отделение)?" in describe(error, "ru")


def test_unknown_name_suggests_by_name() -> None:
    error = refusal("move tactcal C3", board())
    assert error.code == "unknown_unit"
    assert [s.text for s in error.suggestions][:1] == ["tac1"]
    error = refusal("атака tac1 варриорс", board())
    assert error.code == "unknown_unit"


def test_empty_cell_is_refused_with_the_cell() -> None:
    error = refusal("C3-C4", board())
    assert (error.code, error.params) == ("no_unit_at", {"cell": "C3"})


def test_ambiguous_name_prefers_the_side_that_acts_then_lists_them() -> None:
    """A mirror match: both sides field Tactical Squads; "tact" is the player's own."""
    state = playing(
        [
            Place("tac1", "tactical", S, "C2"),
            Place("tac2", "tactical", N, "C5"),
            Place("tac3", "tactical", S, "A2"),
        ]
    )
    assert order("attack tac1 > tact", state) == Attack(S, "tac1", "tac2")
    error = refusal("move tact C3", state)
    assert error.code == "ambiguous_unit"
    assert [s.text for s in error.suggestions] == ["tac1", "tac3"]
    assert "2 отряда" in describe(error, "ru")


def test_names_with_link_words_in_them() -> None:
    """ "weapons" / "оружия" also link an order's parts: in a name they are part of it."""
    heavy = sheet("tactical", name=Names("Отделение тяжёлого оружия", "Heavy Weapons Squad"))
    state = playing([Place("hea1", heavy, S, "C2"), Place("kab1", "warriors", N, "C4")])
    assert action("move Heavy Weapons Squad C3", state) == Move(S, "hea1", path("C3"))
    assert action("ход отделение тяжёлого оружия C3", state) == Move(S, "hea1", path("C3"))
    assert action("attack Heavy Weapons Squad > kab1", state) == Attack(S, "hea1", "kab1")
    assert action("атака отделение тяжелого оружия > воинов", state) == Attack(S, "hea1", "kab1")


def test_destroyed_unit_is_named_as_such() -> None:
    state = board()
    state.units["kab1"].destroyed = True
    state.units["kab1"].cell = None
    assert refusal("attack tac1 kab1", state).code == "unit_destroyed"
    assert refusal("attack tac1 warriors", state).code == "unit_destroyed"


def test_cell_of_a_transport_names_the_transport_but_disembark_names_the_passenger() -> None:
    state = playing(
        [
            Place("rhi1", "rhino", S, "C2"),
            Place("tac1", "tactical", S, "rhi1"),
            Place("kab1", "warriors", N, "C6"),
        ]
    )
    assert order("C2-C4", state) == Move(S, "rhi1", path("C3", "C4"))
    assert order("disembark C2 C3", state) == Move(S, "tac1", path("C3"))
    assert order("move tac1 C3", state) == Move(S, "tac1", path("C3"))  # H3 by moving


# -- destinations and paths --------------------------------------------------------------
def test_destination_becomes_the_shortest_legal_path_around_terrain() -> None:
    state = playing(
        [Place("rav1", "ravager", S, "C2"), Place("kab1", "warriors", N, "F6")],
        terrain={"C3": TerrainKind.WATER},
    )
    result = order("rav1 C4", state)
    assert isinstance(result, Move) and (result.unit, len(result.path)) == ("rav1", 4)
    assert act(state, result)[0].units["rav1"].cell == c("C4")


def test_full_path_is_passed_as_given_without_the_start_cell() -> None:
    assert order("move tac1 C2-C3-C4", board()) == Move(S, "tac1", path("C3", "C4"))
    assert order("C2-B2-B3", board()) == Move(S, "tac1", path("B2", "B3"))
    # A path that is wrong goes to the engine as typed, which says why (D1).
    result = action("move tac1 C3-D4", board())
    assert result == Move(S, "tac1", path("C3", "D4"))
    with pytest.raises(IllegalAction) as caught:
        act(board(), result)
    assert caught.value.code == "not_orthogonal"


def test_D1_too_far_goes_to_the_engine_with_the_real_length() -> None:
    state = playing([Place("tac1", "tactical", S, "C1"), Place("kab1", "slaves", N, "F6")])
    result = order("tac1 C5", state)
    assert isinstance(result, Move) and len(result.path) == 4
    with pytest.raises(IllegalAction) as caught:
        act(state, result)
    assert (caught.value.code, caught.value.params["length"]) == ("path_too_long", 4)


def test_D2_destination_in_water_is_the_engine_reason() -> None:
    state = playing(
        [Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "F6")],
        terrain={"C3": TerrainKind.WATER},
    )
    with pytest.raises(IllegalAction) as caught:
        order("tac1 C3", state)
    assert (caught.value.rule, caught.value.code) == ("D2", "blocked_by_terrain")


def test_D3_destination_taken_by_a_friend_is_the_engine_reason() -> None:
    state = playing(
        [
            Place("cap1", "captain", S, "A1"),
            Place("tac1", "tactical", S, "B1"),
            Place("kab1", "slaves", N, "F6"),
        ]
    )
    with pytest.raises(IllegalAction) as caught:
        order("cap1 B1", state)
    assert (caught.value.rule, caught.value.code) == ("D3", "end_not_empty")


def test_D1_off_board_destination() -> None:
    with pytest.raises(IllegalAction) as caught:
        order("tac1 G2", board())
    assert caught.value.code == "off_board"


def test_destination_with_an_enemy_says_how_to_attack_it() -> None:
    state = playing([Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "C3")])
    error = refusal("tac1 C3", state)
    assert error.code == "destination_enemy"
    assert "“tac1 > kab1”" in describe(error, "en")
    assert "«tac1 > kab1»" in describe(error, "ru")


def test_no_path_lists_the_cells_the_unit_can_reach() -> None:
    """Walled in by Water: nothing reaches A3 however far it may move."""
    state = playing(
        [Place("cap1", "captain", S, "A1"), Place("kab1", "warriors", N, "F6")],
        terrain={"A2": TerrainKind.WATER, "B2": TerrainKind.WATER, "C1": TerrainKind.OBSTACLE},
    )
    error = refusal("cap1 A3", state)
    assert error.code == "no_path"
    assert [s.text for s in error.suggestions] == ["B1"]
    assert "может дойти только до 1 клетки: «B1»" in describe(error, "ru")


def test_already_there() -> None:
    assert refusal("tac1 C2", board()).code == "already_there"


def test_unit_that_may_not_move_goes_to_the_engine_for_its_reason() -> None:
    """C1/C2: not your turn, or moved already: the engine's refusal, not a guess."""
    state = board()
    moved = act(state, Move(S, "tac1", path("C3")))[0]
    result = action("tac1 C4", moved)
    with pytest.raises(IllegalAction) as caught:
        act(moved, result)
    assert caught.value.code == "already_moved"
    result = action("kab1 C4", state, N)
    with pytest.raises(IllegalAction) as caught:
        act(state, result)
    assert caught.value.code == "not_your_turn"


# -- transports --------------------------------------------------------------------------
def test_H2_embark_into_a_named_or_the_only_transport() -> None:
    state = board()  # tac1 on C2, rhi1 on E2
    assert order("embark tac1 rhi1", state) == Move(S, "tac1", path("D2", "E2"))
    assert order("посадка tac1 в носорог", state) == Move(S, "tac1", path("D2", "E2"))
    assert order("embark tac1", state) == Move(S, "tac1", path("D2", "E2"))
    assert order("tac1 E2", state) == Move(S, "tac1", path("D2", "E2"))


def test_H2_embark_refusals() -> None:
    state = board()
    assert refusal("embark tac1 cap1", state).code == "not_a_transport"
    assert refusal("embark cap1", state).code == "no_transport_in_reach"  # A1 to E2: too far
    two = playing(
        [
            Place("tac1", "tactical", S, "C2"),
            Place("rhi1", "rhino", S, "B2"),
            Place("rhi2", "rhino", S, "D2"),
            Place("k", "slaves", N, "F6"),
        ]
    )
    error = refusal("embark tac1", two)
    assert error.code == "which_transport"
    assert [s.text for s in error.suggestions] == ["rhi1", "rhi2"]


def test_H3_disembark_to_a_named_or_the_only_free_cell() -> None:
    state = playing(
        [
            Place("rhi1", "rhino", S, "A1"),
            Place("tac1", "tactical", S, "rhi1"),
            Place("cap1", "captain", S, "B1"),
            Place("k", "slaves", N, "F6"),
        ]
    )
    assert order("disembark tac1 A2", state) == Move(S, "tac1", path("A2"))
    assert order("высадка tac1", state) == Move(S, "tac1", path("A2"))
    assert order("высадка A1", state) == Move(S, "tac1", path("A2"))
    open_field = playing(
        [
            Place("rhi1", "rhino", S, "C2"),
            Place("tac1", "tactical", S, "rhi1"),
            Place("k", "slaves", N, "F6"),
        ]
    )
    error = refusal("disembark tac1", open_field)
    assert error.code == "which_cell"
    assert [s.text for s in error.suggestions] == ["B2", "C1", "C3", "D2"]


def test_H3_disembark_refusals() -> None:
    state = board()
    assert refusal("disembark tac1 C3", state).code == "not_embarked"
    error = refusal("disembark E2 E3", state)
    assert (error.code, error.params["unit"]) == ("no_passenger", "rhi1")


# -- setup -------------------------------------------------------------------------------
def setup_state() -> GameState:
    """A game before the roll-off (the parser's setup orders resolve in any phase)."""
    south = [("tac1", SHEETS["tactical"]), ("rhi1", SHEETS["rhino"])]
    return new_game(STANDARD, {S: south, N: [("kab1", SHEETS["warriors"])]})


def test_B1_to_B5_setup_orders() -> None:
    state = setup_state()
    assert order("roll", state) == RollOff()
    assert order("first", state, N) == ChooseDeployOrder(N, True)
    assert order("вторым", state, N) == ChooseDeployOrder(N, False)
    assert order("cover C2", state) == PlaceTerrain(S, TerrainKind.COVER, c("C2"))
    assert order("сп С3", state) == PlaceSP(S, c("C3"))
    assert order("deploy tac1 B2", state) == Deploy(S, "tac1", c("B2"))
    assert order("расстановка тактическое отделение B2", state) == Deploy(S, "tac1", c("B2"))


def test_B5_deploy_into_a_transport_by_its_name() -> None:
    state = setup_state()
    state.units["rhi1"].deployed = True
    state.units["rhi1"].cell = c("D1")
    state.phase = Phase.DEPLOYMENT
    assert order("deploy tac1 rhi1", state) == Deploy(S, "tac1", c("D1"))
    assert order("deploy tac1 in Rhino", state) == Deploy(S, "tac1", c("D1"))
    with pytest.raises(IllegalAction) as caught:
        order("deploy rhi1 tac1", state)  # tac1 is not on the board yet
    assert caught.value.code == "not_on_board"


# -- decisions ---------------------------------------------------------------------------
def test_H5_placing_a_wrecked_transport_passenger() -> None:
    state = board()
    state.pending = (PendingPlacement(S, "cap1", path("B1", "A2")),)
    state.units["cap1"].cell = None
    assert order("place cap1 B1", state) == PlacePassenger(S, "cap1", c("B1"))
    assert order("высадка cap1 A2", state) == PlacePassenger(S, "cap1", c("A2"))
    assert order("cap1 A2", state) == PlacePassenger(S, "cap1", c("A2"))
    error = refusal("disembark cap1", state)
    assert (error.code, [s.text for s in error.suggestions]) == ("which_cell", ["B1", "A2"])


def test_E10_advance_or_stay() -> None:
    state = board()
    state.pending = (PendingAdvance(S, "tac1", c("C3")),)
    assert order("advance", state) == Advance(S, "tac1", True)
    assert order("стой", state) == Advance(S, "tac1", False)
    with pytest.raises(IllegalAction) as caught:
        order("advance", board())
    assert caught.value.code == "nothing_pending"


# -- requests ----------------------------------------------------------------------------
def test_requests_for_views_and_undo() -> None:
    state = board()
    assert order("board", state) == BoardRequest()
    assert order("статус", state) == StatusRequest()
    assert order("army", state) == ArmyRequest(S)
    assert order("армия противника", state) == ArmyRequest(N)
    assert order("log 5", state) == LogRequest(5)
    assert order("help attack", state) == HelpRequest(Verb.ATTACK)
    assert order("undo 2", state) == UndoRequest(2)
    assert order("end", state) == EndTurn(S)
    assert order("сдаюсь", state, N) == Resign(N)


def test_E5_odds_resolve_the_weapons_the_attack_would_use() -> None:
    state = board()  # tac1 on C2, kab1 on C5: range 3, beyond bolters (2)
    with pytest.raises(IllegalAction) as caught:
        order("odds tac1 kab1", state)
    assert caught.value.code == "out_of_range"
    near = playing([Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "C4")])
    assert order("odds tac1 kab1", near) == OddsRequest("tac1", "kab1", (0, 1))
    assert order("шансы tac1 kab1 2", near) == OddsRequest("tac1", "kab1", (1,))
    with pytest.raises(IllegalAction) as caught:
        order("odds tac1 cap1", board())
    assert caught.value.code == "target_is_friendly"


# -- issue 12: a blocked move gets the blocker, not a detour's length ----------------------
def test_D6_destination_behind_an_enemy_names_the_enemy_not_a_detour() -> None:
    """C2 to C4 with an enemy on C3: the way round is 4 steps, but the reason is C3."""
    state = playing([Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "C3")])
    result = action("move tac1 C4", state)
    with pytest.raises(IllegalAction) as caught:
        act(state, result)
    assert (caught.value.code, caught.value.params["cell"]) == ("blocked_by_enemy", "C3")


def test_D6_destination_behind_water_names_the_water_not_a_detour() -> None:
    state = playing(
        [Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "F6")],
        terrain={"C3": TerrainKind.WATER, "B3": TerrainKind.WATER, "D3": TerrainKind.WATER},
    )
    result = action("tac1 C4", state)
    with pytest.raises(IllegalAction) as caught:
        act(state, result)
    assert (caught.value.code, caught.value.params["cell"]) == ("blocked_by_terrain", "C3")


def test_D6_too_far_and_blocked_gives_the_straight_distance() -> None:
    """Farther than M: the length named is the real distance, not the detour's."""
    state = playing(
        [Place("tac1", "tactical", S, "C1"), Place("kab1", "warriors", N, "C3")],
    )
    result = action("tac1 C5", state)
    with pytest.raises(IllegalAction) as caught:
        act(state, result)
    assert (caught.value.code, caught.value.params["length"]) == ("path_too_long", 4)
