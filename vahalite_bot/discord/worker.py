"""A worker process's side of the pool (``workers``): its start, then the bot's calls, one at a
time, until the bot closes their socket.

A message either way is a pickle behind its length (``HEADER``): from the bot, a function and
its arguments; from the worker, ``(True, result)`` or ``(False, exception)``, and first of all
``(True, pid)`` once ``work.prepare`` has run. Like ``work``, this module imports no discord.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import socket
import struct
import traceback
from multiprocessing.reduction import ForkingPickler
from typing import Any

from vahalite_bot.discord import work

HEADER = struct.Struct("!Q")  # the length of the pickle that follows


def serve(channel: socket.socket, warmed: bool) -> None:
    """A worker's life (the target of its process): ``work.prepare``, then answer calls."""
    # A bot that ended (stopped, or crashed with a call in flight: a reset) ends it too.
    with channel, contextlib.suppress(ConnectionError):
        try:
            work.prepare(warmed)
        except Exception as error:
            _send(channel, _failure(error))
            return
        _send(channel, (True, os.getpid()))
        while (call := _receive(channel)) is not None:
            function, args = pickle.loads(call)
            try:
                reply: tuple[bool, Any] = (True, function(*args))
            except Exception as error:
                reply = _failure(error)
            _send(channel, reply)


def _failure(error: Exception) -> tuple[bool, Any]:
    # The bot logs what it cannot handle: with where it happened here, not only where the
    # reply arrived.
    error.add_note("in the worker:\n" + "".join(traceback.format_exception(error)).rstrip())
    return False, error


def _send(channel: socket.socket, reply: tuple[bool, Any]) -> None:
    try:
        body = ForkingPickler.dumps(reply)
    except Exception as error:  # a result or an exception that does not pickle
        body = ForkingPickler.dumps(
            (False, RuntimeError(f"a worker's reply did not pickle: {error!r}"))
        )
    channel.sendall(HEADER.pack(len(body)))
    channel.sendall(body)


def _receive(channel: socket.socket) -> bytearray | None:
    """The next call's pickle, None once the bot has closed the socket."""
    head = channel.recv(HEADER.size, socket.MSG_WAITALL)
    if len(head) < HEADER.size:
        return None
    (size,) = HEADER.unpack(head)
    body = bytearray(size)
    view, got = memoryview(body), 0
    while got < size:
        count = channel.recv_into(view[got:])
        if not count:
            return None
        got += count
    return body
