"""A picture of a game never drawn before costs what one drawn a moment ago does (issue 21).

A busy bot draws dozens of games in turn; whatever is built per game (a palette sampled
from its terrain layout, its static layer) missed on nearly every image. What is built
once now is per theme and per scenario board: a new game's terrain, names or language
build nothing new but its words.
"""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from tests.golden.states import SCENES
from vahalite_bot.render import DEFAULT_THEME, board, draw_board, marks, render_board, tokens
from vahalite_bot.render.base import frame_layer
from vahalite_bot.render.board import draw_story
from vahalite_bot.render.palette import quantize, theme_palette
from vahalite_bot.render.story import Path, Story, Strike
from vahalite_bot.render.tokens import TokenGeometry, TokenSpec
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side, Terrain, TerrainKind
from vahalite_bot.rules.sheets import UnitType
from vahalite_bot.rules.state import GameState

KINDS = (TerrainKind.OBSTACLE, TerrainKind.WATER, TerrainKind.HEIGHT, TerrainKind.COVER)


def other_terrain(seed: int) -> GameState:
    """The mid-game scene with terrain of its own on the cells no unit holds."""
    state = SCENES["mid_game"]().state
    rng = random.Random(seed)
    held = {u.cell for u in state.units.values() if u.cell is not None}
    free = [c for c in state.scenario.cells() if c not in held]
    state.terrain = {cell: Terrain(rng.choice(KINDS)) for cell in rng.sample(free, 10)}
    return state


def png_palette(png: bytes) -> list[int]:
    return Image.open(io.BytesIO(png)).getpalette() or []


def test_every_game_is_coded_in_its_themes_one_palette() -> None:
    """Before: a palette sampled from each terrain layout (two games, two palettes)."""
    first, second = other_terrain(1), other_terrain(2)
    assert first.terrain != second.terrain
    names = {Side.SOUTH: "Алексей", Side.NORTH: "Bob"}
    one = render_board(first, names=names, lang="ru")
    two = render_board(second, names={Side.SOUTH: "Ann"}, lang="en")
    assert png_palette(one) == png_palette(two)
    assert png_palette(one) == theme_palette(DEFAULT_THEME).getpalette()


def test_a_new_games_terrain_draws_no_new_static_layer() -> None:
    render_board(other_terrain(3))
    drawn = frame_layer.cache_info().misses
    for seed in range(4, 9):
        render_board(other_terrain(seed))
    assert frame_layer.cache_info().misses == drawn


def test_the_themes_palette_shows_any_games_board_as_drawn() -> None:
    """Fixed once per theme, the palette must still suit every layout and mark: each
    game's image, reduced to it, stays within a shade of the full-colour drawing."""
    for seed in range(10, 16):
        state = other_terrain(seed)
        state.terrain[Cell.parse("A1")] = Terrain(TerrainKind.FORTIFICATION)
        rgb = draw_board(state, lang="en" if seed % 2 else "ru", scale=1 + seed % 2)
        shown = quantize(rgb, theme_palette(DEFAULT_THEME)).convert("RGB")
        diff = ImageChops.difference(rgb, shown)
        assert sum(ImageStat.Stat(diff).mean) / 3 < 1.5, seed
        _, high = diff.convert("L").getextrema()
        assert isinstance(high, int) and high < 48, seed


def test_a_token_pasted_whole_from_the_cache_is_the_token_drawn_in_two_layers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Tokens are blended once with what lies under them and pasted whole after that:
    drawn after other games (so from the cache, at other cells and sizes) every board must
    be the one its tokens' two layers make, drawn each time over its own ground."""
    scenes = [other_terrain(seed) for seed in range(20, 26)]
    for state in scenes:  # the cache fills with these games' tokens on their grounds
        for scale in (1, 2):
            draw_board(state, lang="en", scale=scale)
    drawn = [draw_board(state, lang="en", scale=1 + i % 2) for i, state in enumerate(scenes)]
    drawn += [scene_board(name) for name in SCENES]
    assert marks._whole, "no token was pasted whole"
    monkeypatch.setattr(board, "_fits", lambda *_: False)
    layered = [draw_board(state, lang="en", scale=1 + i % 2) for i, state in enumerate(scenes)]
    layered += [scene_board(name) for name in SCENES]
    for i, (one, other) in enumerate(zip(drawn, layered, strict=True)):
        assert ImageChops.difference(one, other).getbbox() is None, i


def scene_board(name: str) -> Image.Image:
    scene = SCENES[name]()
    return draw_board(
        scene.state, events=scene.events, before=scene.before, names=scene.names, lang=scene.lang
    )


