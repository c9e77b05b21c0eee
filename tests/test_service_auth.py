"""Who may do what: every service call against every role, table-driven.

Roles, seen from the game at that moment:
- ``on``: the player who must act now, on their own units;
- ``off``: the other player, on their own units (not their turn);
- ``opp``: the other player, on the first player's units or turn;
- ``ref``: the server's referee (not a player); ``out``: anyone else on the server;
- ``alien``: the administrator of another server, who also holds a role named as this
  server's referee role there (neither counts here);
- ``foreign``: a player of another game, calling with this game's id.
A refused call raises the reason the table names and changes nothing (version, log,
state); an allowed one applies. The referee who plays has tests of its own below.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.conftest import OUTSIDER, REFEREE, TEST_GUILD, Games
from vahalite_bot.app import Actor, GameService, NotAllowed, Outcome, ServiceError, autoplay
from vahalite_bot.rules.actions import Deploy, EndTurn, PlaceSP, PlaceTerrain
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.queries import legal_actions
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase

ROLES = ("on", "off", "opp", "ref", "out", "alien", "foreign")
PLAYERS_ONLY_ON = frozenset({"on"})
REFEREE_ONLY = frozenset({"ref"})
EVERYONE = frozenset(ROLES)
ALIEN = Actor("other-admin", roles=frozenset({"referee-role"}), admin=True, guild="other-guild")
FOREIGN = Actor("player-elsewhere", guild=TEST_GUILD)

# Why each role is refused: the engine's code (IllegalAction) or the service's.
NOBODY_HERE = {r: "not_a_player" for r in ("ref", "out", "alien", "foreign")}
NOT_REFEREE = {
    **{r: "not_referee" for r in ("on", "off", "opp", "out", "foreign")},
    "alien": "other_server",
}


def players(off: str, opp: str | None = None) -> dict[str, str]:
    """A player's command: the other player is refused with ``off`` (``opp`` on the acting
    side's units), everyone else because they do not play."""
    return {"off": off, "opp": opp or off, **NOBODY_HERE}


@dataclass
class Ctx:
    service: GameService
    game: Outcome
    on: Side
    role: str

    @property
    def id(self) -> int:
        return self.game.game_id

    @property
    def actor(self) -> Actor:
        if self.role == "on":
            return autoplay.PLAYERS[self.on]
        if self.role in ("off", "opp"):
            return autoplay.PLAYERS[self.on.other]
        others = {"ref": REFEREE, "out": OUTSIDER, "alien": ALIEN, "foreign": FOREIGN}
        return others[self.role]

    @property
    def side(self) -> Side:
        """Whose units the call names: the caller's own for ``off``, else the acting side's."""
        return self.on.other if self.role == "off" else self.on

    def unit(self, south: str, north: str) -> str:
        return south if self.side is Side.SOUTH else north

    def legal(self, kind: type[Any]) -> Any:
        """The first legal action of ``kind`` for the acting side (setup steps)."""
        assert self.game.state is not None
        return next(a for a in legal_actions(self.game.state) if isinstance(a, kind))


Prepare = Callable[[Games], Awaitable[Outcome]]
Call = Callable[[Ctx], Awaitable[Any]]


# -- preparing the game a call is tried on -----------------------------------------------------
async def south_turn(games: Games) -> Outcome:
    game = await games.south_on_turn()
    return await games.place(game.game_id, sco1="A3", cap1="C3", arc1="C4", rhi1="E3", tac1="D3")


async def moved_once(games: Games) -> Outcome:
    game = await south_turn(games)
    return await games.service.move(game.game_id, autoplay.SOUTH, "sco1", Cell.parse("A4"))


async def embarked(games: Games) -> Outcome:
    game = await south_turn(games)
    service = games.service
    await service.embark(game.game_id, autoplay.SOUTH, "tac1", "rhi1")
    outcome = await service.end_turn(game.game_id, autoplay.SOUTH)
    while outcome.turn_side is not Side.SOUTH:
        outcome = await service.ref_end_turn(game.game_id, REFEREE)
    return outcome


