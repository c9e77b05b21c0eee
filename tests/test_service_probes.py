"""Every argument bounded at the service's edge: a table of bad inputs, on both databases.

Each probe is a call a careless or hostile client could make. Each must be refused with the
service's own error (never a database error, an ``AssertionError``, a ``TypeError`` or a
hang), the same on SQLite and PostgreSQL, with a message both catalogues can show; and
none may change a game.

The table runs in a child process (``python -m tests.test_service_probes URL [START]``,
one JSON line per probe) with a cap on its memory and time: before the hardening, a move
towards ``Cell(2**40, 0)`` walked (and stored) the path one cell at a time, which no
``wait_for`` can interrupt; a regression must fail this test, not swap the machine. The
counts before the hardening were taken the same way, a new child after each runaway.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import resource
import subprocess
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tests.conftest import REFEREE, Clock, Games
from vahalite_bot.app import (
    Actor,
    GameService,
    InvalidRequest,
    NotAllowed,
    ServiceError,
    autoplay,
)
from vahalite_bot.rules.actions import Attack, EndTurn, Move
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.roster import Roster, RosterEntry
from vahalite_bot.rules.scenario import STANDARD, Side, TerrainKind

SOUTH, NORTH = autoplay.SOUTH, autoplay.NORTH
BIG = 2**31  # one past PostgreSQL's INTEGER
HUGE = 10**30  # past any database integer; crashed the catalogue's number formatting
LONG = "x" * 65  # one past the 64 characters of an id column
MEGA = "x" * 1_000_000
NUL = "a\x00b"
SUR = "a\ud800b"  # a lone surrogate: no UTF-8 encodes it
A4 = Cell(0, 3)
TIMEOUT = 10.0  # seconds a probe may take before it counts as a hang


@dataclass
class Games3:
    """The games the probes are tried on: one in the lobby, one in setup, one in play."""

    service: GameService
    games: Games
    lobby: int
    setup: int
    play: int
    channel: str

    @property
    def guild(self) -> str:
        """A server of the probes' own, so that a probe of its settings touches no game."""
        return f"{self.channel}-probe-guild"

    @property
    def admin(self) -> Actor:
        return _guilded("probe-admin", self.guild, admin=True)


Call = Callable[[Games3], Awaitable[Any]]


@dataclass(frozen=True)
class Probe:
    """A bad call, and the refusal it must get: the same on both databases."""

    name: str
    code: str  # the refusal's code
    call: Call
    refusal: type[ServiceError] = InvalidRequest
    new_api: bool = False  # uses a parameter the service did not have before the hardening


def _actor(user: Any = "probe-user", **kwargs: Any) -> Actor:
    return Actor(user, **kwargs)


def _guilded(user: str, guild: str, **kwargs: Any) -> Actor:
    """An actor speaking for ``guild`` (before the hardening, actors had no guild)."""
    if "guild" in {f.name for f in dataclasses.fields(Actor)}:
        kwargs["guild"] = guild
    return Actor(user, **kwargs)


def _sco(g: Games3, cell: Any) -> Awaitable[Any]:
    return g.service.move(g.play, SOUTH, "sco1", cell)


def _new_channel(g: Games3, suffix: str) -> str:
    return f"{g.channel}-probe-{suffix}"


P = Probe
NA = NotAllowed

