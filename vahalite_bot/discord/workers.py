"""A pool of worker processes for CPU work, so that the event loop never waits on it.

Rendering a board takes a few ms, a game never drawn before as much as any other (one
palette per theme, a shared frame); a turn's recap folds the game's log, and the automatic
player's search takes some tens of ms. In a thread they would hold the GIL against the loop;
in processes they do not. ``spawn`` keeps the workers free of the bot's loop, sockets and
threads.

The loop itself talks to each worker over a socket pair (``worker``): a call goes out as
one write and its reply is read like any other stream. concurrent.futures' process pool
took three threads of the bot's process for the same (its manager thread, its queue's
feeder, the loop's wake-up), some 0.3 ms of CPU a job, and once a worker died (killed, out
of memory) it refused every job until the bot restarted. Here a worker that dies is
replaced, and the call it was running is run once more by the new one.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import pickle
import signal
import socket
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.context import SpawnProcess
from multiprocessing.reduction import ForkingPickler
from typing import Any, ParamSpec, TypeVar

from vahalite_bot.discord import work, worker
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Scenario
from vahalite_bot.rules.sheets import UnitSheet

P = ParamSpec("P")
R = TypeVar("R")

log = logging.getLogger(__name__)

STOP_WAIT_S = 5.0  # a worker told to stop (its socket closed) is killed after this
AHEAD = 2  # calls sent to a busy worker: the one it runs and the next


class WorkerLost(RuntimeError):
    """A worker process ended while it ran a call (and again when the call was run anew), or
    could not start."""


@dataclass
class _Call:
    reply: asyncio.Future[Any]
    pickled: bytes
    tries: int = 0


class _Process:
    """One worker process and the bot's end of its socket."""

    def __init__(self, warmed: bool) -> None:
        ours, theirs = socket.socketpair()
        self.process: SpawnProcess = multiprocessing.get_context("spawn").Process(
            target=worker.serve, args=(theirs, warmed), daemon=True, name="vahalite-worker"
        )
        self.process.start()
        theirs.close()
        self._socket = ours
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def ready(self) -> None:
        """Wait for the worker's first word: started (``work.prepare`` done), or why not."""
        self._streams = await asyncio.open_connection(sock=self._socket)
        ok, value = await self.reply()
        if not ok:
            raise WorkerLost(f"worker {self.process.pid} could not start") from value

    async def send(self, pickled: bytes) -> None:
        assert self._streams is not None
        writer = self._streams[1]
        writer.write(worker.HEADER.pack(len(pickled)) + pickled)
        await writer.drain()

    async def reply(self) -> tuple[bool, Any]:
        assert self._streams is not None
        reader = self._streams[0]
        try:
            (size,) = worker.HEADER.unpack(await reader.readexactly(worker.HEADER.size))
            reply: tuple[bool, Any] = pickle.loads(await reader.readexactly(size))
        except (asyncio.IncompleteReadError, ConnectionError) as gone:
            await _ended(self.process, STOP_WAIT_S)  # its socket closes a moment before
            raise WorkerLost(f"worker {self.process.pid} ended ({self.ending()})") from gone
        return reply

    @property
    def alive(self) -> bool:
        return self.process.is_alive()  # which reaps it if it has ended

    def ending(self) -> str:
        code = None if self.alive else self.process.exitcode
        if code is None:
            return "still running"
        if code >= 0:
            return f"exit code {code}"
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:  # a real-time signal has no name
            return f"killed by signal {-code}"

    async def stop(self) -> None:
        """Close the socket (the worker's sign to end), wait for it, kill it if it will not."""
        if self._streams is not None:
            self._streams[1].close()
        else:
            self._socket.close()
        if not await _ended(self.process, STOP_WAIT_S):
            self.process.kill()
            await _ended(self.process, STOP_WAIT_S)


@dataclass
class _Slot:
    """A worker's place in the pool: its process (started when first needed, replaced when
    it dies) and the calls sent to it, oldest (running) first."""

    process: _Process | None = None
    sent: deque[_Call] = field(default_factory=deque)
    tried: asyncio.Event = field(default_factory=asyncio.Event)  # a first start was tried


