"""Creating a game, joining it, submitting armies, server settings (on SQLite and PostgreSQL)."""

from __future__ import annotations

import hashlib
import os

import pytest

from tests import processes
from tests.conftest import ADMIN, OUTSIDER, REFEREE, Games
from tests.processes import Workers
from vahalite_bot.app import (
    Actor,
    GameService,
    InvalidRequest,
    NotAllowed,
    NotFound,
    RosterRejected,
    autoplay,
    records,
)
from vahalite_bot.rules.events import RolledOff
from vahalite_bot.rules.roster import Roster, RosterEntry
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase
from vahalite_bot.store import configured_url

SOUTH, NORTH = autoplay.SOUTH, autoplay.NORTH


async def test_create_publishes_the_dice_hash_and_makes_the_creator_south(
    games: Games, service: GameService
) -> None:
    created = await games.lobby()
    status = await service.status(created.game_id)
    assert created.status == status.status == "lobby"
    assert created.commitment == status.commitment and len(created.commitment) == 64
    assert [(p.side, p.user) for p in status.players] == [(Side.SOUTH, SOUTH.user)]
    assert [type(e) for e in created.events] == [records.GameCreated, records.PlayerJoined]
    assert created.version == 2 == status.version


async def test_one_game_per_channel(games: Games, service: GameService) -> None:
    created = await games.lobby()
    channel = (await service.status(created.game_id)).channel
    with pytest.raises(NotAllowed) as refused:
        await service.create_game(OUTSIDER, channel, guild=games.guild)
    assert refused.value.code == "channel_busy"
    assert refused.value.params == {"game": created.game_id}
    assert await service.game_in_channel(channel) == created.game_id


async def test_leaving_the_lobby_frees_the_channel(games: Games, service: GameService) -> None:
    created = await games.lobby()
    channel = (await service.status(created.game_id)).channel
    closed = await service.resign(created.game_id, SOUTH)
    assert closed.status == "ended"
    with pytest.raises(NotFound):
        await service.game_in_channel(channel)
    again = await service.create_game(OUTSIDER, channel, guild=games.guild)
    assert again.game_id != created.game_id
    with pytest.raises(NotAllowed) as refused:
        await service.join(created.game_id, games.on_server(NORTH))
    assert refused.value.code == "game_started"


async def test_join_takes_north_once(games: Games, service: GameService) -> None:
    created = await games.lobby()
    with pytest.raises(NotAllowed) as refused:
        await service.join(created.game_id, games.on_server(SOUTH))
    assert refused.value.code == "already_joined"
    joined = await service.join(created.game_id, games.on_server(NORTH))
    assert joined.events == (records.PlayerJoined(Side.NORTH, NORTH.user),)
    with pytest.raises(NotAllowed) as full:
        await service.join(created.game_id, OUTSIDER)
    assert full.value.code == "game_full"


async def test_an_illegal_army_is_refused_with_every_reason(
    games: Games, service: GameService
) -> None:
    """A7: over points, no HQ, a transport that cannot carry its unit: all at once."""
    created = await games.lobby()
    bad = Roster(
        "imperials",
        (
            RosterEntry("tactical"),
            RosterEntry("predator", transport="rhino"),
            RosterEntry("predator"),
            RosterEntry("whirlwind"),
            RosterEntry("dreadnought"),
        ),
    )
    with pytest.raises(RosterRejected) as refused:
        await service.submit_army(created.game_id, SOUTH, bad)
    codes = {(p.rule, p.code) for p in refused.value.problems}
    assert {("A1", "over_points"), ("A2", "too_few"), ("A4", "cannot_carry")} <= codes
    assert refused.value.params == {"count": len(refused.value.problems)}
    assert (await service.status(created.game_id)).version == created.version


async def test_armies_stay_hidden_until_both_are_in_then_the_bot_rolls_off(
    games: Games, service: GameService
) -> None:
    created = await games.lobby()
    await service.join(created.game_id, games.on_server(NORTH))
    first = await service.submit_army(created.game_id, NORTH, autoplay.SKIRMISH_ARMIES[Side.NORTH])
    assert first.status == "lobby" and first.state is None
    status = await service.status(created.game_id)
    assert status.rosters == {}
    assert [p.army_submitted for p in status.players] == [False, True]
    # A list may be replaced until both are in.
    await service.submit_army(created.game_id, SOUTH, autoplay.SKIRMISH_ARMIES[Side.SOUTH])
    started = await service.status(created.game_id)
    assert started.status == "setup"
    assert started.rosters == autoplay.SKIRMISH_ARMIES
    assert started.state is not None and started.state.phase is Phase.DEPLOY_ORDER
    log = await service.game_log(created.game_id)
    roll = [line for line in log if line.kind == "action"]
    assert len(roll) == 1 and roll[0].role == "system" and roll[0].actor is None
    (event,) = [e for e in roll[0].events if isinstance(e, RolledOff)]
    assert roll[0].dice == (event.die,)
    assert started.acting_side is event.winner.other  # B2: the loser chooses


