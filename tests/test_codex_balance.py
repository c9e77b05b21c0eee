"""Balance by self-play: the match-ups, one game's accounting, and the report's arithmetic."""

from __future__ import annotations

import time
from collections import Counter

import pytest

from vahalite_bot.codex.__main__ import main as codex_main
from vahalite_bot.codex.balance import (
    GameResult,
    Report,
    RunSettings,
    UnitResult,
    matchups,
    play_matchup,
    suggested_points,
)
from vahalite_bot.codex.loader import all_sheets, codex_factions
from vahalite_bot.rules.roster import field_units
from vahalite_bot.rules.scenario import Side
from vahalite_bot.selfplay.game import game_seed
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.selfplay.hard import HardPlayer

FACTIONS = codex_factions()
SHEETS = all_sheets(FACTIONS)


def test_every_faction_meets_every_other_from_both_sides() -> None:
    pairs = matchups(FACTIONS)
    assert len(pairs) == 8 * 7 == len(set(pairs))
    assert all(south != north for south, north in pairs)
    assert (
        Counter(s for s, _ in pairs) == Counter(n for _, n in pairs) == dict.fromkeys(FACTIONS, 7)
    )


def play(seed: int) -> GameResult:
    players = {side: GreedyPlayer() for side in Side}
    return play_matchup(FACTIONS, "orks", "eldar", "500", game_seed(seed, 0), players)


def test_a_game_is_reproducible_from_its_seed() -> None:
    assert play(5) == play(5)


def fielded(faction: str) -> list[tuple[str, int, int]]:
    """(sheet, points, HP) of each unit of the faction's "500" list, as the game fields it."""
    units = field_units(FACTIONS[faction].lists["500"], SHEETS)
    return [(sheet.id, sheet.points, sheet.max_hp) for _, sheet in units]


def test_a_game_accounts_for_every_fielded_unit() -> None:
    game = play(7)
    assert game.finished
    expected = [("orks", s, p) for s, p, _ in fielded("orks")]
    expected += [("eldar", s, p) for s, p, _ in fielded("eldar")]
    assert [(u.faction, u.sheet, u.points) for u in game.units] == expected
    for faction, enemy in (("orks", "eldar"), ("eldar", "orks")):
        dealt = sum(u.damage for u in game.units if u.faction == faction)
        assert 0 <= dealt <= sum(hp for *_, hp in fielded(enemy))
        # J3/J4: a side with no unit left standing did not win.
        if not any(u.survived for u in game.units if u.faction == faction):
            assert game.outcome(faction) in ("loss", "draw")


def result(south: str, north: str, winner: Side | None, vp: tuple[int, int] = (0, 0)) -> GameResult:
    units = (
        UnitResult(south, f"{south}_unit", 100, 3, vp[0], True),
        UnitResult(north, f"{north}_unit", 50, 1, vp[1], False),
    )
    return GameResult(south, north, winner, True, units)


def test_report_win_rates_count_draws_half() -> None:
    results = [
        result("a", "b", Side.SOUTH),
        result("b", "a", Side.SOUTH),
        result("a", "b", None),
        result("a", "b", Side.SOUTH),
    ]
    report = Report.of(RunSettings(4, 1), results)
    rates = {r.faction: (r.wins, r.draws, r.losses, r.win_rate) for r in report.factions}
    assert rates == {"a": (2, 1, 1, 0.625), "b": (1, 1, 2, 0.375)}
    assert [r.in_band for r in report.factions] == [False, False]


def test_report_points_efficiency_and_standouts() -> None:
    """Per 100 points: VP 1, 1, 4 and 0.5; the median is 1, so 4 is high and 0.5 low."""
    units = (
        UnitResult("a", "steady", 100, 3, 1, True),
        UnitResult("a", "also_steady", 200, 2, 2, True),
        UnitResult("b", "star", 50, 4, 2, True),
        UnitResult("b", "dud", 200, 0, 1, False),
    )
    report = Report.of(RunSettings(2, 1), [GameResult("a", "b", None, True, units)] * 2)
    rows = {r.sheet: r for r in report.sheets}
    assert rows["star"].per_100(rows["star"].vp) == pytest.approx(4.0)
    assert rows["star"].per_100(rows["star"].damage) == pytest.approx(8.0)
    assert (rows["dud"].fielded, rows["dud"].survived) == (2, 0)
    assert report.standouts() == {("b", "star"): "high", ("b", "dud"): "low"}
    assert "sheets standing out (VP per point beyond 1.5x the median): 2" in report.lines()[-1]


def test_suggested_points_follow_efficiency_and_win_rate() -> None:
    """Three sheets of one faction at 50%: the one earning 4x the median VP per point gets
    dearer (capped at +12%), the one earning half of it cheaper (capped at -10%)."""
    sheets = FACTIONS["orks"].sheets
    units = (
        UnitResult("orks", "boyz", 100, 2, 1, True),
        UnitResult("orks", "nobz", 100, 8, 4, True),
        UnitResult("orks", "gretchin", 100, 1, 0, True),
    )
    report = Report.of(RunSettings(1, 1), [GameResult("orks", "tau", None, True, units)])
    changes = suggested_points(report, sheets, faction_weight=0.0)
    nobz, gretchin = sheets["nobz"].points, sheets["gretchin"].points
    assert changes["nobz"] == (nobz, 5 * round(nobz * 1.12 / 5))
    assert changes["gretchin"] == (gretchin, 5 * round(gretchin * 0.9 / 5))
    assert "boyz" not in changes


def test_balance_command_prints_the_tables(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["balance", "--games", "2", "--seed", "3", "--list", "500", "--suggest"]
    assert codex_main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("list 500, 2 games, seed 3, players greedy vs greedy, unfinished 0")
    assert "win rate" in out and "VP/100 pts" in out
    assert "suggested points" in out


def test_balance_gives_the_search_player_its_budget_on_the_clock_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["balance", "--games", "1", "--seed", "3", "--list", "500", "--players", "hard,greedy"]
    assert codex_main([*argv, "--budget-ms", "2", "--budget-clock", "cpu"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head.endswith(
        "players hard vs greedy, unfinished 0, the search thinking 2 ms (cpu) a decision"
    )


def test_a_run_gives_the_search_player_its_budget_and_clock() -> None:
    settings = RunSettings(1, 1, players=("hard", "greedy"), budget_ms=2, budget_clock="cpu")
    players = settings.make_players()
    hard = players[Side.SOUTH]
    assert isinstance(hard, HardPlayer) and isinstance(players[Side.NORTH], GreedyPlayer)
    assert hard.budget_ms == 2 and hard.clock is time.process_time
