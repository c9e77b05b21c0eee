"""N2: the referee's overrides, each an entry of the log that replay applies in order."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.conftest import ADMIN, REFEREE, Clock, Games
from vahalite_bot.app import GameService, InvalidRequest, NotAllowed, autoplay, records
from vahalite_bot.rules.actions import Advance, EndTurn, PlacePassenger
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import GameEnded
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side

SOUTH, NORTH = autoplay.SOUTH, autoplay.NORTH


async def test_move_a_unit_out_of_its_transport_and_onto_any_free_cell(
    games: Games, service: GameService
) -> None:
    game = await games.south_on_turn()
    await games.place(game.game_id, rhi1="C3", tac1="B3")
    await service.embark(game.game_id, SOUTH, "tac1", "rhi1")
    moved = await service.ref_move_unit(game.game_id, REFEREE, "tac1", Cell.parse("D4"))
    assert moved.events == (records.UnitPlaced("tac1", Cell.parse("C3"), Cell.parse("D4")),)
    assert moved.state is not None
    assert moved.state.units["tac1"].embarked_in is None
    line = (await service.game_log(game.game_id))[-1]
    assert (line.kind, line.actor, line.role) == ("override", REFEREE.user, "referee")
    with pytest.raises(IllegalAction):  # D3: the rhino stands there
        await service.ref_move_unit(game.game_id, REFEREE, "tac1", Cell.parse("C3"))
    with pytest.raises(InvalidRequest) as off:  # not a cell of this 6x6 board
        await service.ref_move_unit(game.game_id, REFEREE, "tac1", Cell.parse("Z9"))
    assert (off.value.code, off.value.params) == ("off_board", {"cell": "Z9"})
    assert moved.state == await games.replay(game.game_id)


async def test_remove_a_transport_sets_its_passenger_down(
    games: Games, service: GameService
) -> None:
    game = await games.south_on_turn()
    await games.place(game.game_id, rhi1="C3", tac1="B3")
    await service.embark(game.game_id, SOUTH, "tac1", "rhi1")
    removed = await service.ref_remove_unit(game.game_id, REFEREE, "rhi1")
    assert removed.events == (
        records.UnitRemoved("rhi1", Side.SOUTH),
        records.UnitPlaced("tac1", Cell.parse("C3"), Cell.parse("C3")),
    )
    assert removed.state is not None
    assert removed.state.units["rhi1"].destroyed
    assert removed.state.units["tac1"].cell == Cell.parse("C3")
    assert removed.state == await games.replay(game.game_id)


async def test_removing_the_last_unit_ends_the_game(games: Games, service: GameService) -> None:
    """J3 holds after an override too: the other side wins at once."""
    game = await games.playing()
    outcome = game
    for unit in ("arc1", "war1", "sla1"):
        outcome = await service.ref_remove_unit(game.game_id, REFEREE, unit)
    assert outcome.status == "ended"
    ended = [e for e in outcome.events if isinstance(e, GameEnded)]
    assert [(e.winner, e.reason) for e in ended] == [(Side.SOUTH, "annihilation")]


async def test_set_hp_within_the_sheet(games: Games, service: GameService) -> None:
    game = await games.playing()
    set_to = await service.ref_set_hp(game.game_id, REFEREE, "tac1", 2)
    assert set_to.events == (records.HPSet("tac1", 5, 2),)
    for hp in (0, 6):
        with pytest.raises(InvalidRequest) as refused:
            await service.ref_set_hp(game.game_id, REFEREE, "tac1", hp)
        assert refused.value.params == {"unit": "tac1", "hp": hp, "maximum": 5}
    assert (await service.status(game.game_id)).version == set_to.version


@pytest.mark.parametrize("winner", [Side.NORTH, None])
async def test_decide_the_game(games: Games, service: GameService, winner: Side | None) -> None:
    game = await games.setup()  # even in setup
    decided = await service.ref_decide(game.game_id, REFEREE, winner)
    assert decided.status == "ended"
    (ended,) = [e for e in decided.events if isinstance(e, GameEnded)]
    assert (ended.winner, ended.reason) == (winner, "referee")
    assert (await service.status(game.game_id)).winner is winner
    with pytest.raises(NotAllowed) as over:
        await service.ref_decide(game.game_id, REFEREE, Side.SOUTH)
    assert over.value.code == "game_over"


async def test_end_the_turn_with_pending_decisions_defaulted(
    games: Games, service: GameService
) -> None:
    """H5's passenger goes on the first cell offered, E10's attacker stays, then C3."""
    pending = await games.placement_pending()
    assert pending.state is not None
    first_cell = pending.state.pending[0].cells[0]  # type: ignore[union-attr]
    ended = await service.ref_end_turn(pending.game_id, REFEREE)
    assert ended.turn_side is Side.SOUTH
    log = await service.game_log(pending.game_id)
    made = [(line.record, line.role, line.actor) for line in log[-3:]]
    assert made == [
        (PlacePassenger(Side.SOUTH, "tac1", first_cell), "referee", REFEREE.user),
        (Advance(Side.NORTH, "arc1", False), "referee", REFEREE.user),
        (EndTurn(Side.NORTH), "referee", REFEREE.user),
    ]


async def test_no_turn_to_end_during_setup(games: Games, service: GameService) -> None:
    game = await games.setup()
    with pytest.raises(NotAllowed) as refused:
        await service.ref_end_turn(game.game_id, REFEREE)
    assert refused.value.code == "no_turn_to_end"


async def test_pause_resume_and_extend_move_the_deadline(
    games: Games, service: GameService, clock: Clock
) -> None:
    game = await games.playing()
    assert (await service.status(game.game_id)).due_at == clock.now + timedelta(hours=48)
    clock.advance(hours=10)
    paused = await service.ref_pause(game.game_id, REFEREE)
    assert paused.events == (records.Paused(),)
    assert (await service.status(game.game_id)).due_at is None
    with pytest.raises(NotAllowed) as twice:
        await service.ref_pause(game.game_id, REFEREE)
    assert twice.value.code == "already_paused"
    clock.advance(days=5)
    extended = await service.ref_extend_deadline(game.game_id, REFEREE, 2)
    assert extended.events == (records.DeadlineExtended(7200, None),)
    resumed = await service.ref_resume(game.game_id, REFEREE)
    # The turn gets back the 38 hours it had left when paused, and the 2 hours given.
    expected = clock.now + timedelta(hours=40)
    assert resumed.events == (records.Resumed(expected),)
    assert (await service.status(game.game_id)).due_at == expected
    await service.ref_extend_deadline(game.game_id, REFEREE, 24)
    assert (await service.status(game.game_id)).due_at == expected + timedelta(hours=24)
    with pytest.raises(InvalidRequest):
        await service.ref_extend_deadline(game.game_id, REFEREE, 0)
    with pytest.raises(NotAllowed) as not_paused:
        await service.ref_resume(game.game_id, REFEREE)
    assert not_paused.value.code == "not_paused"


async def test_overrides_need_a_started_game(games: Games, service: GameService) -> None:
    lobby = await games.lobby()
    with pytest.raises(NotAllowed) as refused:
        await service.ref_pause(lobby.game_id, REFEREE)
    assert refused.value.code == "game_not_started"


async def test_a_server_admin_referees_too(games: Games, service: GameService) -> None:
    game = await games.playing()
    outcome = await service.ref_set_hp(game.game_id, ADMIN, "cap1", 1)
    assert outcome.events == (records.HPSet("cap1", 4, 1),)
