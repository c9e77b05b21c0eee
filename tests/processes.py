"""Bot processes for tests: each worker is an OS process with its own GameService, engine
and connections, as two bot processes sharing one database would be.

The parent sends each worker a job (a module-level coroutine function and its arguments);
the workers start it at the same moment (a barrier) and reply. Nothing can hang the test:
every exception a worker meets comes back with its traceback and fails the test with it,
and a worker that dies or does not answer in time fails it too.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
import traceback
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Barrier
from types import TracebackType
from typing import Any

from vahalite_bot.app import GameService, ServiceError, autoplay
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.scenario import STANDARD
from vahalite_bot.store.database import open_database

Job = Callable[..., Awaitable[Any]]

# Long enough for a slow shared machine; short enough that a stuck run fails in minutes.
REPLY_TIMEOUT = 120.0
START_TIMEOUT = 120.0


class WorkerFailed(AssertionError):
    """A worker raised something other than a service refusal, died, or went silent."""


@dataclass(frozen=True)
class Reply:
    pid: int
    ok: bool
    value: Any = None  # the job's result, when ok
    error: str = ""  # the refusal's class name
    code: str = ""
    params: dict[str, Any] = field(default_factory=dict)


class Workers:
    """``count`` worker processes on the database at ``url`` (spawned: nothing inherited)."""

    def __init__(self, url: str, count: int = 2, method: str = "spawn") -> None:
        self.url = url
        self.count = count
        self.context = multiprocessing.get_context(method)
        self.pipes: list[Connection] = []
        self.processes: list[BaseProcess] = []
        self.retries: list[int] = []

    def __enter__(self) -> Workers:
        self.barrier = barrier = self.context.Barrier(self.count)
        for number in range(self.count):
            parent, child = self.context.Pipe()
            process = self.context.Process(
                target=serve, args=(self.url, child, barrier), daemon=True, name=f"bot-{number}"
            )
            process.start()
            child.close()
            self.pipes.append(parent)
            self.processes.append(process)
        for number in range(self.count):
            message = self._receive(number, START_TIMEOUT)
            if message[0] != "ready":
                raise WorkerFailed(f"worker {number} did not start: {message}")
        return self

    def run(self, jobs: Sequence[tuple[Job, tuple[Any, ...]]]) -> list[Reply]:
        """One job per worker, started together; their replies in order."""
        assert len(jobs) == self.count
        for pipe, (job, args) in zip(self.pipes, jobs, strict=True):
            pipe.send((job, args))
        replies = []
        for number in range(self.count):
            message = self._receive(number, REPLY_TIMEOUT)
            if message[0] != "reply":
                raise WorkerFailed(f"worker {number} failed:\n{message[1]}")
            replies.append(message[1])
        return replies

    def _receive(self, number: int, timeout: float) -> tuple[Any, ...]:
        """Worker ``number``'s next message; fails at once if any worker dies meanwhile (its
        partner would wait for it at the barrier), or after ``timeout``."""
        pipe = self.pipes[number]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if pipe.poll(0.2):
                    message: tuple[Any, ...] = pipe.recv()
                    return message
            except EOFError:
                pass
            for other, process in enumerate(self.processes):
                if not process.is_alive():
                    raise WorkerFailed(
                        f"worker {other} died (exit code {process.exitcode}){self._last(other)}"
                    )
        raise WorkerFailed(f"worker {number} gave no answer within {timeout:.0f} s")

    def _last(self, number: int) -> str:
        """What a dead worker said last, if anything (its traceback, usually)."""
        try:
            if self.pipes[number].poll():
                return f": {self.pipes[number].recv()}"
        except (EOFError, OSError):
            pass
        return ""

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        # A worker may be waiting at the barrier for one that failed: release it now.
        self.barrier.abort()
        for pipe, process in zip(self.pipes, self.processes, strict=True):
            if process.is_alive():
                try:
                    pipe.send(None)
                    if pipe.poll(10):
                        message = pipe.recv()
                        if message[0] == "done":
                            self.retries.append(message[1])
                except (OSError, EOFError):
                    pass
        for process in self.processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()  # only our own worker, by its handle
                process.join(timeout=10)
        for pipe in self.pipes:
            pipe.close()


def serve(url: str, pipe: Connection, barrier: Barrier) -> None:
    """A worker's life: whatever goes wrong is sent to the parent, never swallowed."""
    try:
        asyncio.run(_serve(url, pipe, barrier))
    except BaseException:
        _send(pipe, ("failed", traceback.format_exc()))


async def _serve(url: str, pipe: Connection, barrier: Barrier) -> None:
    db = await open_database(url, upgrade=False)
    try:
        service = GameService(db, scenarios={"standard": STANDARD, "skirmish": autoplay.SKIRMISH})
        pipe.send(("ready",))
        while (request := await asyncio.to_thread(pipe.recv)) is not None:
            job, args = request
            try:
                await asyncio.to_thread(barrier.wait, REPLY_TIMEOUT)
                result = await job(service, *args)
                reply = Reply(os.getpid(), True, result)
            except (ServiceError, IllegalAction) as refusal:
                reply = Reply(
                    os.getpid(),
                    False,
                    error=type(refusal).__name__,
                    code=refusal.code,
                    params=dict(refusal.params),
                )
            except (Exception, threading.BrokenBarrierError):
                pipe.send(("failed", traceback.format_exc()))
                continue
            pipe.send(("reply", reply))
        pipe.send(("done", service.retries))
    finally:
        await db.close()


def _send(pipe: Connection, message: tuple[Any, ...]) -> None:
    with contextlib.suppress(OSError, EOFError):  # the parent is gone: nobody to tell
        pipe.send(message)


# -- jobs: module-level, so that a spawned worker can import them -------------------------------
async def command(
    service: GameService, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> int:
    """A service command; the version its outcome reports."""
    outcome = await getattr(service, method)(*args, **kwargs)
    return int(outcome.version)


async def fire_due(service: GameService, now: Any) -> list[int]:
    """The games whose turn this process ended."""
    report = await service.fire_due(now)
    return [outcome.game_id for outcome in report.expired]


async def claim(service: GameService, now: Any) -> list[tuple[int, int]]:
    """The announcements this process claimed: (id, game)."""
    return [(a.id, a.game_id) for a in await service.claim_announcements(now, limit=10_000)]


async def explode(service: GameService, message: str) -> None:
    """A job that fails as no command should: for the harness's own test."""
    raise RuntimeError(message)
