"""The search player's setup: moving second it deploys out of the enemy's reach and lays its
terrain out for that; moving first it sets up as the greedy player does."""

from __future__ import annotations

import random
from itertools import product

from vahalite_bot.codex.loader import codex_factions
from vahalite_bot.rules.actions import Action, Deploy, PlaceTerrain
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.selfplay.game import GameRecord, game_seed, play_game
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.selfplay.hard import HardPlayer
from vahalite_bot.selfplay.hard_setup import exposures

S, N = Side.SOUTH, Side.NORTH
FACTIONS = codex_factions()
PAIRS = list(product(sorted(FACTIONS), repeat=2))


class Watched(HardPlayer):
    """The hard player, remembering each setup state it answered and its answer."""

    def __init__(self) -> None:
        super().__init__(node_limit=40)
        self.setup: list[tuple[GameState, Action]] = []

    def choose(self, state: GameState, rng: random.Random) -> Action:
        action = super().choose(state, rng)
        if state.phase in (Phase.TERRAIN, Phase.SP, Phase.DEPLOYMENT) and not state.pending:
            self.setup.append((state, action))
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


def test_moving_second_it_deploys_no_more_exposed_than_the_greedy_player() -> None:
    greedy = GreedyPlayer()
    safer = 0
    for hard, _ in games(hard_first=False, wanted=3):
        deploys = [(s, a) for s, a in hard.setup if isinstance(a, Deploy)]
        assert deploys
        for state, action in deploys:
            usual = greedy.choose(state, random.Random(0))
            assert isinstance(usual, Deploy) and usual.unit == action.unit
            if state.unit_at(action.cell) is not None:
                assert action == usual  # boarding the transport greedy placed
                continue
            mine, theirs = exposures(state, hard.evaluator, action.unit, [action.cell, usual.cell])
            assert mine <= theirs
            safer += mine < theirs
    assert safer > 0, "it never stood anywhere safer than the greedy player would"


def test_moving_second_its_heights_stand_at_the_back_and_its_covers_in_front() -> None:
    for hard, record in games(hard_first=False, wanted=2):
        placed = [a for _, a in hard.setup if isinstance(a, PlaceTerrain)]
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
