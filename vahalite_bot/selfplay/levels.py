"""The automatic players by name: the three levels offered to people, and the others.

``normal`` is the greedy player and ``greedy`` stays a name for it (older games, scripts).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from vahalite_bot.selfplay.easy import EasyPlayer
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.selfplay.hard import DEFAULT_BUDGET_MS, HardPlayer
from vahalite_bot.selfplay.players import Player, RandomPlayer

LEVELS: Final = ("easy", "normal", "hard")
ALIASES: Final = {"greedy": "normal"}
NAMES: Final = (*LEVELS, "greedy", "random")
THINK_MS: Final = 1000.0  # the hard player's time per decision against a person (config)


def level_of(name: str) -> str:
    """The level a player name stands for (``greedy`` -> ``normal``)."""
    return ALIASES.get(name, name)


def make_player(
    name: str, budget_ms: float = DEFAULT_BUDGET_MS, clock: Callable[[], float] = time.perf_counter
) -> Player:
    """A fresh player; ``budget_ms`` is the search player's thinking time per decision,
    measured on ``clock`` (wall time by default)."""
    makers: dict[str, Callable[[], Player]] = {
        "easy": EasyPlayer,
        "normal": GreedyPlayer,
        "hard": lambda: HardPlayer(budget_ms, clock=clock),
        "random": RandomPlayer,
    }
    maker = makers.get(level_of(name))
    if maker is None:
        raise ValueError(f"no automatic player named {name!r}")
    return maker()
