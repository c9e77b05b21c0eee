"""The easy player, for newcomers: the greedy player's plan with lapses.

In the turn it often (``LAPSE``: one action in two) plays any legal move or attack instead
of the greedy choice, as a beginner forgets a unit or shoots at the wrong target; setup and
the decisions asked in the middle of a turn stay greedy, so its army takes the field
sensibly. Against the normal player it loses about four games in five.
"""

from __future__ import annotations

import random

from vahalite_bot.rules.actions import Action, EndTurn
from vahalite_bot.rules.queries import legal_actions
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.selfplay.greedy import GreedyPlayer

LAPSE = 0.5


class EasyPlayer:
    name = "easy"

    def __init__(self) -> None:
        self._greedy = GreedyPlayer()

    def choose(self, state: GameState, rng: random.Random) -> Action:
        if state.phase is Phase.PLAYING and not state.pending and rng.random() < LAPSE:
            # Ending the turn at random would lose the whole turn: a lapse is a wrong
            # action, not a skipped one.
            actions = [a for a in legal_actions(state) if not isinstance(a, EndTurn)]
            if actions:
                return rng.choice(actions)
        return self._greedy.choose(state, rng)
