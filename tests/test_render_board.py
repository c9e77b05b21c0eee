"""The board image: what each part shows, checked on the pixels, and the text it writes."""

from __future__ import annotations

import io
import string
from collections.abc import Iterable, Sequence

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont, ImageStat

from tests.builders import Place, playing
from tests.golden.states import SCENES, long_names
from vahalite_bot.i18n import LOCALES
from vahalite_bot.render import DEFAULT_THEME, draw_board, render_board
from vahalite_bot.render.base import board_key, coordinate_font, layout_of, legend_items
from vahalite_bot.render.fonts import FONT_DIR, Face, fit, font, printable, text_mask
from vahalite_bot.render.header import status_line
from vahalite_bot.render.labels import CATALOGUE, label
from vahalite_bot.render.layout import Box, Layout, layout_for
from vahalite_bot.render.marks import (
    _cover_sprite,
    _path_sprite,
    _strike_sprite,
    cover_badge_box,
    damage_geometry,
    passenger_geometry,
    passenger_room,
)
from vahalite_bot.render.story import Path, Strike, read_story
from vahalite_bot.render.terrain import terrain_tile
from vahalite_bot.render.theme import RGB
from vahalite_bot.render.tokens import TokenGeometry, fallen_spec, token_spec, words_sprite
from vahalite_bot.rules.events import AttackResolved, Event, UnitDestroyed
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Scenario, Side, Terrain, TerrainKind
from vahalite_bot.rules.sheets import UnitType, WeaponKind
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


def hp_share(image: Image.Image, lay: Layout, name: str, max_hp: int = 5) -> float:
    """The share of the HP plate's pip area lit (the number beside it is another test's)."""
    pips, _ = TokenGeometry(lay.cell).hp_split(max_hp)
    return share(image, offset(pips, cell_origin(lay, name)), THEME.hp_left, tolerance=20)


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
    """The share of white in the lower middle of the damaged mark's triangle (its "!"
    aside)."""
    x0, y0, x1, y1 = TokenGeometry(lay.cell).damaged_box
    w, h = x1 - x0, y1 - y0
    box = (x0 + w * 0.2, y0 + h * 0.6, x0 + w * 0.4, y1 - h * 0.15)
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
    assert story.caption == ["СП D2: Bob", "Bob завершает ход"]
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


# -- nothing covers a name or a number (issue 12) -----------------------------------------
CELL_SIZES = [40, 48, 58, 77, 94, 96, 128, 192]  # 12 x 12 at 800 px up to 6 x 6 at 2x
LONG_HANDLE = "horm12"
FBox = Sequence[float]


def apart(a: FBox, b: FBox) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def within(a: FBox, px: int) -> bool:
    return a[0] >= 0 and a[1] >= 0 and a[2] <= px and a[3] <= px


COVERS = [None, 3, 6]


@pytest.mark.parametrize("px", CELL_SIZES)
def test_marks_on_a_token_keep_clear_of_its_handle_and_hp(px: int) -> None:
    g = TokenGeometry(px)
    label = g.label_box(LONG_HANDLE)
    damage, _ = damage_geometry(12, px)
    near_label = {"damaged mark": g.damaged_box, "damage plate": damage, "hp plate": g.hp_box}
    for cover in COVERS:
        tag, _, _ = passenger_geometry(LONG_HANDLE, px, *passenger_room(px, cover))
        near_label[f"passenger tag {cover}"] = tag
        assert within(tag, px)
        if cover is not None:
            assert apart(tag, cover_badge_box(px, cover))
        if g.has_icon:
            assert apart(tag, g.icon_box)
    for name, box in near_label.items():
        assert apart(label, box), name
        assert within(box, px), name
    one_digit, _ = damage_geometry(3, px)
    for a, b in ((g.damaged_box, one_digit), (g.damaged_box, g.hp_box), (damage, g.hp_box)):
        assert apart(a, b)
    if g.has_icon:
        assert apart(g.damaged_box, g.icon_box)
    top, bottom = g.label_band
    for handle in ("bdfhkl", "gjpqy", "a1", LONG_HANDLE):
        box = g.label_box(handle)
        assert top <= box[1] and box[3] <= bottom, handle


