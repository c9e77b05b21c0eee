"""Issue 11: the recap read from the service's log, as the Discord bot reads it."""

from __future__ import annotations

import random
from typing import Any

from tests.conftest import Games
from vahalite_bot.app import GameService, autoplay
from vahalite_bot.present.recap import recap_for
from vahalite_bot.rules.events import TurnEnded
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState


async def test_recap_for_replays_the_board_since_the_sides_last_turn(
    games: Games, service: GameService
) -> None:
    outcome = await games.playing(seed=2)
    rng = random.Random(5)
    ended: dict[Side, GameState] = {}  # each side's board right after its last turn ended
    since: dict[Side, list[Any]] = {Side.SOUTH: [], Side.NORTH: []}
    turns = 0
    while turns < 4 or outcome.turn_side is not Side.SOUTH:
        outcome = await autoplay.play(service, outcome, rng, max_commands=1)
        assert outcome.state is not None and outcome.status != "ended"
        for side in Side:
            since[side].extend(outcome.events)
        for event in outcome.events:
            if isinstance(event, TurnEnded):
                turns += 1
                ended[event.side] = outcome.state
                # The recap starts after the turn's end, within the same command's events.
                tail = list(outcome.events)
                since[event.side] = tail[tail.index(event) + 1 :]
    log = await service.game_log(outcome.game_id)
    recap = recap_for(log, Side.SOUTH)
    assert recap is not None
    assert recap.before == ended[Side.SOUTH]
    assert recap.after == outcome.state
    assert list(recap.events) == since[Side.SOUTH]
    assert any(isinstance(e, TurnEnded) and e.side is Side.NORTH for e in recap.events)


async def test_no_recap_before_play_begins(games: Games, service: GameService) -> None:
    outcome = await games.setup()
    assert recap_for(await service.game_log(outcome.game_id), Side.SOUTH) is None
