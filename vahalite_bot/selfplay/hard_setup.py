"""The search player's setup (B3 terrain, B5 deployment) when it moves second.

Between two greedy players the side that takes the first turn wins about nine games in ten:
the first mover walks into reach and fires first, and the losses (models, E7 dice, G1 tests)
compound every round. The side that deploys second (the roll-off's loser, so the second
mover) sees the whole enemy deployment, so it can stand where the enemy's first turn cannot
reach: the greedy first mover then walks toward it with nothing to fire at, and the second
mover fires first after all.

Each unit the greedy player would deploy next goes to the cell of its zone that the enemy's
first turn threatens least (every enemy unit's best attack from any cell it can move to,
by the exact odds, cover included); among equally safe cells the greedy player's order
decides (to the front, transports first). The terrain it places second is laid out for the
same plan (``place_terrain``). Moving first, it sets up as the greedy player does.
"""

from __future__ import annotations

import random

from vahalite_bot.rules.actions import Action, Deploy, PlaceTerrain
from vahalite_bot.rules.geometry import Cell, distance
from vahalite_bot.rules.movement import reachable
from vahalite_bot.rules.queries import is_legal
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.sheets import WeaponKind
from vahalite_bot.rules.state import GameState, Phase, UnitState
from vahalite_bot.selfplay.evaluation import Evaluator
from vahalite_bot.selfplay.greedy import TERRAIN_ORDER, GreedyPlayer
from vahalite_bot.selfplay.players import first_legal, setup_candidates


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
    candidates.sort(key=lambda a: _terrain_rank(state, side, a))
    return first_legal(state, candidates)


def _terrain_rank(state: GameState, side: Side, action: PlaceTerrain) -> tuple[int, ...]:
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
