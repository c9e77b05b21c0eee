"""The replay: a game's log as an animated GIF, and a still of a chosen moment."""

from __future__ import annotations

import io
import itertools
from functools import cache

import pytest
from PIL import Image, ImageChops, ImageSequence

from benchmarks.render import Game, random_game
from vahalite_bot.render import DEFAULT_THEME, render_board
from vahalite_bot.render.base import board_key, layers_kept
from vahalite_bot.render.board import draw_board
from vahalite_bot.render.palette import quantize
from vahalite_bot.render.replay import (
    MomentNotFound,
    Timing,
    find_moment,
    render_moment,
    render_replay,
    replay_palette,
    steps,
)
from vahalite_bot.rules.engine import replay
from vahalite_bot.rules.events import TurnEnded
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase

SIZE = 320  # small frames keep the test quick; the layout scales


@cache
def game() -> Game:
    """A random game (the benchmark's generator) that gets into round 2."""
    return random_game(seed=3, max_actions=80)


def test_K1_steps_replay_the_log_like_the_engine() -> None:
    g = game()
    log = list(steps(g.initial, g.actions, g.dice()))
    final, events = replay(g.initial, g.actions, g.dice())
    assert len(log) == len(g.actions)
    assert log[-1].after == final
    assert [e for step in log for e in step.events] == events
    assert all(a.after is b.before for a, b in itertools.pairwise(log))


def test_replay_is_a_gif_with_a_frame_per_action_and_holds_at_turn_ends() -> None:
    g = game()
    timing = Timing(action=400, setup=200, turn_end=1300, final=4000)
    data = render_replay(g.initial, g.actions, g.dice(), size=SIZE, timing=timing)
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF"
    assert gif.info["loop"] == 0
    assert (
        getattr(gif, "n_frames", 1) == len(g.actions) + 2
    )  # the initial state, each action, the result
    durations = [frame.info["duration"] for frame in ImageSequence.Iterator(gif)]
    log = list(steps(g.initial, g.actions, g.dice()))
    expected = [timing.setup]
    for step in log:
        if any(isinstance(e, TurnEnded) for e in step.events):
            expected.append(timing.turn_end)
        elif step.before.phase is Phase.PLAYING:
            expected.append(timing.action)
        else:
            expected.append(timing.setup)
    assert durations == [*expected, timing.final]
    assert timing.turn_end in durations and timing.action in durations


def test_replay_frames_show_each_state_exactly() -> None:
    """Frames keep only what changed; decoded, each is the board after its action."""
    g = game()
    actions = g.actions[:45]
    data = render_replay(g.initial, actions, g.dice(), size=SIZE)
    log = list(steps(g.initial, actions, g.dice()))
    palette = replay_palette(DEFAULT_THEME)
    frames = [
        frame.convert("RGB") for frame in ImageSequence.Iterator(Image.open(io.BytesIO(data)))
    ]
    expected = {0: draw_board(g.initial, size=SIZE)}
    for index in (1, 20, 44, 45):
        step = log[index - 1]
        expected[index] = draw_board(step.after, events=step.events, before=step.before, size=SIZE)
    for index, drawn in expected.items():
        shown = quantize(drawn, palette).convert("RGB")
        assert ImageChops.difference(frames[index], shown).getbbox() is None, index


def test_every_frame_of_a_replay_is_its_board_drawn_alone() -> None:
    """Every decoded frame, through the terrain's placement (a new layer each action), the
    SPs, deployment and play, is its board drawn on its own and quantized: a frame drawn on
    a layer kept from another board, or a pixel wrongly left as the frame before, shows."""
    g = game()
    log = list(steps(g.initial, g.actions, g.dice()))
    terrains = {board_key(step.after, SIZE, "ru", DEFAULT_THEME).terrain for step in log}
    assert len(terrains) > 5  # the terrain is laid during the replay
    data = render_replay(g.initial, g.actions, g.dice(), size=SIZE)
    frames = [f.convert("RGB") for f in ImageSequence.Iterator(Image.open(io.BytesIO(data)))]
    drawn = [draw_board(g.initial, size=SIZE)]
    drawn += [draw_board(s.after, events=s.events, before=s.before, size=SIZE) for s in log]
    assert len(frames) == len(drawn) + 1  # and the result
    palette = replay_palette(DEFAULT_THEME)
    for index, (frame, board) in enumerate(zip(frames, drawn, strict=False)):
        shown = quantize(board, palette).convert("RGB")
        assert ImageChops.difference(frame, shown).getbbox() is None, index


def test_a_kept_layer_is_handed_out_as_a_copy_of_its_own_board() -> None:
    """Inside ``layers_kept`` each board is drawn as outside it, whatever was drawn on the
    layer handed out before and whichever board came before."""
    g = game()
    log = list(steps(g.initial, g.actions, g.dice()))
    states = [log[5].after, log[5].after, log[6].after, log[40].after, log[5].after]
    alone = [draw_board(state, size=SIZE).tobytes() for state in states]
    with layers_kept():
        kept = [draw_board(state, size=SIZE).tobytes() for state in states]
    assert kept == alone
    assert len(set(alone)) == 3


def test_replay_ends_on_the_final_score() -> None:
    g = game()
    data = render_replay(g.initial, g.actions[:50], g.dice(), size=SIZE)
    gif = Image.open(io.BytesIO(data))
    frames = getattr(gif, "n_frames", 1)
    gif.seek(frames - 2)
    last_action = gif.convert("RGB")
    gif.seek(frames - 1)
    result = gif.convert("RGB")
    assert ImageChops.difference(last_action, result).getbbox() is not None


def test_moment_is_the_board_after_that_players_turn() -> None:
    g = game()
    step = find_moment(g.initial, g.actions, g.dice(), round=1, after=Side.NORTH)
    ended = [e for e in step.events if isinstance(e, TurnEnded)]
    assert ended == [TurnEnded(1, Side.NORTH)]
    assert step.after.active is Side.SOUTH
    png = render_moment(g.initial, g.actions, g.dice(), round=1, after=Side.NORTH, size=SIZE)
    assert png == render_board(step.after, size=SIZE)


def test_a_moment_the_game_never_reached_is_refused() -> None:
    g = game()
    with pytest.raises(MomentNotFound):
        render_moment(g.initial, g.actions, g.dice(), round=6, after=Side.SOUTH, size=SIZE)


def test_replay_and_moment_at_twice_the_pixel_density() -> None:
    g = game()
    actions = g.actions[:12]
    one = Image.open(io.BytesIO(render_replay(g.initial, actions, g.dice(), size=SIZE)))
    two = Image.open(io.BytesIO(render_replay(g.initial, actions, g.dice(), size=SIZE, scale=2)))
    assert two.width == 2 * one.width
    assert getattr(two, "n_frames", 1) == getattr(one, "n_frames", 1)
    step = find_moment(g.initial, g.actions, g.dice(), round=1, after=Side.NORTH)
    png = render_moment(
        g.initial, g.actions, g.dice(), round=1, after=Side.NORTH, size=SIZE, scale=2
    )
    assert png == render_board(step.after, size=SIZE, scale=2)
    assert Image.open(io.BytesIO(png)).width == 2 * SIZE