async def undo_asked(games: Games) -> Outcome:
    game = await south_turn(games)
    await games.service.attack(game.game_id, autoplay.SOUTH, "cap1", "arc1")
    return await games.service.request_undo(game.game_id, autoplay.SOUTH)


async def placement_pending(games: Games) -> Outcome:
    return await games.placement_pending()


async def advance_pending(games: Games) -> Outcome:
    return await games.advance_pending()


async def paused(games: Games) -> Outcome:
    game = await south_turn(games)
    return await games.service.ref_pause(game.game_id, REFEREE)


async def in_phase(games: Games, phase: Phase, scenario: str = "skirmish") -> Outcome:
    import random

    outcome = await games.setup(scenario)
    return await autoplay.play(
        games.service, outcome, random.Random(2), until=lambda s: s.phase is phase
    )


async def deploy_order(games: Games) -> Outcome:
    return await games.setup()


async def terrain(games: Games) -> Outcome:
    return await in_phase(games, Phase.TERRAIN, "standard")


async def sps(games: Games) -> Outcome:
    return await in_phase(games, Phase.SP)


async def deployment(games: Games) -> Outcome:
    return await in_phase(games, Phase.DEPLOYMENT)


async def lobby_full(games: Games) -> Outcome:
    created = await games.lobby()
    return await games.service.join(created.game_id, games.on_server(autoplay.NORTH))


async def ended(games: Games) -> Outcome:
    game = await games.playing()
    return await games.service.resign(game.game_id, autoplay.NORTH)


def other_half_cell(ctx: Ctx) -> Cell:
    """A cell in the caller's own half, for the ``off`` player's own setup step."""
    return Cell.parse("C2") if ctx.side is Side.SOUTH else Cell.parse("C5")


# -- the table ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    name: str
    prepare: Prepare
    call: Call
    allowed: frozenset[str]
    reasons: dict[str, str]  # every refused role: the code of its refusal
    changes: bool = True  # False: allowed calls leave the game for the next role to try


