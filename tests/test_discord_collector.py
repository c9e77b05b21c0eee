"""The bot's processes settle their garbage collector once loaded (``discord.collector``):
in a fresh interpreter, since the collector's settings are the whole process's."""

from __future__ import annotations

import subprocess
import sys

from vahalite_bot.discord import collector

_PROBE = """
import gc, weakref
from vahalite_bot.discord import collector

class Node:
    pass

default = gc.get_threshold()
loop = Node()
loop.me = loop  # a cycle only a full pass frees
gone = weakref.ref(loop)
del loop
collector.settle(collect=True, young={young})
print(gone() is None, gc.get_freeze_count() > 0, default[1:] == gc.get_threshold()[1:],
      gc.get_threshold()[0])
"""


def _settled(young: int) -> list[str]:
    probe = _PROBE.format(young=young)
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    return out.stdout.split()


def test_settling_frees_the_cycles_freezes_the_rest_and_spaces_the_young_passes() -> None:
    freed, frozen, older_kept, young = _settled(collector.YOUNG_PASS_EVERY)
    assert (freed, frozen, older_kept) == ("True", "True", "True")
    assert int(young) == collector.YOUNG_PASS_EVERY != 700  # CPython's own default
