"""The console's questions at a new game: the scenario menu and the house rules (rulebook M),
bad answers asked again, and the game created with what was chosen."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from vahalite_bot.app import GameService, autoplay
from vahalite_bot.codex.loader import all_sheets, codex_factions
from vahalite_bot.console.game import ConsoleGame
from vahalite_bot.console.house import ask_house_rules, ask_scenario
from vahalite_bot.console.options import ConsoleOptions
from vahalite_bot.console.seats import CHANNEL
from vahalite_bot.console.terminal import Terminal
from vahalite_bot.present.rules import rule_reply
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.store.database import open_database
from vahalite_bot.verify import check_text

SCENARIOS = {"skirmish": autoplay.SKIRMISH, "standard": STANDARD}


def terminal(*lines: str) -> tuple[Terminal, io.StringIO]:
    out = io.StringIO()
    return Terminal(io.StringIO("".join(f"{line}\n" for line in lines)), out), out


@pytest.mark.parametrize(
    ("typed", "chosen"), [("", "standard"), ("2", "skirmish"), ("SKIRMISH", "skirmish")]
)
def test_the_scenario_menu_lists_standard_first(typed: str, chosen: str) -> None:
    term, out = terminal(typed)
    assert ask_scenario(term, "en", SCENARIOS) == chosen
    assert "1. standard, 2. skirmish" in out.getvalue()


def test_a_bad_scenario_is_asked_again() -> None:
    term, out = terminal("7", "nowhere", "1")
    assert ask_scenario(term, "ru", SCENARIOS) == "standard"
    assert out.getvalue().count("Введите номер или id сценария") == 2


def test_M_house_rules_listed_with_names_and_read_as_typed() -> None:
    term, out = terminal("m7, M2")
    assert ask_house_rules(term, "en") == {HouseRule.OVERWATCH, HouseRule.DAMAGE_AT_ROUND_END}
    shown = out.getvalue()
    assert "M1 — Natural 1 fails" in shown and "M9 — Weapon Skill" in shown


def test_M_house_rules_enter_is_none_and_a_bad_id_is_asked_again() -> None:
    term, out = terminal("M2 M12", "")
    assert ask_house_rules(term, "ru") == frozenset()
    shown = out.getvalue()
    assert "Домашнего правила «M12» нет" in shown and "M1, M2, M3" in shown
    assert "Дозорная стрельба" in shown


async def test_M_the_console_creates_the_game_with_the_chosen_scenario_and_rules(
    tmp_path: Path,
) -> None:
    """Scenario 2 (skirmish), M2 and M7, then its points menu (skirmish's own), then quit."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    db = await open_database(url)
    try:
        service = GameService(db, scenarios=SCENARIOS)
        term, out = terminal("2", "M7 M2", "", "выход")
        options = ConsoleOptions(lang="ru", database_url=url, boards=tmp_path)
        assert await ConsoleGame(service, term, options, codex_factions()).run() == 0
        status = await service.status(await service.game_in_channel(CHANNEL))
    finally:
        await db.close()
    assert status.scenario == "skirmish"
    assert status.house == {HouseRule.DAMAGE_AT_ROUND_END, HouseRule.OVERWATCH}
    assert status.points_limit == autoplay.SKIRMISH.points_limits[0]
    assert "Сценарий: skirmish · Домашние правила: M2, M7" in out.getvalue()


@pytest.mark.parametrize(("lang", "title"), [("en", "Overwatch"), ("ru", "Дозорная стрельба")])
def test_M7_rule_answers_with_the_rulebook_entry(lang: str, title: str) -> None:
    """``rule M7`` / ``правило M7`` shows the house rule like any other rule."""
    reply = rule_reply(lang, "M7")
    assert title in reply.splitlines()[0] and len(reply.splitlines()) > 1


async def test_fortress_attacker_fields_a_ready_made_list_grown_to_its_975_points(
    tmp_path: Path,
) -> None:
    """Issue 19: North's 975 points in Fortress, not its 750 list's 745 under a 975 title."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    db = await open_database(url)
    factions = codex_factions()
    try:
        service = GameService(db, sheets=all_sheets(factions))
        # Fortress, no house rules, 750 (North: 975), Tyranids for both, then quit.
        term, out = terminal("fortress", "", "750", "тираниды", "да", "тираниды", "да", "выход")
        options = ConsoleOptions(lang="ru", database_url=url, boards=tmp_path)
        assert await ConsoleGame(service, term, options, factions).run() == 0
        status = await service.status(await service.game_in_channel(CHANNEL))
    finally:
        await db.close()
    assert status.scenario == "fortress" and status.state is not None
    fielded = {
        side: sum(u.sheet.points for u in status.state.units.values() if u.side is side)
        for side in Side
    }
    shown = out.getvalue()
    accepted = re.findall(r"принята: Тираниды, (\d+) очк\w* из (\d+)\.", shown)
    assert [int(limit) for _, limit in accepted] == [750, 975]
    assert int(accepted[1][0]) > 900, shown  # the 750 list alone is 745
    assert "975 очков" in shown
    assert fielded[Side.NORTH] > fielded[Side.SOUTH]


async def test_K2_a_game_ended_in_the_terminal_leaves_a_log_anyone_can_check(
    tmp_path: Path,
) -> None:
    """Issue 19: the log of a finished game carries the seed and both players' words, and
    every die checks out (a game resigned at the roll-off: the roll-off die is one)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    db = await open_database(url)
    factions = codex_factions()
    try:
        service = GameService(db, sheets=all_sheets(factions))
        # Standard, no house rules, 500 points, two ready-made lists; South resigns.
        answers = ("", "", "500", "орки", "да", "тираниды", "да", "сдаюсь", "да")
        term, out = terminal(*answers)
        options = ConsoleOptions(lang="ru", database_url=url, boards=tmp_path / "boards")
        assert await ConsoleGame(service, term, options, factions).run() == 0
    finally:
        await db.close()
    exported = tmp_path / "logs" / "game-1.jsonl"
    report = check_text(exported.read_text(encoding="utf-8"))
    assert report.verified and set(report.words) == {"south", "north"}
    assert report.dice and all(die.expected == die.die.value for die in report.dice)
    assert "Журнал партии:" in out.getvalue().split("Зерно кубиков:")[1]
