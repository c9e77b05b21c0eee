"""A command's answer carries the game's status at its version (issue 21), so the bot need
not read the game again to post it. That status must be the very one a read of the game
gives at that version: here another service, with a cache of its own, reads each version
from the database and the two are compared, through a whole game and every kind of change
(lobby, setup, play, the referee's overrides, pauses, deadlines, undo, the end).
"""

from __future__ import annotations

import random
from datetime import timedelta

from tests.conftest import REFEREE, Clock, Games
from vahalite_bot.app import GameService, Outcome, autoplay
from vahalite_bot.rules.scenario import Side
from vahalite_bot.store.database import Database


def _reader(db: Database, service: GameService) -> GameService:
    return GameService(db, clock=service.clock, sheets=service.sheets, scenarios=service.scenarios)


async def _same_as_read(reader: GameService, outcome: Outcome) -> None:
    shown = outcome.game_status
    assert shown is not None, "a command that wrote the game answers with its status"
    assert shown.version == outcome.version
    assert shown.state is outcome.state  # one copy for both
    assert shown == await reader.status(outcome.game_id)


async def test_every_answer_of_a_game_is_its_status_at_that_version(
    games: Games, service: GameService, db: Database, clock: Clock
) -> None:
    reader = _reader(db, service)
    await games.configure()
    created = await service.create_game(
        games.on_server(autoplay.SOUTH),
        games.next_channel(),
        guild=games.guild,
        scenario="skirmish",
    )
    await _same_as_read(reader, created)
    game = created.game_id
    await _same_as_read(reader, await service.set_house_rules(game, autoplay.SOUTH, "M1"))
    await _same_as_read(reader, await service.join(game, games.on_server(autoplay.NORTH)))
    armies = autoplay.SKIRMISH_ARMIES
    await _same_as_read(reader, await service.submit_army(game, autoplay.SOUTH, armies[Side.SOUTH]))
    outcome = await service.submit_army(game, autoplay.NORTH, armies[Side.NORTH])
    await _same_as_read(reader, outcome)

    async def check(reply: Outcome) -> None:
        await _same_as_read(reader, reply)

    outcome = await autoplay.play(service, outcome, random.Random(7), until=autoplay.playing)
    await check(outcome)
    for round_ in range(3):  # the referee, then a few turns of play
        await check(await service.ref_pause(game, REFEREE))
        await check(await service.ref_extend_deadline(game, REFEREE, 5))  # while paused
        await check(await service.ref_resume(game, REFEREE))
        await check(await service.ref_extend_deadline(game, REFEREE, 3))
        clock.now += timedelta(minutes=5)
        await check(await service.ref_end_turn(game, REFEREE))
        outcome = await autoplay.play(
            service, (await service.status(game)).outcome(), random.Random(round_), max_commands=3
        )
        await check(outcome)
        if outcome.status == "ended":
            return  # the dice ended it early: the rest was shown above
    player = autoplay.PLAYERS[outcome.turn_side or Side.SOUTH]
    await check(await service.ask_pause(game, player, True))
    ended = await service.resign(game, autoplay.SOUTH)
    await check(ended)
    assert ended.game_status is not None and ended.game_status.due_at is None


async def test_each_move_answers_with_the_status_read_after_it(
    games: Games, service: GameService, db: Database
) -> None:
    """Move by move (a new turn writes a new deadline, a move within one keeps it)."""
    reader = _reader(db, service)
    outcome = await games.playing(seed=2)
    for _ in range(30):
        outcome = await autoplay.play(
            service, outcome, random.Random(outcome.version), max_commands=1
        )
        await _same_as_read(reader, outcome)
        if outcome.status == "ended":
            break


async def test_an_answer_given_again_under_its_key_carries_no_status(
    games: Games, service: GameService
) -> None:
    """It is rebuilt from the log at its version, which may no longer be the game's: the
    adapter reads the game instead."""
    outcome = await games.playing(seed=3)
    first = await service.end_turn(
        outcome.game_id, autoplay.PLAYERS[outcome.turn_side or Side.SOUTH], key="k1"
    )
    again = await service.end_turn(
        outcome.game_id, autoplay.PLAYERS[outcome.turn_side or Side.SOUTH], key="k1"
    )
    assert first.game_status is not None
    assert again == first and again.game_status is None


async def test_an_expired_turn_answers_with_its_status(
    games: Games, service: GameService, db: Database, clock: Clock
) -> None:
    reader = _reader(db, service)
    outcome = await games.playing(seed=4)
    status = await service.status(outcome.game_id)
    assert status.due_at is not None
    clock.now = status.due_at + timedelta(seconds=1)
    report = await service.fire_due(clock.now)
    expired = [o for o in report.expired if o.game_id == outcome.game_id]
    assert len(expired) == 1
    await _same_as_read(reader, expired[0])
    assert expired[0].game_status is not None and expired[0].game_status.due_at is not None
    assert expired[0].game_status.due_at > clock.now
