"""The worker pool's life: a worker that dies (killed, out of memory, a crash in a C library)
is replaced, the call it ran is run once more, and a stop cancels what has not begun."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests import workerjobs
from vahalite_bot.discord.workers import WorkerLost, Workers


def ended(pid: int) -> bool:
    """Whether the pool's worker ``pid`` has ended, as its parent (this process) can tell,
    without reaping it (a zombie whose threads are still ending is not waitable yet)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # reaped already
        return True


async def wait_ended(pid: int) -> None:
    for _ in range(500):
        if ended(pid):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"worker {pid} still runs")


async def test_a_worker_that_died_between_calls_is_replaced_before_the_next() -> None:
    workers = Workers(1)
    try:
        first = await workers.run(os.getpid)
        os.kill(first, signal.SIGKILL)
        await wait_ended(first)
        second = await workers.run(os.getpid)
        assert second != first
        assert await workers.run(os.getpid) == second
    finally:
        await workers.close()


@pytest.mark.logs_error("while running a call")
async def test_a_call_whose_worker_died_is_run_once_more_by_a_new_one(tmp_path: Path) -> None:
    marker = tmp_path / "died"
    workers = Workers(2)
    try:
        answered = await workers.run(workerjobs.end_worker_once, str(marker))
        died = int(marker.read_text())
        assert answered != died
        assert ended(died)
    finally:
        await workers.close()


@pytest.mark.logs_error("while running a call")
async def test_a_call_that_ends_every_worker_fails_and_the_pool_goes_on() -> None:
    workers = Workers(1)
    try:
        with pytest.raises(WorkerLost, match="killed by SIGKILL"):
            await workers.run(workerjobs.end_worker)
        assert await workers.run(pow, 2, 10) == 1024
    finally:
        await workers.close()


async def test_an_exception_in_a_call_reaches_the_caller_with_where_it_was_raised() -> None:
    workers = Workers(1)
    try:
        with pytest.raises(ValueError, match="invalid literal") as raised:
            await workers.run(int, "seven")
        assert "in the worker" in "".join(getattr(raised.value, "__notes__", []))
        assert await workers.run(int, "7") == 7
    finally:
        await workers.close()


async def test_a_stop_cancels_calls_not_begun_lets_the_running_one_end_and_ends_the_workers() -> (
    None
):
    workers = Workers(1)
    pid = await workers.run(os.getpid)
    running = asyncio.ensure_future(workers.run(workerjobs.nap, 0.5))
    await asyncio.sleep(0.2)  # it has begun
    queued = [asyncio.ensure_future(workers.run(os.getpid)) for _ in range(3)]
    await asyncio.sleep(0)
    await workers.close()
    assert await running == pid
    assert all(call.cancelled() for call in queued)
    assert ended(pid)
    with pytest.raises(RuntimeError, match="closed"):
        await workers.run(os.getpid)


async def test_the_pool_runs_no_thread_of_its_own_and_leaves_none_behind() -> None:
    # concurrent.futures' pool left its manager thread running past the interpreter's exit,
    # where it raced the exit hook for its wake-up pipe: the bot printed "Bad file descriptor"
    # as it stopped (CI, stop 28). This pool has no thread, and must not grow one.
    before = set(threading.enumerate())
    workers = Workers(2)
    try:
        await workers.warm()
        await asyncio.gather(*(workers.run(workerjobs.nap, 0.01) for _ in range(8)))
        assert set(threading.enumerate()) == before
    finally:
        await workers.close()
    assert {t for t in threading.enumerate() if t.is_alive()} == before


# The bot dies (SIGKILL, OOM) with its worker's reply unread: the worker, waiting for the next
# call, meets a reset where a stopped bot leaves an end of file. Either way it ends, quietly.
BOT_DIES_WITH_A_REPLY_UNREAD = """
import asyncio, os, time
from tests import workerjobs
from vahalite_bot.discord.workers import Workers

async def main():
    workers = Workers(1)
    print(await workers.run(os.getpid), flush=True)
    asyncio.ensure_future(workers.run(workerjobs.nap, 0.05))
    await asyncio.sleep(0.01)  # sent
    time.sleep(0.5)  # the loop stands still: the reply waits unread
    os._exit(0)

asyncio.run(main())
"""


def test_a_worker_whose_bot_died_with_its_reply_unread_ends_without_a_word() -> None:
    root = Path(__file__).resolve().parent.parent
    died = subprocess.run(
        [sys.executable, "-c", BOT_DIES_WITH_A_REPLY_UNREAD],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=60,
    )  # its output ends when the worker's does: the worker shares it
    assert died.returncode == 0, died.stderr
    assert died.stdout.strip().isdigit()
    assert died.stderr == ""