@pytest.mark.parametrize("px", [58, 96, 192])
def test_passenger_tag_shows_the_whole_handle(px: int) -> None:
    """It read "+hor…" for horm1: now the type shrinks before the text is cut."""
    for cover in COVERS:
        if px < 96 and cover is not None:
            continue  # beside a cover value a small cell has no room for six letters
        _, text, _ = passenger_geometry("horm1", px, *passenger_room(px, cover))
        assert text == "+horm1", (px, cover)


def test_passenger_tag_is_drawn_whole_beside_the_corner_badges() -> None:
    state = playing(
        [Place("rai1", "raider", N, "D5"), Place("horm1", "warriors", N, "rai1")],
        terrain={"D5": TerrainKind.COVER},
        sps={"D5": N},
    )
    image, lay = draw_board(state), lay_of(state)
    box, text, _ = passenger_geometry("horm1", lay.cell, *passenger_room(lay.cell, 3))
    assert text == "+horm1"
    x0, y0 = cell_origin(lay, "D5")
    inner = (box[0] + 3, box[1] + 2, box[2] - 3, box[3] - 2)
    assert share(image, offset(inner, (x0, y0)), THEME.badge) > 0.4  # the tag's plate
    dark = share(image, offset(inner, (x0, y0)), THEME.badge_text, tolerance=60)
    assert dark > 0.08  # and its letters


STEPS = [(1, 0), (0, 1), (1, 1), (-1, 1), (2, 1), (1, 2), (0, -1), (-1, -1), (1, -2), (3, 3)]


@pytest.mark.parametrize("step", STEPS)
@pytest.mark.parametrize("px", [48, 96])
def test_attack_and_move_arrows_stop_short_of_names_and_hp(step: tuple[int, int], px: int) -> None:
    g = TokenGeometry(px)
    handle = g.label_box(LONG_HANDLE if g.has_icon else "rav1")  # see words_zone
    sprites = {
        "strike": _strike_sprite(((0, 0), step), px, THEME),
        "path": _path_sprite(S, ((0, 0), step), px, THEME),
    }
    for kind, (layer, dx, dy) in sprites.items():
        alpha = layer.getchannel("A")
        ends = [(0, 0), step] if kind == "strike" else [step]  # a move leaves its start
        for col, row in ends:
            ox, oy = col * px - dx, -row * px - dy
            for part, box in (("label", handle), ("hp", g.hp_box)):
                crop = alpha.crop(box4(offset(box, (ox, oy))))
                assert crop.getextrema()[1] == 0, (kind, (col, row), part)


def crossing_scene() -> tuple[GameState, list[Event], GameState]:
    """A long shot over two other units, a shot across a cover value, a cross on a target
    and plates with the damage."""
    units = [
        Place("dev1", "dreadnought", S, "A1", hp=3),
        Place("tac1", "tactical", S, "B2"),
        Place("sla1", "slaves", N, "C3"),
        Place("rai1", "raider", N, "D4", hp=2),
        Place("horm1", "warriors", N, "rai1"),
        Place("arc1", "archon", N, "E5"),
        Place("tac2", "tactical", S, "C1"),
        Place("sla2", "slaves", N, "A3"),
    ]
    cover = {"C3": TerrainKind.COVER, "B2": TerrainKind.COVER}  # C1 -> A3 crosses B2's "3+"
    before = playing(units, terrain=cover, sps={"D4": N})
    after = before.copy()
    target = after.units["arc1"]
    target.hp, target.cell, target.destroyed = 0, None, True
    events: list[Event] = [
        AttackResolved("dev1", "arc1", WeaponKind.SHOOTING, (), True, 3, 3, 0),
        AttackResolved("tac1", "rai1", WeaponKind.SHOOTING, (), False, 12, 2, 2),
        AttackResolved("tac2", "sla2", WeaponKind.SHOOTING, (), False, 1, 6, 5),
        UnitDestroyed("arc1", N, "dev1", "attack"),
    ]
    return after, events, before


