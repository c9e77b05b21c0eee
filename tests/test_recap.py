"""Issue 11: the recap of everything since a player's last turn, as text and as one image;
issue 12's leftovers on the board image (the passenger waiting to be placed, "СП")."""

from __future__ import annotations

import io
import pickle
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

import benchmarks.render
from benchmarks.render import random_game
from tests.builders import Place, c, playing
from vahalite_bot.app.results import LogLine
from vahalite_bot.i18n import translate
from vahalite_bot.present.paint import plain
from vahalite_bot.present.recap import recap_text, since_last_turn, sp_changes, turn_events
from vahalite_bot.render import ReplayTooLarge, render_board, render_replay, render_turn
from vahalite_bot.render.base import board_key, layout_of
from vahalite_bot.render.board import DEFAULT_SIZE, draw_board, draw_story
from vahalite_bot.render.header import status_line
from vahalite_bot.render.labels import label
from vahalite_bot.render.story import Path as Trail
from vahalite_bot.render.story import Story, Strike, fates, read_story
from vahalite_bot.render.theme import DEFAULT_THEME
from vahalite_bot.render.tokens import token_spec, words_sprite
from vahalite_bot.render.turn import turn_caption
from vahalite_bot.rules.actions import Action, Advance, Attack, Charge, EndTurn, Move
from vahalite_bot.rules.dice import FixedDice
from vahalite_bot.rules.engine import apply
from vahalite_bot.rules.events import AttackResolved, SPCaptured, TurnEnded, UnitDestroyed
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState

S, N = Side.SOUTH, Side.NORTH


def north_turn() -> tuple[GameState, GameState, list[Any]]:
    """North's turn of round 2: the archon steps to C4, the warriors onto South's SP at D4,
    the archon cuts tac1 down on C3, and the turn's end takes the SP. (before, after, events)
    """
    state = playing(
        [
            Place("tac1", "tactical", S, "C3", hp=1),
            Place("cap1", "captain", S, "B2"),
            Place("war1", "warriors", N, "D5"),
            Place("arc1", "archon", N, "C5"),
        ],
        sps={"D4": S, "B2": S, "E5": N},
        active=N,
        round=2,
    )
    before, events = state, []
    actions: list[Action] = [
        Move(N, "arc1", (c("C4"),)),
        Move(N, "war1", (c("D4"),)),
        Attack(N, "arc1", "tac1"),
        Advance(N, "arc1", False),  # E10: it stays on C4
        EndTurn(N),
    ]
    for action in actions:
        state, done = apply(state, action, FixedDice([6] * 40))
        events.extend(done)
    return before, state, events


def test_the_turn_has_a_kill_and_a_capture() -> None:
    """The scene the other tests read: if the engine changed, they would prove nothing."""
    _, after, events = north_turn()
    assert [e.unit for e in events if isinstance(e, UnitDestroyed)] == ["tac1"]
    assert [(e.cell, e.side) for e in events if isinstance(e, SPCaptured)] == [(c("D4"), N)]
    assert after.active is S


def test_recap_text_names_the_kill_the_sp_and_the_vp_change() -> None:
    before, after, events = north_turn()
    lines = recap_text(before, after, events, "en", plain)
    assert lines[0] == translate("en", "console-recap-title")
    assert any("tac1" in line and "Tactical" in line for line in lines if "Destroyed" in line)
    assert "SP D4: South → North." in lines
    # South held B2 and D4 (2 × 2), North E5 (2); now North holds D4 too and killed tac1.
    assert lines[-1] == "VP: South 4 → 2, North 2 → 5."
    # The attack is told with its dice, as the narrator tells it.
    assert any("6 6" in line for line in lines)
    assert "arc1 stays at C4." in lines  # the E10 answer, without its question
    assert not any("advance" in line for line in lines)
    # North's turn is told, but not South's own turn starting after it (it is South reading).
    assert not any("South's turn" in line or "South to play" in line for line in lines)


def test_recap_text_in_russian_says_sp_in_russian() -> None:
    before, after, events = north_turn()
    lines = recap_text(before, after, events, "ru", plain)
    assert "СП D4: Юг → Север." in lines
    assert lines[-1] == "ПО: Юг 4 → 2, Север 2 → 5."


