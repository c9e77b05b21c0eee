"""Commands applied once: a command delivered twice under one idempotency key applies once,
and the second delivery gets the first answer, across services (processes) and restarts."""

from __future__ import annotations

import asyncio
import inspect
from datetime import timedelta

import pytest

from tests.conftest import REFEREE, Clock, Games
from vahalite_bot.app import (
    GameService,
    InvalidRequest,
    NotAllowed,
    Outcome,
    StaleState,
    autoplay,
)
from vahalite_bot.console.keys import CommandKeys
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side
from vahalite_bot.store.database import open_database

SOUTH = autoplay.SOUTH


async def _moved_twice(games: Games, service: GameService) -> Outcome:
    """South on turn has moved the scouts (A3 to A4), then the rhino (F3 to F4)."""
    game = await games.south_on_turn()
    await games.place(game.game_id, sco1="A3", rhi1="F3")
    await service.move(game.game_id, SOUTH, "sco1", Cell.parse("A4"))
    return await service.move(game.game_id, SOUTH, "rhi1", Cell.parse("F4"))


async def _other_service(db_url: str, clock: Clock, like: GameService) -> GameService:
    """Another process's service: its own connections and cache (close its db after)."""
    db = await open_database(db_url, upgrade=False)
    return GameService(db, clock=clock, sheets=like.sheets, scenarios=like.scenarios)


async def test_two_undos_with_one_key_take_back_one_move(
    games: Games, service: GameService, db_url: str, clock: Clock
) -> None:
    moved = await _moved_twice(games, service)
    game_id = moved.game_id
    first = await service.undo(game_id, SOUTH, key="undo-1")
    other = await _other_service(db_url, clock, service)  # the retry reaches another process
    try:
        again = await other.undo(game_id, SOUTH, key="undo-1")
    finally:
        await other.db.close()
    assert again == first  # the first answer: same version, events and state
    status = await service.status(game_id)
    assert status.version == first.version == moved.version + 1
    assert status.state is not None
    assert status.state.units["rhi1"].cell == Cell.parse("F3")  # taken back once
    assert status.state.units["sco1"].cell == Cell.parse("A4")  # not twice
    second = await service.undo(game_id, SOUTH, key="undo-2")  # a new key is a new command
    assert second.state is not None and second.state.units["sco1"].cell == Cell.parse("A3")


async def test_two_undo_requests_with_one_key_ask_once(games: Games, service: GameService) -> None:
    moved = await _moved_twice(games, service)
    first = await service.request_undo(moved.game_id, SOUTH, key="ask")
    again = await service.request_undo(moved.game_id, SOUTH, key="ask")
    assert again == first
    log = await service.game_log(moved.game_id)
    assert len(log) == first.version == moved.version + 1


async def test_two_deadline_extensions_with_one_key_add_the_time_once(
    games: Games, service: GameService, clock: Clock
) -> None:
    game = await games.south_on_turn()
    due = (await service.status(game.game_id)).due_at
    assert due is not None
    first = await service.ref_extend_deadline(game.game_id, REFEREE, 5, key="ext")
    clock.advance(minutes=3)  # a retry comes later: it still answers as the first did
    again = await service.ref_extend_deadline(game.game_id, REFEREE, 5, key="ext")
    assert again == first
    status = await service.status(game.game_id)
    assert status.due_at == due + timedelta(hours=5)
    assert status.version == game.version + 1


async def test_a_duplicate_create_game_makes_one_game_even_after_a_restart(
    service: GameService, channel: str, db_url: str, clock: Clock
) -> None:
    first = await service.create_game(SOUTH, channel, scenario="skirmish", key="create-1")
    restarted = await _other_service(db_url, clock, service)
    try:
        again = await restarted.create_game(SOUTH, channel, scenario="skirmish", key="create-1")
    finally:
        await restarted.db.close()
    assert again == first
    with pytest.raises(NotAllowed) as busy:  # without the key it is a second game: refused
        await service.create_game(SOUTH, channel, scenario="skirmish", key="create-2")
    assert busy.value.code == "channel_busy"
    assert await service.game_in_channel(channel) == first.game_id


async def test_two_deliveries_racing_apply_once(
    games: Games, service: GameService, db_url: str, clock: Clock
) -> None:
    game = await games.south_on_turn()
    other = await _other_service(db_url, clock, service)
    try:
        answers = await asyncio.gather(
            service.ref_set_hp(game.game_id, REFEREE, "tac1", 1, key="race"),
            other.ref_set_hp(game.game_id, REFEREE, "tac1", 1, key="race"),
        )
    finally:
        await other.db.close()
    assert answers[0] == answers[1]
    assert (await service.status(game.game_id)).version == game.version + 1


