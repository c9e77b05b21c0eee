"""``vahalite db backup`` while the bot writes, and ``vahalite db restore`` (issue 20).

Real parts: the service writing random games to a SQLite file, the ``vahalite`` command as
its own process (``python -m vahalite_bot``) copying it meanwhile, and the copy restored,
played on to the end and its dice verified.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from vahalite_bot.app import GameService, Outcome, autoplay
from vahalite_bot.discord import lockfile
from vahalite_bot.rules.state import Phase
from vahalite_bot.store.database import open_database
from vahalite_bot.verify import check_text
from vahalite_bot.verify.export import export_log

GAMES = 4


async def vahalite(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The installed command, as its own process (not blocking this loop's writers)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("VAHALITE_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "vahalite_bot", *args,
        cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode is not None
    return subprocess.CompletedProcess(args, process.returncode, out.decode(), err.decode())


async def test_a_backup_taken_while_commands_are_written_restores_and_plays_on(
    tmp_path: Path,
) -> None:
    path = tmp_path / "live" / "vahalite.db"
    url = f"sqlite+aiosqlite:///{path}"
    db = await open_database(url)
    service = GameService(db)
    acked: dict[int, int] = {}  # game -> the last version a reply acknowledged
    copying = asyncio.Event()
    copied = asyncio.Event()
    during = 0  # commands acknowledged while the copy ran

    def ack(outcome: Outcome) -> None:
        nonlocal during
        acked[outcome.game_id] = outcome.version
        if copying.is_set() and not copied.is_set():
            during += 1

    async def writer(index: int) -> None:
        outcome = await autoplay.new_game(service, f"channel-{index}")
        ack(outcome)
        rng = random.Random(index)
        # Play on (new games when one ends) until the copy is done.
        while not copied.is_set():
            outcome = await autoplay.play(
                service, outcome, rng, until=lambda _: copied.is_set(), on_reply=ack
            )
            if outcome.state is not None and outcome.state.phase is Phase.ENDED:
                outcome = await autoplay.new_game(service, f"channel-{index}-{outcome.version}")
                ack(outcome)

    writers = [asyncio.create_task(writer(i)) for i in range(GAMES)]
    try:
        while len(acked) < GAMES or sum(acked.values()) < 40 * GAMES:
            await asyncio.sleep(0.05)
        before = dict(acked)  # acknowledged before the backup began
        copying.set()
        backup = tmp_path / "backups" / "vahalite-backup.db"
        result = await vahalite("db", "backup", str(backup), "--db", url, cwd=tmp_path)
        copied.set()
        await asyncio.gather(*writers)
    finally:
        copied.set()
        await db.close()
    assert result.returncode == 0, result.stderr
    assert during > 0, "nothing was written while the backup ran: the test proves nothing"
    assert backup.is_file() and not backup.with_name(backup.name + ".partial").exists()

    # Restoring over a database a bot process holds is refused, and changes nothing.
    holder = lockfile.hold(url)
    assert holder is not None
    try:
        live_size, live_mtime = path.stat().st_size, path.stat().st_mtime_ns
        refused = await vahalite("db", "restore", str(backup), "--db", url, cwd=tmp_path)
        assert refused.returncode == 2
        assert "stop it first" in refused.stderr
        assert (path.stat().st_size, path.stat().st_mtime_ns) == (live_size, live_mtime)
    finally:
        os.close(holder)

    restored = await vahalite("db", "restore", str(backup), "--db", url, cwd=tmp_path)
    assert restored.returncode == 0, restored.stderr
    assert list(path.parent.glob("vahalite.db.before-restore-*"))  # the replaced one, kept

    db = await open_database(url)
    service = GameService(db)
    try:
        for game_id, version in before.items():
            status = await service.status(game_id)
            assert status.version >= version, (game_id, status.version, version)
        # Every restored game plays on to its end, and its every die verifies.
        for game_id in before:
            rng = random.Random(game_id)
            ended = await autoplay.play(service, await resumed(service, game_id), rng)
            assert ended.state is not None and ended.state.phase is Phase.ENDED
            await service.reveal_seed(game_id, autoplay.SOUTH)
            report = check_text(await export_log(service, game_id))
            assert not report.problems, report.problems
            assert report.seed is not None  # revealed at the end, so every die was checked
    finally:
        await db.close()


async def resumed(service: GameService, game_id: int) -> Outcome:
    """Where a game stands, as the outcome ``autoplay.play`` goes on from."""
    status = await service.status(game_id)
    return Outcome(
        game_id, status.version, status.status, (), None, None, None, False, status.state,
        status.commitment,
    )  # fmt: skip


def test_backup_refuses_to_overwrite_and_restore_refuses_what_is_no_backup(
    tmp_path: Path,
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'vahalite.db'}"
    asyncio.run(_create(url))
    taken = tmp_path / "one.db"
    first = _cli("db", "backup", str(taken), "--db", url, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    again = _cli("db", "backup", str(taken), "--db", url, cwd=tmp_path)
    assert again.returncode == 2 and "exists" in again.stderr
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database" * 100)
    restored = _cli("db", "restore", str(junk), "--db", url, cwd=tmp_path)
    assert restored.returncode == 2 and "not a Vaha-Lite backup" in restored.stderr


def test_postgresql_backup_names_the_pg_dump_line(tmp_path: Path) -> None:
    url = "postgresql+asyncpg://bot:secret@db.example/vahalite"
    shown = _cli("db", "backup", "out.dump", "--db", url, cwd=tmp_path)
    assert shown.returncode == 2
    assert "pg_dump --format=custom --file out.dump 'postgresql://bot@db.example/vahalite'" in (
        shown.stderr
    )
    assert "secret" not in shown.stderr + shown.stdout


async def _create(url: str) -> None:
    db = await open_database(url)
    try:
        await autoplay.new_game(GameService(db), "c")
    finally:
        await db.close()


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VAHALITE_")}
    started = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "vahalite_bot", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert time.perf_counter() - started < 120
    return run
