"""The board image: what each part shows, checked on the pixels, and the text it writes."""

from __future__ import annotations

import io
import string
from collections.abc import Iterable

import pytest
from PIL import Image, ImageChops, ImageFont, ImageStat

from tests.builders import Place, playing
from tests.golden.states import SCENES, long_names
from vahalite_bot.render import DEFAULT_THEME, draw_board, render_board
from vahalite_bot.render.base import board_key, coordinate_font, layout_of
from vahalite_bot.render.fonts import FONT_DIR, Face, fit, font, printable, text_mask
from vahalite_bot.render.header import status_line
from vahalite_bot.render.labels import CATALOGUE
from vahalite_bot.render.layout import Box, Layout, layout_for
from vahalite_bot.render.story import Path, Strike, read_story
from vahalite_bot.render.theme import RGB
from vahalite_bot.render.tokens import TokenGeometry
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Scenario, Side, Terrain, TerrainKind
from vahalite_bot.rules.sheets import UnitType
from vahalite_bot.rules.state import GameState

S, N = Side.SOUTH, Side.NORTH
THEME = DEFAULT_THEME
TYPE_SHEETS = {
    UnitType.INFANTRY: "captain",
    UnitType.JUMP: "assault",
    UnitType.BIKE: "bikers",
    UnitType.WALKER: "dreadnought",
    UnitType.VEHICLE: "predator",
    UnitType.SKIMMER: "ravager",
    UnitType.MONSTER: "grotesque",
    UnitType.FLYER: "razorwing",
}


# -- helpers -----------------------------------------------------------------------------
def lay_of(state: GameState, size: int = 800) -> Layout:
    return layout_of(board_key(state, size, "ru", THEME))


def c(name: str) -> Cell:
    return Cell.parse(name)


def cell_origin(lay: Layout, name: str) -> tuple[int, int]:
    x0, y0, _, _ = lay.cell_box(c(name))
    return x0, y0


def box4(box: Iterable[float]) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = (round(v) for v in box)
    return (x0, y0, x1, y1)


def share(image: Image.Image, box: Iterable[float], colour: RGB, tolerance: int = 24) -> float:
    """The share of pixels in ``box`` within ``tolerance`` of ``colour`` in every channel."""
    data = image.crop(box4(box)).convert("RGB").tobytes()
    pixels = [data[i : i + 3] for i in range(0, len(data), 3)]
    close = sum(1 for p in pixels if all(abs(p[i] - colour[i]) <= tolerance for i in range(3)))
    return close / len(pixels)


def offset(box: Iterable[float], origin: tuple[int, int]) -> tuple[float, ...]:
    x, y = origin
    return tuple(v + (x if i % 2 == 0 else y) for i, v in enumerate(box))


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / len(a.getbands())


# -- terrain -----------------------------------------------------------------------------
TERRAIN_CELLS = {
    TerrainKind.OBSTACLE: "A1",
    TerrainKind.WATER: "C2",
    TerrainKind.HEIGHT: "E3",
    TerrainKind.COVER: "B4",
    TerrainKind.FORTIFICATION: "D5",
}


def terrain_board() -> tuple[Image.Image, Layout]:
    state = playing([], terrain={cell: Terrain(kind) for kind, cell in TERRAIN_CELLS.items()})
    return draw_board(state), lay_of(state)


def test_I1_I5_each_terrain_kind_is_drawn_with_its_colour_and_pattern() -> None:
    image, lay = terrain_board()
    for kind, name in TERRAIN_CELLS.items():
        palette = THEME.terrain[kind]
        x0, y0, x1, y1 = lay.cell_box(c(name))
        inner = (x0 + 3, y0 + lay.cell * 0.3, x1 - 3, y1 - 3)  # below the cover badge
        assert share(image, inner, palette.fill) > 0.3, kind
        assert share(image, inner, palette.line, tolerance=40) > 0.03, kind


def test_I1_I5_terrain_kinds_differ_in_greyscale() -> None:
    """Colour-blind players and greyscale screens tell them apart by lightness and pattern."""
    image, lay = terrain_board()
    grey = image.convert("L")
    tiles = {
        kind: grey.crop(lay.cell_box(c(name))).resize((48, 48))
        for kind, name in TERRAIN_CELLS.items()
    }
    kinds = list(tiles)
    for i, a in enumerate(kinds):
        for b in kinds[i + 1 :]:
            assert mean_difference(tiles[a], tiles[b]) > 12, (a, b)