PROBES: list[Probe] = [
    # -- game ids and versions: integers the database stores as INTEGER ----------------------
    P("status id 2^31", "bad_range", lambda g: g.service.status(BIG)),
    P("status id 2^63", "bad_range", lambda g: g.service.status(2**63)),
    P("status id -1", "bad_range", lambda g: g.service.status(-1)),
    P("status id str", "bad_type", lambda g: g.service.status("1")),  # type: ignore[arg-type]
    P("status id bool", "bad_type", lambda g: g.service.status(True)),
    P("status id float", "bad_type", lambda g: g.service.status(1.5)),  # type: ignore[arg-type]
    P("game_log id 2^31", "bad_range", lambda g: g.service.game_log(BIG)),
    P("game_log since 2^31", "bad_range", lambda g: g.service.game_log(g.play, since=BIG)),
    P("game_log since -5", "bad_range", lambda g: g.service.game_log(g.play, since=-5)),
    P("join id 2^31", "bad_range", lambda g: g.service.join(BIG, NORTH)),
    P("move id 2^31", "bad_range", lambda g: g.service.move(BIG, SOUTH, "sco1", Cell(0, 0))),
    P("end_turn id 2^40", "bad_range", lambda g: g.service.end_turn(2**40, SOUTH)),
    P("ref_pause id 2^31", "bad_range", lambda g: g.service.ref_pause(BIG, REFEREE)),
    P("reveal_seed id 2^31", "bad_range", lambda g: g.service.reveal_seed(BIG, SOUTH)),
    P("act id 2^31", "bad_range", lambda g: g.service.act(BIG, SOUTH, EndTurn(Side.SOUTH))),
    P(
        "expected_version 2^31",
        "bad_range",
        lambda g: g.service.end_turn(g.play, SOUTH, expected_version=BIG),
    ),
    P(
        "expected_version -1",
        "bad_range",
        lambda g: g.service.end_turn(g.play, SOUTH, expected_version=-1),
    ),
    P(
        "expected_version str",
        "bad_type",
        lambda g: g.service.end_turn(g.play, SOUTH, expected_version="3"),  # type: ignore[arg-type]
    ),
    # -- who calls -----------------------------------------------------------------------------
    P("user 65 chars", "bad_length", lambda g: g.service.end_turn(g.play, _actor(LONG))),
    P("user NUL", "bad_text", lambda g: g.service.end_turn(g.play, _actor(NUL))),
    P("user empty", "bad_length", lambda g: g.service.end_turn(g.play, _actor(""))),
    P("user int", "bad_type", lambda g: g.service.end_turn(g.play, _actor(123))),
    P("actor None", "bad_type", lambda g: g.service.end_turn(g.play, None)),  # type: ignore[arg-type]
    P("actor str", "bad_type", lambda g: g.service.end_turn(g.play, "south-player")),  # type: ignore[arg-type]
    P(
        "role 65 chars",
        "bad_length",
        lambda g: g.service.ref_pause(g.play, _actor(roles=frozenset({LONG}))),
    ),
    P(
        "role NUL",
        "bad_text",
        lambda g: g.service.ref_pause(g.play, _actor(roles=frozenset({NUL}))),
    ),
    P(
        "10,000 roles",
        "bad_count",
        lambda g: g.service.ref_pause(
            g.play, _actor(roles=frozenset(f"r{i}" for i in range(10_000)))
        ),
    ),
    P(
        "roles a str",
        "bad_type",
        lambda g: g.service.ref_pause(g.play, _actor(roles="referee-role")),
    ),
    P("admin a str", "bad_type", lambda g: g.service.ref_pause(g.play, _actor(admin="yes"))),
    P("join user 1 MB", "bad_length", lambda g: g.service.join(g.lobby, _actor(MEGA))),
    P("join user NUL", "bad_text", lambda g: g.service.join(g.lobby, _actor(NUL))),
    P(
        "guild 65 chars",
        "bad_length",
        lambda g: g.service.ref_pause(g.play, _actor(guild=LONG)),
        new_api=True,
    ),
    P(
        "guild NUL",
        "bad_text",
        lambda g: g.service.ref_pause(g.play, _actor(guild=NUL)),
        new_api=True,
    ),
    # -- channels, guilds and the settings of a new game ----------------------------------------
    P("create channel 65 chars", "bad_length", lambda g: g.service.create_game(SOUTH, LONG)),
    P("create channel NUL", "bad_text", lambda g: g.service.create_game(SOUTH, NUL)),
    P("create channel empty", "bad_length", lambda g: g.service.create_game(SOUTH, "")),
    P("create channel 1 MB", "bad_length", lambda g: g.service.create_game(SOUTH, MEGA)),
    P("create channel int", "bad_type", lambda g: g.service.create_game(SOUTH, 12345)),  # type: ignore[arg-type]
    P(
        "create guild 65 chars",
        "bad_length",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "g65"), guild=LONG),
    ),
    P(
        "create guild NUL",
        "bad_text",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "gnul"), guild=NUL),
    ),
    P(
        "create points 2^31",
        "bad_range",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "p31"), points_limit=BIG),
    ),
    P(
        "create points 10^30",
        "bad_range",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "p30"), points_limit=HUGE),
    ),
    P(
        "create points -1",
        "bad_range",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "pm1"), points_limit=-1),
    ),
    P(
        "create deadline 2^31",
        "bad_range",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "d31"), deadline_hours=BIG),
    ),
    P(
        "create deadline 10^30",
        "bad_range",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "d30"), deadline_hours=HUGE),
    ),
    P(
        "create deadline 0",
        "bad_deadline",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "d0"), deadline_hours=0),
    ),
    P(
        "create scenario 65 chars",
        "bad_length",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "s65"), scenario=LONG),
    ),
    P(
        "create scenario 2000 chars",
        "bad_length",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "s2k"), scenario="s" * 2000),
    ),
    P(
        "create scenario NUL",
        "bad_text",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "snul"), scenario=NUL),
    ),
    P(
        "create language 65 chars",
        "bad_length",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "l65"), language=LONG),
    ),
    P(
        "create language NUL",
        "bad_text",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "lnul"), language=NUL),
    ),
    P(
        "create language int",
        "bad_type",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "lint"), language=5),  # type: ignore[arg-type]
    ),
    P("game_in_channel 65 chars", "bad_length", lambda g: g.service.game_in_channel(LONG)),
    P("game_in_channel NUL", "bad_text", lambda g: g.service.game_in_channel(NUL)),
    P("server_config 65 chars", "bad_length", lambda g: g.service.server_config(LONG)),
    P("server_config NUL", "bad_text", lambda g: g.service.server_config(NUL)),
    # -- server settings ------------------------------------------------------------------------
    P(
        "forfeit 2147483648",
        "bad_range",
        lambda g: g.service.configure_server(g.admin, g.guild, missed_turns_forfeit=2147483648),
    ),
    P(
        "forfeit 10^30",
        "bad_range",
        lambda g: g.service.configure_server(g.admin, g.guild, missed_turns_forfeit=HUGE),
    ),
    P(
        "forfeit 0",
        "bad_forfeit",
        lambda g: g.service.configure_server(g.admin, g.guild, missed_turns_forfeit=0),
    ),
    P(
        "settings deadline 2^31",
        "bad_range",
        lambda g: g.service.configure_server(g.admin, g.guild, deadline_hours=BIG),
    ),
    P(
        "settings referee role 65 chars",
        "bad_length",
        lambda g: g.service.configure_server(g.admin, g.guild, referee_role=LONG),
    ),
    P(
        "settings referee role NUL",
        "bad_text",
        lambda g: g.service.configure_server(g.admin, g.guild, referee_role=NUL),
    ),
    P(
        "settings language zz",
        "bad_language",
        lambda g: g.service.configure_server(g.admin, g.guild, language="zz"),
    ),
    P("settings guild 65 chars", "bad_length", lambda g: g.service.configure_server(g.admin, LONG)),
    P("settings guild NUL", "bad_text", lambda g: g.service.configure_server(g.admin, NUL)),
    P("settings guild empty", "bad_length", lambda g: g.service.configure_server(g.admin, "")),
    # -- cells: on the board, integers, of the right type ---------------------------------------
    P("move to (2^40, 0)", "bad_cell", lambda g: _sco(g, Cell(2**40, 0))),
    P("move to (-1, 0)", "bad_cell", lambda g: _sco(g, Cell(-1, 0))),
    P("move to (6, 0), off a 6x6 board", "off_board", lambda g: _sco(g, Cell(6, 0))),
    P("move to (0, 2^31)", "bad_cell", lambda g: _sco(g, Cell(0, BIG))),
    P("move to a plain tuple", "bad_type", lambda g: _sco(g, (1, 2))),
    P("move to a str", "bad_type", lambda g: _sco(g, "C3")),
    P("move to (1.5, 2)", "bad_type", lambda g: _sco(g, Cell(1.5, 2))),  # type: ignore[arg-type]
    P(
        "move unit 65 chars",
        "bad_length",
        lambda g: g.service.move(g.play, SOUTH, LONG, Cell(0, 3)),
    ),
    P("move unit NUL", "bad_text", lambda g: g.service.move(g.play, SOUTH, NUL, Cell(0, 3))),
    P("move unit int", "bad_type", lambda g: g.service.move(g.play, SOUTH, 5, Cell(0, 3))),  # type: ignore[arg-type]
    P("move unit empty", "bad_length", lambda g: g.service.move(g.play, SOUTH, "", Cell(0, 3))),
    P(
        "disembark to (2^40, 0)",
        "bad_cell",
        lambda g: g.service.disembark(g.play, SOUTH, "tac1", Cell(2**40, 0)),
    ),
    P(
        "deploy to (99, 99)",
        "bad_cell",
        lambda g: g.service.deploy(g.setup, SOUTH, "cap1", Cell(99, 99)),
    ),
    P(
        "place_passenger to (-5, -5)",
        "bad_cell",
        lambda g: g.service.place_passenger(g.play, SOUTH, "tac1", Cell(-5, -5)),
    ),
    P(
        "place_terrain kind lava",
        "bad_type",
        lambda g: g.service.place_terrain(g.setup, SOUTH, "lava", Cell(1, 1)),  # type: ignore[arg-type]
    ),
    P(
        "place_terrain at (2^40, 1)",
        "bad_cell",
        lambda g: g.service.place_terrain(g.setup, SOUTH, TerrainKind.WATER, Cell(2**40, 1)),
    ),
    P(
        "place_sp at (2^31, 0)",
        "bad_cell",
        lambda g: g.service.place_sp(g.setup, SOUTH, Cell(BIG, 0)),
    ),
    P(
        "embark during setup",
        "transport_not_on_board",
        lambda g: g.service.embark(g.setup, SOUTH, "tac1", "rhi1"),
        NA,
    ),
    P(
        "embark transport 65 chars",
        "bad_length",
        lambda g: g.service.embark(g.play, SOUTH, "tac1", LONG),
    ),
    P("embark transport NUL", "bad_text", lambda g: g.service.embark(g.play, SOUTH, "tac1", NUL)),
    # -- attacks, decisions, undo ---------------------------------------------------------------
    P(
        "attack weapon 2^40",
        "bad_range",
        lambda g: g.service.attack(g.play, SOUTH, "cap1", "arc1", weapons=(2**40,)),
    ),
    P(
        "attack weapon -1",
        "bad_range",
        lambda g: g.service.attack(g.play, SOUTH, "cap1", "arc1", weapons=(-1,)),
    ),
    P(
        "attack 1000 weapons",
        "bad_count",
        lambda g: g.service.attack(g.play, SOUTH, "cap1", "arc1", weapons=tuple(range(1000))),
    ),
    P(
        "attack weapons a str",
        "bad_type",
        lambda g: g.service.attack(g.play, SOUTH, "cap1", "arc1", weapons="12"),  # type: ignore[arg-type]
    ),
    P(
        "attack melee a str",
        "bad_type",
        lambda g: g.service.attack(g.play, SOUTH, "cap1", "arc1", melee="yes"),  # type: ignore[arg-type]
    ),
    P(
        "attack target 65 chars",
        "bad_length",
        lambda g: g.service.attack(g.play, SOUTH, "cap1", LONG),
    ),
    P("advance accept a str", "bad_type", lambda g: g.service.advance(g.play, SOUTH, "cap1", "no")),  # type: ignore[arg-type]
    P(
        "choose_deploy_order a str",
        "bad_type",
        lambda g: g.service.choose_deploy_order(g.setup, SOUTH, "yes"),  # type: ignore[arg-type]
    ),
    P("undo count 2^31", "bad_range", lambda g: g.service.undo(g.play, SOUTH, BIG)),
    P("undo count -1", "bad_range", lambda g: g.service.undo(g.play, SOUTH, -1)),
    P("undo count str", "bad_type", lambda g: g.service.undo(g.play, SOUTH, "1")),  # type: ignore[arg-type]
    P(
        "request_undo count 10^30",
        "bad_range",
        lambda g: g.service.request_undo(g.play, SOUTH, HUGE),
    ),
    P(
        "answer_undo accept a str",
        "bad_type",
        lambda g: g.service.answer_undo(g.play, NORTH, "yes"),  # type: ignore[arg-type]
    ),
    # -- raw engine actions ---------------------------------------------------------------------
    P("act None", "bad_type", lambda g: g.service.act(g.play, SOUTH, None)),  # type: ignore[arg-type]
    P("act a str", "bad_type", lambda g: g.service.act(g.play, SOUTH, "EndTurn")),  # type: ignore[arg-type]
    P(
        "act move to (2^40, 0)",
        "bad_cell",
        lambda g: g.service.act(g.play, SOUTH, Move(Side.SOUTH, "sco1", (Cell(2**40, 0),))),
    ),
    P(
        "act move 10,000 steps",
        "bad_count",
        lambda g: g.service.act(
            g.play, SOUTH, Move(Side.SOUTH, "sco1", tuple(Cell(0, i % 6) for i in range(10_000)))
        ),
    ),
    P(
        "act move unit 65 chars",
        "bad_length",
        lambda g: g.service.act(g.play, SOUTH, Move(Side.SOUTH, LONG, (Cell(0, 3),))),
    ),
    P(
        "act attack weapon 2^40",
        "bad_range",
        lambda g: g.service.act(g.play, SOUTH, Attack(Side.SOUTH, "cap1", "arc1", (2**40,))),
    ),
    P(
        "act end turn, side a str",
        "bad_type",
        lambda g: g.service.act(g.play, SOUTH, EndTurn("south")),  # type: ignore[arg-type]
    ),
    # -- army lists -----------------------------------------------------------------------------
    P(
        "roster entries None",
        "bad_type",
        lambda g: g.service.submit_army(g.lobby, SOUTH, Roster("imperials", None)),  # type: ignore[arg-type]
    ),
    P(
        "roster faction None",
        "bad_type",
        lambda g: g.service.submit_army(g.lobby, SOUTH, Roster(None, ())),  # type: ignore[arg-type]
    ),
    P(
        "roster faction 65 chars",
        "bad_length",
        lambda g: g.service.submit_army(g.lobby, SOUTH, Roster(LONG, ())),
    ),
    P(
        "roster 10,000 entries",
        "bad_count",
        lambda g: g.service.submit_army(
            g.lobby,
            SOUTH,
            Roster("imperials", tuple(RosterEntry("captain") for _ in range(10_000))),
        ),
    ),
    P(
        "roster entries a list",
        "bad_type",
        lambda g: g.service.submit_army(
            g.lobby,
            SOUTH,
            Roster("imperials", [RosterEntry("captain")]),  # type: ignore[arg-type]
        ),
    ),
    P(
        "roster entries of str",
        "bad_type",
        lambda g: g.service.submit_army(g.lobby, SOUTH, Roster("imperials", ("captain",))),  # type: ignore[arg-type]
    ),
    P(
        "roster sheet NUL",
        "bad_text",
        lambda g: g.service.submit_army(g.lobby, SOUTH, Roster("imperials", (RosterEntry(NUL),))),
    ),
    P(
        "roster option 65 chars",
        "bad_length",
        lambda g: g.service.submit_army(
            g.lobby, SOUTH, Roster("imperials", (RosterEntry("captain", (LONG,)),))
        ),
    ),
    P("roster None", "bad_type", lambda g: g.service.submit_army(g.lobby, SOUTH, None)),  # type: ignore[arg-type]
    P("roster a str", "bad_type", lambda g: g.service.submit_army(g.lobby, SOUTH, "imperials 500")),  # type: ignore[arg-type]
    # -- the referee's overrides ----------------------------------------------------------------
    P("ref_set_hp 2^31", "bad_range", lambda g: g.service.ref_set_hp(g.play, REFEREE, "tac1", BIG)),
    P(
        "ref_set_hp 10^30",
        "bad_range",
        lambda g: g.service.ref_set_hp(g.play, REFEREE, "tac1", HUGE),
    ),
    P(
        "ref_extend 2^31 h",
        "bad_range",
        lambda g: g.service.ref_extend_deadline(g.play, REFEREE, BIG),
    ),
    P(
        "ref_extend 10^30 h",
        "bad_range",
        lambda g: g.service.ref_extend_deadline(g.play, REFEREE, HUGE),
    ),
    P(
        "ref_move_unit to (2^40, 0)",
        "bad_cell",
        lambda g: g.service.ref_move_unit(g.play, REFEREE, "sco1", Cell(2**40, 0)),
    ),
    P(
        "ref_move_unit to (7, 7)",
        "off_board",
        lambda g: g.service.ref_move_unit(g.play, REFEREE, "sco1", Cell(7, 7)),
    ),
    P("ref_undo count 2^31", "bad_range", lambda g: g.service.ref_undo(g.play, REFEREE, BIG)),
    P(
        "ref_decide winner a str",
        "bad_type",
        lambda g: g.service.ref_decide(g.play, REFEREE, "south"),  # type: ignore[arg-type]
    ),
    P("ref_remove_unit NUL", "bad_text", lambda g: g.service.ref_remove_unit(g.play, REFEREE, NUL)),
    # -- idempotency keys -----------------------------------------------------------------------
    P(
        "key 65 chars",
        "bad_length",
        lambda g: g.service.end_turn(g.play, SOUTH, key=LONG),
        new_api=True,
    ),
    P("key NUL", "bad_text", lambda g: g.service.end_turn(g.play, SOUTH, key=NUL), new_api=True),
    P("key empty", "bad_length", lambda g: g.service.end_turn(g.play, SOUTH, key=""), new_api=True),
    P("key int", "bad_type", lambda g: g.service.end_turn(g.play, SOUTH, key=5), new_api=True),  # type: ignore[arg-type]
    P(
        "create key 65 chars",
        "bad_length",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "k65"), key=LONG),
        new_api=True,
    ),
    # -- the outside audit (issue 17) -----------------------------------------------------------
    P("create channel lone surrogate", "bad_text", lambda g: g.service.create_game(SOUTH, SUR)),
    P("move unit lone surrogate", "bad_text", lambda g: g.service.move(g.play, SOUTH, SUR, A4)),
    P("key lone surrogate", "bad_text", lambda g: g.service.end_turn(g.play, SOUTH, key=SUR)),
    P(
        "create for another server",
        "wrong_server",
        lambda g: g.service.create_game(
            _guilded("probe-user", "elsewhere"), _new_channel(g, "srv"), guild=g.guild
        ),
        NA,
    ),
    P("join from another server", "wrong_server", lambda g: g.service.join(g.lobby, NORTH), NA),
    P(
        "create house rule blank",
        "unknown_house_rule",
        lambda g: g.service.create_game(SOUTH, _new_channel(g, "hr"), house_rules=(" ",)),
    ),
    P(
        "act move empty path",
        "empty_path",
        lambda g: g.service.act(g.play, SOUTH, Move(Side.SOUTH, "sco1", ())),
    ),
]


