"""The search player's setup (B3 terrain, B5 deployment) when it moves second.

Between two greedy players the side that takes the first turn wins about nine games in ten:
the first mover walks into reach and fires first, and the losses (models, E7 dice, G1 tests)
compound every round. The side that deploys second (the roll-off's loser, so the second
mover) sees the whole enemy deployment, so it can stand where the enemy's first turn cannot
reach: the greedy first mover then walks toward it with nothing to fire at, and the second
mover fires first after all.

Each unit the greedy player would deploy next first gets the cell of its zone that the
enemy's first turn threatens least (every enemy unit's best attack from any cell it can move
to, by the exact odds, cover included; ``deploy``). Then, as the budget allows, the safest
few cells are tried for real (``deploy_by_simulation``): the greedy enemy is deterministic,
so its first turn and a greedy reply are played out on the engine, every attack at its
expected damage, and the cell whose outcome the evaluation likes best is taken. The terrain
it places second is laid out for the same plan (``place_terrain``), each piece and SP then
tried on other cells the same way (``hard_terrain``). Moving first, it sets up as the
greedy player does.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import TypeVar

from vahalite_bot.rules import combat
from vahalite_bot.rules.actions import Action, Attack, Deploy, PlaceTerrain
from vahalite_bot.rules.engine import acting_side, apply
from vahalite_bot.rules.errors import RulesError
from vahalite_bot.rules.geometry import Cell, distance
from vahalite_bot.rules.movement import reachable
from vahalite_bot.rules.queries import is_legal
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.sheets import WeaponKind
from vahalite_bot.rules.state import GameState, Phase, UnitState
from vahalite_bot.selfplay.chance import SampledDice, ScriptedAttackDice, distribution
from vahalite_bot.selfplay.evaluation import Evaluator
from vahalite_bot.selfplay.greedy import TERRAIN_ORDER, GreedyPlayer
from vahalite_bot.selfplay.pace import Pace
from vahalite_bot.selfplay.players import first_legal, setup_candidates

T = TypeVar("T")


def deploy(state: GameState, side: Side, evaluator: Evaluator, greedy: GreedyPlayer) -> Action:
    """The greedy player's next deployment, moved to the safest legal cell when the enemy
    has deployed and moves first."""
    chosen = greedy.choose(state, random.Random(0))
    if not isinstance(chosen, Deploy) or state.phase is not Phase.DEPLOYMENT:
        return chosen
    if state.first_player is not side.other:
        return chosen
    enemies = [u for u in state.living(side.other) if u.deployed and u.cell is not None]
    if not enemies:
        return chosen
    unit = state.units[chosen.unit]
    occupant = state.unit_at(chosen.cell)
    if occupant is not None and occupant.side is side:
        return chosen  # boarding its transport: the transport's cell was chosen already
    cells = [
        a.cell
        for a in setup_candidates(state)
        if isinstance(a, Deploy) and a.unit == unit.id and state.unit_at(a.cell) is None
    ]
    # Equally safe cells: the greedy player's choice first, then the board's order.
    ordered = [chosen.cell, *(c for c in cells if c != chosen.cell)]
    scored = [
        (threat, order, cell)
        for order, (cell, threat) in enumerate(
            zip(ordered, exposures(state, evaluator, unit.id, ordered), strict=True)
        )
    ]
    scored.sort()
    for _, _, cell in scored:
        action = Deploy(side, unit.id, cell)
        if cell == chosen.cell or is_legal(state, action):
            return action
    return chosen


def exposures(
    state: GameState, evaluator: Evaluator, unit_id: str, cells: list[Cell]
) -> list[float]:
    """For each cell, what the enemy's deployed units could do to the unit standing there
    in their next turn: the sum of each one's best attack on it (``_threat``)."""
    unit = state.units[unit_id]
    enemies = [u for u in state.living(unit.side.other) if u.deployed and u.cell is not None]
    reach = {e.id: _end_cells(state, e) for e in enemies}
    trial = state.copy()
    ghost = trial.units[unit_id]
    found = []
    for cell in cells:
        ghost.cell, ghost.deployed, ghost.embarked_in = cell, True, None
        found.append(sum(_threat(trial, evaluator, e, ghost, reach[e.id]) for e in enemies))
    return found