async def test_a_retry_the_game_now_refuses_gets_the_first_answer(
    games: Games, service: GameService
) -> None:
    """A command's first try does not look its key up (its row, written with the command's,
    collides with a stored one): a retry the game refuses now (the unit has moved, the
    view it was sent from is old) looks it up before it refuses."""
    game = await games.south_on_turn()
    placed = await games.place(game.game_id, sco1="A3")
    first = await service.move(
        game.game_id, SOUTH, "sco1", Cell.parse("A4"), expected_version=placed.version, key="m"
    )
    again = await service.move(
        game.game_id, SOUTH, "sco1", Cell.parse("A4"), expected_version=placed.version, key="m"
    )
    assert again == first
    unexpected = await service.move(game.game_id, SOUTH, "sco1", Cell.parse("A4"), key="m")
    assert unexpected == first  # without the version: the unit moved already, refused
    with pytest.raises(StaleState):  # the same without a key: judged afresh
        await service.move(
            game.game_id, SOUTH, "sco1", Cell.parse("A4"), expected_version=placed.version
        )
    assert (await service.status(game.game_id)).version == first.version


async def test_a_retry_the_game_still_allows_applies_once(
    games: Games, service: GameService
) -> None:
    """The referee's ending of a turn sent twice: the second, allowed in the game as it now
    is (it would end the other side's turn), collides with the first's key and is answered
    as the first was; nothing more is made."""
    game = await games.south_on_turn()
    first = await service.ref_end_turn(game.game_id, REFEREE, key="end")
    again = await service.ref_end_turn(game.game_id, REFEREE, key="end")
    assert again == first
    assert (await service.status(game.game_id)).version == first.version == game.version + 1
    assert first.turn_side is Side.NORTH


async def test_a_key_is_for_one_command(games: Games, service: GameService) -> None:
    game = await games.south_on_turn()
    await service.ref_pause(game.game_id, REFEREE, key="k")
    with pytest.raises(InvalidRequest) as reused:
        await service.ref_resume(game.game_id, REFEREE, key="k")
    assert (reused.value.code, reused.value.params) == ("key_reused", {"command": "ref_pause"})
    assert (await service.status(game.game_id)).paused


async def test_a_repeated_server_setting_changes_nothing_made_since(
    games: Games, service: GameService
) -> None:
    games.guild = f"guild-{games.channel}"
    first = await service.configure_server(games.admin, games.guild, language="en", key="s1")
    await service.configure_server(games.admin, games.guild, language="ru", key="s2")
    again = await service.configure_server(games.admin, games.guild, language="en", key="s1")
    assert again == first
    assert (await service.server_config(games.guild)).language == "ru"


async def test_a_key_is_for_one_caller(games: Games, service: GameService) -> None:
    """Another caller sending the same key gets no one else's answer, and nothing runs."""
    game = await games.south_on_turn()
    await service.end_turn(game.game_id, SOUTH, key="mine")
    with pytest.raises(InvalidRequest) as reused:
        await service.end_turn(game.game_id, autoplay.NORTH, key="mine")
    assert reused.value.code == "key_reused"
    assert (await service.status(game.game_id)).version == game.version + 1


def test_the_terminal_counts_its_keys_and_a_new_run_never_repeats_one() -> None:
    first, second = CommandKeys(), CommandKeys()
    run = [first.next() for _ in range(3)]
    assert len(set(run)) == 3
    assert not set(run) & {second.next() for _ in range(3)}  # a resumed game, a new run


READS_AND_SCHEDULER = {
    "status",
    "game_log",
    "recap_log",
    "game_in_channel",
    "server_config",
    "fire_due",
    "claim_announcements",
    "mark_announced",
    "games_of",
    "dm_reminders",
}


def test_every_command_takes_a_key() -> None:
    """Every method that changes something accepts an idempotency key, keyword-only."""
    commands = [
        (name, inspect.signature(method).parameters.get("key"))
        for name, method in inspect.getmembers(GameService, inspect.iscoroutinefunction)
        if not name.startswith("_") and name not in READS_AND_SCHEDULER
    ]
    assert len(commands) >= 30
    missing = [name for name, key in commands if key is None or key.kind is not key.KEYWORD_ONLY]
    assert missing == []