CASES = [
    Case(
        "move",
        south_turn,
        lambda c: c.service.move(c.id, c.actor, c.unit("sco1", "war1"), Cell.parse("A4")),
        PLAYERS_ONLY_ON,
        reasons=players("not_your_turn"),
    ),
    Case(
        "attack",
        south_turn,
        lambda c: c.service.attack(c.id, c.actor, c.unit("cap1", "arc1"), c.unit("arc1", "cap1")),
        PLAYERS_ONLY_ON,
        reasons=players("not_your_turn"),
    ),
    Case(
        "embark",
        south_turn,
        lambda c: c.service.embark(c.id, c.actor, c.unit("tac1", "arc1"), "rhi1"),
        PLAYERS_ONLY_ON,
        reasons=players("not_your_turn"),
    ),
    Case(
        "disembark",
        embarked,
        lambda c: c.service.disembark(c.id, c.actor, c.unit("tac1", "arc1"), Cell.parse("E4")),
        PLAYERS_ONLY_ON,
        reasons=players("not_your_turn"),
    ),
    Case(
        "end_turn",
        south_turn,
        lambda c: c.service.end_turn(c.id, c.actor),
        PLAYERS_ONLY_ON,
        reasons=players("not_your_turn"),
    ),
    Case(
        "act",
        south_turn,
        lambda c: c.service.act(c.id, c.actor, EndTurn(c.side)),
        PLAYERS_ONLY_ON,
        reasons=players("not_your_turn", "not_your_side"),
    ),
    Case(
        "resign",
        south_turn,
        lambda c: c.service.resign(c.id, c.actor),
        frozenset(ROLES[:3]),
        reasons=NOBODY_HERE,
    ),
    Case(
        "undo",
        moved_once,
        lambda c: c.service.undo(c.id, c.actor),
        PLAYERS_ONLY_ON,
        reasons=players("undo_not_own"),
    ),
    Case(
        "request_undo",
        moved_once,
        lambda c: c.service.request_undo(c.id, c.actor),
        PLAYERS_ONLY_ON,
        reasons=players("undo_not_own"),
    ),
    Case(
        "answer_undo",
        undo_asked,
        lambda c: c.service.answer_undo(c.id, c.actor, True),
        frozenset({"off", "opp"}),
        reasons={"on": "not_your_request", **NOBODY_HERE},
    ),
    Case(
        "place_passenger",
        placement_pending,
        lambda c: c.service.place_passenger(
            c.id,
            c.actor,
            c.unit("tac1", "arc1"),
            c.game.state.pending[0].cells[0],  # type: ignore[union-attr]
        ),
        PLAYERS_ONLY_ON,
        reasons=players("decision_pending"),
    ),
    Case(
        "advance",
        advance_pending,
        lambda c: c.service.advance(c.id, c.actor, c.unit("cap1", "war1"), True),
        PLAYERS_ONLY_ON,
        reasons=players("decision_pending"),
    ),
    Case(
        "choose_deploy_order",
        deploy_order,
        lambda c: c.service.choose_deploy_order(c.id, c.actor, True),
        PLAYERS_ONLY_ON,
        reasons=players("not_your_setup_step"),
    ),
    Case(
        "place_terrain",
        terrain,
        lambda c: c.service.place_terrain(
            c.id,
            c.actor,
            c.legal(PlaceTerrain).kind,
            c.legal(PlaceTerrain).cell if c.role != "off" else other_half_cell(c),
        ),
        PLAYERS_ONLY_ON,
        reasons=players("not_your_setup_step"),
    ),
    Case(
        "place_sp",
        sps,
        lambda c: c.service.place_sp(
            c.id, c.actor, c.legal(PlaceSP).cell if c.role != "off" else other_half_cell(c)
        ),
        PLAYERS_ONLY_ON,
        reasons=players("not_your_setup_step"),
    ),
    Case(
        "deploy",
        deployment,
        lambda c: c.service.deploy(
            c.id,
            c.actor,
            c.legal(Deploy).unit if c.role != "off" else c.unit("cap1", "arc1"),
            c.legal(Deploy).cell if c.role != "off" else other_half_cell(c),
        ),
        PLAYERS_ONLY_ON,
        reasons=players("not_your_setup_step"),
    ),
    Case(
        "submit_army",
        lobby_full,
        lambda c: c.service.submit_army(c.id, c.actor, autoplay.SKIRMISH_ARMIES[c.side]),
        frozenset({"on", "off", "opp"}),
        reasons=NOBODY_HERE,
    ),
    Case(
        "ref_move_unit",
        south_turn,
        lambda c: c.service.ref_move_unit(c.id, c.actor, "sco1", Cell.parse("B3")),
        REFEREE_ONLY,
        reasons=NOT_REFEREE,
    ),
    Case(
        "ref_remove_unit",
        south_turn,
        lambda c: c.service.ref_remove_unit(c.id, c.actor, "sco1"),
        REFEREE_ONLY,
        reasons=NOT_REFEREE,
    ),
    Case(
        "ref_set_hp",
        south_turn,
        lambda c: c.service.ref_set_hp(c.id, c.actor, "tac1", 2),
        REFEREE_ONLY,
        reasons=NOT_REFEREE,
    ),
    Case(
        "ref_undo",
        moved_once,
        lambda c: c.service.ref_undo(c.id, c.actor, 1),
        REFEREE_ONLY,
        reasons=NOT_REFEREE,
    ),
    Case(
        "ref_end_turn",
        south_turn,
        lambda c: c.service.ref_end_turn(c.id, c.actor),
        REFEREE_ONLY,
        reasons=NOT_REFEREE,
    ),
    Case(
        "ref_extend_deadline",
        south_turn,
        lambda c: c.service.ref_extend_deadline(c.id, c.actor, 5),
        REFEREE_ONLY,
        reasons=NOT_REFEREE,
    ),
    Case(
        "ref_pause",
        south_turn,
        lambda c: c.service.ref_pause(c.id, c.actor),
        REFEREE_ONLY,
        reasons=NOT_REFEREE,
    ),
    Case(
        "ref_resume",
        paused,
        lambda c: c.service.ref_resume(c.id, c.actor),
        REFEREE_ONLY,
        reasons=NOT_REFEREE,
    ),
    Case(
        "ref_decide",
        south_turn,
        lambda c: c.service.ref_decide(c.id, c.actor, Side.SOUTH),
        REFEREE_ONLY,
        reasons=NOT_REFEREE,
    ),
    Case(
        "status", south_turn, lambda c: c.service.status(c.id), EVERYONE, reasons={}, changes=False
    ),
    Case(
        "game_log",
        south_turn,
        lambda c: c.service.game_log(c.id),
        EVERYONE,
        reasons={},
        changes=False,
    ),
    Case(
        "recap_log",
        south_turn,
        lambda c: c.service.recap_log(c.id, Side.SOUTH),
        EVERYONE,
        reasons={},
        changes=False,
    ),
    Case(
        "reveal_seed (running)",
        south_turn,
        lambda c: c.service.reveal_seed(c.id, c.actor),
        frozenset(),
        reasons={r: "game_not_over" for r in ROLES},
    ),
    Case(
        "reveal_seed (ended)",
        ended,
        lambda c: c.service.reveal_seed(c.id, c.actor),
        EVERYONE,
        reasons={},
        changes=False,
    ),
]