def _end_cells(state: GameState, unit: UnitState) -> list[Cell]:
    assert unit.cell is not None
    return [unit.cell, *reachable(state, unit)]


def _threat(
    state: GameState, evaluator: Evaluator, enemy: UnitState, target: UnitState, ends: list[Cell]
) -> float:
    """``enemy``'s best attack on ``target`` from any cell it can end its first move on
    (artillery only from where it stands: E2)."""
    assert target.cell is not None and enemy.cell is not None
    span = min(distance(c, target.cell) for c in ends)
    best = evaluator.attack(state, enemy, target, span, 0)
    if any(w.kind is WeaponKind.ARTILLERY for w in enemy.weapons):
        best = max(
            best, evaluator.attack(state, enemy, target, distance(enemy.cell, target.cell), 0)
        )
    return best


def place_terrain(state: GameState, side: Side, greedy: GreedyPlayer) -> Action:
    """B3 for the second mover: the Covers in the front row of its deployment zone (its
    infantry deploys in cover), the Heights in the back row (shooters on them reach one cell
    farther than the enemy walking in, out of the reach of the enemy's first turn), the
    Obstacle and the Water just in front of the zone, in the middle, where they block the
    enemy's way and sight. Self-play chose these places (docs/opponent.md)."""
    if state.first_player is not side.other:
        return greedy.choose(state, random.Random(0))
    candidates: list[PlaceTerrain] = [
        a for a in setup_candidates(state) if isinstance(a, PlaceTerrain)
    ]
    candidates.sort(key=lambda a: terrain_rank(state, side, a))
    return first_legal(state, candidates)


def terrain_rank(state: GameState, side: Side, action: PlaceTerrain) -> tuple[int, ...]:
    cell = action.cell
    lo, hi = state.scenario.deploy_rows[side]
    front = hi if side is Side.SOUTH else lo  # the zone's row nearest the enemy
    ahead = front + (1 if side is Side.SOUTH else -1)
    kind_order = TERRAIN_ORDER.index(action.kind)
    off = abs(2 * cell.col - (state.scenario.width - 1))
    back = lo if side is Side.SOUTH else hi
    if action.kind is TerrainKind.HEIGHT:
        return (kind_order, abs(cell.row - back), off)
    if action.kind is TerrainKind.COVER:
        return (kind_order, abs(cell.row - front), off)
    return (kind_order, abs(cell.row - ahead), off)


# -- deployment by simulating the enemy's first turn --------------------------------------
SIMULATED_CELLS = 12  # the cells per unit whose enemy turn is simulated, safest first
TURNS = 2  # the turns simulated: the enemy's first, ``side``'s reply (3 did no better)
SIMULATION_STEPS = 80  # actions of the simulated turn at most (a turn has about a dozen)


def deploy_by_simulation(
    state: GameState,
    side: Side,
    evaluator: Evaluator,
    greedy: GreedyPlayer,
    seed: int,
    left: Callable[[], float] = lambda: float("inf"),
) -> Action:
    """The unit the greedy player would deploy next, on the cell whose simulated first
    round leaves ``side`` best off.

    The greedy first mover is deterministic: given the board it walks and fires the same way
    every time. So for the safest cells (``exposures``), safest first, the rest of the
    deployment is laid out as ``deploy`` would (swapping cells with the unit planned on the
    candidate), the enemy's first turn and ``side``'s reply are played by the greedy player
    with every attack's damage at its expected value (``TURNS``), and the evaluation judges
    the board after them. Judging it at the start of the reply instead won fewer games
    (docs/opponent.md): what counts is what the units can still hit back with.
    ``left`` tells the seconds of the budget left: a plan or simulation it cuts short
    counts for nothing, a simulation starts only while one more fits, and with none done the
    safest cell stands."""
    chosen = deploy(state, side, evaluator, greedy)
    if not isinstance(chosen, Deploy) or state.first_player is not side.other:
        return chosen
    occupant = state.unit_at(chosen.cell)
    if occupant is not None:
        return chosen  # boarding a transport: where the transport stands was decided
    pace = Pace(left)  # every step of the plan and the simulations
    plan = _plan(state, side, evaluator, greedy, chosen, pace)
    if plan is None:
        return chosen
    unit = state.units[chosen.unit]
    cells = [
        a.cell
        for a in setup_candidates(state)
        if isinstance(a, Deploy) and a.unit == unit.id and state.unit_at(a.cell) is None
    ]
    ordered = [chosen.cell, *(c for c in cells if c != chosen.cell)]
    threats = exposures(state, evaluator, unit.id, ordered)
    ranked = [c for _, _, c in sorted(zip(threats, range(len(ordered)), ordered, strict=True))]

    def judge(cell: Cell) -> float | None:
        trial = _swapped(plan, chosen.cell, cell)
        return simulate(state, side, evaluator, greedy, trial, seed, pace)

    best = best_of(ranked[:SIMULATED_CELLS], judge, left)
    return chosen if best is None else Deploy(side, unit.id, best)