def test_sp_changes_compares_holders() -> None:
    before, after, _ = north_turn()
    assert sp_changes(before, after) == [("D4", S, N)]
    assert sp_changes(after, after) == []


def _line(seq: int, events: tuple[Any, ...], undone: bool = False) -> LogLine:
    when = datetime(2026, 1, 1, tzinfo=UTC)
    return LogLine(seq, "action", "u", "player", None, None, (), events, when, undone)


def test_turn_events_skips_old_and_undone_entries() -> None:
    a, b, d = TurnEnded(1, S), TurnEnded(1, N), TurnEnded(2, S)
    lines = [_line(1, (a,)), _line(2, (b,), undone=True), _line(3, (d,))]
    assert turn_events(lines, 0) == [a, d]
    assert turn_events(lines, 1) == [d]


def test_since_last_turn_starts_after_the_sides_own_turn_end() -> None:
    _, _, events = north_turn()
    south_end = TurnEnded(2, S)
    lines = [_line(1, (south_end,)), _line(2, tuple(events[:3])), _line(3, tuple(events[3:]))]
    assert since_last_turn(lines, S) == events
    # North's own turn ended in line 3: only what followed it (the next turn's start).
    assert since_last_turn(lines, N) == events[events.index(TurnEnded(2, N)) + 1 :]


def test_a_whole_turn_follows_each_unit_from_cell_to_cell() -> None:
    """The archon moved before it fired: the arrow starts at C4, not where the turn began."""
    before, after, events = north_turn()
    story = read_story(after, events, before)
    assert [(s.source, s.target) for s in story.strikes] == [(c("C4"), c("C3"))]
    assert [(f.unit.id, f.cell) for f in story.fallen] == [("tac1", c("C3"))]


