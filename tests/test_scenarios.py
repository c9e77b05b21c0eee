"""Scenario files in boards/ (rulebook L): loading, every reason a file is refused, the
engine's use of the per-scenario rules, and each shipped scenario played end to end."""

from __future__ import annotations

import dataclasses
import json
import tomllib
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.builders import SHEETS, Place, act, c, playing
from tests.conftest import Clock
from vahalite_bot.app import GameService, RosterRejected, autoplay
from vahalite_bot.orders import parse_line, resolve
from vahalite_bot.orders.text import describe_refusal
from vahalite_bot.present.board import board_text
from vahalite_bot.present.paint import plain
from vahalite_bot.present.views import odds_text
from vahalite_bot.render.board import render_board
from vahalite_bot.rules.actions import Action, Attack, Move
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import AttackResolved, Event, SPPlaced, TerrainPlaced
from vahalite_bot.rules.roster import Roster, RosterEntry, roster_points, validate
from vahalite_bot.rules.scenario import (
    STANDARD,
    Scenario,
    ScenarioError,
    Side,
    Terrain,
    TerrainKind,
)
from vahalite_bot.rules.sheets import Slot
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.scenarios import (
    BOARDS,
    ScenarioFileError,
    find_boards,
    load_scenario,
    read_scenario,
    shipped,
    shipped_scenarios,
)
from vahalite_bot.selfplay import cli as selfplay
from vahalite_bot.selfplay.game import _army, _demo_factions, game_seed, play_game
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.selfplay.invariants import game_problems, state_problems
from vahalite_bot.selfplay.players import RandomPlayer
from vahalite_bot.store import valuecodec
from vahalite_bot.store.database import Database

ROOT = Path(__file__).resolve().parents[1]
S, N = Side.SOUTH, Side.NORTH
SHIPPED = ("standard", "big-battle", "fortress", "river-crossing")  # standard, then by name
FORT = TerrainKind.FORTIFICATION


def raw(scenario_id: str = "standard") -> dict[str, Any]:
    """A shipped file's TOML, to change one thing in."""
    return tomllib.loads((BOARDS / f"{scenario_id}.toml").read_text(encoding="utf-8"))


def write(tmp_path: Path, data: dict[str, Any], name: str | None = None) -> Path:
    path = tmp_path / f"{name or data.get('id', 'x')}.toml"
    path.write_text(_toml(data), encoding="utf-8")
    return path


def _toml(data: dict[str, Any], prefix: str = "") -> str:
    """Enough of a TOML writer for scenario files (tables, arrays of tables, values)."""
    lines: list[str] = []
    tables: list[str] = []
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            tables.append(f"[{name}]\n" + _toml(value, f"{name}."))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            tables += [f"[[{name}]]\n" + _toml(item, f"{name}.") for item in value]
        else:
            lines.append(f"{key} = {_value(value)}")
    return "\n".join(lines) + "\n" + "\n".join(tables)