def test_E8_cover_value_is_written_on_cover_and_fortification() -> None:
    state = playing(
        [],
        terrain={
            "B2": TerrainKind.COVER,
            "D2": Terrain(TerrainKind.FORTIFICATION, 2),
            "F2": TerrainKind.HEIGHT,
        },
    )
    image, lay = draw_board(state), lay_of(state)

    def badge(name: str) -> float:
        x0, y0, _, _ = lay.cell_box(c(name))
        return share(image, (x0 + 4, y0 + 4, x0 + lay.cell * 0.2, y0 + lay.cell * 0.2), THEME.badge)

    assert badge("B2") > 0.3 and badge("D2") > 0.3
    assert badge("F2") == 0
    # "3+" and "5+" are different texts in the same place
    b2 = image.crop(box4(offset((0, 0, lay.cell * 0.3, lay.cell * 0.3), cell_origin(lay, "B2"))))
    d2 = image.crop(box4(offset((0, 0, lay.cell * 0.3, lay.cell * 0.3), cell_origin(lay, "D2"))))
    green, grey = THEME.terrain[TerrainKind.COVER], THEME.terrain[TerrainKind.FORTIFICATION]
    assert green != grey and mean_difference(b2.convert("L"), d2.convert("L")) > 0


# -- units -------------------------------------------------------------------------------
def all_types_board() -> tuple[Image.Image, Layout, dict[str, str]]:
    """One unit of each type for each side: south on rows 1-2, north on rows 5-6."""
    places, cells = [], {}
    for i, (kind, sheet_id) in enumerate(TYPE_SHEETS.items()):
        for side, rows in ((S, "12"), (N, "65")):
            name = f"{'ABCDEF'[i % 6]}{rows[i // 6]}"
            handle = f"{side.value[0]}{kind.value[:3]}"
            places.append(Place(handle, sheet_id, side, name))
            cells[handle] = name
    state = playing(places)
    return draw_board(state), lay_of(state), cells


def test_F1_every_unit_type_has_its_own_glyph_in_its_side_ink() -> None:
    image, lay, cells = all_types_board()
    g = TokenGeometry(lay.cell)
    for side in Side:
        ink = THEME.side(side).ink
        glyphs = []
        for kind in UnitType:
            origin = cell_origin(lay, cells[f"{side.value[0]}{kind.value[:3]}"])
            box = offset(g.icon_box, origin)
            assert share(image, box, ink, tolerance=40) > 0.1, (side, kind)
            glyphs.append(image.crop(box4(box)).convert("L"))
        for i, a in enumerate(glyphs):
            for b in glyphs[i + 1 :]:
                assert mean_difference(a, b) > 4


def test_sides_differ_by_colour_and_by_shape() -> None:
    """South tokens are discs, north tokens rounded squares: a corner of the token's box is
    covered only by the square."""
    image, lay, cells = all_types_board()
    g = TokenGeometry(lay.cell)
    for side in Side:
        x0, y0, x1, _ = g.body(side)
        corner = (x0 + (x1 - x0) * 0.06, y0 + (x1 - x0) * 0.06)
        for kind in UnitType:
            origin = cell_origin(lay, cells[f"{side.value[0]}{kind.value[:3]}"])
            px = image.getpixel((round(corner[0] + origin[0]), round(corner[1] + origin[1])))
            assert isinstance(px, tuple)
            palette = THEME.side(side)
            covered = any(
                all(abs(px[i] - colour[i]) < 30 for i in range(3))
                for colour in (palette.fill, palette.edge)
            )
            assert covered is (side is N), (side, kind, px)


def test_each_token_shows_its_handle() -> None:
    image, lay, cells = all_types_board()
    g = TokenGeometry(lay.cell)
    label_box = (
        g.centre[0] - g.radius * 0.8,
        g.label_y - lay.cell * 0.1,
        g.centre[0] + g.radius * 0.8,
        g.label_y + lay.cell * 0.1,
    )
    crops = {}
    for handle, name in cells.items():
        side = S if handle.startswith("s") else N
        box = offset(label_box, cell_origin(lay, name))
        assert share(image, box, THEME.side(side).ink, tolerance=40) > 0.08, handle
        crops[handle] = image.crop(box4(box)).convert("L")
    assert mean_difference(crops["sinf"], crops["sjum"]) > 3


def hp_share(image: Image.Image, lay: Layout, name: str) -> float:
    box = offset(TokenGeometry(lay.cell).hp_box, cell_origin(lay, name))
    return share(image, box, THEME.hp_left, tolerance=20)


