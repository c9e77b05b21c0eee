"""Keeping Python's cyclic garbage collector out of a decision's budget."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic collection while the block runs: a decision's garbage is freed by reference
    counting, and a full collection (tens of ms in a big process) landing inside a 50 ms
    budget would overrun it; the collection waits until after."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
