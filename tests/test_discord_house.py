"""House rules (rulebook M) and the scenario on Discord: the suggestions (pure), and the
real bot against the stand-in: ``/vl new house:``, the lobby post, ``/vl ref house``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.discord_world import make_world, reply_text
from vahalite_bot.app import autoplay
from vahalite_bot.codex.loader import all_sheets, codex_factions
from vahalite_bot.discord.house import (
    house_suggestions,
    lobby_house,
    scenario_suggestions,
    typed_house_rules,
)
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.roster import roster_points
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.scenarios.loader import shipped


def test_M_suggestions_keep_the_ids_typed_and_complete_the_last() -> None:
    found = house_suggestions("M2, ", "en")
    assert [v for _, v in found][:3] == ["M2", "M2, M1", "M2, M3"]
    assert ("M2, M7 — Overwatch", "M2, M7") in found
    assert all(v == "M2" or v.startswith("M2, ") for _, v in found)


@pytest.mark.parametrize(("typed", "lang", "value"), [("over", "en", "M7"), ("дозор", "ru", "M7")])
def test_M_a_rule_is_found_by_its_name(typed: str, lang: str, value: str) -> None:
    assert [v for _, v in house_suggestions(typed, lang)] == [value]


def test_M_a_complete_list_is_offered_first_with_its_names() -> None:
    name, value = house_suggestions("m7,M2", "ru")[0]
    assert value == "M2, M7"
    assert name == "M2, M7 — Урон в конце раунда, Дозорная стрельба"


def test_M_none_words_mean_no_house_rules_and_the_lobby_tail() -> None:
    assert typed_house_rules(" Нет ") == "" and typed_house_rules("M1") == "M1"
    assert lobby_house("en", frozenset()) == ""
    assert lobby_house("en", frozenset({HouseRule.OVERWATCH})) == " · House rules: M7"


def test_scenario_suggestions_filter_by_what_is_typed() -> None:
    scenarios = {"standard": STANDARD, "skirmish": autoplay.SKIRMISH}
    assert [v for _, v in scenario_suggestions("", "en", scenarios)] == ["skirmish", "standard"]
    assert [v for _, v in scenario_suggestions("STAN", "ru", scenarios)] == ["standard"]


async def test_M_house_rules_on_discord_new_lobby_and_referee(tmp_path: Path) -> None:
    world = await make_world(tmp_path)
    try:
        await world.slash(world.alice, world.forum, "vl new", {"points": 500, "house": "m7, M2"})
        thread = int(world.standin.threads_of(world.forum)[0]["id"])
        game = 1
        status = await world.status(game)
        assert status.house == {HouseRule.DAMAGE_AT_ROUND_END, HouseRule.OVERWATCH}
        lobby = world.public(thread)[0].content
        standard = shipped("standard").title("en")
        assert f"scenario: {standard} · House rules: M2, M7" in lobby
        offered = await world.standin.autocomplete(
            world.alice, thread, "vl new", {"house": "M2, ov"}, "house"
        )
        assert [c["value"] for c in offered] == ["M2, M7"]
        shown = await world.slash(world.carol, thread, "vl status")
        assert f"Scenario: {standard} · House rules: M2, M7" in reply_text(shown)
        await world.slash(world.bob, thread, "vl join")
        refused = await world.slash(world.alice, thread, "vl ref house", {"rules": "M4"})
        assert "only the referee" in reply_text(refused)
        assert (await world.status(game)).house == status.house
        done = await world.slash(world.owner, thread, "vl ref house", {"rules": "none"})
        assert "Done" in reply_text(done)
        assert (await world.status(game)).house == frozenset()
        assert any("the house rules are now: —." in m.content for m in world.public(thread))
    finally:
        await world.close()


async def test_fortress_ready_made_lists_use_each_sides_points(tmp_path: Path) -> None:
    """Issue 19: Fortress's north (975 at 750) fields a ready-made list grown to its points,
    whether a player picks it with ``/vl army`` or the practice bot does."""
    world = await make_world(tmp_path)
    sheets = all_sheets(codex_factions())
    try:
        await world.slash(
            world.alice, world.forum, "vl new", {"points": 750, "scenario": "fortress"}
        )
        thread = int(world.standin.threads_of(world.forum)[0]["id"])
        await world.slash(world.bob, thread, "vl join")
        await world.slash(world.alice, thread, "vl army", {"faction": "space_marines"})
        picked = await world.slash(world.bob, thread, "vl army", {"faction": "orks"})
        assert "975" in reply_text(picked)
        await world.slash(
            world.alice,
            world.text,
            "vl new",
            {"points": 750, "scenario": "fortress", "opponent": "bot"},
        )
        practice = int(world.standin.threads_of(world.text)[0]["id"])
        await world.slash(world.alice, practice, "vl army", {"faction": "space_marines"})
        for game in (1, 2):
            rosters = (await world.status(game)).rosters
            points = {side: roster_points(roster, sheets) for side, roster in rosters.items()}
            assert points[Side.SOUTH] <= 750 < 900 < points[Side.NORTH] <= 975, (game, points)
    finally:
        await world.close()