# -- running the table ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Result:
    probe: str
    verdict: str  # refused (as expected), wrong_error, crash, hang, accepted
    detail: str


async def run_probe(target: Games3, probe: Probe, timeout: float = TIMEOUT) -> Result:
    """Try ``probe``; a probe that changed a game says so (the caller then makes new ones,
    so that a wrongly accepted probe does not mask the next)."""
    before = await versions(target)
    try:
        await asyncio.wait_for(probe.call(target), timeout)
    except TimeoutError:
        return Result(probe.name, "hang", f"over {timeout} s")
    except ServiceError as error:
        problem = _unshowable(error)
        if problem is not None:
            return Result(probe.name, "crash", f"{error.code}: {problem}")
        if await versions(target) != before:
            return Result(probe.name, "accepted", f"changed a game, then {error.code}")
        expected = type(error) is probe.refusal and error.code == probe.code
        verdict = "refused" if expected else "wrong_error"
        return Result(probe.name, verdict, f"{type(error).__name__}({error.code})")
    except Exception as error:  # what the table is looking for: anything else escaping
        return Result(probe.name, "crash", f"{type(error).__name__}: {str(error)[:120]}")
    return Result(probe.name, "accepted", "")


def _unshowable(error: ServiceError) -> str | None:
    """A refusal is only useful if both catalogues can show it, briefly and safely."""
    for lang in ("ru", "en"):
        try:
            text = error.describe(lang)
        except Exception as problem:
            return f"describe({lang}) raised {type(problem).__name__}"
        if len(text) > 600 or "\x00" in text:
            return f"describe({lang}) gave {len(text)} characters"
    return None


