"""A command on a game the service holds does not read the game's row (issue 21): it writes
under the version it holds, and checks that version before it refuses or answers without a
write. Another process (here a second service, with a cache of its own) moving the game on
must never make the first refuse what is now allowed, or act on a board that no longer is.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tests.conftest import Games
from vahalite_bot.app import GameService, autoplay
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState
from vahalite_bot.store.database import Database


def _other_service(db: Database, service: GameService) -> GameService:
    return GameService(db, clock=service.clock, sheets=service.sheets, scenarios=service.scenarios)


def _actor_changed(first: GameState) -> Callable[[GameState], bool]:
    side = acting_side(first)
    return lambda state: acting_side(state) != side


async def test_a_move_allowed_only_after_another_process_moved_is_made(
    games: Games, service: GameService, db: Database
) -> None:
    """The first service holds the game with one side to act; the other service plays on
    until the other side acts. That side's move sent to the first service is made (its
    cached board would refuse it: not that side's turn), on the board as it now is."""
    outcome = await autoplay.play(service, await games.setup(), random.Random(1), max_commands=1)
    assert outcome.state is not None
    other = _other_service(db, service)
    moved = await autoplay.play(
        other, outcome, random.Random(2), until=_actor_changed(outcome.state)
    )
    assert moved.version > outcome.version
    after = await autoplay.play(service, moved, random.Random(3), max_commands=1)
    assert after.version == moved.version + 1
    assert (await other.status(after.game_id)).state == after.state


async def test_a_refusal_is_judged_on_the_board_as_it_now_is(
    games: Games, service: GameService, db: Database
) -> None:
    """The first service holds the game; the other one resigns it for a player. The next
    order sent to the first service, legal on its cached board, is refused for the game
    being over (J4), and its next reading shows the ended game."""
    outcome = await autoplay.play(service, await games.setup(), random.Random(4), max_commands=1)
    other = _other_service(db, service)
    await other.resign(outcome.game_id, autoplay.PLAYERS[Side.NORTH])
    with pytest.raises(IllegalAction) as refused:
        await autoplay.play(service, outcome, random.Random(5), max_commands=1)
    assert refused.value.code == "game_over"
    assert (await service.status(outcome.game_id)).status == "ended"