@pytest.mark.parametrize("scene_name", ["crossing", "mid_game", "transports", "end_of_game"])
def test_every_handle_and_hp_number_shows_whatever_lies_over_its_cell(scene_name: str) -> None:
    """Each token's words (handle, HP plate) appear in the image pixel for pixel where they
    are opaque: no arrow, cross, plate or badge covers any of them."""
    if scene_name == "crossing":
        state, events, before = crossing_scene()
    else:
        scene = SCENES[scene_name]()
        state, events, before = scene.state, list(scene.events), scene.before
    image = draw_board(state, events=events, before=before)
    lay = lay_of(state)
    story = read_story(state, events, before)
    if scene_name == "crossing":
        assert len(story.strikes) == 3 and len(story.fallen) == 1
    shown = [(u.cell, token_spec(state, u)) for u in state.units.values() if u.cell]
    shown += [(f.cell, fallen_spec(f.unit)) for f in story.fallen]
    for cell, spec in shown:
        assert cell is not None
        sprite = words_sprite(spec, lay.cell, THEME)
        opaque = sprite.getchannel("A").point(lambda a: 255 if a == 255 else 0)
        x0, y0, x1, y1 = lay.cell_box(cell)
        drawn = image.crop((x0, y0, x1, y1))
        expected = sprite.convert("RGB")
        diff = ImageChops.difference(drawn, expected).convert("L")
        masked = ImageChops.multiply(diff, opaque)
        assert masked.getextrema()[1] <= 2, (scene_name, spec.handle)
    size = round(lay.cell * 0.26)
    for cell, piece in state.terrain.items():
        if piece.kind in (TerrainKind.COVER, TerrainKind.FORTIFICATION):
            badge = _cover_sprite(piece.cover_value, size, THEME)
            x, y, _, _ = cover_badge_box(lay.cell, piece.cover_value)
            x0, y0 = cell_origin(lay, cell.name)
            drawn = image.crop((x0 + x, y0 + y, x0 + x + badge.width, y0 + y + badge.height))
            opaque = badge.getchannel("A").point(lambda a: 255 if a == 255 else 0)
            diff = ImageChops.difference(drawn, badge.convert("RGB")).convert("L")
            assert ImageChops.multiply(diff, opaque).getextrema()[1] <= 2, (scene_name, cell)


def test_hp_plate_writes_what_is_left_as_a_number() -> None:
    state = playing(
        [
            Place("tac1", "tactical", S, "A1"),
            Place("tac2", "tactical", S, "C1", hp=2),
            Place("tac3", "tactical", S, "E1", hp=2),
            Place("dre1", "dreadnought", S, "B3"),
        ]
    )
    image, lay = draw_board(state), lay_of(state)
    g = TokenGeometry(lay.cell)

    def number(name: str, max_hp: int = 5) -> Image.Image:
        _, box = g.hp_split(max_hp)
        return image.crop(box4(offset(box, cell_origin(lay, name)))).convert("L")

    full, two, also_two = number("A1"), number("C1"), number("E1")
    assert share(image, offset(g.hp_split(5)[1], cell_origin(lay, "A1")), THEME.hp_left) > 0.1
    assert mean_difference(two, also_two) == 0  # the same HP, the same number
    assert mean_difference(full, two) > 3  # "5/5" and "2/5"
    # the text is the HP: the drawn number matches "2/5" better than "5/5"
    f = font(Face.CONDENSED_BOLD, g.hp_px)
    for text, other in (("2/5", "5/5"), ("5/5", "2/5")):
        crop = two if text == "2/5" else full
        assert _match(crop, text, f) < _match(crop, other, f), text


