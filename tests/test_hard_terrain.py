"""The search player's terrain and SPs when it moves second: each piece on the cell whose
played-out setup and first round the evaluation likes best, the plan's cell when time is
short; moving first, as the greedy player."""

from __future__ import annotations

import random

from tests.test_hard_setup import S, games
from vahalite_bot.rules.actions import PlaceSP, PlaceTerrain
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.selfplay.hard import HardPlayer
from vahalite_bot.selfplay.hard_setup import place_terrain
from vahalite_bot.selfplay.hard_terrain import _planned, _play_out, place_by_simulation


def test_moving_second_each_piece_plays_out_at_least_as_well_as_the_plan() -> None:
    greedy = GreedyPlayer()
    changed = {PlaceTerrain: 0, PlaceSP: 0}
    for hard, _ in games(hard_first=False, wanted=2):
        pieces = [(s, a) for s, a in hard.setup if isinstance(a, PlaceTerrain | PlaceSP)]
        assert len(pieces) == 9  # six terrain pieces (B3), three SPs (B4)
        for state, action in pieces:
            planned = _planned(state, S, greedy)
            assert type(planned) is type(action)
            seed = hard.seeds[id(state)]
            ours = _play_out(state, S, hard.evaluator, greedy, action, seed)
            theirs = _play_out(state, S, hard.evaluator, greedy, planned, seed)
            assert ours is not None and theirs is not None
            assert ours >= theirs
            changed[type(action)] += action != planned
    assert changed[PlaceTerrain] > 0, "the simulation never moved a terrain piece"
    assert changed[PlaceSP] > 0, "the simulation never moved an SP"


def test_with_no_time_left_it_places_the_plan() -> None:
    greedy = GreedyPlayer()
    hard, _ = games(hard_first=False, wanted=1)[0]
    for state, action in hard.setup:
        if isinstance(action, PlaceTerrain):
            hurried = place_by_simulation(state, S, hard.evaluator, greedy, 7, lambda: 0.0)
            assert hurried == place_terrain(state, S, greedy)
        elif isinstance(action, PlaceSP):
            hurried = place_by_simulation(state, S, hard.evaluator, greedy, 7, lambda: 0.0)
            assert hurried == greedy.choose(state, random.Random(0))


def test_moving_first_it_places_as_the_greedy_player() -> None:
    greedy = GreedyPlayer()
    hard, _ = games(hard_first=True, wanted=1)[0]
    pieces = [(s, a) for s, a in hard.setup if isinstance(a, PlaceTerrain | PlaceSP)]
    assert len(pieces) == 9
    for state, action in pieces:
        assert action == greedy.choose(state, random.Random(0))


def test_its_pieces_are_a_pure_function_of_the_state_and_the_seed() -> None:
    hard, _ = games(hard_first=False, wanted=1)[0]
    for state, action in hard.setup:
        if isinstance(action, PlaceTerrain | PlaceSP):
            seed = hard.seeds[id(state)]
            fresh = HardPlayer()
            again = place_by_simulation(state, S, fresh.evaluator, GreedyPlayer(), seed)
            assert again == action
