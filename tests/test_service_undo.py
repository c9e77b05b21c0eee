"""Undo: alone without dice, by consent with dice, by the referee across turns."""

from __future__ import annotations

import random

import pytest

from tests.conftest import REFEREE, Games
from vahalite_bot.app import GameService, NotAllowed, Outcome, autoplay, records
from vahalite_bot.rules.events import AttackResolved
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side

SOUTH, NORTH = autoplay.SOUTH, autoplay.NORTH


async def south_to_play(games: Games, service: GameService) -> Outcome:
    """A game in round 1 with south on turn, captain and archon face to face (C3, C4)."""
    outcome = await games.playing()
    while outcome.turn_side is not Side.SOUTH:
        outcome = await service.ref_end_turn(outcome.game_id, REFEREE)
    await service.ref_move_unit(outcome.game_id, REFEREE, "cap1", Cell.parse("C3"))
    return await service.ref_move_unit(outcome.game_id, REFEREE, "arc1", Cell.parse("C4"))


async def test_a_player_undoes_their_own_moves_alone(games: Games, service: GameService) -> None:
    arranged = await south_to_play(games, service)
    await service.ref_move_unit(arranged.game_id, REFEREE, "sco1", Cell.parse("A3"))
    before = await service.ref_move_unit(arranged.game_id, REFEREE, "rhi1", Cell.parse("F3"))
    game_id = before.game_id
    await service.move(game_id, SOUTH, "sco1", Cell.parse("A4"))
    await service.move(game_id, SOUTH, "rhi1", Cell.parse("F4"))
    undone = await service.undo(game_id, SOUTH, count=2)
    assert undone.state == before.state
    assert undone.events == (records.Undone((before.version + 1, before.version + 2)),)
    log = await service.game_log(game_id)
    assert [line.undone for line in log[-3:]] == [True, True, False]  # kept, marked
    assert log[-1].record == records.Undo(
        (before.version + 1, before.version + 2), before.state.dice_position if before.state else 0
    )
    service.cache.drop(game_id)
    assert (await service.status(game_id)).state == before.state == await games.replay(game_id)


async def test_only_ones_own_actions_of_this_turn(games: Games, service: GameService) -> None:
    before = await south_to_play(games, service)
    game_id = before.game_id
    await service.ref_move_unit(game_id, REFEREE, "sco1", Cell.parse("A3"))
    await service.move(game_id, SOUTH, "sco1", Cell.parse("A4"))
    with pytest.raises(NotAllowed) as theirs:
        await service.undo(game_id, NORTH)
    assert theirs.value.code == "undo_not_own"
    ended = await service.end_turn(game_id, SOUTH)
    with pytest.raises(NotAllowed) as earlier:
        await service.undo(game_id, SOUTH)
    assert earlier.value.code == "nothing_to_undo"  # this turn (north's) has nothing yet
    with pytest.raises(NotAllowed) as past:
        await service.undo(game_id, NORTH)
    assert past.value.code == "nothing_to_undo"
    assert (await service.status(game_id)).version == ended.version


async def test_dice_need_the_opponents_consent(games: Games, service: GameService) -> None:
    before = await south_to_play(games, service)
    game_id = before.game_id
    attacked = await service.attack(game_id, SOUTH, "cap1", "arc1")
    assert any(isinstance(e, AttackResolved) for e in attacked.events)
    assert attacked.state is not None and before.state is not None
    with pytest.raises(NotAllowed) as alone:
        await service.undo(game_id, SOUTH)
    assert alone.value.code == "undo_needs_consent"
    asked = await service.request_undo(game_id, SOUTH)
    assert asked.events == (records.UndoRequested(Side.SOUTH, (attacked.version,)),)
    status = await service.status(game_id)
    assert status.undo_request is not None and status.undo_request.user == SOUTH.user
    with pytest.raises(NotAllowed) as own:
        await service.answer_undo(game_id, SOUTH, True)
    assert own.value.code == "not_your_request"
    agreed = await service.answer_undo(game_id, NORTH, True)
    assert agreed.state is not None
    # The attack is gone, but its dice are burnt: the next roll comes after them (K2).
    assert agreed.state.units == before.state.units
    assert agreed.state.dice_position == attacked.state.dice_position
    assert agreed.state.attack_step is False
    log = await service.game_log(game_id)
    assert log[-1].actor == NORTH.user and log[-1].record.requested_by == SOUTH.user
    again = await service.attack(game_id, SOUTH, "cap1", "arc1")
    first_dice = {d.position for line in log if line.seq == attacked.version for d in line.dice}
    new_dice = {d.position for d in (await service.game_log(game_id))[-1].dice}
    assert first_dice and new_dice and min(new_dice) > max(first_dice)
    assert again.state == await games.replay(game_id)