async def snapshot_of(service: GameService, game_id: int) -> tuple[Any, ...]:
    status = await service.status(game_id)
    entries = await service.game_log(game_id, since=status.version - 1)
    return status.version, status.state, status.paused, status.undo_request, entries


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
async def test_every_call_against_every_role(games: Games, case: Case) -> None:
    service = games.service
    await service.create_game(FOREIGN, games.next_channel(), guild=games.guild)  # plays there
    game = await games.cloned(case.prepare.__name__, case.prepare)
    on = game.acting_side or Side.SOUTH  # in the lobby: the creator
    refused = [role for role in ROLES if role not in case.allowed]
    assert sorted(case.reasons) == sorted(refused), "the table names a reason for every refusal"
    before = await snapshot_of(service, game.game_id)
    for role in refused:
        with pytest.raises((ServiceError, IllegalAction)) as refusal:
            await case.call(Ctx(service, game, on, role))
        code = getattr(refusal.value, "code", None)  # both error kinds carry one
        assert code == case.reasons[role], f"{role} refused for another reason"
        assert await snapshot_of(service, game.game_id) == before, f"{role} changed the game"
    for number, role in enumerate(sorted(case.allowed)):
        if number and case.changes:  # the game has changed: the next role gets a fresh one
            game = await games.cloned(case.prepare.__name__, case.prepare)
            before = await snapshot_of(service, game.game_id)
        await case.call(Ctx(service, game, on, role))
        if case.changes:
            after = await snapshot_of(service, game.game_id)
            assert after[0] > before[0], f"{role} was allowed but nothing happened"


# -- servers: an administrator is one only on their own server --------------------------------
async def test_only_the_servers_own_administrator_configures_it(
    games: Games, service: GameService
) -> None:
    with pytest.raises(NotAllowed) as refused:
        await service.configure_server(ALIEN, TEST_GUILD, referee_role="alien-role")
    assert refused.value.code == "other_server"
    console_admin = Actor("console-admin", admin=True)  # no server: no authority over one
    with pytest.raises(NotAllowed) as refused:
        await service.configure_server(console_admin, TEST_GUILD, referee_role="alien-role")
    assert refused.value.code == "other_server"
    assert (await service.server_config(TEST_GUILD)).referee_role != "alien-role"
    config = await service.configure_server(ALIEN, "other-guild", language="en")
    assert config.language == "en"