def test_F1_hp_pips_show_what_is_left() -> None:
    state = playing(
        [
            Place("tac1", "tactical", S, "A1"),
            Place("tac2", "tactical", S, "C1", hp=2),
            Place("tac3", "tactical", S, "E1", hp=5),
        ]
    )
    image, lay = draw_board(state), lay_of(state)
    full, part = hp_share(image, lay, "A1"), hp_share(image, lay, "C1")
    assert full > 0.2
    assert 0.3 < part / full < 0.5  # 2 of 5 models
    assert hp_share(image, lay, "E1") == pytest.approx(full, rel=0.02)


def damaged_mark(image: Image.Image, lay: Layout, name: str) -> float:
    g = TokenGeometry(lay.cell)
    cx, cy = g.centre
    r = g.radius
    box = (cx - r * 1.08, cy + r * 0.38, cx - r * 0.88, cy + r * 0.62)
    return share(image, offset(box, cell_origin(lay, name)), THEME.badge, tolerance=20)


def test_E7_damaged_profile_is_marked_only_while_in_force() -> None:
    state = playing(
        [
            Place("dre1", "dreadnought", S, "A1", hp=3),  # lost half: damaged profile
            Place("dre2", "dreadnought", S, "C1", hp=4),
            Place("tac1", "tactical", S, "E1", hp=1),  # no damaged profile at all
        ]
    )
    image, lay = draw_board(state), lay_of(state)
    assert damaged_mark(image, lay, "A1") > 0.3
    assert damaged_mark(image, lay, "C1") == 0
    assert damaged_mark(image, lay, "E1") == 0


def test_H1_loaded_transport_shows_its_passengers_handle() -> None:
    state = playing(
        [
            Place("rhi1", "rhino", S, "A1"),
            Place("tac1", "tactical", S, "rhi1"),
            Place("rhi2", "rhino", S, "C1"),
            Place("rai1", "raider", N, "E6"),
            Place("war1", "warriors", N, "rai1"),
        ]
    )
    image, lay = draw_board(state), lay_of(state)
    pill = (lay.cell * 0.3, 1, lay.cell * 0.7, lay.cell * 0.18)
    assert share(image, offset(pill, cell_origin(lay, "A1")), THEME.badge) > 0.3
    assert share(image, offset(pill, cell_origin(lay, "E6")), THEME.badge) > 0.3
    assert share(image, offset(pill, cell_origin(lay, "C1")), THEME.badge) == 0


def test_J1_strategic_positions_show_their_holder() -> None:
    state = playing([], sps={"B2": S, "D2": S, "C5": N})
    state.sps[c("D2")].holder = N  # taken by north
    image, lay = draw_board(state), lay_of(state)

    def edge(name: str, side: Side) -> float:
        x0, y0, x1, _ = lay.cell_box(c(name))
        band = (x0 + lay.cell * 0.3, y0 + 2, x1 - lay.cell * 0.3, y0 + lay.cell * 0.07)
        return share(image, band, THEME.side(side).fill)

    assert edge("B2", S) > 0.3 and edge("B2", N) == 0
    assert edge("D2", N) > 0.3 and edge("D2", S) == 0
    assert edge("C5", N) > 0.3


# -- the last action -----------------------------------------------------------------------
def test_E14_attack_and_destruction_are_overlaid_and_told() -> None:
    scene = SCENES["mid_game"]()
    story = read_story(scene.state, scene.events, scene.before, scene.names, "ru")
    assert story.strikes == [Strike(S, c("E3"), c("D4"), 2)]
    assert [(f.unit.id, f.cell) for f in story.fallen] == [("gro1", c("D4"))]
    assert "dre1 «Дредноут» → gro1 «Гротеск»: −2" in story.caption
    assert "gro1 уничтожен" in story.caption
    image, lay = (
        draw_board(scene.state, events=scene.events, before=scene.before),
        lay_of(scene.state),
    )
    x0, y0, x1, y1 = lay.cell_box(c("D4"))
    assert share(image, (x0, y0, x1, y1), THEME.cross, tolerance=30) > 0.02
    assert share(image, (x0, y0, x1, y1), THEME.damage, tolerance=30) > 0.02


def test_without_the_state_before_a_destroyed_unit_gets_no_cross() -> None:
    """Events name units, and a destroyed unit has left the board."""
    scene = SCENES["mid_game"]()
    story = read_story(scene.state, scene.events, None, scene.names, "en")
    assert story.fallen == []
    assert "gro1 destroyed" in story.caption