def _value(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


def reasons_of(tmp_path: Path, data: dict[str, Any]) -> list[str]:
    scenario, reasons = read_scenario(write(tmp_path, data))
    assert scenario is None
    return reasons


# -- the shipped files -----------------------------------------------------------------------
def test_L_every_shipped_scenario_is_a_file_of_boards() -> None:
    assert tuple(shipped_scenarios()) == SHIPPED  # the standard one first
    assert {p.stem for p in BOARDS.glob("*.toml")} == set(SHIPPED)
    titles = {s.id: (s.title("ru"), s.title("en")) for s in shipped_scenarios().values()}
    assert titles == {
        "standard": ("Стандартное поле", "Standard board"),
        "fortress": ("Крепость", "Fortress"),
        "big-battle": ("Большая битва", "Big battle"),
        "river-crossing": ("Переправа", "River crossing"),
    }
    for scenario in shipped_scenarios().values():
        assert scenario.description("ru") and scenario.description("en")
        assert scenario.description("ru") != scenario.description("en")


def test_L_the_standard_file_is_sections_B_to_J() -> None:
    """The dataclass defaults (rules.scenario.STANDARD) and boards/standard.toml agree."""
    loaded = shipped("standard")
    assert loaded == dataclasses.replace(
        STANDARD, names=loaded.names, descriptions=loaded.descriptions
    )
    assert loaded.organisation() == {
        Slot.HQ: (1, 2),
        Slot.TROOPS: (2, 4),
        Slot.HEAVY: (0, 2),
        Slot.FAST: (0, 2),
        Slot.ELITE: (0, 2),
    }


def test_L_fortress_as_the_rules_describe_it() -> None:
    fortress = shipped("fortress")
    assert fortress.preplaced == {
        c("C2"): Terrain(FORT, 1),
        c("D2"): Terrain(FORT, 1),
        c("B3"): Terrain(FORT),
        c("E3"): Terrain(FORT),
    }
    assert [fortress.preplaced[c(n)].cover_value for n in ("C2", "D2", "B3", "E3")] == [4, 4, 3, 3]
    assert fortress.terrain_for(S) == {TerrainKind.OBSTACLE: 1, TerrainKind.HEIGHT: 1}
    assert fortress.terrain_for(N) == STANDARD.terrain_for(N)
    assert (fortress.sp_for(S), fortress.sp_for(N)) == (3, 2)
    pairs = [(p, fortress.points_for(N, p)) for p in fortress.points_limits]
    assert pairs == [(500, 650), (750, 975), (1000, 1300)]
    assert all(fortress.points_for(S, p) == p for p in fortress.points_limits)


def test_L_big_battle_doubles_the_A2_maxima_only() -> None:
    big = shipped("big-battle")
    assert (big.width, big.height, big.points_limits) == (8, 8, (1500,))
    assert big.organisation() == {
        Slot.HQ: (1, 4),
        Slot.TROOPS: (2, 8),
        Slot.HEAVY: (0, 4),
        Slot.FAST: (0, 4),
        Slot.ELITE: (0, 4),
    }
    assert (big.sp_for(S), big.sp_for(N)) == (4, 4)


def test_L_river_crossing_has_a_neutral_row_of_water_and_two_fords() -> None:
    river = shipped("river-crossing")
    assert (river.width, river.height, river.neutral_rows) == (6, 7, (3,))
    assert set(river.preplaced) == {c("A4"), c("C4"), c("D4"), c("F4")}
    assert all(piece.kind is TerrainKind.WATER for piece in river.preplaced.values())
    assert not any(river.in_half(side, c("B4")) for side in Side)


@pytest.mark.parametrize("scenario_id", SHIPPED)
def test_L_a_games_stored_setup_keeps_its_whole_scenario(scenario_id: str) -> None:
    """The game's setup (store/snapshot.py) holds the scenario as it was at the start."""
    scenario = shipped(scenario_id)
    stored = json.loads(json.dumps(valuecodec.encode(scenario)))
    assert valuecodec.decode_as(Scenario, stored) == scenario


# -- where boards/ is found ------------------------------------------------------------------
def test_L_boards_are_found_in_a_checkout_and_in_an_installed_package(tmp_path: Path) -> None:
    assert BOARDS == ROOT / "boards"
    installed = tmp_path / "site-packages" / "vahalite_bot"
    (installed / "boards").mkdir(parents=True)
    (installed / "boards" / "standard.toml").write_text("")
    assert find_boards(installed) == installed / "boards"
    with pytest.raises(FileNotFoundError):
        find_boards(tmp_path / "nowhere" / "vahalite_bot")


def test_L_boards_ship_in_the_wheel_like_the_migrations() -> None:
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert '"vahalite_bot.boards": "boards"' in setup
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = pyproject["tool"]["setuptools"]["package-data"]["vahalite_bot.boards"]
    assert "*.toml" in data and "README.md" in data


# -- every reason a file is refused ----------------------------------------------------------
def test_L_zones_that_overlap_are_refused(tmp_path: Path) -> None:
    data = raw()
    data["south"]["deploy"] = [1, 3]
    data["north"]["deploy"] = [3, 6]
    data["north"]["half"] = [3, 6]
    reasons = reasons_of(tmp_path, data)
    assert "the deployment zones overlap" in reasons


def test_L_halves_that_overlap_are_refused(tmp_path: Path) -> None:
    data = raw()
    data["north"]["half"] = [3, 6]
    assert reasons_of(tmp_path, data) == ["the halves overlap"]


def test_L_terrain_off_the_board_is_refused(tmp_path: Path) -> None:
    data = raw()
    data["preplaced"] = [{"cell": "G2", "kind": "cover"}, {"cell": "C7", "kind": "water"}]
    reasons = reasons_of(tmp_path, data)
    assert "pre-placed terrain at G2 is off the board" in reasons
    assert "pre-placed terrain at C7 is off the board" in reasons


def test_L_pre_placed_pieces_sharing_a_cell_are_refused(tmp_path: Path) -> None:
    data = raw("fortress")
    data["preplaced"].append({"cell": "c2", "kind": "water"})
    assert reasons_of(tmp_path, data) == ["2 pre-placed pieces share cell C2"]


def test_L_an_sp_count_that_cannot_be_placed_is_refused(tmp_path: Path) -> None:
    """B4: 8 inner cells in a standard half; the side's Obstacle and Water may take two."""
    data = raw()
    data["north"]["sp"] = 7
    (reason,) = reasons_of(tmp_path, data)
    assert reason.startswith("the north side cannot place 7 SP")
    data["north"]["sp"] = 6
    assert load_scenario(write(tmp_path, data)).sp_for(N) == 6


def test_L_pre_placed_water_takes_cells_from_the_sp(tmp_path: Path) -> None:
    data = raw()
    data["sp"] = 6
    assert load_scenario(write(tmp_path, data)).sp_for(S) == 6
    data["preplaced"] = [{"cell": "C2", "kind": "water"}]
    (reason,) = reasons_of(tmp_path, data)
    assert reason.startswith("the south side cannot place 6 SP: its half has 7 enterable")


def test_L_halves_must_cover_the_board_or_declare_a_neutral_row(tmp_path: Path) -> None:
    data = raw("river-crossing")
    del data["board"]["neutral_rows"]
    assert reasons_of(tmp_path, data) == [
        "row 4 is in neither half: declare it neutral (neutral_rows = [4])"
    ]
    data["board"]["neutral_rows"] = [3, 4]
    assert reasons_of(tmp_path, data) == ["neutral row 3 is also in the south half"]


def test_L_deployment_outside_the_half_is_refused(tmp_path: Path) -> None:
    data = raw()
    data["south"]["half"] = [1, 2]
    data["south"]["deploy"] = [2, 3]
    data["north"]["half"] = [3, 6]
    data["north"]["deploy"] = [5, 6]
    reasons = reasons_of(tmp_path, data)
    assert "south deployment zone lies outside its half" in reasons


def test_L_terrain_sets_must_fit_the_half(tmp_path: Path) -> None:
    data = raw()
    data["south"]["terrain"] = {"cover": 19}
    (reason,) = reasons_of(tmp_path, data)
    assert reason == "the south side has 19 terrain pieces for 18 free cells of its half"


def test_L_the_id_is_the_file_name(tmp_path: Path) -> None:
    data = raw()
    scenario, reasons = read_scenario(write(tmp_path, data, name="other"))
    assert scenario is None and reasons == ["id 'standard' differs from the file name 'other'"]


def test_L_the_shape_is_checked_with_every_reason(tmp_path: Path) -> None:
    data = raw()
    data["board"]["colour"] = "red"
    data["preplaced"] = [{"cell": "C0", "kind": "cover"}, {"cell": "B2", "kind": "lava"}]
    del data["name"]["en"]
    data["south"]["half"] = [0, 3]
    reasons = reasons_of(tmp_path, data)
    assert "board.colour: unknown key" in reasons
    assert "name.en: missing" in reasons
    assert "preplaced.0.cell: 'C0' is not a cell such as C2" in reasons
    assert any(r.startswith("preplaced.1.kind: ") for r in reasons)
    assert any(r.startswith("south.half.0: ") for r in reasons)
    assert len(reasons) == 5


def test_L_an_inconsistent_file_lists_every_reason_at_once(tmp_path: Path) -> None:
    data = raw("fortress")
    data["id"] = "broken"
    data["board"]["rows"] = 7  # row 7 now in neither half
    data["preplaced"] += [{"cell": "G1", "kind": "cover"}, {"cell": "B3", "kind": "height"}]
    data["north"]["deploy"] = [2, 6]  # overlaps the south zone
    data["rounds"] = 0
    data["north"]["points"] = [650]
    with pytest.raises(ScenarioFileError) as refused:
        load_scenario(write(tmp_path, data, name="broken"))
    assert refused.value.file == "broken.toml"
    assert refused.value.reasons == [
        "2 pre-placed pieces share cell B3",
        "the deployment zones overlap",
        "row 7 is in neither half: declare it neutral (neutral_rows = [7])",
        "pre-placed terrain at G1 is off the board",
        "a game needs at least one round",
        "1 north points limits for 3 south ones: they pair by position",
    ]
    assert str(refused.value).startswith("broken.toml: 2 pre-placed pieces share cell B3; ")


def test_L_a_scenario_built_in_code_is_held_to_the_same_reasons() -> None:
    with pytest.raises(ScenarioError) as refused:
        Scenario(
            id="code",
            height=7,
            half_rows={S: (0, 2), N: (4, 6)},
            deploy_rows={S: (0, 1), N: (5, 6)},
            preplaced={c("A9"): Terrain(TerrainKind.COVER, improvement=1)},
            slot_maxima={Slot.HQ: 0},
            side_sp={N: -1},
        )
    assert refused.value.reasons == [
        "row 4 is in neither half: declare it neutral (neutral_rows = [4])",
        "pre-placed terrain at A9 is off the board",
        "only a fortification can be improved (cover at A9)",
        "the north side has a negative SP count",
        "the hq maximum 0 is below its minimum 1",
    ]


def test_L_player_terrain_sets_cannot_hold_fortifications() -> None:
    with pytest.raises(ScenarioError) as refused:
        Scenario(side_terrain={S: {FORT: 1}})
    assert refused.value.reasons == [
        "the south side cannot place fortifications: they are pre-placed only"
    ]


# -- the engine follows the scenario ---------------------------------------------------------
def ready(sheet_counts: dict[str, int]) -> Roster:
    return Roster(
        "imperials",
        tuple(RosterEntry(s) for s, n in sheet_counts.items() for _ in range(n)),
    )


def test_A2_big_battle_maxima_let_a_roster_field_more_slots() -> None:
    roster = ready({"captain": 3, "tactical": 6, "bikers": 3, "whirlwind": 3})
    assert roster_points(roster, SHEETS) <= 1500
    big = shipped("big-battle")
    assert validate(roster, SHEETS, 1500, big.organisation()) == []
    codes = {(p.rule, p.code) for p in validate(roster, SHEETS, 1500)}
    assert ("A3", "too_many") in codes


def test_A3_big_battle_keeps_the_untradeable_core() -> None:
    """The first HQ and the first two Troops still cannot be traded: minima are unchanged."""
    no_troops = ready({"captain": 4, "bikers": 4, "whirlwind": 4, "dreadnought": 4})
    problems = validate(no_troops, SHEETS, 1500, shipped("big-battle").organisation())
    assert [(p.rule, p.code, p.params["slot"]) for p in problems] == [("A2", "too_few", "troops")]


@pytest.mark.parametrize("scenario_id", SHIPPED)
def test_B3_B4_each_side_places_its_own_set_and_sp_count(scenario_id: str) -> None:
    scenario = shipped(scenario_id)
    record = play_game({S: RandomPlayer(), N: RandomPlayer()}, game_seed(7, 0), scenario=scenario)
    placed = record.initial  # before setup; replay the setup from the record's events
    assert placed.terrain == dict(scenario.preplaced)
    pieces: dict[Side, Counter[TerrainKind]] = {side: Counter() for side in Side}
    sps: Counter[Side] = Counter()
    for event in record.events:
        if isinstance(event, TerrainPlaced):
            pieces[event.side][event.kind] += 1
        elif isinstance(event, SPPlaced):
            sps[event.side] += 1
    for side in Side:
        assert pieces[side] == Counter(scenario.terrain_for(side))
        assert sps[side] == scenario.sp_for(side)


def test_E8_fortress_fortifications_give_cover_4_at_C2_and_3_at_B3() -> None:
    """L Fortress: C2, D2 with one improvement (4+), B3, E3 plain (3+), in a real attack."""
    fortress = shipped("fortress")
    units = [
        Place("tac", "tactical", N, "C4"),
        Place("hq", "captain", N, "F6"),
        Place("foe", "warriors", S, "C2"),
        Place("far", "slaves", S, "A1"),
    ]
    state = playing(units, scenario=fortress, active=N, first=N)
    attack = Attack(N, "tac", "foe", (0,), None)
    # Five bolter dice (+1 against Defense 4): three successes; cover 4+ re-rolls 3, 4, 6.
    after, events = act(state, attack, dice=[6, 6, 6, 1, 1, 3, 4, 6])
    (resolved,) = [e for e in events if isinstance(e, AttackResolved)]
    (bolters,) = resolved.weapons
    assert (bolters.cover_value, bolters.damage) == (4, 2)
    assert after.units["foe"].hp == 4
    moved = [p if p.handle != "foe" else Place("foe", "warriors", S, "B3") for p in units]
    moved[0] = Place("tac", "tactical", N, "B5")
    state = playing(moved, scenario=fortress, active=N, first=N)
    after, events = act(state, Attack(N, "tac", "foe", (0,), None), dice=[6, 6, 6, 1, 1, 2, 3, 6])
    (resolved,) = [e for e in events if isinstance(e, AttackResolved)]
    (bolters,) = resolved.weapons
    assert (bolters.cover_value, bolters.damage) == (3, 2)  # the 3 stands on plain 3+


# -- the lobby: per-side points (A1) -----------------------------------------------------------
@pytest.fixture
async def scenario_service(db: Database, clock: Clock) -> GameService:
    return GameService(db, clock=clock, sheets=SHEETS, scenarios=shipped_scenarios())


async def test_A1_fortress_checks_each_side_against_its_own_points(
    scenario_service: GameService,
) -> None:
    service = scenario_service
    created = await service.create_game(
        autoplay.SOUTH, f"fortress-{uuid.uuid4().hex}", scenario="fortress", points_limit=500
    )
    await service.join(created.game_id, autoplay.NORTH)
    army = ready({"captain": 2, "tactical": 3, "bikers": 1, "scouts": 1})
    points = roster_points(army, SHEETS)
    assert 500 < points <= 650
    with pytest.raises(RosterRejected) as refused:
        await service.submit_army(created.game_id, autoplay.SOUTH, army)
    (problem,) = refused.value.problems
    assert (problem.rule, problem.code, problem.params["limit"]) == ("A1", "over_points", 500)
    accepted = await service.submit_army(created.game_id, autoplay.NORTH, army)
    status = await service.status(accepted.game_id)
    assert [p.army_submitted for p in status.players if p.side is N] == [True]


async def test_A2_big_battle_lobby_takes_the_raised_maxima(scenario_service: GameService) -> None:
    service = scenario_service
    created = await service.create_game(
        autoplay.SOUTH, f"big-{uuid.uuid4().hex}", scenario="big-battle"
    )
    army = ready({"captain": 3, "tactical": 6, "bikers": 3, "whirlwind": 3})
    accepted = await service.submit_army(created.game_id, autoplay.SOUTH, army)
    status = await service.status(accepted.game_id)
    assert status.points_limit == 1500
    assert [p.army_submitted for p in status.players if p.side is S] == [True]


# -- every shipped scenario, end to end ------------------------------------------------------
def checked_game(scenario: Scenario, seed: int) -> tuple[GameState, list[GameState]]:
    """A greedy game with every invariant checked after every action (``--check``)."""
    snapshots: list[GameState] = []

    def check(state: GameState, action: Action, events: list[Event]) -> None:
        problems = state_problems(state)
        assert not problems, problems
        if state.phase is Phase.PLAYING and not snapshots:
            snapshots.append(state.copy())

    players = {S: GreedyPlayer(), N: GreedyPlayer()}
    record = play_game(players, game_seed(seed, 0), scenario=scenario, observe=check)
    assert record.finished
    assert game_problems(record) == []
    return record.final, snapshots


@pytest.mark.parametrize("scenario_id", SHIPPED)
def test_L_each_scenario_plays_renders_and_reads_orders(scenario_id: str) -> None:
    scenario = shipped(scenario_id)
    for seed in (1, 2):
        final, (start,) = checked_game(scenario, seed)
    assert start.scenario is scenario
    for state in (start, final):
        png = render_board(state, lang="en", size=480)
        assert png.startswith(b"\x89PNG")
    text = board_text(start, "en", plain)
    last_column = chr(ord("A") + scenario.width - 1)
    assert f" {last_column} " in text.splitlines()[1] + " "
    assert f"{scenario.height} │" in text
    south = next(u for u in start.living(S) if u.weapons)
    north = next(u for u in start.living(N) if u.cell is not None)
    odds = odds_text(start, south.id, north.id, (0,), "en", plain)
    assert south.weapons[0].name.en in odds


def test_L_h8_is_a_cell_on_big_battle_and_off_the_standard_board() -> None:
    big = playing(
        [Place("tac1", "tactical", S, "H6"), Place("sla1", "slaves", N, "A8")],
        scenario=shipped("big-battle"),
    )
    parsed = parse_line("tac1 H8")
    assert not isinstance(parsed, Exception)
    move = resolve(parsed, big, S)
    assert isinstance(move, Move) and move.path[-1] == c("H8")
    after, _ = act(big, move)
    assert after.units["tac1"].cell == c("H8")
    standard = playing([Place("tac1", "tactical", S, "E2"), Place("sla1", "slaves", N, "A6")])
    with pytest.raises(IllegalAction) as refused:
        resolve(parsed, standard, S)
    assert (refused.value.rule, refused.value.code) == ("D1", "off_board")
    assert "H8" in describe_refusal(refused.value, "en")
    assert "H8" in describe_refusal(refused.value, "ru")


# -- self-play --------------------------------------------------------------------------------
def test_L_selfplay_takes_a_scenario_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert selfplay.main(["--games", "2", "--scenario", "fortress", "--check"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "scenario: fortress (Fortress)"
    assert "errors=0" in out[-1]
    with pytest.raises(SystemExit):
        selfplay.main(["--scenario", "moon"])
    assert "expected one of standard, big-battle, fortress, river-crossing" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize("scenario_id", SHIPPED)
def test_A1_selfplay_fields_legal_armies_for_each_side(scenario_id: str) -> None:
    """Fortress's north and Big battle get the demo list grown to their own limit."""
    scenario = shipped(scenario_id)
    factions = _demo_factions()
    for faction in factions.values():
        for side in Side:
            limit = scenario.points_for(side, scenario.points_limits[0])
            roster = _army(faction, SHEETS, scenario, side)
            assert validate(roster, SHEETS, limit, scenario.organisation()) == []
            if limit == 500:
                assert roster == faction.lists["500"]
            else:
                assert roster_points(roster, SHEETS) > roster_points(faction.lists["500"], SHEETS)


def test_L_a_fortress_game_gives_north_the_bigger_army() -> None:
    state = play_game(
        {S: RandomPlayer(), N: RandomPlayer()},
        game_seed(3, 0),
        scenario=shipped("fortress"),
        max_actions=1,
    ).initial
    cost = {side: sum(u.sheet.points for u in state.living(side)) for side in Side}
    assert cost[S] <= 500 < cost[N] <= 650