async def test_a_referee_role_of_another_server_with_the_same_name_counts_for_nothing(
    games: Games, service: GameService
) -> None:
    game = await games.south_on_turn()
    stranger = Actor(REFEREE.user, roles=REFEREE.roles, guild="other-guild")
    with pytest.raises(NotAllowed) as refused:
        await service.ref_pause(game.game_id, stranger)
    assert refused.value.code == "other_server"
    paused = await service.ref_pause(game.game_id, REFEREE)
    assert paused.version == game.version + 1


# -- a referee who plays ------------------------------------------------------------------------
async def _refereed_by_a_player(games: Games, service: GameService) -> tuple[Outcome, Actor]:
    """A game on a server of its own whose referee plays north in it."""
    games.guild = f"guild-{games.channel}"
    await games.configure()
    referee = Actor("playing-referee", roles=frozenset({"referee-role"}), guild=games.guild)
    players = {Side.SOUTH: autoplay.SOUTH, Side.NORTH: referee}
    game = await autoplay.new_game(
        service,
        games.next_channel(),
        scenario="skirmish",
        armies=autoplay.SKIRMISH_ARMIES,
        players=players,
        guild=games.guild,
    )
    return game, referee


async def test_a_referee_who_plays_may_not_judge_their_own_game_by_default(
    games: Games, service: GameService
) -> None:
    game, referee = await _refereed_by_a_player(games, service)
    assert not (await service.server_config(games.guild)).referee_may_play
    playing_admin = Actor(referee.user, admin=True, guild=games.guild)
    for judge in (referee, playing_admin):
        with pytest.raises(NotAllowed) as refused:
            await service.ref_decide(game.game_id, judge, Side.NORTH)
        assert refused.value.code == "referee_plays"
    assert (await service.status(game.game_id)).version == game.version
    decided = await service.ref_decide(game.game_id, referee_of(games), Side.SOUTH)
    assert decided.status == "ended"


async def test_a_server_may_let_a_playing_referee_judge_and_the_log_says_who_did(
    games: Games, service: GameService
) -> None:
    game, referee = await _refereed_by_a_player(games, service)
    config = await service.configure_server(games.admin, games.guild, referee_may_play=True)
    assert config.referee_may_play
    assert (await service.server_config(games.guild)).referee_may_play
    paused = await service.ref_pause(game.game_id, referee)
    assert paused.version == game.version + 1
    line = (await service.game_log(game.game_id))[-1]
    assert (line.actor, line.role) == (referee.user, "referee")
    # Turning one setting leaves the others as they were.
    assert config.referee_role == "referee-role"


def referee_of(games: Games) -> Actor:
    """The (non-playing) referee of the helper's current server."""
    return Actor(REFEREE.user, roles=REFEREE.roles, guild=games.guild)


async def test_the_terminal_owner_referees_only_games_without_a_server(
    games: Games, service: GameService
) -> None:
    """No server (the terminal): its administrator holds games with no server, and only those."""
    owner = Actor("terminal-owner", admin=True)
    on_a_server = await games.south_on_turn()
    with pytest.raises(NotAllowed) as refused:
        await service.ref_pause(on_a_server.game_id, owner)
    assert refused.value.code == "other_server"
    serverless = await autoplay.new_game(
        service, games.next_channel(), scenario="skirmish", armies=autoplay.SKIRMISH_ARMIES
    )
    with pytest.raises(NotAllowed) as refused:
        await service.ref_decide(serverless.game_id, ALIEN, None)
    assert refused.value.code == "other_server"
    decided = await service.ref_decide(serverless.game_id, owner, None)
    assert decided.status == "ended"