async def prepare(service: GameService, games: Games) -> Games3:
    lobby = await games.lobby()
    setup = await games.setup()
    play = await games.south_on_turn()
    return Games3(service, games, lobby.game_id, setup.game_id, play.game_id, games.channel)


async def versions(target: Games3) -> list[int]:
    games = (target.lobby, target.setup, target.play)
    return [(await target.service.status(g)).version for g in games]


MEMORY_CAP = 2_000_000_000  # bytes of address space for the child
TABLE_TIMEOUT = 1200  # seconds for the whole table (about a minute when nothing is wrong)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def test_every_bad_input_is_refused_with_a_showable_reason(db_url: str) -> None:
    child = subprocess.run(
        [sys.executable, "-m", "tests.test_service_probes", db_url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=TABLE_TIMEOUT,
        preexec_fn=_cap_memory,
        check=False,
    )
    lines = [json.loads(line) for line in child.stdout.splitlines() if line.startswith("{")]
    results = [line for line in lines if "verdict" in line]
    started = [line["start"] for line in lines if "start" in line]
    assert child.returncode == 0, (
        f"the probe child died (exit {child.returncode}) in probe {started[-1:]}: "
        f"{child.stderr[-2000:]}"
    )
    wrong = [
        f"{r['probe']}: {r['verdict']} {r['detail']}" for r in results if r["verdict"] != "refused"
    ]
    assert wrong == [], f"{len(wrong)} of {len(results)} probes not refused as expected"
    assert len(results) == len(PROBES) >= 100


# -- as a program: one JSON line per probe, for the counts before and after --------------------
async def _main(url: str, start: int) -> None:
    from vahalite_bot.app import autoplay as auto
    from vahalite_bot.codex.loader import all_sheets, demo_factions
    from vahalite_bot.store.database import open_database

    db = await open_database(url, upgrade=False)  # the caller's database, migrated
    clock = Clock()
    service = GameService(
        db,
        clock=clock,
        sheets=all_sheets(demo_factions()),
        scenarios={"standard": STANDARD, "skirmish": auto.SKIRMISH},
    )
    stamp = datetime.now(UTC).strftime("%H%M%S%f")
    games = Games(service, f"probe-{stamp}", clock)
    target = await prepare(service, games)
    for probe in PROBES[start:]:
        print(json.dumps({"start": probe.name}), flush=True)
        result = await run_probe(target, probe)
        print(
            json.dumps(
                {
                    "probe": result.probe,
                    "verdict": result.verdict,
                    "detail": result.detail,
                    "new_api": probe.new_api,
                }
            ),
            flush=True,
        )
        if result.verdict != "refused":
            target = await prepare(service, games)  # it may have changed or broken a game
    await db.close()


if __name__ == "__main__":
    asyncio.run(_main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0))
