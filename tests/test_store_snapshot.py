"""Snapshots and setups survive the trip through JSON exactly, at every point of a game."""

from __future__ import annotations

import json
import random

from vahalite_bot.app import autoplay
from vahalite_bot.codex.loader import all_sheets, demo_factions
from vahalite_bot.rules.dice import FairDice
from vahalite_bot.rules.engine import apply
from vahalite_bot.rules.roster import field_units
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.rules.state import Phase
from vahalite_bot.selfplay.players import RandomPlayer
from vahalite_bot.store.snapshot import (
    Setup,
    decode_setup,
    decode_state,
    encode_setup,
    encode_state,
    play_began,
    turn_key,
)


def standard_setup() -> Setup:
    sheets = all_sheets(demo_factions())
    rosters = autoplay.standard_armies()
    south = tuple(field_units(rosters[Side.SOUTH], sheets))
    north = tuple(field_units(rosters[Side.NORTH], sheets, [h for h, _ in south]))
    return Setup(STANDARD, rosters, {Side.SOUTH: south, Side.NORTH: north})


def through_json(data: object) -> object:
    return json.loads(json.dumps(data))


def test_setup_round_trip_keeps_sheets_by_value() -> None:
    setup = standard_setup()
    back = decode_setup(through_json(encode_setup(setup)))  # type: ignore[arg-type]
    assert back == setup
    assert back.initial_state() == setup.initial_state()
    # Weapons, options applied, transports: a sheet is compared field by field.
    assert back.sheets["rhi1"].capacity > 0
    assert back.sheets["rhi1"] == setup.sheets["rhi1"]


def test_state_round_trip_at_every_step_of_random_games() -> None:
    """Setup, play, pending decisions (H5, E10), the end: every state encodes exactly."""
    setup = standard_setup()
    seen_phases = set()
    for seed in range(3):
        state = setup.initial_state()
        rng, dice, player = random.Random(seed), FairDice(bytes([seed]) * 32), RandomPlayer()
        while True:
            back = decode_state(through_json(encode_state(state)), setup)  # type: ignore[arg-type]
            assert back == state
            assert turn_key(back) == turn_key(state)
            seen_phases.add(state.phase)
            if state.phase is Phase.ENDED:
                break
            state, _ = apply(state, player.choose(state, rng), dice)
    assert seen_phases == set(Phase)


def test_snapshot_leaves_out_sheets_and_scenario() -> None:
    """The sheets live once in the setup: a snapshot stays a fraction of its size."""
    setup = standard_setup()
    data = json.dumps(encode_state(setup.initial_state()))
    assert "weapons" not in data
    assert "half_rows" not in data
    assert len(data) < len(json.dumps(encode_setup(setup))) / 2


def test_snapshot_leaves_out_the_states_caches_and_reads_those_that_kept_them() -> None:
    """The sight-blocking and terrain-pieces caches repeat the terrain: a state that has
    filled them encodes as one that has not, and a snapshot stored with them still decodes."""
    setup = standard_setup()
    state = setup.initial_state()
    fresh = encode_state(state)
    state.blocking_cells(), state.pieces_left(Side.SOUTH)
    filled = encode_state(state)
    assert filled == fresh
    old = dict(filled, _blocking=[[], []], _pieces=[[], {}])
    assert decode_state(through_json(old), setup) == state  # type: ignore[arg-type]


def test_turn_key_changes_with_the_turn_only() -> None:
    setup = standard_setup()
    state = setup.initial_state()
    assert turn_key(state) == "roll_off:-"
    state.phase, state.round, state.active = Phase.PLAYING, 2, Side.NORTH
    assert turn_key(state) == "playing:2:north"
    state.units["cap1"].moved = True
    assert turn_key(state) == "playing:2:north"
    state.active = Side.SOUTH
    assert turn_key(state) == "playing:2:south"
    state.phase = Phase.ENDED
    assert turn_key(state) == "ended"


def test_play_began_is_the_first_turns_snapshot_with_a_setup_step_before_it() -> None:
    newest_first = [
        (40, "playing:2:south"),
        (31, "playing:1:north"),
        (17, "playing:1:south"),
        (16, "deployment:north"),
        (9, "sp:south"),
    ]
    assert play_began(newest_first) == 17
    assert play_began(newest_first[:3]) == 0  # its setup step is further back than those read
    assert play_began(newest_first[3:]) == 0  # play has not begun
    assert play_began([]) == 0
