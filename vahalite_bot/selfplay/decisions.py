"""What the search player's decisions cost in a self-play run: the figures issue 22 asks for
(depth and nodes of its searches, CPU time per decision, decisions over the budget).

Timed on the process's CPU clock whatever clock the budget runs on: a neighbour on a shared
machine does not lengthen a decision's CPU time, only its wall time.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field

from vahalite_bot.rules.actions import Action
from vahalite_bot.rules.state import GameState
from vahalite_bot.selfplay.hard import HardPlayer

OVER = 1.1  # a decision past its budget by more than this factor breaks the 10 %


@dataclass
class DecisionLog:
    """Wraps a ``HardPlayer`` (it plays exactly as the player it wraps) and counts."""

    player: HardPlayer
    cpu_ms: list[float] = field(default_factory=list)
    depths: list[int] = field(default_factory=list)  # of the decisions that searched
    nodes: list[int] = field(default_factory=list)
    search_ms: list[float] = field(default_factory=list)
    name: str = field(init=False)

    def __post_init__(self) -> None:
        self.name = self.player.name

    def choose(self, state: GameState, rng: random.Random) -> Action:
        started = time.process_time()
        action = self.player.choose(state, rng)
        spent = 1000 * (time.process_time() - started)
        self.cpu_ms.append(spent)
        if self.player.last:  # filled by the search alone (setup decisions simulate)
            self.depths.append(self.player.last_depth)
            self.nodes.append(self.player.last_nodes)
            self.search_ms.append(spent)
        return action

    def line(self) -> str:
        budget = self.player.budget_ms
        over = sum(ms > OVER * budget for ms in self.cpu_ms)
        searches = (
            f"{len(self.depths)} searches: mean depth {statistics.fmean(self.depths):.2f} "
            f"plies, {statistics.fmean(self.nodes):.0f} nodes, "
            f"{statistics.fmean(self.search_ms):.1f} ms CPU"
            if self.depths
            else "no search"
        )
        worst = max(self.cpu_ms, default=0.0)
        return (
            f"{self.name} decisions: {len(self.cpu_ms)} ({searches}); CPU a decision at most "
            f"{worst:.1f} ms, over {OVER * budget:g} ms: {over}"
        )
