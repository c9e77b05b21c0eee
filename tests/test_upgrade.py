"""Upgrading (issue 20): a database written by the code of the oldest schema (0001), with a
game in every phase, is migrated by ``vahalite db upgrade`` and every game plays on to its
end, its dice verified. ``tests/data/schema-0001.db`` was made by that old code
(``tests/data/make_schema_0001.py`` says how).
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.engine import Connection

from vahalite_bot.app import Actor, GameService, Outcome, autoplay
from vahalite_bot.app.results import ENDED, LOBBY
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase
from vahalite_bot.store import migrate
from vahalite_bot.store.database import open_database
from vahalite_bot.store.models import Base
from vahalite_bot.verify import check_text
from vahalite_bot.verify.export import export_log

OLD = Path(__file__).parent / "data" / "schema-0001.db"


def _differences(connection: Connection) -> list[object]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


async def test_a_database_of_the_oldest_schema_upgrades_and_every_game_plays_on(
    tmp_path: Path,
) -> None:
    path = tmp_path / "vahalite.db"
    shutil.copy(OLD, path)
    with sqlite3.connect(path) as conn:
        (revision,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        phases = dict(conn.execute("SELECT id, status FROM games").fetchall())
    assert revision == "0001"
    url = f"sqlite+aiosqlite:///{path}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("VAHALITE_")}
    upgraded = subprocess.run(
        [sys.executable, "-m", "vahalite_bot", "db", "upgrade", "--db", url],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert upgraded.returncode == 0, upgraded.stderr

    db = await open_database(url, upgrade=False)
    try:
        assert await migrate.current_revision(db.engine) == migrate.head_revision()
        async with db.engine.connect() as conn:
            assert await conn.run_sync(_differences) == []
        service = GameService(db)
        seen: set[str] = set()
        for game_id in sorted(phases):
            status = await service.status(game_id)
            if status.state is not None:
                seen.add(status.state.phase.value)
            if status.status == LOBBY:
                await _fill_lobby(service, game_id)
            if status.status != ENDED:
                outcome = await _resumed(service, game_id)
                seats = {p.side: Actor(p.user) for p in (await service.status(game_id)).players}
                rng = random.Random(game_id)
                ended = await autoplay.play(service, outcome, rng, players=seats)
                assert ended.state is not None and ended.state.phase is Phase.ENDED
            await service.reveal_seed(game_id, autoplay.SOUTH)
            report = check_text(await export_log(service, game_id))
            assert not report.problems, (game_id, report.problems)
            assert report.seed is not None
        assert seen >= {p.value for p in Phase} - {Phase.ROLL_OFF.value}  # B1 is never at rest
        assert set(phases.values()) == {"lobby", "setup", "playing", "ended"}
    finally:
        await db.close()


async def _fill_lobby(service: GameService, game_id: int) -> None:
    """A lobby of the old schema takes its second player and both armies today."""
    status = await service.status(game_id)
    south = next(p.user for p in status.players if p.side is Side.SOUTH)
    north = next((p.user for p in status.players if p.side is Side.NORTH), None)
    if north is None:
        north = "newcomer"
        await service.join(game_id, Actor(north))
    armies = autoplay.standard_armies()
    await service.submit_army(game_id, Actor(south), armies[Side.SOUTH])
    await service.submit_army(game_id, Actor(north), armies[Side.NORTH])


async def _resumed(service: GameService, game_id: int) -> Outcome:
    status = await service.status(game_id)
    return Outcome(
        game_id, status.version, status.status, (), None, None, None, False, status.state,
        status.commitment,
    )  # fmt: skip
