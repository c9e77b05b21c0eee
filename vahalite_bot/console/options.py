"""What the console is started with (from ``vahalite console``'s flags and the config)."""

from __future__ import annotations

import hashlib
import random
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from vahalite_bot.selfplay.levels import THINK_MS


@dataclass(frozen=True)
class ConsoleOptions:
    lang: str = "ru"
    database_url: str = "sqlite+aiosqlite:///data/vahalite.db"
    vs: str | None = None  # the automatic player taking North; None: two people, hot-seat
    new: bool = False  # close an unfinished game and start another
    seed: int | None = None  # testing aid: reproducible dice; None: a fresh secret seed
    deadline_hours: int = 48
    missed_turns_forfeit: int = 3
    boards: Path | None = None  # where board images go; None: beside the database
    homebrew: Path | None = None  # a folder of extra faction files, loaded like the codexes
    think_ms: float = THINK_MS  # the hard player's time per decision
    # The command line the player typed (program first), repeated in the language hint.
    started_as: tuple[str, ...] = ("vahalite", "console")


def in_language(started_as: Sequence[str], lang: str) -> str:
    """The command the player typed, with ``--lang`` set to ``lang``."""
    words, skip = [], False
    for word in started_as:
        if skip:
            skip = False
        elif word == "--lang":
            skip = True
        elif not word.startswith("--lang="):
            words.append(word)
    return shlex.join([*words, "--lang", lang])


def seed_bytes(seed: int) -> bytes:
    """The dice seed ``--seed N`` gives every game (tests replay a game from it)."""
    return hashlib.sha256(f"vahalite-console:{seed}".encode()).digest()


def auto_rng(seed: int | None, version: int) -> random.Random:
    """The automatic player's generator for its decision at game ``version``.

    With ``--seed`` it depends only on the seed and the version, so a game quit and resumed
    plays on exactly as one played in a single sitting.
    """
    if seed is None:
        return random.Random()
    return random.Random(f"vahalite-console:{seed}:{version}")
