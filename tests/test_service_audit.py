"""The outside audit of the service (issue 17): refuse loudly, never guess. On both databases.

- An idempotency key carries a digest of its command's arguments: the same key with other
  arguments is refused (``key_mismatch``), as payment APIs do, instead of answering with the
  first command's reply while the second is silently dropped.
- Text that is not valid UTF-8 (a lone surrogate) is refused at the schema, wherever text
  enters the service, instead of crashing in the database driver.
- A game whose scenario this process does not know is refused naming the missing file.
- A caller from another server cannot create or join a game there; a blank house-rule id is
  refused as an empty one is; an empty move path is refused for being empty.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from sqlalchemy import column, table, update
from sqlalchemy.types import JSON, DateTime, String

from tests.conftest import REFEREE, Clock, Games
from vahalite_bot.app import (
    Actor,
    GameService,
    InvalidRequest,
    NotAllowed,
    NotFound,
    ServiceError,
    autoplay,
)
from vahalite_bot.rules.actions import Move
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.roster import Roster, RosterEntry
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.store import migrate
from vahalite_bot.store.database import open_database
from vahalite_bot.store.models import CommandKey

SOUTH, NORTH = autoplay.SOUTH, autoplay.NORTH
LONE = "\ud800"  # a lone surrogate: a Python str, but no UTF-8 can encode it


def _shows(error: ServiceError) -> None:
    """The refusal reads in both languages."""
    for lang in ("ru", "en"):
        text = error.describe(lang)
        assert text and "service-" not in text, text


# -- 1. a key reused with other arguments ----------------------------------------------------
async def test_a_key_reused_for_another_move_is_refused_and_the_first_reply_stays(
    games: Games, service: GameService
) -> None:
    game = await games.south_on_turn()
    placed = await games.place(game.game_id, sco1="A3", cap1="C3")
    first = await service.move(game.game_id, SOUTH, "sco1", Cell.parse("A4"), key="k1")
    with pytest.raises(InvalidRequest) as refused:
        await service.move(game.game_id, SOUTH, "cap1", Cell.parse("C4"), key="k1")
    assert (refused.value.code, refused.value.params) == ("key_mismatch", {"command": "move"})
    _shows(refused.value)
    status = await service.status(game.game_id)
    assert status.version == placed.version + 1 == first.version  # the second changed nothing
    assert status.state is not None and status.state.units["cap1"].cell == Cell.parse("C3")
    # The same key with the same arguments is a retry: the first reply, nothing applied again.
    again = await service.move(game.game_id, SOUTH, "sco1", Cell.parse("A4"), key="k1")
    assert again == first
    assert (await service.status(game.game_id)).version == first.version


async def test_a_key_reused_for_another_hp_is_refused(games: Games, service: GameService) -> None:
    game = await games.south_on_turn()
    first = await service.ref_set_hp(game.game_id, REFEREE, "tac1", 1, key="hp")
    with pytest.raises(InvalidRequest) as refused:
        await service.ref_set_hp(game.game_id, REFEREE, "tac1", 2, key="hp")
    assert refused.value.code == "key_mismatch"
    assert await service.ref_set_hp(game.game_id, REFEREE, "tac1", 1, key="hp") == first
    status = await service.status(game.game_id)
    assert status.version == first.version
    assert status.state is not None and status.state.units["tac1"].hp == 1


async def test_a_key_reused_for_another_game_is_refused(service: GameService, channel: str) -> None:
    first = await service.create_game(SOUTH, channel, scenario="skirmish", key="c1")
    with pytest.raises(InvalidRequest) as refused:
        await service.create_game(SOUTH, channel, scenario="standard", key="c1")
    assert (refused.value.code, refused.value.params) == (
        "key_mismatch",
        {"command": "create_game"},
    )
    # The order house rules are named in does not make another command.
    other = f"{channel}-m"
    made = await service.create_game(SOUTH, other, house_rules="M2, M7", key="c2")
    assert await service.create_game(SOUTH, other, house_rules=("m7", "M2"), key="c2") == made
    assert await service.create_game(SOUTH, channel, scenario="skirmish", key="c1") == first
    assert (await service.status(first.game_id)).scenario == "skirmish"


async def test_a_key_reused_for_other_settings_is_refused(
    games: Games, service: GameService
) -> None:
    games.guild = f"guild-{games.channel}"
    first = await service.configure_server(games.admin, games.guild, language="en", key="s1")
    with pytest.raises(InvalidRequest) as refused:
        await service.configure_server(games.admin, games.guild, language="ru", key="s1")
    assert refused.value.code == "key_mismatch"
    assert (await service.server_config(games.guild)).language == "en"
    again = await service.configure_server(games.admin, games.guild, language="en", key="s1")
    assert again == first


async def test_a_key_stored_before_digests_is_still_a_retry(
    games: Games, service: GameService
) -> None:
    """Rows written before migration 0007 have no digest: "unknown", so a retry is accepted
    with whatever arguments (as before), and still changes nothing."""
    game = await games.south_on_turn()
    first = await service.ref_set_hp(game.game_id, REFEREE, "tac1", 1, key="old")
    async with service.db.write() as session:
        await session.execute(update(CommandKey).where(CommandKey.key == "old").values(digest=None))
    assert await service.ref_set_hp(game.game_id, REFEREE, "tac1", 2, key="old") == first
    assert (await service.status(game.game_id)).version == first.version


async def test_migration_0007_leaves_old_keys_without_a_digest(empty_db_url: str) -> None:
    db = await open_database(empty_db_url)
    try:
        await migrate.downgrade(db.engine, "0006")
        async with db.write() as session:
            await session.execute(_old_key_insert())
        await migrate.upgrade(db.engine)
        async with db.read() as session:
            row = await session.get(CommandKey, ("guild:g", "k"))
        assert row is not None and row.digest is None and row.command == "configure_server"
    finally:
        await db.close()


def _old_key_insert() -> Any:
    """A command_keys row as version 0006 had them (no digest column yet)."""
    old = table(
        "command_keys",
        column("scope", String),
        column("key", String),
        column("command", String),
        column("answer", JSON),
        column("created_at", DateTime(timezone=True)),
    )
    return old.insert().values(
        scope="guild:g",
        key="k",
        command="configure_server",
        answer={"user": "u"},
        created_at=Clock()(),
    )


# -- 2. text that is not valid UTF-8 -----------------------------------------------------------
Call = Callable[[GameService, str], Awaitable[Any]]

SURROGATES: dict[str, Call] = {
    "create channel": lambda s, c: s.create_game(SOUTH, f"c{LONE}"),
    "create guild": lambda s, c: s.create_game(SOUTH, c, guild=f"g{LONE}"),
    "create scenario": lambda s, c: s.create_game(SOUTH, c, scenario=f"s{LONE}"),
    "create language": lambda s, c: s.create_game(SOUTH, c, language=f"e{LONE}"),
    "create key": lambda s, c: s.create_game(SOUTH, c, key=f"k{LONE}"),
    "create house ids": lambda s, c: s.create_game(SOUTH, c, house_rules=(f"M{LONE}",)),
    "create house text": lambda s, c: s.create_game(SOUTH, c, house_rules=f"M2 {LONE}"),
    "actor user": lambda s, c: s.create_game(Actor(f"u{LONE}"), c),
    "actor role": lambda s, c: s.ref_pause(1, Actor("u", roles=frozenset({LONE}))),
    "actor guild": lambda s, c: s.ref_pause(1, Actor("u", guild=LONE)),
    "game in channel": lambda s, c: s.game_in_channel(LONE),
    "server config": lambda s, c: s.server_config(LONE),
    "settings role": lambda s, c: s.configure_server(
        Actor("a", admin=True, guild=c), c, referee_role=LONE
    ),
    "move unit": lambda s, c: s.move(1, SOUTH, f"sco{LONE}", Cell(0, 0)),
    "attack target": lambda s, c: s.attack(1, SOUTH, "cap1", LONE),
    "act unit": lambda s, c: s.act(1, SOUTH, Move(Side.SOUTH, LONE, (Cell(0, 0),))),
    "roster faction": lambda s, c: s.submit_army(1, SOUTH, Roster(LONE, ())),
    "roster sheet": lambda s, c: s.submit_army(1, SOUTH, Roster("x", (RosterEntry(LONE),))),
    "games of": lambda s, c: s.games_of(LONE, None),
    "key": lambda s, c: s.end_turn(1, SOUTH, key=LONE),
}


@pytest.mark.parametrize("where", list(SURROGATES))
async def test_a_lone_surrogate_is_refused_at_the_schema(
    service: GameService, channel: str, where: str
) -> None:
    with pytest.raises(InvalidRequest) as refused:
        await SURROGATES[where](service, channel)
    assert refused.value.code == "bad_text", refused.value
    _shows(refused.value)


async def test_a_lone_surrogate_in_a_word_is_refused(service: GameService, channel: str) -> None:
    with pytest.raises(InvalidRequest) as refused:
        await service.create_game(SOUTH, channel, entropy=f"w{LONE}")
    assert refused.value.code == "bad_word"
    with pytest.raises(NotFound):
        await service.game_in_channel(channel)


# -- 3. a scenario this process does not know ----------------------------------------------
async def test_a_game_on_a_scenario_this_process_lacks_is_refused_naming_the_file(
    games: Games, service: GameService, clock: Clock
) -> None:
    lobby = await games.lobby()  # on "skirmish"
    await service.join(lobby.game_id, games.on_server(NORTH))
    # Another process, whose boards/ has no skirmish file.
    other = GameService(
        service.db, clock=clock, sheets=service.sheets, scenarios={"standard": STANDARD}
    )
    before = (await service.status(lobby.game_id)).version
    with pytest.raises(ServiceError) as refused:
        await other.submit_army(lobby.game_id, SOUTH, autoplay.SKIRMISH_ARMIES[Side.SOUTH])
    assert (type(refused.value).__name__, refused.value.code) == ("Unavailable", "scenario_missing")
    assert refused.value.params == {"scenario": "skirmish", "file": "skirmish.toml"}
    for lang in ("ru", "en"):
        assert "skirmish.toml" in refused.value.describe(lang)
    assert (await service.status(lobby.game_id)).version == before
    # The process that knows it goes on (and the game starts there).
    await service.submit_army(lobby.game_id, SOUTH, autoplay.SKIRMISH_ARMIES[Side.SOUTH])
    started = await service.submit_army(lobby.game_id, NORTH, autoplay.SKIRMISH_ARMIES[Side.NORTH])
    assert started.state is not None


# -- 5. the caller's server; blank house-rule ids; an empty path -----------------------------
async def test_a_game_cannot_be_created_for_another_server(
    service: GameService, channel: str
) -> None:
    somewhere = Actor("south-player", guild="server-a")
    with pytest.raises(NotAllowed) as refused:
        await service.create_game(somewhere, channel, guild="server-b")
    assert refused.value.code == "wrong_server"
    _shows(refused.value)
    with pytest.raises(NotFound):
        await service.game_in_channel(channel)
    made = await service.create_game(somewhere, channel, guild="server-a")
    assert (await service.status(made.game_id)).guild == "server-a"


async def test_a_game_cannot_be_joined_from_another_server(
    games: Games, service: GameService
) -> None:
    lobby = await games.lobby()  # on TEST_GUILD
    with pytest.raises(NotAllowed) as refused:
        await service.join(lobby.game_id, dataclasses.replace(NORTH, guild="elsewhere"))
    assert refused.value.code == "wrong_server"
    status = await service.status(lobby.game_id)
    assert status.version == lobby.version and len(status.players) == 1
    with pytest.raises(NotAllowed):  # nor from no server at all (the terminal)
        await service.join(lobby.game_id, dataclasses.replace(NORTH, guild=None))
    joined = await service.join(lobby.game_id, dataclasses.replace(NORTH, guild=games.guild))
    assert joined.version == lobby.version + 1


@pytest.mark.parametrize("ids", [("",), (" ",), ("M2", "  ")])
async def test_a_blank_house_rule_id_is_refused_as_an_empty_one_is(
    games: Games, service: GameService, channel: str, ids: tuple[str, ...]
) -> None:
    with pytest.raises(InvalidRequest) as refused:
        await service.create_game(SOUTH, channel, house_rules=ids)
    assert refused.value.code == "unknown_house_rule"
    _shows(refused.value)
    with pytest.raises(NotFound):
        await service.game_in_channel(channel)
    lobby = await games.lobby()
    with pytest.raises(InvalidRequest) as again:
        await service.set_house_rules(lobby.game_id, SOUTH, ids)
    assert again.value.code == "unknown_house_rule"


async def test_an_empty_move_path_is_refused_for_being_empty(
    games: Games, service: GameService
) -> None:
    game = await games.south_on_turn()
    with pytest.raises(InvalidRequest) as refused:
        await service.act(game.game_id, SOUTH, Move(Side.SOUTH, "sco1", ()))
    assert refused.value.code == "empty_path"
    for lang in ("ru", "en"):
        assert "64" not in refused.value.describe(lang)
    assert (await service.status(game.game_id)).version == game.version


async def test_a_retried_join_may_carry_another_drawn_word(
    games: Games, service: GameService
) -> None:
    """An adapter draws a word for a player who gives none, afresh on each delivery: the
    retry is the same join, answered as the first (whose word is the one logged)."""
    lobby = await games.lobby()
    north = games.on_server(NORTH)
    first = await service.join(lobby.game_id, north, entropy="first", key="j")
    assert await service.join(lobby.game_id, north, entropy="second", key="j") == first
    log = await service.game_log(lobby.game_id)
    assert [getattr(line.record, "word", None) for line in log][-1] == "first"


_DIGEST_IN_A_CHILD = """
from vahalite_bot.app import autoplay, schemas
from vahalite_bot.app.house import checked_house_rules
from vahalite_bot.app.keys import digest_of
ids = frozenset({"M1", "M2", "M5", "M7", "M9"})
call = schemas.check(schemas.Create, actor=autoplay.SOUTH, channel="c", house_rules=ids, key="k")
print(digest_of(call, house_rules=checked_house_rules(call.house_rules)))
"""


def test_a_digest_is_the_same_in_every_process() -> None:
    """Sets iterate in an order each process draws (PYTHONHASHSEED): the digest must not."""
    seen = set()
    for seed in ("1", "2", "3"):
        run = subprocess.run(
            [sys.executable, "-c", _DIGEST_IN_A_CHILD],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        seen.add(run.stdout.strip())
    assert len(seen) == 1 and len(seen.pop()) == 64
