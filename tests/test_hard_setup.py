"""The search player's setup: moving second it deploys out of the enemy's reach and lays its
terrain out for that; moving first it sets up as the greedy player does."""

from __future__ import annotations

import random
from itertools import product

from vahalite_bot.codex.loader import codex_factions
from vahalite_bot.rules.actions import Action, Deploy, PlaceTerrain
from vahalite_bot.rules.engine import acting_side, apply
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.selfplay.chance import SampledDice
from vahalite_bot.selfplay.game import GameRecord, game_seed, play_game
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.selfplay.hard import HardPlayer
from vahalite_bot.selfplay.hard_setup import (
    _plan,
    _swapped,
    deploy,
    deploy_by_simulation,
    place_terrain,
    simulate,
)
from vahalite_bot.selfplay.pace import Pace

S, N = Side.SOUTH, Side.NORTH
FACTIONS = codex_factions()
PAIRS = list(product(sorted(FACTIONS), repeat=2))


class Watched(HardPlayer):
    """The hard player, remembering each setup state it answered and its answer."""

    def __init__(self) -> None:
        super().__init__(node_limit=40)
        self.setup: list[tuple[GameState, Action]] = []
        self.seeds: dict[int, int] = {}  # id of a deployment state -> the seed it drew

    def choose(self, state: GameState, rng: random.Random) -> Action:
        replay = random.Random()
        replay.setstate(rng.getstate())
        action = super().choose(state, rng)
        if state.phase in (Phase.TERRAIN, Phase.SP, Phase.DEPLOYMENT) and not state.pending:
            self.setup.append((state, action))
            self.seeds[id(state)] = replay.getrandbits(32)
        return action


def games(hard_first: bool, wanted: int) -> list[tuple[Watched, GameRecord]]:
    """The first ``wanted`` deals (hard plays South) in which hard moves first / second."""
    found = []
    for deal in range(40):
        hard = Watched()
        south, north = PAIRS[(deal * 7) % len(PAIRS)]
        record = play_game(
            {S: hard, N: GreedyPlayer()},
            game_seed(5, deal),
            deal,
            factions=FACTIONS,
            matchup={S: south, N: north},
        )
        if (record.final.first_player is S) == hard_first:
            found.append((hard, record))
        if len(found) == wanted:
            return found
    raise AssertionError("too few deals of that kind")


def test_moving_second_it_deploys_where_the_simulated_enemy_turn_hurts_least() -> None:
    """Each deployment's cell is worth, by the simulated first enemy turn and reply, at
    least as much as the safest cell's (which is always simulated), and the simulation
    changes some choices."""
    greedy = GreedyPlayer()
    changed = 0
    for hard, _ in games(hard_first=False, wanted=3):
        deploys = [(s, a) for s, a in hard.setup if isinstance(a, Deploy)]
        assert deploys
        for state, action in deploys:
            safest = deploy(state, S, hard.evaluator, greedy)
            assert isinstance(safest, Deploy) and safest.unit == action.unit
            if state.unit_at(action.cell) is not None:
                assert action == safest  # boarding the transport placed before
                continue
            plan = _plan(state, S, hard.evaluator, greedy, safest)
            assert plan is not None
            seed = hard.seeds[id(state)]
            ours = simulate(
                state, S, hard.evaluator, greedy, _swapped(plan, safest.cell, action.cell), seed
            )
            theirs = simulate(state, S, hard.evaluator, greedy, plan, seed)
            assert ours is not None and theirs is not None
            assert ours >= theirs
            changed += action != safest
    assert changed > 0, "the simulation never moved a unit off the safest cell"


def test_with_no_time_left_it_deploys_on_the_safest_cell() -> None:
    greedy = GreedyPlayer()
    hard, _ = games(hard_first=False, wanted=1)[0]
    for state, action in hard.setup:
        if isinstance(action, Deploy):
            hurried = deploy_by_simulation(state, S, hard.evaluator, greedy, 7, lambda: 0.0)
            assert hurried == deploy(state, S, hard.evaluator, greedy)


def test_a_simulation_starts_no_step_the_time_left_cannot_hold() -> None:
    """Each step of this clock costs 5 ms; with 12 ms left two steps fit and a third would
    end 3 ms past the budget, so the simulation stops (and counts for nothing) before it.
    A check against zero alone let one such step run over: the rare decisions 10-15 ms
    past the budget."""
    greedy = GreedyPlayer()
    hard, _ = games(hard_first=False, wanted=1)[0]
    state = next(s for s, a in hard.setup if isinstance(a, Deploy))
    plan = _plan(state, S, hard.evaluator, greedy, deploy(state, S, hard.evaluator, greedy))
    assert plan is not None and simulate(state, S, hard.evaluator, greedy, plan, 1) is not None
    read: list[float] = []

    def left() -> float:
        read.append((12 - 5 * len(read)) / 1000)
        return read[-1]

    assert simulate(state, S, hard.evaluator, greedy, plan, 1, Pace(left)) is None
    assert min(read) >= 0, read


def test_its_deployment_is_a_pure_function_of_the_state_and_the_seed() -> None:
    hard, _ = games(hard_first=False, wanted=1)[0]
    for state, action in hard.setup:
        if isinstance(action, Deploy):
            seed = hard.seeds[id(state)]
            again = deploy_by_simulation(state, S, HardPlayer().evaluator, GreedyPlayer(), seed)
            assert again == action


def test_moving_second_its_plan_puts_heights_at_the_back_and_covers_in_front() -> None:
    """The plan each piece's simulation starts from (``place_terrain``), followed alone."""
    greedy = GreedyPlayer()
    for hard, record in games(hard_first=False, wanted=2):
        state = next(s for s, a in hard.setup if isinstance(a, PlaceTerrain))
        placed = []
        while state.phase is Phase.TERRAIN and acting_side(state) is S:
            action = place_terrain(state, S, greedy)
            assert isinstance(action, PlaceTerrain)
            placed.append(action)
            state, _ = apply(state, action, SampledDice(0))
        assert len(placed) == 6
        lo, hi = record.final.scenario.deploy_rows[S]
        assert {a.cell.row for a in placed if a.kind is TerrainKind.HEIGHT} == {lo}
        assert {a.cell.row for a in placed if a.kind is TerrainKind.COVER} == {hi}
        assert {a.cell.row for a in placed if a.kind is TerrainKind.OBSTACLE} == {hi + 1}


def test_moving_first_it_sets_up_as_the_greedy_player() -> None:
    greedy = GreedyPlayer()
    for hard, _ in games(hard_first=True, wanted=2):
        assert len(hard.setup) > 10
        for state, action in hard.setup:
            assert acting_side(state) is S
            assert action == greedy.choose(state, random.Random(0))