class Workers:
    def __init__(self, processes: int, *, warm: bool = False) -> None:
        """``warm``: each worker warms up (``work.start``) as it starts, before its first job
        (the bot's pool; tests' and the doctor's start cold)."""
        register_pickling()
        self._size = max(1, processes)
        self._warmed = warm
        self._slots: list[_Slot] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._calls: asyncio.Queue[_Call] | None = None
        self._idle = 0  # slots waiting for a call
        self._processes: set[_Process] = set()
        self._closed = False

    async def run(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        if kwargs:
            raise TypeError("worker calls take positional arguments only")
        if self._closed:
            raise RuntimeError("the worker pool is closed")
        calls = self._start()
        call = _Call(asyncio.get_running_loop().create_future(), _pickled(function, args))
        calls.put_nowait(call)
        result: R = await call.reply
        return result

    async def warm(self) -> None:
        """Start every worker now rather than at the first image a player waits for."""
        self._start()
        await asyncio.gather(*(slot.tried.wait() for slot in self._slots))

    async def close(self, timeout: float = 30.0) -> None:
        """Stop the pool: calls not yet begun are cancelled, those sent get ``timeout``
        seconds to end (a decision of the automatic player), then the workers stop."""
        self._closed = True
        while self._calls is not None and not self._calls.empty():
            self._calls.get_nowait().reply.cancel()
        sent = [call.reply for slot in self._slots for call in slot.sent]
        if sent:
            await asyncio.wait(sent, timeout=timeout)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for reply in sent:
            reply.cancel()
        await asyncio.gather(*(process.stop() for process in self._processes))
        self._processes.clear()

    def _start(self) -> asyncio.Queue[_Call]:
        if self._calls is None:
            self._calls = asyncio.Queue()
            self._slots = [_Slot() for _ in range(self._size)]
            self._tasks = [asyncio.create_task(self._serve(slot)) for slot in self._slots]
        return self._calls

    async def _serve(self, slot: _Slot) -> None:
        """Give ``slot``'s worker calls and settle them as its replies come. A busy worker is
        sent the next call before it answers the one it runs, while no worker is idle: else it
        would wait for the loop between two calls, a few ms on a loaded machine."""
        calls = self._calls
        assert calls is not None
        await self._replace(slot)
        while True:
            if not slot.sent:
                self._idle += 1
                try:
                    call = await calls.get()
                finally:
                    self._idle -= 1
                await self._send(slot, call)
            while slot.sent and len(slot.sent) < AHEAD and not self._idle and not calls.empty():
                await self._send(slot, calls.get_nowait())
            if slot.sent:
                await self._settle_next(slot)

    async def _send(self, slot: _Slot, call: _Call) -> None:
        if call.reply.done():  # its caller gave up waiting
            return
        if not slot.sent and (slot.process is None or not slot.process.alive):
            problem = await self._replace(slot)
            if problem is not None:
                _settle(call, False, problem)
                return
        assert slot.process is not None
        slot.sent.append(call)
        await slot.process.send(call.pickled)

    async def _settle_next(self, slot: _Slot) -> None:
        assert slot.process is not None
        try:
            ok, value = await slot.process.reply()
        except WorkerLost as lost:
            await self._lost(slot, lost)
            return
        _settle(slot.sent.popleft(), ok, value)

    async def _lost(self, slot: _Slot, lost: WorkerLost) -> None:
        """The worker died: the call it ran is run once more (killed from outside, out of
        memory: the call itself may well be fine), or fails if it already was; the calls
        sent after it go to whichever worker is free."""
        log.error("%s while running a call", lost)
        assert slot.process is not None and self._calls is not None
        await self._retire(slot.process)
        slot.process = None
        running = slot.sent[0]
        running.tries += 1
        if running.tries > 1:
            _settle(slot.sent.popleft(), False, lost)
        while slot.sent:
            self._calls.put_nowait(slot.sent.popleft())

    async def _replace(self, slot: _Slot) -> WorkerLost | None:
        """A new worker in ``slot`` (None), or why it could not start."""
        if slot.process is not None:
            log.warning("a worker process ended (%s): starting another", slot.process.ending())
            await self._retire(slot.process)
            slot.process = None
        started = _Process(self._warmed)
        self._processes.add(started)
        try:
            await started.ready()
        except WorkerLost as lost:
            await self._retire(started)
            return lost
        finally:
            slot.tried.set()
        slot.process = started
        return None

    async def _retire(self, process: _Process) -> None:
        self._processes.discard(process)
        await process.stop()


def _settle(call: _Call, ok: bool, value: Any) -> None:
    if call.reply.done():
        return
    if ok:
        call.reply.set_result(value)
    else:
        call.reply.set_exception(value)


def _pickled(function: Callable[..., Any], args: tuple[Any, ...]) -> bytes:
    return bytes(ForkingPickler.dumps((function, args)))


async def _ended(process: SpawnProcess, timeout: float) -> bool:
    """Whether ``process`` ends within ``timeout`` seconds, asked on the loop, no thread."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while process.is_alive():
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(0.02)
    return True


def register_pickling() -> None:
    """Bundled sheets and shipped scenarios go to the workers by name (``work.reduce_sheet``,
    ``work.reduce_scenario``), states, their parts and events by their fields' values
    (``work.fields_reducer``): in multiprocessing's pickler only, which the pool uses."""
    ForkingPickler.register(UnitSheet, work.reduce_sheet)
    ForkingPickler.register(Scenario, work.reduce_scenario)
    ForkingPickler.register(Cell, work.reduce_cell)
    for cls in work.SENT_BY_FIELDS:
        ForkingPickler.register(cls, work.fields_reducer(cls))
