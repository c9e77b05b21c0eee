"""Reads are consistent: with a writer running, every status shows the state of the version
it reports (the replay of the log up to that entry), on both databases.

A status is several statements (the game row, the players, the turn's snapshot, the log after
it); at PostgreSQL's READ COMMITTED a commit landing between them made a read show a board
that never existed. The readers here are other services (other caches, other connections),
as other bot processes would be.
"""

from __future__ import annotations

import asyncio

from tests.conftest import REFEREE, Clock, Games
from vahalite_bot.app import GameService
from vahalite_bot.app.replay import Entry, fold
from vahalite_bot.rules.state import GameState
from vahalite_bot.store.database import open_database

WRITES = 150
READERS = 3


async def _replayed(service: GameService, game_id: int) -> dict[int, GameState | None]:
    """The state after every entry of the log, by replaying it from the first."""
    lines = await service.game_log(game_id)
    entries = [
        Entry(
            line.seq,
            line.kind,
            line.actor,
            line.role,
            line.side,
            line.record,
            line.dice,
            (),
            line.created_at,
        )
        for line in lines
    ]
    return {e.seq: fold(None, [x for x in entries if x.seq <= e.seq]) for e in entries}


async def test_every_status_under_a_writer_is_the_replay_of_its_version(
    games: Games, service: GameService, db_url: str, clock: Clock
) -> None:
    game_id = (await games.south_on_turn()).game_id
    seen: list[tuple[int, GameState | None]] = []
    done = asyncio.Event()

    async def write() -> None:
        try:
            for number in range(WRITES):
                if number % 40 == 39:  # a new turn now and then: a new snapshot to read from
                    await service.ref_end_turn(game_id, REFEREE)
                else:
                    await service.ref_set_hp(game_id, REFEREE, "tac1", 1 + number % 2)
        finally:
            done.set()

    async def read(reader: GameService) -> None:
        while not done.is_set():
            status = await reader.status(game_id)
            seen.append((status.version, status.state))
            await asyncio.sleep(0)

    databases = [await open_database(db_url, upgrade=False) for _ in range(READERS)]
    try:
        readers = [
            GameService(db, clock=clock, sheets=service.sheets, scenarios=service.scenarios)
            for db in databases
        ]
        await asyncio.gather(write(), *(read(r) for r in readers))
    finally:
        for db in databases:
            await db.close()
    truth = await _replayed(service, game_id)
    torn = [version for version, state in seen if truth.get(version) != state]
    assert len({version for version, _ in seen}) > 10, "the readers saw too few versions"
    assert torn == [], f"{len(torn)} of {len(seen)} reads showed a state their version never had"
