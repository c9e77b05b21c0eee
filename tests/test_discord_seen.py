"""The bot acts on the game as it last saw it (no read before each command): a change made
elsewhere (another process, the deadline of another shard) must never make a command act on
an old position, nor refuse one that is right in the game as it is now."""

from __future__ import annotations

import random
from pathlib import Path

from tests.discord_moves import slash_of
from tests.discord_world import make_world, play_until, ready_game
from vahalite_bot.app import Actor
from vahalite_bot.rules.actions import Move
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.queries import legal_actions
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase
from vahalite_bot.selfplay.greedy import GreedyPlayer


async def test_a_command_after_a_change_the_bot_did_not_see_is_made_in_the_game_as_it_is(
    tmp_path: Path,
) -> None:
    world = await make_world(tmp_path)
    try:
        thread, game = await ready_game(world, world.text)
        await play_until(world, thread, game, Phase.PLAYING)
        users = {Side.SOUTH: world.alice, Side.NORTH: world.bob}
        status = await world.status(game)
        state = status.state
        assert state is not None
        side = acting_side(state)
        assert side is not None
        # A move the bot never hears of: its view of the game is now one version behind.
        moved = next(a for a in legal_actions(state) if isinstance(a, Move))
        service = await world.oracle()
        actor = Actor(str(users[side]), guild=str(world.guild))
        await service.act(game, actor, moved, expected_version=status.version)
        behind = await world.status(game)
        assert behind.version > status.version and behind.state is not None
        # Then a command chosen in the game as it is now: made once, on that version.
        side = acting_side(behind.state)
        assert side is not None
        action = GreedyPlayer().choose(behind.state, random.Random(5))
        command, options = slash_of(action, behind.state)
        posts = len(world.public(thread))
        interaction = await world.slash(users[side], thread, command, options)
        answer = "\n".join(m.content for m in interaction.answered() or [])
        after = await world.status(game)
        assert after.version > behind.version, answer
        assert len(world.public(thread)) > posts
        assert "stale" not in answer.lower() and "went wrong" not in answer, answer
    finally:
        await world.close()
