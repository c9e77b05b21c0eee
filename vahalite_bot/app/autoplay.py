"""Robot players driving games through the service, as a client would (no Discord).

Used by the service benchmark, the crash test's child process and the concurrency tests:
each picks a uniformly random legal action for whoever must act and sends it through
``GameService.act``, so everything a real game writes gets written.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping

from vahalite_bot.app.results import Actor, Outcome
from vahalite_bot.app.service import GameService
from vahalite_bot.codex.loader import demo_factions
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.roster import Roster, RosterEntry
from vahalite_bot.rules.scenario import Scenario, Side
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.selfplay.players import RandomPlayer

SOUTH = Actor("south-player")
NORTH = Actor("north-player")
PLAYERS = {Side.SOUTH: SOUTH, Side.NORTH: NORTH}

# A quick game for tests: no terrain to place, one SP each, three units a side.
SKIRMISH = Scenario(id="skirmish", terrain_set={}, sp_per_player=1, rounds=3)
SKIRMISH_ARMIES = {
    Side.SOUTH: Roster(
        "imperials",
        (
            RosterEntry("captain"),
            RosterEntry("tactical", transport="rhino"),
            RosterEntry("scouts"),
        ),
    ),
    Side.NORTH: Roster(
        "raiders", (RosterEntry("archon"), RosterEntry("warriors"), RosterEntry("slaves"))
    ),
}


def standard_armies() -> dict[Side, Roster]:
    """Each demo faction's ready-made 500-point list."""
    factions = demo_factions()
    return {
        Side.SOUTH: factions["imperials"].lists["500"],
        Side.NORTH: factions["raiders"].lists["500"],
    }


async def new_game(
    service: GameService,
    channel: str,
    *,
    scenario: str = "standard",
    armies: Mapping[Side, Roster] | None = None,
    players: Mapping[Side, Actor] = PLAYERS,
    guild: str | None = None,
) -> Outcome:
    """Create, join and submit both armies: the game is in setup, the roll-off made.

    The players create and join speaking from the game's server, as a client would."""
    rosters = standard_armies() if armies is None else armies
    created = await service.create_game(
        on_server(players[Side.SOUTH], guild), channel, guild=guild, scenario=scenario
    )
    game_id = created.game_id
    await service.join(game_id, on_server(players[Side.NORTH], guild))
    await service.submit_army(game_id, players[Side.SOUTH], rosters[Side.SOUTH])
    return await service.submit_army(game_id, players[Side.NORTH], rosters[Side.NORTH])


def on_server(actor: Actor, guild: str | None) -> Actor:
    """``actor`` speaking from ``guild``."""
    return dataclasses.replace(actor, guild=guild)


_PLAYER = RandomPlayer()


async def play(
    service: GameService,
    outcome: Outcome,
    rng: random.Random,
    *,
    players: Mapping[Side, Actor] = PLAYERS,
    until: Callable[[GameState], bool] | None = None,
    max_commands: int | None = None,
    on_reply: Callable[[Outcome], None] | None = None,
) -> Outcome:
    """Play random legal actions from ``outcome`` until the game ends (or ``until`` holds)."""
    done = 0
    while outcome.state is not None and outcome.state.phase is not Phase.ENDED:
        if until is not None and until(outcome.state):
            break
        if max_commands is not None and done >= max_commands:
            break
        side = acting_side(outcome.state)
        assert side is not None
        action = _PLAYER.choose(outcome.state, rng)
        outcome = await service.act(outcome.game_id, players[side], action)
        done += 1
        if on_reply is not None:
            on_reply(outcome)
    return outcome


def playing(state: GameState) -> bool:
    return state.phase is Phase.PLAYING
