"""A stop (SIGTERM, what ``systemctl stop`` sends) lets the command in flight finish, its reply
included, before the bot exits 0 (issue 20, deploy/vahalite.service).

To hold a command in flight for certain, the bot's worker processes are paused (SIGSTOP)
while it renders a board for ``/vl board``: the command has been acknowledged (deferred) and
waits on its image when the stop comes; the workers go on a second later. On uvloop's event
loop (the default) and on asyncio's own: the signal handler, the worker pool's futures and
aiosqlite's thread work the same on both.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from tests.discord_world import make_world


def workers_of(pid: int) -> list[int]:
    """The bot's worker processes (multiprocessing's spawned children)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if int(stat[1]) == pid and b"spawn_main" in command:
            found.append(int(entry))
    return found


@pytest.mark.parametrize("loop", ["uvloop", "asyncio"])
async def test_a_stop_finishes_the_command_in_flight_and_its_reply(
    tmp_path: Path, loop: str
) -> None:
    world = await make_world(tmp_path, extra={"event_loop": loop})
    try:
        await world.slash(world.alice, world.forum, "vl new", {"points": 500})
        thread = int(world.standin.threads_of(world.forum)[0]["id"])
        await world.slash(world.bob, thread, "vl join")
        await world.slash(world.alice, thread, "vl army", {"faction": "space_marines"})
        await world.slash(world.bob, thread, "vl army", {"faction": "orks"})
        process = world.bot.process
        assert process is not None
        workers = workers_of(process.pid)
        assert workers, "the bot has worker processes"
        for worker in workers:
            os.kill(worker, signal.SIGSTOP)
        try:
            asked = await world.standin.slash(world.alice, thread, "vl board", {})
            deferred = await asked.wait_response(timeout=30)
            assert deferred["type"] == 5  # acknowledged: the image is being drawn
            process.send_signal(signal.SIGTERM)
            await asyncio.sleep(1.0)
            assert process.returncode is None  # still finishing the command
        finally:
            for worker in workers:
                os.kill(worker, signal.SIGCONT)
        answer = await asked.wait_done(timeout=30)
        assert answer and answer[-1].attachments, "the board came, as an image"
        assert await world.bot.wait(30) == 0
        assert "finishing 1 command(s) in flight" in world.bot.output()
        assert f"event loop: {loop}" in world.bot.output()
    finally:
        await world.close()
