"""The search player (``hard``): expectimax over the turn under way, dice as chance nodes.

Why expectimax and not Monte Carlo tree search: the engine knows the exact distribution of
every attack's damage (``combat.distribution_of``), an attack has at most a handful of
distinct outcomes, and a rollout of a whole reply turn costs several milliseconds in Python
— at 50 ms a decision MCTS would average a few noisy rollouts where expectimax weighs every
damage outcome exactly. The search's depth goes into the turn under way: the order of
moves and attacks, which unit attacks what, advance or stay. The opponent's reply can enter
through the evaluation (``Weights.next``: its best attacks from where its units can move,
by the same exact odds), but self-play against the greedy player found every such weight
made the search shy of the fight and worse, so it is off (docs/opponent.md).

Pruning: each unit's destinations are ranked by a cheap look at the spot (what it can
attack from there, an SP under it, how far from the action) and only the best few kept;
the search deepens iteratively and, past the first ply, follows only the best root actions;
the greedy choice stands unless the search sees a clear gain (``MARGIN``) at least two
plies deep or over the whole rest of the turn (``OVERRULE_DEPTH``). The budget
(``budget_ms``) is checked before every node (``Pace``); the deepest completed iteration
decides.
With a node limit instead of a clock the choice is a pure function of the state and the
seed drawn from the game's generator.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from vahalite_bot.rules import combat
from vahalite_bot.rules.actions import Action, Attack, Charge, EndTurn, Move
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.movement import reachable
from vahalite_bot.rules.queries import legal_actions
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, PendingAdvance, PendingPlacement, Phase
from vahalite_bot.selfplay.chance import outcomes
from vahalite_bot.selfplay.evaluation import Evaluator, Weights
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.selfplay.greedy_fallback import as_fall_back
from vahalite_bot.selfplay.hard_setup import deploy_by_simulation
from vahalite_bot.selfplay.hard_terrain import place_by_simulation
from vahalite_bot.selfplay.pace import Pace

DEFAULT_BUDGET_MS = 50.0
DESTINATIONS_PER_UNIT = 3  # the spots per unit the search looks at
INNER_DESTINATIONS = 1  # ... and past the first ply
BEAM = 4  # root actions followed past the first ply
DRAWS = 3  # determinized draws of the dice no exact distribution covers
MAX_DEPTH = 6
# HP of damage the search must see to overrule the greedy choice: at 1 HP its overrulings
# lost games off the standard board (docs/opponent.md, "The search's own turns").
MARGIN = 2.0
# The ply the search must have completed to overrule the greedy choice, unless the turn's
# tree ended sooner: one ply is only the evaluation's guess against the greedy player's, and
# on big-battle (8 x 8, a search of 1-1.7 plies at 50 ms) its one-ply overrulings lost games.
OVERRULE_DEPTH = 2
SAFETY = 0.95  # the search ends by this far into the budget (see ``Budget``)


class OutOfBudget(Exception):
    pass


@dataclass
class Considered:
    """One root action and what the search expects of it (for hints and explanations)."""

    action: Action
    value: float
    depth: int


@dataclass
class Search:
    me: Side
    seed: int
    evaluator: Evaluator
    over: Callable[[], bool]
    # The round and the side on turn where the search started: a state past them is
    # judged as the end of this turn, whoever M4's initiative gives the next one to.
    turn: tuple[int, Side | None]
    nodes: int = 0
    node_limit: int | None = None

    def tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None:
            if self.nodes > self.node_limit:
                raise OutOfBudget
        elif self.over():
            raise OutOfBudget

    def action_value(self, state: GameState, action: Action, depth: int) -> float:
        samples = 1
        if isinstance(action, Charge) or (
            isinstance(action, Move) and state.has(HouseRule.OVERWATCH)
        ):
            samples = DRAWS  # M8's reach and blow, M7's fire at a unit ending a move near

        self.tick()  # before the engine makes the outcomes, which is the costly part
        total = 0.0
        ended = isinstance(action, EndTurn)  # M2's damage step may still be under way
        for outcome in outcomes(state, action, self.seed, samples):
            self.tick()
            total += outcome.probability * self.state_value(outcome.state, depth, ended)
        return total

    def state_value(self, state: GameState, depth: int, ended: bool = False) -> float:
        over = ended or (state.round, state.active) != self.turn
        if over or depth <= 0 or state.pending or state.phase is not Phase.PLAYING:
            return self.evaluator.value(state, self.me, turn_over=over)
        # The time is asked before each unit's spots: a first node of a deeper ply looks
        # at every unit's destinations, far longer a step than any of the ply before.
        found = candidates(
            state, self.me, self.evaluator, per_unit=INNER_DESTINATIONS, over=self.over
        )
        return max(self.action_value(state, a, depth - 1) for a in found)


class HardPlayer:
    name = "hard"

    def __init__(
        self,
        budget_ms: float = DEFAULT_BUDGET_MS,
        *,
        node_limit: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
        weights: Weights | None = None,
    ) -> None:
        self.budget_ms = budget_ms
        self.node_limit = node_limit
        self.clock = clock
        self.evaluator = Evaluator(weights)
        self.greedy = GreedyPlayer()
        self.last: list[Considered] = []
        self.last_depth = 0
        self.last_nodes = 0

    def choose(self, state: GameState, rng: random.Random) -> Action:
        with _collector_paused():
            return self._choose(state, rng)

    def _choose(self, state: GameState, rng: random.Random) -> Action:
        side = acting_side(state)
        seed = rng.getrandbits(32)
        self.last = []
        if state.phase is Phase.DEPLOYMENT and side is not None and not state.pending:
            return deploy_by_simulation(
                state, side, self.evaluator, self.greedy, seed, self._left()
            )
        if state.phase in (Phase.TERRAIN, Phase.SP) and side is not None and not state.pending:
            return place_by_simulation(state, side, self.evaluator, self.greedy, seed, self._left())
        if side is None or state.phase is not Phase.PLAYING:
            return self.greedy.choose(state, rng)
        if state.pending:
            pending = state.pending[0]
            if isinstance(pending, PendingAdvance | PendingPlacement):
                return self._one_ply(state, side, seed)
            return self.greedy.choose(state, rng)
        return self.rank(state, side, seed)[0].action

    def _left(self) -> Callable[[], float]:
        """The seconds left of this decision's budget (unlimited with a node limit: the
        choice is then a pure function of the state and the seed)."""
        if self.node_limit is not None:
            return lambda: float("inf")
        deadline = self.clock() + SAFETY * self.budget_ms / 1000
        return lambda: deadline - self.clock()

    def rank(self, state: GameState, side: Side, seed: int) -> list[Considered]:
        """The root actions, best first, as deep as the budget allowed (hints ask it
        directly)."""
        with _collector_paused():
            return self._rank(state, side, seed)

    def _rank(self, state: GameState, side: Side, seed: int) -> list[Considered]:
        pace = Pace(self._left())
        turn = (state.round, state.active)
        search = Search(side, seed, self.evaluator, lambda: not pace.fits(), turn)
        # With a node limit the pace has no clock (``_left``): a pure function of the state
        # and the seed.
        search.node_limit = self.node_limit
        roots = candidates(state, side, self.evaluator, self.greedy, over=search.over)
        done: list[Considered] = [Considered(a, 0.0, 0) for a in roots]
        if len(roots) > 1:
            done = self._deepen(state, roots, search, done)
        self.last, self.last_depth, self.last_nodes = done, done[0].depth, search.nodes
        return done

    def _deepen(
        self,
        state: GameState,
        roots: list[Action],
        search: Search,
        done: list[Considered],
    ) -> list[Considered]:
        """Iterative deepening; past the first ply only the best ``BEAM`` roots are searched
        deeper, the others keep their place behind them.

        The greedy choice (``roots[0]``) stays the answer unless, at the deepest ply where
        both were searched, the best action beats it by ``MARGIN``: the evaluation is a
        guess, and a guess that barely differs is more often noise than insight. Nor on a
        look of fewer than ``OVERRULE_DEPTH`` plies that the budget cut short: one ply is
        the evaluation's greedy choice set against the greedy player's own."""
        prior = roots[0]
        gap = 0.0
        seen = 0  # the deepest ply completed
        exhausted = False  # ... and whether the turn's tree ended there
        for depth in range(1, MAX_DEPTH + 1):
            followed = done if depth == 1 else done[:BEAM]
            try:
                values = [
                    Considered(c.action, search.action_value(state, c.action, depth - 1), depth)
                    for c in followed
                ]
            except OutOfBudget:
                break
            # Stable: equal values keep the previous order (the greedy choice first).
            values.sort(key=lambda c: -c.value)
            done = values + done[len(followed) :]
            kept = next((c for c in values if c.action == prior), None)
            if kept is not None:
                gap = values[0].value - kept.value
            seen = depth
            if not _deepens(state, search.me):
                exhausted = True
                break
        if gap < MARGIN or (seen < OVERRULE_DEPTH and not exhausted):
            done.sort(key=lambda c: c.action != prior)  # stable: the rest keep their order
        return done

    def _one_ply(self, state: GameState, side: Side, seed: int) -> Action:
        """E10's advance or a passenger's cell: whichever the evaluation prefers."""
        search = Search(side, seed, self.evaluator, lambda: False, (state.round, state.active))
        options = legal_actions(state)
        return max(options, key=lambda a: search.action_value(state, a, 0))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic collection inside a decision: a decision's garbage is freed by reference
    counting, and a collection walks the whole process (a full one takes 10-60 ms of CPU in
    a self-play process), which is the process's housekeeping, not the decision's.

    Pausing alone is not enough: the collector counts the objects made while it is off, and
    switched back on it would collect at the decision's very end whenever the count had
    passed its threshold, cascading into a full collection about once in a thousand
    decisions (each of those went 20-170 ms past a 50 ms budget). So the decision ends
    with a collection of the young generation only, which never cascades (a tenth of a
    millisecond), and the collector's next pass, full or not, falls between decisions."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.collect(0)
            gc.enable()


def _deepens(state: GameState, me: Side) -> bool:
    """Is there anything after the root action that the search could choose?"""
    return any(not u.attacked for u in state.living(me))


# -- candidates -------------------------------------------------------------------------
def candidates(
    state: GameState,
    side: Side,
    evaluator: Evaluator,
    greedy: GreedyPlayer | None = None,
    per_unit: int = DESTINATIONS_PER_UNIT,
    over: Callable[[], bool] = lambda: False,
) -> list[Action]:
    """The actions worth searching now: the greedy choice first, the best few destinations
    of every unit that may move, every attack, ending the turn. A charge (M8) is searched
    only when it is the greedy choice, which weighs charges by their exact odds
    (``charge_odds``): the search can only draw a charge's dice, and the best of several
    lucky draws would look better than it is."""
    found: list[Action] = []
    if greedy is not None:
        found.append(greedy.choose(state, random.Random(0)))
    if not state.attack_step:
        found.extend(_moves(state, side, evaluator, per_unit, over))
    for unit in state.living(side):
        for option in combat.attack_options(state, unit):
            if not state.units[option.target].falling:
                found.append(Attack(side, unit.id, option.target, option.weapons, option.melee))
    found.append(EndTurn(side))
    return list(dict.fromkeys(found))


def _moves(
    state: GameState, side: Side, evaluator: Evaluator, per_unit: int, over: Callable[[], bool]
) -> list[Action]:
    """Every unit's best ``per_unit`` destinations by the evaluator's quick look (the units
    looked at before the time is ``over``)."""
    moves: list[Action] = []
    trial = state.copy()  # each unit stands on each spot of it in turn (cover, height)
    for unit in state.living(side):
        if unit.moved or state.position(unit) is None:
            continue
        if over():
            break
        ghost = trial.units[unit.id]
        saved = ghost.cell, ghost.embarked_in, ghost.moved, ghost.disembarked
        spots = []
        for destination in reachable(state, unit).values():
            if destination.embarks_in is not None:
                continue  # embarking mid-game costs the passenger its next turn
            ghost.disembarked = ghost.disembarked or saved[1] is not None
            ghost.cell, ghost.embarked_in, ghost.moved = destination.cell, None, True
            spots.append((evaluator.spot(trial, ghost, destination.cell), destination.path))
            ghost.cell, ghost.embarked_in, ghost.moved, ghost.disembarked = saved
        spots.sort(key=lambda pair: -pair[0])
        for _, path in spots[:per_unit]:
            moves.append(as_fall_back(state, Move(side, unit.id, path)))
    return moves