def _match(crop: Image.Image, text: str, f: ImageFont.FreeTypeFont) -> float:
    """How far ``crop`` is from ``text`` drawn light on dark, centred the same way."""
    probe = Image.new("L", crop.size, 0)
    ImageDraw.Draw(probe).text(
        (crop.width / 2, crop.height / 2), text, font=f, fill=255, anchor="mm"
    )
    return mean_difference(
        crop.point(lambda v: 255 if v > 128 else 0), probe.point(lambda v: 255 if v > 128 else 0)
    )


def test_legend_names_what_the_triangle_means_the_damaged_profile() -> None:
    """The triangle marks E7's damaged profile (a tactical squad that lost HP has none), and
    the legend says so in the words the game uses for it elsewhere."""
    console = {
        lang: (LOCALES / lang / "console.ftl").read_text(encoding="utf-8") for lang in ("ru", "en")
    }
    for lang in ("ru", "en"):
        words = label(lang, "legend.damaged").replace("\n", " ")
        assert f"({words})" in console[lang], lang
    state = playing(
        [Place("tac1", "tactical", S, "E1", hp=1), Place("dre1", "dreadnought", S, "A1", hp=3)]
    )
    image, lay = draw_board(state), lay_of(state)
    assert damaged_mark(image, lay, "E1") == 0 and damaged_mark(image, lay, "A1") > 0.3


def test_legend_lines_all_fit_their_column() -> None:
    for lang in ("ru", "en"):
        key = board_key(playing([]), 800, lang, THEME)
        lay = layout_of(key)
        f = font(Face.CONDENSED, 16)
        for item in legend_items(key):
            for line in item.lines:
                assert f.getlength(line) <= lay.legend[2] - lay.legend[0] - 22 - 6, line


def test_a_height_does_not_look_like_a_target() -> None:
    """Concentric rings read as a target: a height's sign points up, so turning or flipping
    its tile changes it, as it would not change rings."""
    tile = terrain_tile(TerrainKind.HEIGHT, 96, THEME).convert("L")
    for turned in (tile.rotate(90), tile.transpose(Image.Transpose.FLIP_TOP_BOTTOM)):
        assert mean_difference(tile, turned) > 10


# -- twice the pixel density (issue 12) -----------------------------------------------------
def test_scale_2_draws_the_same_board_at_twice_the_pixels() -> None:
    scene = SCENES["mid_game"]()
    args = {"events": scene.events, "before": scene.before, "names": scene.names}
    one = Image.open(io.BytesIO(render_board(scene.state, **args)))
    two = Image.open(io.BytesIO(render_board(scene.state, scale=2, **args)))
    assert two.width == 2 * one.width == 1600
    assert abs(two.height - 2 * one.height) <= 0.01 * two.height  # rounding in the layout
    lay1, lay2 = lay_of(scene.state, 800), lay_of(scene.state, 1600)
    assert abs(lay2.cell - 2 * lay1.cell) <= 1
    # the same board: reduced to the 1x board's size it looks like the 1x board ...
    board1 = one.convert("RGB").crop(lay1.board_box)
    board2 = two.convert("RGB").crop(lay2.board_box).resize(board1.size, Image.Resampling.BOX)
    assert mean_difference(board1, board2) < 10  # another scene's board differs by ~30
    # ... drawn with twice the detail, not the 1x image blown up
    blown = board1.resize(two.crop(lay2.board_box).size, Image.Resampling.BICUBIC)
    assert mean_difference(blown, two.convert("RGB").crop(lay2.board_box)) > 1


def test_scale_must_be_a_small_positive_factor() -> None:
    state = playing([])
    for scale in (0, -1, 5):
        with pytest.raises(ValueError, match="scale"):
            render_board(state, scale=scale)
