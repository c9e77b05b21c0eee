"""Playing through the service: the log, the dice, loading, moves (SQLite and PostgreSQL)."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import select

from tests.conftest import OUTSIDER, REFEREE, Games
from vahalite_bot.app import GameService, NotAllowed, Outcome, StaleState, autoplay
from vahalite_bot.rules.dice import FairDice, verify
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import Moved, TurnStarted
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase
from vahalite_bot.selfplay.game import dice_in
from vahalite_bot.store import repository as repo
from vahalite_bot.store.database import Database
from vahalite_bot.store.models import Snapshot

PLAYERS = autoplay.PLAYERS


async def south_on_turn(service: GameService, outcome: Outcome) -> Outcome:
    """End turns (the referee's way) until it is south's: tests arrange the imperials."""
    while outcome.turn_side is not Side.SOUTH:
        outcome = await service.ref_end_turn(outcome.game_id, REFEREE)
    return outcome


async def test_the_state_is_always_the_replay_of_the_log(
    games: Games, service: GameService
) -> None:
    """After every command: the version counts the log, and loading (the turn's snapshot and
    its entries, no cache) equals a full replay of the log equals what the command said."""
    outcome = await games.setup()
    rng = random.Random(7)
    game_id = outcome.game_id
    commands = 0
    while outcome.status != "ended":
        outcome = await autoplay.play(service, outcome, rng, max_commands=1)
        commands += 1
        service.cache.drop(game_id)
        loaded = await service.status(game_id)
        assert loaded.state == outcome.state
        assert await games.replay(game_id) == outcome.state
        assert len(await service.game_log(game_id)) == outcome.version == loaded.version
    assert commands > 20


async def test_every_die_is_logged_with_its_action_and_verifies(
    games: Games, service: GameService
) -> None:
    """K1, K2: each entry holds the dice its events show, in order; the revealed seed
    recomputes every one of them and replays the same game."""
    outcome = await autoplay.play(service, await games.setup(), random.Random(3))
    with_dice = 0
    position = 0
    for line in await service.game_log(outcome.game_id):
        assert list(line.dice) == dice_in(line.events)
        for die in line.dice:
            assert die.position == position  # no die skipped, none used twice
            position += 1
        with_dice += bool(line.dice)
    assert with_dice > 1
    reveal = await service.reveal_seed(outcome.game_id, OUTSIDER)
    assert verify(reveal.seed, outcome.commitment, reveal.dice) == []
    assert len(reveal.dice) == position
    assert await games.replay(outcome.game_id, FairDice(reveal.seed)) == outcome.state


async def test_the_seed_stays_secret_until_the_end(games: Games, service: GameService) -> None:
    outcome = await games.playing()
    with pytest.raises(NotAllowed) as refused:
        await service.reveal_seed(outcome.game_id, OUTSIDER)
    assert refused.value.code == "game_not_over"
    ended = await service.resign(outcome.game_id, PLAYERS[Side.NORTH])
    first = await service.reveal_seed(ended.game_id, OUTSIDER)
    second = await service.reveal_seed(ended.game_id, PLAYERS[Side.SOUTH])
    assert first == second
    log = await service.game_log(ended.game_id)
    assert [line.kind for line in log[-2:]] == ["action", "note"]  # revealed once


async def test_loading_is_the_turns_snapshot_plus_its_entries(
    games: Games, service: GameService, db: Database
) -> None:
    outcome = await autoplay.play(
        service, await games.playing(), random.Random(5), until=lambda s: s.round == 2
    )
    turn_start = outcome.version
    outcome = await service.ref_set_hp(outcome.game_id, REFEREE, "cap1", 1)
    async with db.read() as session:
        snapshots = list(
            (
                await session.execute(
                    select(Snapshot.seq, Snapshot.turn)
                    .where(Snapshot.game_id == outcome.game_id)
                    .order_by(Snapshot.seq)
                )
            ).all()
        )
        latest = await repo.latest_snapshot(session, outcome.game_id)
        after = await repo.entries_after(session, outcome.game_id, latest.seq if latest else 0)
    turns = [turn for _, turn in snapshots]
    assert len(turns) == len(set(turns))  # one snapshot per turn or setup step
    assert turns[-1] == f"playing:2:{outcome.turn_side.value if outcome.turn_side else ''}"
    # The entries after the snapshot all belong to the running turn.
    assert not any(e["type"] == "TurnStarted" for row in after for e in row.events)
    assert latest is not None and latest.seq == turn_start < outcome.version
    assert [row.seq for row in after] == [outcome.version]


async def test_outcome_says_who_acts_and_whether_the_board_changed(
    games: Games, service: GameService
) -> None:
    outcome = await games.playing()
    side = outcome.acting_side
    assert side is not None and outcome.acting_user == PLAYERS[side].user
    ended = await service.end_turn(outcome.game_id, PLAYERS[side])
    assert not ended.board_changed
    assert ended.acting_side is side.other and ended.acting_user == PLAYERS[side.other].user
    assert isinstance(ended.events[-1], TurnStarted)
    placed = await service.ref_move_unit(ended.game_id, REFEREE, "cap1", Cell.parse("C3"))
    assert placed.board_changed
    assert placed.state is not None and placed.state.units["cap1"].cell == Cell.parse("C3")


async def test_move_embark_and_disembark_by_destination(games: Games, service: GameService) -> None:
    """D1 takes a shortest legal path; H2 embarks onto a transport; H3 steps out of it."""
    game = await south_on_turn(service, await games.playing())
    game_id, south = game.game_id, PLAYERS[Side.SOUTH]
    await service.ref_move_unit(game_id, REFEREE, "rhi1", Cell.parse("B3"))
    await service.ref_move_unit(game_id, REFEREE, "tac1", Cell.parse("A3"))
    await service.ref_move_unit(game_id, REFEREE, "cap1", Cell.parse("E3"))
    embarked = await service.embark(game_id, south, "tac1", "rhi1")
    (moved,) = [e for e in embarked.events if isinstance(e, Moved)]
    assert moved.embarked_in == "rhi1" and moved.path == (Cell.parse("B3"),)
    walked = await service.move(game_id, south, "cap1", Cell.parse("E4"))
    assert walked.state is not None and walked.state.units["cap1"].cell == Cell.parse("E4")
    with pytest.raises(IllegalAction) as too_far:
        await service.move(game_id, south, "sco1", Cell.parse("F6"))
    assert too_far.value.rule in ("D1", "D3")
    game = await south_on_turn(service, await service.end_turn(game_id, south))
    out = await service.disembark(game_id, south, "tac1", Cell.parse("B4"))
    (moved,) = [e for e in out.events if isinstance(e, Moved)]
    assert moved.disembarked_from == "rhi1"
    assert out.state is not None and out.state.units["tac1"].cell == Cell.parse("B4")


async def test_a_command_on_a_stale_view_is_refused_and_changes_nothing(
    games: Games, service: GameService
) -> None:
    outcome = await games.playing()
    side = outcome.acting_side
    assert side is not None
    seen = outcome.version
    await service.ref_set_hp(outcome.game_id, REFEREE, "cap1", 1)
    with pytest.raises(StaleState) as refused:
        await service.end_turn(outcome.game_id, PLAYERS[side], expected_version=seen)
    assert refused.value.params == {"expected": seen, "current": seen + 1}
    status = await service.status(outcome.game_id)
    assert status.version == seen + 1 and status.turn_side is side
    done = await service.end_turn(outcome.game_id, PLAYERS[side], expected_version=seen + 1)
    assert done.turn_side is side.other


async def test_a_paused_game_refuses_orders_but_not_resigning(
    games: Games, service: GameService
) -> None:
    outcome = await games.playing()
    side = outcome.acting_side
    assert side is not None
    await service.ref_pause(outcome.game_id, REFEREE)
    with pytest.raises(NotAllowed) as refused:
        await service.end_turn(outcome.game_id, PLAYERS[side])
    assert refused.value.code == "game_paused"
    resigned = await service.resign(outcome.game_id, PLAYERS[side.other])
    assert resigned.status == "ended"
    assert resigned.state is not None and resigned.state.winner is side


async def test_engine_refusals_pass_through_with_their_rule(
    games: Games, service: GameService
) -> None:
    outcome = await games.playing()
    side = outcome.acting_side
    assert side is not None and outcome.state is not None
    with pytest.raises(IllegalAction) as not_yours:
        await service.end_turn(outcome.game_id, PLAYERS[side.other])
    assert (not_yours.value.rule, not_yours.value.code) == ("C1", "not_your_turn")
    enemy = next(u.id for u in outcome.state.living(side.other))
    with pytest.raises(IllegalAction) as their_unit:
        await service.move(outcome.game_id, PLAYERS[side], enemy, Cell.parse("C3"))
    assert their_unit.value.code == "not_your_unit"
    assert (await service.status(outcome.game_id)).version == outcome.version


async def test_the_game_ends_and_stays_ended(games: Games, service: GameService) -> None:
    outcome = await autoplay.play(service, await games.setup(), random.Random(11))
    assert outcome.status == "ended" and outcome.state is not None
    assert outcome.state.phase is Phase.ENDED and outcome.acting_side is None
    with pytest.raises(IllegalAction) as over:
        await service.end_turn(outcome.game_id, PLAYERS[Side.SOUTH])
    assert over.value.code == "game_over"
    status = await service.status(outcome.game_id)
    assert status.winner is outcome.state.winner