def _image(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def test_turn_image_draws_trails_arrows_and_the_fallen_unit() -> None:
    before, after, events = north_turn()
    png = render_turn(before, after, events, lang="en")
    turn = _image(png)
    plain_board = _image(render_board(after, lang="en"))
    assert turn.size == plain_board.size
    # Under the board, the turn in a few words (its events one by one would not fit).
    assert turn_caption(before, after, events, read_story(after, events, before), {}, "en") == [
        "North's turn, round 2",
        "Destroyed: tac1",
        "SP D4: North",
        "VP 4:2 → 2:5",
    ]
    lay = layout_of(board_key(after, turn.width, "en", DEFAULT_THEME))
    # tac1 died on C3: the plain board shows the empty cell, the recap its faded token.
    box = lay.cell_box(c("C3"))
    assert ImageChops.difference(turn.crop(box), plain_board.crop(box)).getbbox() is not None
    # C5 is only where the archon's trail starts: empty on the plain board, marked here.
    start = lay.cell_box(c("C5"))
    assert ImageChops.difference(turn.crop(start), plain_board.crop(start)).getbbox() is not None
    # An untouched cell is the same in both.
    quiet = lay.cell_box(c("F1"))
    assert ImageChops.difference(turn.crop(quiet), plain_board.crop(quiet)).getbbox() is None


def test_turn_image_arguments_cross_to_a_worker_process() -> None:
    """The Discord bot renders in a worker process: the arguments are pickled there."""
    before, after, events = north_turn()
    copied = pickle.loads(pickle.dumps((before, after, events)))
    assert render_turn(*copied, lang="en") == render_turn(before, after, events, lang="en")


def test_several_attacks_on_one_unit_show_one_badge_with_their_sum() -> None:
    state = playing([Place("tac1", "tactical", S, "C3"), Place("cap1", "captain", S, "B3")])
    story = Story(
        strikes=[
            Strike(N, c("C4"), c("C3"), 2),
            Strike(N, c("D4"), c("C3"), 1),
            Strike(N, c("C4"), c("B3"), 0),
        ],
        wounds={"tac1": 3, "cap1": 0},
    )
    assert fates(state, story).damage == {c("C3"): 3, c("B3"): 0}


def test_turn_image_skips_the_services_own_events() -> None:
    before, after, events = north_turn()

    class Note:  # stands for a service record (app/records.py) in the log's events
        pass

    with_note = render_turn(before, after, [Note(), *events], lang="en")
    assert with_note == render_turn(before, after, events, lang="en")


def test_turn_image_at_twice_the_density() -> None:
    before, after, events = north_turn()
    single = _image(render_turn(before, after, events))
    double = _image(render_turn(before, after, events, scale=2))
    assert double.width == 2 * single.width


# -- issue 12: the passenger waiting to be placed ------------------------------------------
def wreck_in_souths_turn() -> GameState:
    """South's knives destroy the raider on C4; the warriors inside survive, and North must
    place them (three cells are free) during South's turn."""
    state = playing(
        [
            Place("tac1", "tactical", S, "C3"),
            Place("rai1", "raider", N, "C4", hp=1),
            Place("war1", "warriors", N, "rai1"),
            Place("arc1", "archon", N, "F6"),
        ],
        active=S,
    )
    after, _ = apply(state, Attack(S, "tac1", "rai1"), FixedDice([6] * 5 + [1] * 20))
    assert after.pending and after.pending[0].side is N
    return after


def test_header_says_whose_turn_it_is_while_the_other_side_places_a_passenger() -> None:
    state = wreck_in_souths_turn()
    assert status_line(state, {}, "en") == "Round 1 of 6 · South to play · North places war1"
    assert status_line(state, {}, "ru") == "Раунд 1 из 6 · ходит Юг · Север ставит war1"


def test_the_passenger_waiting_to_be_placed_is_on_the_image() -> None:
    state = wreck_in_souths_turn()
    shown = draw_board(state, lang="en")
    settled = state.copy()
    settled.pending = settled.pending[1:]
    hidden = draw_board(settled, lang="en")
    lay = layout_of(board_key(state, shown.width, "en", DEFAULT_THEME))
    for cell in state.pending[0].cells:  # type: ignore[union-attr]
        box = lay.cell_box(cell)
        assert ImageChops.difference(shown.crop(box), hidden.crop(box)).getbbox() is not None


def test_russian_board_says_sp_in_russian() -> None:
    assert label("ru", "legend.sp") == "СП"
    assert label("ru", "event.captured", cell="D2", name="Bob") == "СП D2: Bob"
    assert label("en", "legend.sp") == "SP"


# -- the replay within a byte budget ---------------------------------------------------------
def test_a_long_games_replay_is_made_to_fit_its_budget() -> None:
    game = random_game(seed=7, max_actions=150)
    full = render_replay(game.initial, game.actions, game.dice())
    budget = len(full) // 4
    fitted = render_replay(game.initial, game.actions, game.dice(), max_bytes=budget)
    assert len(fitted) <= budget < len(full)
    image = Image.open(io.BytesIO(fitted))
    assert image.format == "GIF" and image.n_frames >= 2
    image.seek(image.n_frames - 1)  # every frame decodes


def test_a_replay_within_its_budget_is_left_as_it_is() -> None:
    game = random_game(seed=7, max_actions=20)
    full = render_replay(game.initial, game.actions, game.dice())
    assert render_replay(game.initial, game.actions, game.dice(), max_bytes=len(full)) == full


def test_an_impossible_budget_is_refused() -> None:
    game = random_game(seed=7, max_actions=20)
    try:
        render_replay(game.initial, game.actions, game.dice(), max_bytes=1000)
    except ReplayTooLarge:
        return
    raise AssertionError("a 1000-byte replay was returned")


# -- the README names every figure the render benchmark prints -------------------------------
def test_readme_names_every_figure_of_the_render_benchmark() -> None:
    doc = benchmarks.render.__doc__ or ""
    figures = re.findall(r"(\w+)=", doc.split("The last line is", 1)[1])
    assert {"turn_ms", "turn_bytes", "median_ms_2x", "png_bytes_2x"} <= set(figures)
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    lines = readme.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("make bench-render"))
    described = lines[start]
    for line in lines[start + 1 :]:  # its comment may go on under it
        if not line.lstrip().startswith("#"):
            break
        described += line
    missing = [f for f in figures if not re.search(rf"\b{f}\b", described)]
    assert missing == []