@pytest.mark.parametrize("px", [40, 60, 94, 188])
def test_a_tokens_words_from_its_cached_handle_are_the_words_drawn_at_once(px: int) -> None:
    """A unit's HP changes more often than its handle: the handle is drawn once and the HP
    plate under it per value, which must make the very words drawn in one go."""
    rng = random.Random(px)
    geometry = TokenGeometry(px)
    for _ in range(30):
        wounds, models = rng.choice([1, 2, 3, 6]), rng.randint(1, 10)
        spec = TokenSpec(
            side=rng.choice(list(Side)),
            kind=rng.choice(list(UnitType)),
            handle=rng.choice(["tac1", "cap12", "abcdef", "w", "rhino3"]),
            hp=rng.randint(0, wounds * models),
            wounds=wounds,
            max_hp=wounds * models,
            damaged=False,
            passenger=None,
        )
        at_once = Image.new("RGBA", (px, px), (0, 0, 0, 0))
        draw = ImageDraw.Draw(at_once)
        tokens._label(draw, spec.side, spec.handle, geometry, DEFAULT_THEME)
        tokens._hp(draw, spec, geometry, DEFAULT_THEME)
        assert tokens.words_sprite(spec, px, DEFAULT_THEME).tobytes() == at_once.tobytes(), spec


def storied(state: GameState, story: Story, scale: int) -> Image.Image:
    return draw_story(state, story, {}, "en", 800, DEFAULT_THEME, scale, [])


def every_cell(state: GameState) -> set[Cell]:
    return {Cell(col, row) for col in range(state.scenario.width)
            for row in range(state.scenario.height)}  # fmt: skip


def test_a_cell_washed_from_the_cache_is_the_cell_washed_each_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The wash over a touched cell is blended once per ground and pasted after that:
    every cell of every board, washed from the cache (filled by the other boards, at
    both sizes), must be the cell washed over its own ground each time, on every row's
    shade, terrain kind, edge, corner and divider."""
    scenes = [SCENES[name]().state for name in SCENES] + [other_terrain(s) for s in (30, 31)]
    stories = [Story(touched=every_cell(state)) for state in scenes]
    for state, story in zip(scenes, stories, strict=True):
        for scale in (1, 2):
            storied(state, story, scale)
    cached = [storied(state, story, 1 + i % 2) for i, (state, story) in
              enumerate(zip(scenes, stories, strict=True))]  # fmt: skip
    assert marks._washed, "no cell was washed from the cache"
    monkeypatch.setattr(marks, "wash", lambda image, lay, cell, _, theme: marks.highlight(
        image, lay, [cell], theme))  # fmt: skip
    for i, (state, story) in enumerate(zip(scenes, stories, strict=True)):
        blended = storied(state, story, 1 + i % 2)
        assert ImageChops.difference(cached[i], blended).getbbox() is None, i


@pytest.fixture
def unbanded(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Arrows and crosses pasted whole, their sprites as they are drawn."""
    cached = (marks._path_bands, marks._strike_bands, marks._cross_bands)

    def clear() -> None:
        for function in cached:
            function.cache_clear()

    clear()
    monkeypatch.setattr(marks, "_bands", lambda sprite, px: (sprite,))
    yield
    clear()  # the next test bands them again


def arrows(state: GameState) -> Story:
    """A move in each of eight directions (to the board's edges and corners) and a strike
    from every fourth cell to the cells two and three rows up and across."""
    cols, rows = state.scenario.width, state.scenario.height
    mid = Cell(cols // 2, rows // 2)

    def towards(dc: int, dr: int, steps: int) -> Cell:
        return Cell(max(0, min(cols - 1, mid.col + steps * dc)),
                    max(0, min(rows - 1, mid.row + steps * dr)))  # fmt: skip

    ways = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
    paths = [
        Path(Side.SOUTH if i % 2 else Side.NORTH, (mid, towards(dc, dr, 1), towards(dc, dr, 3)))
        for i, (dc, dr) in enumerate(ways)
    ]
    cells = sorted(every_cell(state))[::4]
    strikes = [
        Strike(Side.SOUTH, cell, Cell((cell.col + k) % cols, (cell.row + 2 + k) % rows), 1)
        for k, cell in enumerate(cells)
    ]
    return Story(paths=paths, strikes=strikes)


def test_an_arrow_pasted_in_bands_is_the_arrow_pasted_whole(
    request: pytest.FixtureRequest,
) -> None:
    """Arrows and crosses are pasted as bands cut to what they show: each board (arrows
    every way, every scene's own marks) must be the one their whole sprites make."""
    scenes = [SCENES[name]() for name in SCENES]
    drawn = [storied(scene.state, arrows(scene.state), scale) for scene in scenes
             for scale in (1, 2)]  # fmt: skip
    drawn += [scene_board(name) for name in SCENES]
    whole = marks._path_sprite(Side.SOUTH, ((0, 0), (2, 1)), 94, DEFAULT_THEME)[0]
    bands = marks._path_bands(Side.SOUTH, ((0, 0), (2, 1)), 94, DEFAULT_THEME)
    assert sum(b.width * b.height for b, _, _ in bands) < whole.width * whole.height / 2
    request.getfixturevalue("unbanded")
    pasted = [storied(scene.state, arrows(scene.state), scale) for scene in scenes
              for scale in (1, 2)]  # fmt: skip
    pasted += [scene_board(name) for name in SCENES]
    for i, (one, other) in enumerate(zip(drawn, pasted, strict=True)):
        assert ImageChops.difference(one, other).getbbox() is None, i
