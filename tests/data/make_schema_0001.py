"""Makes ``schema-0001.db``: games in every phase, written by the code of the oldest schema.

The upgrade test (tests/test_upgrade.py) migrates a copy of that file and plays the games on.
Regenerate only if the file is lost, with the package as it was when 0001 was the newest
migration (commit 8dbb286), never with today's:

    git archive 8dbb286 | tar -x -C /tmp/v0001
    PYTHONPATH=/tmp/v0001 .venv/bin/python -P tests/data/make_schema_0001.py tests/data/new.db

(``-P``: the old package, not this checkout's), then ``VACUUM`` it.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from vahalite_bot.app import Actor, GameService, autoplay
from vahalite_bot.rules.state import Phase
from vahalite_bot.store.database import open_database

# Each game stops at the first state of its phase (several moves in, for PLAYING).
PHASES = (
    Phase.DEPLOY_ORDER,
    Phase.TERRAIN,
    Phase.SP,
    Phase.DEPLOYMENT,
    Phase.PLAYING,
    Phase.ENDED,
)


async def main(target: Path) -> None:
    assert not target.exists(), target
    db = await open_database(f"sqlite+aiosqlite:///{target}")
    service = GameService(db, seeds=lambda: bytes(range(32)))
    try:
        # The lobby: created only, then joined without armies.
        await service.create_game(Actor("lonely"), "lobby-open")
        joined = await service.create_game(Actor("south-player"), "lobby-joined")
        await service.join(joined.game_id, Actor("north-player"))
        for index, phase in enumerate(PHASES):
            outcome = await autoplay.new_game(service, f"phase-{phase.value}")
            rng = random.Random(index)
            if phase is Phase.PLAYING:
                outcome = await autoplay.play(service, outcome, rng, until=autoplay.playing)
                outcome = await autoplay.play(service, outcome, rng, max_commands=15)
            elif phase is not Phase.ENDED:
                outcome = await autoplay.play(
                    service, outcome, rng, until=lambda s, p=phase: s.phase is p
                )
            else:
                outcome = await autoplay.play(service, outcome, rng)
            assert outcome.state is not None and outcome.state.phase is phase, outcome.state
            print(f"game {outcome.game_id}: {phase.value} at version {outcome.version}")
        resigned = await autoplay.new_game(service, "resigned")
        await service.resign(resigned.game_id, autoplay.SOUTH)
        print(f"game {resigned.game_id}: resigned")
    finally:
        await db.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