def test_D1_move_is_drawn_as_an_arrow_along_its_path() -> None:
    scene = SCENES["transports"]()
    story = read_story(scene.state, scene.events, scene.before, scene.names, "ru")
    assert story.paths == [Path(S, (c("B2"), c("B3"), c("B4"), c("C4")))]
    assert story.caption == ["rhi1 «Носорог»: B2 → C4"]
    image, lay = draw_board(scene.state, events=scene.events), lay_of(scene.state)
    x0, y0, x1, y1 = lay.cell_box(c("B3"))  # a cell the path only crosses
    assert share(image, (x0, y0, x1, y1), THEME.side(S).fill, tolerance=30) > 0.05
    plain = draw_board(scene.state)
    assert share(plain, (x0, y0, x1, y1), THEME.side(S).fill, tolerance=30) == 0


def test_J1_end_of_turn_tells_the_capture_and_the_result() -> None:
    scene = SCENES["end_of_game"]()
    story = read_story(scene.state, scene.events, scene.before, scene.names, "ru")
    assert story.captured == {c("D2")}
    assert story.caption == ["SP D2: Bob", "Bob завершает ход"]
    assert status_line(scene.state, scene.names, "ru") == "Игра окончена · Победа: Bob · по очкам"
    assert status_line(scene.state, {}, "en") == "Game over · North wins · on points"


def test_C1_header_tells_round_and_whose_turn() -> None:
    state = playing([Place("cap1", "captain", S, "A1")], active=N, round=3)
    assert status_line(state, {N: "Bob"}, "ru") == "Раунд 3 из 6 · ходит Bob"
    assert status_line(state, {}, "en") == "Round 3 of 6 · North to play"


# -- text --------------------------------------------------------------------------------
RUSSIAN = "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя"


def test_cyrillic_glyphs_are_drawn_not_empty_boxes() -> None:
    """Each Russian letter in the bundled fonts has its own glyph, unlike a character the
    fonts lack, which FreeType draws as the same empty box (.notdef)."""
    for face in Face:
        missing = ImageFont.truetype(str(FONT_DIR / face.value), 40)
        box = missing.getmask("\u4e2d")  # a CJK character: not in the subset
        notdef = bytes(box), box.size
        seen = set()
        for letter in RUSSIAN:
            mask = text_mask(letter, face, 40, "mm")[0]
            assert mask.getbbox() is not None, (face, letter)
            glyph = font(face, 40).getmask(letter)
            assert (bytes(glyph), glyph.size) != notdef, (face, letter)
            seen.add(mask.tobytes())
        assert len(seen) == len(RUSSIAN)


def test_fonts_come_from_the_package() -> None:
    f = font(Face.BOLD, 20)
    assert str(f.path).startswith(str(FONT_DIR))
    assert f.getname()[0] == "DejaVu Sans"


def test_characters_the_fonts_lack_become_question_marks() -> None:
    assert printable("Бой 🎲 at\tдень") == "Бой ? at день"
    assert printable(string.ascii_letters + RUSSIAN) == string.ascii_letters + RUSSIAN


def test_long_cyrillic_names_are_cut_to_fit_and_leave_the_score_alone() -> None:
    scene = long_names()
    long_image = draw_board(
        scene.state, events=scene.events, before=scene.before, names=scene.names
    )
    short_image = draw_board(
        scene.state, events=scene.events, before=scene.before, names={S: "А", N: "Б"}
    )
    lay = lay_of(scene.state)
    assert long_image.size == short_image.size
    centre = lay.width // 2
    score_box = (
        centre - lay.px(60),
        lay.header[1],
        centre + lay.px(60),
        lay.header[1] + lay.px(50),
    )
    assert mean_difference(long_image.crop(score_box), short_image.crop(score_box)) == 0
    x0, y0, x1, y1 = lay.caption
    for strip in ((x0, y0, x0 + lay.px(6), y1), (x1 - lay.px(6), y0, x1, y1)):
        assert share(long_image, strip, THEME.frame, tolerance=2) == 1.0  # text stops short
    name = scene.names[S]
    cut = fit(name, font(Face.BOLD, 24), 200)
    assert cut.endswith("…") and name.startswith(cut[:-1])
    assert font(Face.BOLD, 24).getlength(cut) <= 200


