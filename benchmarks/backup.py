"""Time ``vahalite db backup`` and ``vahalite db restore`` on a database of many games.

    python -m benchmarks.backup --games 1000 [--played 10] [--runs 3]

``--played`` games are played to their end by random legal actions (the demo factions'
500-point lists), then copied, rows and all, until the database holds ``--games`` games.
Then, ``--runs`` times each, the installed command copies it (``python -m vahalite_bot db
backup``, its own process, as an admin runs it) and restores the copy over it. The last line
is ``games=N db_bytes=B backup_bytes=B backup_s=S restore_s=S backup_cpu_s=C restore_cpu_s=C``:
medians of the wall time of the whole command (Python's start included) and its CPU time.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.conftest import clone_game
from vahalite_bot.app import GameService, autoplay
from vahalite_bot.store.database import open_database


async def fill(url: str, games: int, played: int) -> None:
    db = await open_database(url)
    try:
        service = GameService(db)
        ids = []
        for index in range(played):
            outcome = await autoplay.new_game(service, f"played-{index}")
            await autoplay.play(service, outcome, random.Random(index))
            ids.append(outcome.game_id)
        for copy in range(games - played):
            await clone_game(db, ids[copy % played], f"copy-{copy}")
    finally:
        await db.close()


def timed(*args: str) -> tuple[float, float]:
    """Wall and CPU seconds of ``python -m vahalite_bot ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "vahalite_bot", *args], check=True, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--played", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="vahalite-bench-backup-") as folder:
        path = Path(folder) / "vahalite.db"
        url = f"sqlite+aiosqlite:///{path}"
        asyncio.run(fill(url, args.games, args.played))
        backups, restores, sizes = [], [], []
        for run in range(args.runs):
            target = Path(folder) / f"backup-{run}.db"
            backups.append(timed("db", "backup", str(target), "--db", url))
            sizes.append(target.stat().st_size)
            restores.append(timed("db", "restore", str(target), "--db", url))
            for kept in path.parent.glob("vahalite.db.before-restore-*"):
                kept.unlink()
            print(f"run {run}: backup {backups[-1][0]:.2f} s, restore {restores[-1][0]:.2f} s")
        print(
            f"games={args.games} db_bytes={path.stat().st_size} backup_bytes={sizes[0]} "
            f"backup_s={statistics.median(w for w, _ in backups):.2f} "
            f"restore_s={statistics.median(w for w, _ in restores):.2f} "
            f"backup_cpu_s={statistics.median(c for _, c in backups):.2f} "
            f"restore_cpu_s={statistics.median(c for _, c in restores):.2f}"
        )


if __name__ == "__main__":
    main()
