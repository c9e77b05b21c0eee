"""The second mover's terrain (B3) and SPs (B4), each piece tried out by simulation.

``hard_setup.place_terrain`` lays the second mover's terrain out by a fixed plan. Whatever
is placed, the rest of the setup is determined: the greedy enemy places its SPs and deploys
the same way every time, and the second mover deploys each unit on its safest cell
(``hard_setup.deploy``). So for each piece, the plan's cell and a few others for the same
kind are tried for real while the decision's budget lasts: the rest of the setup is played
out that way, then the enemy's first turn and a greedy reply, every attack at its expected
damage (``hard_setup.simulate``), and the cell whose outcome the evaluation likes best is
taken. The SPs the same way, starting from the greedy player's choice.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from vahalite_bot.rules import setup
from vahalite_bot.rules.actions import Action, PlaceSP, PlaceTerrain
from vahalite_bot.rules.engine import apply
from vahalite_bot.rules.errors import RulesError
from vahalite_bot.rules.queries import is_legal
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.selfplay.chance import SampledDice
from vahalite_bot.selfplay.evaluation import Evaluator
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.selfplay.hard_setup import (
    best_of,
    deploy,
    place_terrain,
    simulate,
    terrain_rank,
)
from vahalite_bot.selfplay.pace import Pace
from vahalite_bot.selfplay.players import setup_candidates

CANDIDATES = 6  # cells tried per piece: the plan's first, then the next by its ranking
SETUP_STEPS = 200  # setup actions of a play-out at most (a setup has a few dozen)


def place_by_simulation(
    state: GameState,
    side: Side,
    evaluator: Evaluator,
    greedy: GreedyPlayer,
    seed: int,
    left: Callable[[], float] = lambda: float("inf"),
) -> Action:
    """The piece (terrain or SP) to place now: the plan's, unless another cell for it plays
    out better. A play-out the budget cuts short counts for nothing; one starts only while
    one more fits."""
    planned = _planned(state, side, greedy)
    if state.first_player is not side.other or state.pending:
        return planned
    options = _alternatives(state, side, planned)[:CANDIDATES]
    pace = Pace(left)  # every step of every play-out
    best = best_of(
        options, lambda a: _play_out(state, side, evaluator, greedy, a, seed, pace), left
    )
    return planned if best is None else best


def _planned(state: GameState, side: Side, greedy: GreedyPlayer) -> Action:
    if state.phase is Phase.TERRAIN:
        return place_terrain(state, side, greedy)
    return greedy.choose(state, random.Random(0))


def _alternatives(state: GameState, side: Side, planned: Action) -> list[Action]:
    """``planned`` first, then the other legal cells for the same piece, the terrain in the
    plan's order, the SPs in the board's."""
    found: list[Action] = [planned]
    if isinstance(planned, PlaceTerrain):
        same = [
            a
            for a in setup_candidates(state)
            if isinstance(a, PlaceTerrain) and a.kind is planned.kind and a != planned
        ]
        same.sort(key=lambda a: terrain_rank(state, side, a))
        found += same
    elif isinstance(planned, PlaceSP):
        found += [a for a in setup_candidates(state) if isinstance(a, PlaceSP) and a != planned]
    kept = [planned]
    for action in found[1:]:
        if len(kept) >= 2 * CANDIDATES:
            break
        if is_legal(state, action):
            kept.append(action)
    return kept


def _play_out(
    state: GameState,
    side: Side,
    evaluator: Evaluator,
    greedy: GreedyPlayer,
    action: Action,
    seed: int,
    pace: Pace | None = None,
) -> float | None:
    """The evaluation after ``action``, the rest of the setup (``side`` by its plan and its
    safest cells, the enemy greedy) and the first round's two turns (None: out of time, or
    a step the engine refused)."""
    dice = SampledDice(seed)
    pace = pace or Pace.unlimited()
    try:
        trial, _ = apply(state, action, dice)
        for _ in range(SETUP_STEPS):
            if trial.phase not in setup.SETUP_PHASES or trial.pending:
                break
            if not pace.fits():
                return None
            actor = setup.setup_actor(trial)
            step: Action
            if actor is side and trial.phase is Phase.DEPLOYMENT:
                step = deploy(trial, side, evaluator, greedy)
            elif actor is side:
                step = _planned(trial, side, greedy)
            else:
                step = greedy.choose(trial, random.Random(0))
            trial, _ = apply(trial, step, dice)
    except RulesError:
        return None
    return simulate(trial, side, evaluator, greedy, [], seed, pace)
