"""Calls for the worker pool's tests, importable in its worker processes: ones that end
their worker as the OOM killer or a crash in a C library would."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path


def end_worker() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def end_worker_once(marker: str) -> int:
    """Ends its worker the first time (``marker`` does not exist yet), answers its pid next."""
    path = Path(marker)
    if not path.exists():
        path.write_text(str(os.getpid()))
        end_worker()
    return os.getpid()


def nap(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()