async def test_army_only_from_players_and_only_in_the_lobby(
    games: Games, service: GameService
) -> None:
    created = await games.lobby()
    with pytest.raises(NotAllowed) as outsider:
        await service.submit_army(created.game_id, OUTSIDER, autoplay.SKIRMISH_ARMIES[Side.NORTH])
    assert outsider.value.code == "not_a_player"
    started = await games.setup()
    with pytest.raises(NotAllowed) as late:
        await service.submit_army(started.game_id, SOUTH, autoplay.SKIRMISH_ARMIES[Side.SOUTH])
    assert late.value.code == "game_started"


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"points_limit": 600}, "bad_points_limit"),
        ({"deadline_hours": 0}, "bad_deadline"),
        ({"deadline_hours": 14 * 24 + 1}, "bad_deadline"),
        ({"language": "de"}, "bad_language"),
        ({"scenario": "nowhere"}, "unknown_scenario"),
    ],
)
async def test_create_refuses_values_out_of_range(
    service: GameService, channel: str, options: dict[str, object], code: str
) -> None:
    with pytest.raises(InvalidRequest) as refused:
        await service.create_game(SOUTH, channel, **options)  # type: ignore[arg-type]
    assert refused.value.code == code
    with pytest.raises(NotFound):
        await service.game_in_channel(channel)


async def test_server_settings_are_the_admins_and_set_new_games_defaults(
    service: GameService, channel: str
) -> None:
    guild = f"guild-{channel}"
    with pytest.raises(NotAllowed) as refused:
        await service.configure_server(Actor("mod", roles=frozenset({"x"})), guild, language="en")
    assert refused.value.code == "not_admin"
    assert (await service.server_config(guild)).language == "ru"
    config = await service.configure_server(
        Actor(ADMIN.user, admin=True, guild=guild),
        guild,
        referee_role="gm",
        language="en",
        deadline_hours=24,
    )
    assert config == await service.server_config(guild)
    created = await service.create_game(autoplay.on_server(SOUTH, guild), channel, guild=guild)
    status = await service.status(created.game_id)
    assert (status.language, status.deadline_seconds) == ("en", 24 * 3600)
    other = await service.create_game(
        autoplay.on_server(SOUTH, guild),
        f"{channel}-b",
        guild=guild,
        language="ru",
        deadline_hours=2,
    )
    assert (await service.status(other.game_id)).deadline_seconds == 2 * 3600


async def test_points_limit_and_commitment(games: Games, service: GameService) -> None:
    """K2: the published hash is the hash of the seed revealed at the end."""
    created = await games.lobby()
    await service.resign(created.game_id, SOUTH)
    revealed = await service.reveal_seed(created.game_id, OUTSIDER)
    assert hashlib.sha256(revealed.seed).hexdigest() == created.commitment


async def test_unknown_game(service: GameService) -> None:
    with pytest.raises(NotFound) as missing:
        await service.status(10**9)
    assert missing.value.code == "no_game"
    with pytest.raises(NotFound):
        await service.join(10**9, NORTH)


async def test_the_referee_closes_a_lobby(games: Games, service: GameService) -> None:
    created = await games.lobby()
    closed = await service.ref_decide(created.game_id, REFEREE, None)
    assert closed.status == "ended"
    assert closed.events == (records.LobbyClosed(None),)


async def test_two_processes_create_in_one_channel_at_once(
    service: GameService, db_url: str, channel: str
) -> None:
    """The database, not a check in memory, keeps one game per channel: two bot processes
    (OS processes, each with its own connections) create at the same moment."""
    with Workers(db_url) as workers:
        replies = workers.run(
            [
                (processes.command, ("create_game", (SOUTH, channel), {})),
                (processes.command, ("create_game", (NORTH, channel), {})),
            ]
        )
    assert len({r.pid for r in replies} | {os.getpid()}) == 3
    made = [r for r in replies if r.ok]
    refused = [r for r in replies if not r.ok]
    assert len(made) == 1 and len(refused) == 1, replies
    assert (refused[0].error, refused[0].code) == ("NotAllowed", "channel_busy")
    status = await service.status(await service.game_in_channel(channel))
    assert status.version == made[0].value
    winner = SOUTH if replies[0].ok else NORTH
    assert [p.user for p in status.players] == [winner.user]


def test_database_url_from_env_then_config_then_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("VAHALITE_DATABASE_URL", raising=False)
    assert configured_url(None) == "sqlite+aiosqlite:///data/vahalite.db"
    assert configured_url("postgresql+asyncpg://x/y") == "postgresql+asyncpg://x/y"
    monkeypatch.setenv("VAHALITE_DATABASE_URL", "sqlite+aiosqlite:///elsewhere.db")
    assert configured_url("postgresql+asyncpg://x/y") == "sqlite+aiosqlite:///elsewhere.db"
