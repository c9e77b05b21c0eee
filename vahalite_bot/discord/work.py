"""The CPU work the bot sends to its worker processes: plain functions of picklable values.

This module imports neither discord nor the database, so a worker starts light.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from vahalite_bot.app.results import LogLine
from vahalite_bot.present.paint import plain
from vahalite_bot.present.recap import recap_for, recap_text
from vahalite_bot.render import render_board, render_turn
from vahalite_bot.rules.actions import Action
from vahalite_bot.rules.events import Event
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.selfplay.players import Player, RandomPlayer


def board_png(
    state: GameState,
    events: Sequence[Any],
    before: GameState | None,
    names: Mapping[Side, str],
    lang: str,
) -> bytes:
    """The board after a change, the change drawn (the service's own records are not)."""
    drawn = [e for e in events if isinstance(e, Event)]
    return render_board(state, events=drawn, before=before, names=names, lang=lang)


def recap(
    log: Sequence[LogLine], side: Side, names: Mapping[Side, str], lang: str
) -> tuple[list[str], bytes] | None:
    """What happened since ``side``'s last turn: its text and one image of it all (None:
    nothing yet). The log is replayed from its start, so this is worker work."""
    found = recap_for(log, side)
    if found is None:
        return None
    text = recap_text(found.before, found.after, found.events, lang, plain)
    png = render_turn(found.before, found.after, found.events, names=names, lang=lang)
    return text, png


def choose(state: GameState, player: str, seed: str) -> Action:
    """The automatic player's next action; ``seed`` makes it repeatable per game version."""
    chosen: Player = GreedyPlayer() if player == "greedy" else RandomPlayer()
    return chosen.choose(state, random.Random(seed))


def warm() -> None:
    """Nothing: submitted once at start so the workers have imported this module."""


def follow_parent() -> None:
    """A worker's initializer: end with the bot. A bot killed outright (SIGKILL, OOM) cannot
    stop its pool, and orphaned workers would hold memory for ever."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()