def best_of(
    options: Iterable[T], judge: Callable[[T], float | None], left: Callable[[], float]
) -> T | None:
    """The option ``judge`` values most (the first of equals), judging them in turn while
    one more judgement fits in the time ``left``, by the longest yet; None: none judged (a
    judgement of None, cut short or refused, counts for nothing)."""
    best: tuple[float, T] | None = None
    judgements = Pace(left)
    for option in options:
        if not judgements.fits():
            break
        value = judge(option)
        if value is not None and (best is None or value > best[0] + 1e-9):
            best = (value, option)
    return None if best is None else best[1]


def _plan(
    state: GameState,
    side: Side,
    evaluator: Evaluator,
    greedy: GreedyPlayer,
    first: Deploy,
    pace: Pace | None = None,
) -> list[Action] | None:
    """``side``'s deployment from ``first`` on, as ``deploy`` would lay it out (None: out
    of time)."""
    plan: list[Action] = [first]
    trial = state
    dice = SampledDice(0)
    pace = pace or Pace.unlimited()  # on a big board one step takes much of the budget
    try:
        trial, _ = apply(trial, first, dice)
        while trial.phase is Phase.DEPLOYMENT and acting_side(trial) is side:
            if trial.pending:
                break
            if not pace.fits():
                return None
            action = deploy(trial, side, evaluator, greedy)
            plan.append(action)
            trial, _ = apply(trial, action, dice)
    except RulesError:
        return None
    return plan


def _swapped(plan: list[Action], old: Cell, new: Cell) -> list[Action]:
    """The plan with the cells ``old`` and ``new`` exchanged (a passenger follows its
    transport, the unit planned on ``new`` takes ``old``)."""
    swap = {old: new, new: old}
    return [
        Deploy(a.side, a.unit, swap.get(a.cell, a.cell)) if isinstance(a, Deploy) else a
        for a in plan
    ]


def simulate(
    state: GameState,
    side: Side,
    evaluator: Evaluator,
    greedy: GreedyPlayer,
    plan: list[Action],
    seed: int,
    pace: Pace | None = None,
) -> float | None:
    """The evaluation for ``side`` after deploying by ``plan`` and the first ``TURNS`` turns
    played by the greedy player (None: the plan is not legal, or the time ran out)."""
    dice = SampledDice(seed)
    trial = state
    pace = pace or Pace.unlimited()  # a greedy step of a turn can take milliseconds
    try:
        for action in plan:
            trial, _ = apply(trial, action, dice)
        for _ in range(SIMULATION_STEPS):
            if not pace.fits():
                return None
            if trial.phase is Phase.ENDED:
                break
            if trial.phase is Phase.PLAYING and not trial.pending:
                turn = 2 * (trial.round - 1) + (trial.active is side)
                if turn >= TURNS:
                    break
            action = greedy.choose(trial, random.Random(0))
            trial, _ = apply(trial, action, _typical_dice(trial, action, seed))
    except RulesError:
        return None
    return evaluator.value(trial, side)


def _typical_dice(state: GameState, action: Action, seed: int) -> SampledDice:
    """An attack's dice scripted to its expected damage, rounded; other dice drawn."""
    if not isinstance(action, Attack):
        return SampledDice(seed)
    unit, target = state.units[action.unit], state.units[action.target]
    weapons = combat.choose_weapons(state, unit, target, action.weapons, action.melee)
    dist = distribution(tuple(combat.dice_odds(state, unit, target, weapons)), target.hp)
    expected = sum(k * p for k, p in enumerate(dist))
    return ScriptedAttackDice(int(expected + 0.5), seed)