def test_labels_exist_in_both_languages_with_the_same_fields() -> None:
    fields = {
        lang: {key: sorted(_fields(text)) for key, text in table.items()}
        for lang, table in CATALOGUE.items()
    }
    assert fields["ru"] == fields["en"]


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# -- sizes -------------------------------------------------------------------------------
SIZES = [(4, 4), (6, 6), (8, 8), (10, 6), (6, 10), (12, 12)]


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize(("cols", "rows"), SIZES)
def test_L_other_board_sizes_fit_without_overlap(cols: int, rows: int) -> None:
    lay = layout_for(cols, rows, 800, 140)
    bx0, by0, bx1, by1 = lay.board_box
    framed = (bx0 - lay.margin, by0 - lay.margin, bx1 + lay.margin, by1 + lay.margin)
    parts = [lay.header, framed, lay.legend, lay.caption]
    for i, a in enumerate(parts):
        assert min(a[0], a[1]) >= 0 and a[2] <= lay.width and a[3] <= lay.height
        for b in parts[i + 1 :]:
            assert not overlaps(a, b), (a, b)
    assert lay.height <= lay.width * 1.15  # about square, whatever the board
    assert lay.cell >= 40
    g = TokenGeometry(lay.cell)
    for box in (g.body(S), g.body(N), g.hp_box, g.icon_box):
        assert min(box[0], box[1]) >= 0 and max(box[2], box[3]) <= lay.cell
    assert coordinate_font(lay).getlength(str(rows)) <= lay.margin - 4


def test_L_a_12_by_12_board_draws_units_in_its_far_corners() -> None:
    scene = SCENES["big_board"]()
    image = draw_board(scene.state, events=scene.events, before=scene.before)
    lay = lay_of(scene.state)
    assert (lay.cols, lay.rows) == (12, 12)
    g = TokenGeometry(lay.cell)
    for name, side in (("A1", S), ("L1", S), ("A12", N), ("L12", N)):
        box = offset(g.body(side), cell_origin(lay, name))
        assert share(image, box, THEME.side(side).fill) > 0.3, name


# -- the function ------------------------------------------------------------------------
def test_render_is_pure_and_repeatable() -> None:
    scene = SCENES["mid_game"]()
    state_before = scene.state.copy()
    first = render_board(scene.state, events=scene.events, before=scene.before)
    second = render_board(scene.state, events=scene.events, before=scene.before)
    assert first == second
    assert scene.state == state_before


def test_png_is_about_800_px_square_and_small() -> None:
    scene = SCENES["mid_game"]()
    png = render_board(scene.state, events=scene.events, before=scene.before, names=scene.names)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert image.width == 800 and 700 <= image.height <= 900
    assert len(png) < 150_000


def test_the_256_colour_png_looks_like_the_full_colour_drawing() -> None:
    scene = SCENES["mid_game"]()
    rgb = draw_board(scene.state, events=scene.events, before=scene.before)
    png = render_board(scene.state, events=scene.events, before=scene.before)
    decoded = Image.open(io.BytesIO(png)).convert("RGB")
    assert mean_difference(rgb, decoded) < 1.5
    _, high = ImageChops.difference(rgb, decoded).convert("L").getextrema()
    assert isinstance(high, int) and high < 48


def test_english_board_writes_english() -> None:
    scene = SCENES["transports"]()
    story = read_story(scene.state, scene.events, scene.before, {}, "en")
    assert story.caption == ["rhi1 “Rhino”: B2 → C4"]
    ru = draw_board(scene.state, events=scene.events, lang="ru")
    en = draw_board(scene.state, events=scene.events, lang="en")
    ru_lay = layout_of(board_key(scene.state, 800, "ru", THEME))
    en_lay = layout_of(board_key(scene.state, 800, "en", THEME))
    assert ru.crop(ru_lay.caption).tobytes() != en.crop(en_lay.caption).tobytes()


def test_a_scenario_with_preplaced_fortifications_explains_them_in_the_legend() -> None:
    plain = playing([])
    fortified = playing(
        [],
        scenario=Scenario(
            id="fort", preplaced={c("C3"): Terrain(TerrainKind.FORTIFICATION, improvement=1)}
        ),
    )
    plain_lay, fortified_lay = lay_of(plain), lay_of(fortified)
    assert plain_lay.legend == fortified_lay.legend
    a = draw_board(plain).crop(plain_lay.legend)
    b = draw_board(fortified).crop(fortified_lay.legend)
    assert a.tobytes() != b.tobytes()
