"""Two bot processes on one PostgreSQL database, each serving half the Discord shards: the
games of a server are served by whichever process holds its shard, both processes run the
deadline loop, and every deadline is fired exactly once (rulebook N1)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.botproc import BotProcess, write_config
from tests.conftest import drop_pg_database, new_pg_database
from tests.discord_moves import slash_of
from tests.standin import StandIn
from vahalite_bot.app import GameService, records
from vahalite_bot.codex.loader import all_sheets, codex_factions
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.store import repository as repo
from vahalite_bot.store.database import open_database

SHARDS = 2


@pytest.fixture
def pg_url() -> Iterator[str]:
    name, url = new_pg_database()
    try:
        yield url
    finally:
        drop_pg_database(name)


async def test_N1_two_processes_on_postgresql_serve_half_the_shards_each(
    tmp_path: Path, pg_url: str
) -> None:
    standin = StandIn()
    await standin.start()
    bots = [
        BotProcess(
            write_config(
                tmp_path / f"bot{shard}", standin, database_url=pg_url, extra={"deadline_tick": 0.3}
            ),
            ["--shard-ids", str(shard), "--shard-count", str(SHARDS)],
        )
        for shard in range(SHARDS)
    ]
    db = None
    try:
        owner = standin.add_user("owner")
        guilds: dict[int, int] = {}  # shard -> a guild on it
        while len(guilds) < SHARDS:
            guild = standin.add_guild(f"club{len(guilds)}", owner=owner)
            guilds.setdefault((guild >> 22) % SHARDS, guild)
        for bot in bots:
            await bot.start()
        await standin.wait_ready(timeout=60, count=SHARDS)
        await standin.wait_for(lambda: bool(standin.commands), 30)
        await asyncio.sleep(1.0)
        db = await open_database(pg_url, upgrade=False)
        service = GameService(db, sheets=all_sheets(codex_factions()))
        games = [await _game(standin, service, guild, shard) for shard, guild in guilds.items()]
        # Both deadlines pass at once; both processes run the loop; each fires once.
        past = datetime.now(UTC) - timedelta(seconds=1)
        for game in games:
            async with db.write() as session:
                await repo.update_deadline(session, game, {"due_at": past})

        async def missed(game: int) -> int:
            log = await service.game_log(game)
            return sum(isinstance(line.record, records.TurnMissed) for line in log)

        for game in games:
            for _ in range(100):
                if await missed(game) >= 1:
                    break
                await asyncio.sleep(0.1)
        await asyncio.sleep(1.5)  # several more ticks of both loops
        assert [await missed(game) for game in games] == [1, 1]
        for bot in bots:
            assert bot.process is not None and bot.process.returncode is None, bot.output()
    finally:
        for bot in bots:
            await bot.stop()
        if db is not None:
            await db.close()
        await standin.close()
    for bot in bots:
        assert not bot.errors(), bot.errors()


async def _game(standin: StandIn, service: GameService, guild: int, shard: int) -> int:
    """A game in ``guild`` played to its first turn through the process holding ``shard``."""
    alice, bob = standin.add_user(f"alice{shard}"), standin.add_user(f"bob{shard}")
    for user in (alice, bob):
        standin.add_member(guild, user)
    channel = standin.add_text_channel(guild, "games")

    async def slash(user: int, where: int, command: str, options: dict[str, object]) -> None:
        interaction = await standin.slash(user, where, command, options)
        await interaction.wait_done(timeout=30)

    await slash(alice, channel, "vl new", {"points": 500})
    thread = int(standin.threads_of(channel)[0]["id"])
    game = await service.game_in_channel(str(thread))
    await slash(bob, thread, "vl join", {})
    await slash(alice, thread, "vl army", {"faction": "space_marines"})
    await slash(bob, thread, "vl army", {"faction": "orks"})
    users = {Side.SOUTH: alice, Side.NORTH: bob}
    rng = random.Random(shard)
    for _ in range(200):
        state = (await service.status(game)).state
        assert state is not None
        if state.phase is Phase.PLAYING:
            return game
        side = acting_side(state)
        assert side is not None
        command, options = slash_of(GreedyPlayer().choose(state, rng), state)
        await slash(users[side], thread, command, options)
    raise AssertionError("setup did not finish")
