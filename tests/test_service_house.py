"""House rules (rulebook M, header): chosen at creation, changed only in the lobby (by the
creator before anyone joins, by the referee until B1), stored, logged, replayed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.conftest import OUTSIDER, REFEREE, TEST_GUILD, Clock, Games
from vahalite_bot.app import Actor, GameService, InvalidRequest, NotAllowed, autoplay, records
from vahalite_bot.app.replay import Entry, fold
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.store.database import open_database

SOUTH, NORTH = autoplay.SOUTH, autoplay.NORTH
M2_M7 = frozenset({HouseRule.DAMAGE_AT_ROUND_END, HouseRule.OVERWATCH})


async def _lobby(games: Games, house: str) -> int:
    await games.configure()
    created = await games.service.create_game(
        games.on_server(SOUTH),
        games.next_channel(),
        guild=games.guild,
        scenario="skirmish",
        house_rules=house,
    )
    return created.game_id


async def test_M_house_rules_chosen_at_creation_are_the_games(
    games: Games, service: GameService
) -> None:
    await games.configure()
    created = await service.create_game(
        games.on_server(SOUTH),
        games.next_channel(),
        guild=games.guild,
        scenario="skirmish",
        house_rules=" m7,M2 ",
    )
    status = await service.status(created.game_id)
    assert status.house == M2_M7
    assert status.scenario == "skirmish"
    made = created.events[0]
    assert isinstance(made, records.GameCreated) and made.house == M2_M7


async def test_M_no_house_rules_by_default(games: Games, service: GameService) -> None:
    created = await games.lobby()
    assert (await service.status(created.game_id)).house == frozenset()


@pytest.mark.parametrize("typed", ["M2, M10", "overwatch"])
async def test_M_an_unknown_house_rule_is_refused_naming_every_id(
    games: Games, service: GameService, typed: str
) -> None:
    with pytest.raises(InvalidRequest) as refused:
        await service.create_game(SOUTH, games.next_channel(), house_rules=typed)
    assert refused.value.code == "unknown_house_rule"
    assert refused.value.params["allowed"] == "M1, M2, M3, M4, M5, M6, M7, M8, M9"
    assert "M9" in refused.value.describe("en") and "M1" in refused.value.describe("ru")


async def test_M_the_creator_changes_the_set_before_anyone_joins_and_it_is_logged(
    games: Games, service: GameService
) -> None:
    game_id = await _lobby(games, "M2")
    changed = await service.set_house_rules(game_id, SOUTH, ("M7", "M2"))
    assert changed.events == (
        records.HouseRulesSet(M2_M7, frozenset({HouseRule.DAMAGE_AT_ROUND_END})),
    )
    assert (await service.status(game_id)).house == M2_M7
    last = (await service.game_log(game_id))[-1]
    assert (last.kind, last.actor, last.role) == ("lobby", SOUTH.user, "player")
    await service.set_house_rules(game_id, SOUTH, "")
    assert (await service.status(game_id)).house == frozenset()


async def test_M_after_the_join_only_the_referee_changes_the_set(
    games: Games, service: GameService
) -> None:
    game_id = await _lobby(games, "M1")
    await service.join(game_id, games.on_server(NORTH))
    for who, code in (
        (SOUTH, "house_rules_joined"),
        (NORTH, "not_referee"),
        (OUTSIDER, "not_referee"),
    ):
        with pytest.raises(NotAllowed) as refused:
            await service.set_house_rules(game_id, who, "M4")
        assert refused.value.code == code
    await service.set_house_rules(game_id, REFEREE, "M4 M6")
    last = (await service.game_log(game_id))[-1]
    assert (last.actor, last.role) == (REFEREE.user, "referee")
    assert (await service.status(game_id)).house == {HouseRule.INITIATIVE, HouseRule.FALL_BACK}


async def test_M_the_set_is_fixed_from_B1_and_carried_by_the_setup(
    games: Games, service: GameService
) -> None:
    game_id = await _lobby(games, "M1")
    await service.join(game_id, games.on_server(NORTH))
    await service.set_house_rules(game_id, REFEREE, "M4")
    await service.submit_army(game_id, SOUTH, autoplay.SKIRMISH_ARMIES[Side.SOUTH])
    started = await service.submit_army(game_id, NORTH, autoplay.SKIRMISH_ARMIES[Side.NORTH])
    assert started.state is not None and started.state.house == {HouseRule.INITIATIVE}
    with pytest.raises(NotAllowed) as refused:
        await service.set_house_rules(game_id, REFEREE, "M1")
    assert refused.value.code == "house_rules_fixed"
    assert "B1" in refused.value.describe("en")
    assert (await service.status(game_id)).house == {HouseRule.INITIATIVE}


async def test_M_a_game_with_house_rules_replays_from_its_log(
    games: Games, service: GameService
) -> None:
    await games.configure()
    created = await service.create_game(
        games.on_server(SOUTH),
        games.next_channel(),
        guild=games.guild,
        scenario="skirmish",
        house_rules="M1 M4",
    )
    game_id = created.game_id
    await service.join(game_id, games.on_server(NORTH))
    await service.submit_army(game_id, SOUTH, autoplay.SKIRMISH_ARMIES[Side.SOUTH])
    outcome = await service.submit_army(game_id, NORTH, autoplay.SKIRMISH_ARMIES[Side.NORTH])
    outcome = await autoplay.play(service, outcome, random.Random(5), max_commands=40)
    replayed = await games.replay(game_id)
    assert replayed is not None
    assert replayed.house == {HouseRule.NATURAL_ONE, HouseRule.INITIATIVE}
    assert replayed == outcome.state


async def test_M_house_rules_survive_a_restart(tmp_path: Path) -> None:
    """A fresh service on the same SQLite file finds the set in the lobby and in the state."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'house.db'}"
    scenarios = {"standard": STANDARD, "skirmish": autoplay.SKIRMISH}
    db = await open_database(url)
    service = GameService(db, clock=Clock(), scenarios=scenarios)
    lobby = (await service.create_game(SOUTH, "lobby-chan", house_rules="M2,M7")).game_id
    created = await service.create_game(SOUTH, "game-chan", scenario="skirmish", house_rules="M3")
    await service.join(created.game_id, NORTH)
    for side, actor in autoplay.PLAYERS.items():
        await service.submit_army(created.game_id, actor, autoplay.SKIRMISH_ARMIES[side])
    await db.close()

    db = await open_database(url)
    try:
        fresh = GameService(db, clock=Clock(), scenarios=scenarios)
        assert (await fresh.status(lobby)).house == M2_M7
        status = await fresh.status(created.game_id)
        assert status.house == {HouseRule.ORDERS}
        assert status.state is not None and status.state.house == {HouseRule.ORDERS}
        entries = [
            Entry(e.seq, e.kind, e.actor, e.role, e.side, e.record, e.dice, (), e.created_at)
            for e in await fresh.game_log(created.game_id)
        ]
        assert fold(None, entries) == status.state
    finally:
        await db.close()


async def test_M_house_rules_in_a_guild_game_need_that_guilds_referee(
    games: Games, service: GameService
) -> None:
    """A referee of another server is nobody here (N2's rule for every override)."""
    game_id = await _lobby(games, "")
    await service.join(game_id, games.on_server(NORTH))
    stranger = Actor(REFEREE.user, roles=REFEREE.roles, guild="elsewhere")
    with pytest.raises(NotAllowed) as refused:
        await service.set_house_rules(game_id, stranger, "M5")
    assert refused.value.code == "other_server"
    assert games.guild == TEST_GUILD