async def test_a_declined_or_outdated_request_is_gone(games: Games, service: GameService) -> None:
    before = await south_to_play(games, service)
    game_id = before.game_id
    await service.attack(game_id, SOUTH, "cap1", "arc1")
    await service.request_undo(game_id, SOUTH)
    declined = await service.answer_undo(game_id, NORTH, False)
    assert isinstance(declined.events[0], records.UndoDeclined)
    with pytest.raises(NotAllowed) as none:
        await service.answer_undo(game_id, NORTH, True)
    assert none.value.code == "no_undo_request"
    await service.request_undo(game_id, SOUTH)
    await service.end_turn(game_id, SOUTH)  # anything else happening voids the request
    with pytest.raises(NotAllowed) as outdated:
        await service.answer_undo(game_id, NORTH, True)
    assert outdated.value.code == "no_undo_request"
    assert (await service.status(game_id)).undo_request is None


async def test_the_referee_undoes_across_turns(games: Games, service: GameService) -> None:
    start = await games.playing(seed=4)
    game_id = start.game_id
    rng = random.Random(4)
    middle = await autoplay.play(service, start, rng, until=lambda s: s.round == 2)
    assert middle.state is not None
    later = await autoplay.play(service, middle, rng, until=lambda s: s.round == 3)
    log = await service.game_log(game_id)
    count = sum(1 for line in log if line.seq > middle.version and line.kind == "action")
    undone = await service.ref_undo(game_id, REFEREE, count)
    assert undone.turn_side is middle.turn_side
    assert undone.state is not None and undone.state.units == middle.state.units
    assert undone.state.dice_position == (later.state.dice_position if later.state else -1)
    service.cache.drop(game_id)
    status = await service.status(game_id)
    assert status.state == undone.state == await games.replay(game_id)
    # Play goes on from there, and loading still agrees with the log.
    after = await autoplay.play(service, undone, rng, max_commands=6)
    service.cache.drop(game_id)
    assert (await service.status(game_id)).state == after.state == await games.replay(game_id)


async def test_the_referee_can_undo_the_end_until_the_seed_is_out(
    games: Games, service: GameService
) -> None:
    start = await games.playing()
    ended = await service.resign(start.game_id, SOUTH)
    assert ended.status == "ended"
    reopened = await service.ref_undo(start.game_id, REFEREE, 1)
    assert reopened.status == "playing" and reopened.state == start.state
    assert (await service.status(start.game_id)).winner is None
    await service.resign(start.game_id, SOUTH)
    await service.reveal_seed(start.game_id, NORTH)
    with pytest.raises(NotAllowed) as refused:
        await service.ref_undo(start.game_id, REFEREE, 1)
    assert refused.value.code == "seed_revealed"


async def test_undo_counts_are_bounded(games: Games, service: GameService) -> None:
    start = await south_to_play(games, service)
    for count in (0, 51):
        with pytest.raises(NotAllowed) as refused:
            await service.ref_undo(start.game_id, REFEREE, count)
        assert refused.value.code == "undo_count"
    with pytest.raises(NotAllowed) as refused:
        await service.ref_undo(start.game_id, REFEREE, 50)
    assert refused.value.code == "nothing_to_undo"


async def test_no_undo_while_paused(games: Games, service: GameService) -> None:
    before = await south_to_play(games, service)
    await games.place(before.game_id, sco1="A3")
    await service.move(before.game_id, SOUTH, "sco1", Cell.parse("A4"))
    await service.ref_pause(before.game_id, REFEREE)
    with pytest.raises(NotAllowed) as refused:
        await service.undo(before.game_id, SOUTH)
    assert refused.value.code == "game_paused"
    await service.ref_resume(before.game_id, REFEREE)
    assert (await service.undo(before.game_id, SOUTH)).events[0] == records.Undone(
        (before.version + 2,)
    )
