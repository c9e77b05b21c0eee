"""N1 over days, on both databases: a player's games on a server, reminders by direct
message for those who ask, and pausing or resuming by both players' consent."""

from __future__ import annotations

import secrets
from datetime import timedelta

from tests.conftest import Clock, Games
from vahalite_bot.app import (
    Actor,
    GameService,
    GameStatus,
    InvalidRequest,
    NotAllowed,
    autoplay,
    records,
)
from vahalite_bot.app.results import PAUSED_BY_PLAYERS, PAUSED_BY_REFEREE
from vahalite_bot.rules.scenario import Side
from vahalite_bot.store import repository as repo

SOUTH, NORTH = autoplay.SOUTH, autoplay.NORTH


async def test_N1_a_players_games_on_a_server(games: Games, service: GameService) -> None:
    games.guild = f"guild-{secrets.token_hex(4)}"
    first = await games.playing()
    games.channel = games.next_channel()
    second = await games.playing(seed=2)
    listed = await service.games_of(NORTH.user, games.guild)
    assert {first.game_id, second.game_id} <= {s.game_id for s in listed}
    assert [s.game_id for s in listed] == sorted(s.game_id for s in listed)
    for status in listed:  # on that server, unfinished, with that player
        assert status.guild == games.guild and status.status != "ended"
        assert NORTH.user in {p.user for p in status.players}
    await service.ref_decide(second.game_id, games.admin, None)
    assert second.game_id not in {
        s.game_id for s in await service.games_of(NORTH.user, games.guild)
    }
    assert await service.games_of(SOUTH.user, f"other-{games.guild}") == []
    assert await service.games_of("nobody", games.guild) == []


async def test_N1_reminders_by_direct_message_are_a_players_switch(service: GameService) -> None:
    user = f"user-{secrets.token_hex(4)}"
    assert not await service.dm_reminders(user)
    await service.set_dm_reminders(Actor(user), True)
    await service.set_dm_reminders(Actor(user), True)
    assert await service.dm_reminders(user)
    await service.set_dm_reminders(Actor(user), False)
    assert not await service.dm_reminders(user)


async def test_N1_a_pause_needs_both_players_and_stops_the_clock(
    games: Games, service: GameService, clock: Clock
) -> None:
    game = (await games.playing()).game_id
    running = await service.status(game)
    assert running.due_at is not None
    asked = await service.ask_pause(game, SOUTH, True)
    assert records.PauseAsked(games_side(running, SOUTH.user), True) in asked.events
    assert not (await service.status(game)).paused
    try:
        await service.ask_pause(game, SOUTH, True)
        raise AssertionError("the asker agreed with themselves")
    except NotAllowed as refused:
        assert refused.code == "pause_asked"
    clock.advance(hours=1)
    await service.ask_pause(game, NORTH, True)
    paused = await service.status(game)
    assert paused.paused and paused.due_at is None
    clock.advance(hours=5)  # five hours of pause cost the player nothing
    await service.ask_pause(game, NORTH, False)
    await service.ask_pause(game, SOUTH, False)
    resumed = await service.status(game)
    assert not resumed.paused
    assert resumed.due_at == running.due_at + timedelta(hours=5)


def games_side(status: GameStatus, user: str) -> Side:
    return next(p.side for p in status.players if p.user == user)


async def test_N1_a_servers_reminder_hours_are_kept_by_its_new_games(
    games: Games, service: GameService, clock: Clock
) -> None:
    games.guild = f"guild-{secrets.token_hex(4)}"
    before = await games.playing()  # created under the default rule
    config = await service.configure_server(games.admin, games.guild, remind_hours=2)
    assert config.remind_hours == 2
    # A new game, made afresh (the fixture's games are copies of one made before).
    after = await games.made_afresh()
    old = await service.status(before.game_id)
    new = await service.status(after.game_id)
    assert new.due_at is not None and old.due_at is not None
    async with service.db.read() as session:
        kept = await repo.get_deadline(session, after.game_id)
        default = await repo.get_deadline(session, before.game_id)
    assert kept is not None and default is not None
    assert kept.due_at is not None and kept.remind_at is not None
    assert kept.due_at - kept.remind_at == timedelta(hours=2)
    assert default.due_at is not None and default.remind_at is not None
    assert default.due_at - default.remind_at == timedelta(hours=12)  # 48 h: a quarter, at most 12
    back = await service.configure_server(games.admin, games.guild, remind_hours=0)
    assert back.remind_hours is None
    try:
        await service.configure_server(games.admin, games.guild, remind_hours=10_000)
        raise AssertionError("a reminder weeks before the deadline was accepted")
    except InvalidRequest as refused:
        assert refused.code in ("bad_remind", "bad_range")


async def test_N1_N2_a_pause_says_who_paused_and_only_they_lift_it(
    games: Games, service: GameService
) -> None:
    by_players = (await games.playing()).game_id
    await service.ask_pause(by_players, SOUTH, True)
    await service.ask_pause(by_players, NORTH, True)
    status = await service.status(by_players)
    assert status.paused and status.paused_by == PAUSED_BY_PLAYERS
    mover = autoplay.PLAYERS[status.turn_side or Side.SOUTH]
    try:
        await service.end_turn(by_players, mover)
        raise AssertionError("a move in a paused game")
    except NotAllowed as refused:
        assert refused.code == "players_paused"  # not "the referee has paused the game"
    games.channel = games.next_channel()
    by_referee = (await games.playing(seed=2)).game_id
    await service.ref_pause(by_referee, games.admin)
    assert (await service.status(by_referee)).paused_by == PAUSED_BY_REFEREE
    version = (await service.status(by_referee)).version
    for player in (SOUTH, NORTH):
        try:
            await service.ask_pause(by_referee, player, False)
            raise AssertionError("the players lifted the referee's pause")
        except NotAllowed as refused:
            assert refused.code == "referee_paused"
    assert (await service.status(by_referee)).version == version
    await service.ref_resume(by_referee, games.admin)
    await service.ref_resume(by_players, games.admin)  # N2: the referee may lift any pause
    assert not (await service.status(by_players)).paused


async def test_N1_a_servers_language_counts_once_chosen(games: Games, service: GameService) -> None:
    guild = f"guild-{secrets.token_hex(4)}"
    admin = Actor("admin", admin=True, guild=guild)
    assert not (await service.server_config(guild)).language_chosen
    await service.configure_server(admin, guild, deadline_hours=24)
    assert not (await service.server_config(guild)).language_chosen  # only the deadline
    await service.configure_server(admin, guild, language="en")
    await service.configure_server(admin, guild, deadline_hours=12)
    config = await service.server_config(guild)
    assert config.language_chosen and config.language == "en"