# -- issue 19: each unit's fate drawn by the unit ------------------------------------------
def killers_step_in() -> tuple[GameState, GameState, list[Any]]:
    """North's turn: the grotesque kills tac1 on B2 and the archon cap1 on E2, and each
    advances (E10) into the cell its victim died on. (before, after, events)"""
    state = playing(
        [
            Place("tac1", "tactical", S, "B2", hp=1),
            Place("cap1", "captain", S, "E2", hp=1),
            Place("sco1", "scouts", S, "A1"),
            Place("gro1", "grotesque", N, "B3"),
            Place("arc1", "archon", N, "E3"),
        ],
        active=N,
        round=2,
    )
    before, events = state, []
    actions: list[Action] = [
        Attack(N, "gro1", "tac1"),
        Advance(N, "gro1", True),
        Attack(N, "arc1", "cap1"),
        Advance(N, "arc1", True),
        EndTurn(N),
    ]
    for action in actions:
        state, done = apply(state, action, FixedDice([6] * 40))
        events.extend(done)
    return before, state, events


def test_a_killer_standing_where_its_victim_fell_is_not_crossed_out() -> None:
    before, after, events = killers_step_in()
    assert (after.units["gro1"].cell, after.units["arc1"].cell) == (c("B2"), c("E2"))
    story = read_story(after, events, before)
    drawn = fates(after, story)
    # The fallen stood on cells the living hold now: no faded token, no cross there (they
    # would cross the living out), but a tag naming each fallen unit and its damage.
    assert drawn.ghosts == []
    assert sorted((tag.cell, tag.fallen.unit.id, tag.damage) for tag in drawn.tags) == [
        (c("B2"), "tac1", 1),
        (c("E2"), "cap1", 1),
    ]
    # The damage the fallen took is not put on the units that stand there now.
    assert drawn.damage == {}


def charged_through_overwatch() -> tuple[GameState, GameState, list[Any]]:
    """M7 and M8, North's turn: gro1 charges from B5 to B4 at tac1 on B3; tac1's Overwatch
    hits it on B4, then its blow kills tac1 and it stays on B4 (E10 declined)."""
    state = playing(
        [
            Place("tac1", "tactical", S, "B3", hp=1),
            Place("sco1", "scouts", S, "F1"),
            Place("gro1", "grotesque", N, "B5"),
        ],
        active=N,
        round=2,
    )
    state.house = frozenset({HouseRule.OVERWATCH, HouseRule.CHARGE})
    before, events = state, []
    for action in (Charge(N, "gro1", "tac1", c("B4")), Advance(N, "gro1", False)):
        state, done = apply(state, action, FixedDice([6] * 40))
        events.extend(done)
    return before, state, events


def test_a_charger_hit_by_overwatch_shows_its_damage_where_it_stands() -> None:
    before, after, events = charged_through_overwatch()
    hits = [e for e in events if isinstance(e, AttackResolved)]
    assert [(h.target, h.overwatch, h.damage > 0) for h in hits] == [
        ("gro1", True, True),
        ("tac1", False, True),
    ]
    story = read_story(after, events, before)
    # The charge is drawn as a move, and the Overwatch arrow ends where the charger was.
    assert Trail(N, (c("B5"), c("B4"))) in story.paths
    assert (story.strikes[0].source, story.strikes[0].target) == (c("B3"), c("B4"))
    drawn = fates(after, story)
    assert drawn.damage == {c("B4"): hits[0].damage, c("B3"): hits[1].damage}
    assert [(g.unit.id, g.cell) for g in drawn.ghosts] == [("tac1", c("B3"))]
    assert c("B5") not in drawn.damage  # where it started: empty now


def test_the_fallen_tag_leaves_the_living_units_words_whole() -> None:
    before, after, events = killers_step_in()
    story = read_story(after, events, before)
    image = draw_story(after, story, {}, "en", DEFAULT_SIZE, DEFAULT_THEME, 1, [])
    lay = layout_of(board_key(after, image.width, "en", DEFAULT_THEME))
    for handle in ("gro1", "arc1"):
        unit = after.units[handle]
        assert unit.cell is not None
        sprite = words_sprite(token_spec(after, unit), lay.cell, DEFAULT_THEME)
        opaque = sprite.getchannel("A").point(lambda a: 255 if a == 255 else 0)
        drawn = image.crop(lay.cell_box(unit.cell)).convert("RGB")
        diff = ImageChops.difference(drawn, sprite.convert("RGB")).convert("L")
        assert ImageChops.multiply(diff, opaque).getextrema()[1] <= 2, handle
