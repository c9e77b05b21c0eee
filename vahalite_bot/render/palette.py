"""A 256-colour palette per theme, so the PNG is a quarter of the bytes to compress.

Building a palette from each image would cost more than drawing it, and one per terrain
layout missed on nearly every image of a bot serving many games. Every colour an image
shows is a theme colour or a blend of a few of them (antialiased edges, washes, shadows),
so one sample board holds them all: every row shade, every terrain kind, the legend, and
the same board again dressed with every kind of mark (tokens of both sides on every kind
of cell, arrows, crosses, plates, badges). Its palette, built once per theme, serves any
image of any game with no visible change.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from vahalite_bot.render import marks
from vahalite_bot.render.base import BoardKey, base_layer, layout_of
from vahalite_bot.render.header import side_chip
from vahalite_bot.render.layout import Layout
from vahalite_bot.render.theme import Theme, mix
from vahalite_bot.render.tokens import TokenSpec
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side, Terrain, TerrainKind
from vahalite_bot.rules.sheets import UnitType

COLOURS = 256


@lru_cache(maxsize=16)
def theme_palette(theme: Theme, colours: int = COLOURS) -> Image.Image:
    """A "P" image whose ``colours`` suit every image drawn with ``theme``."""
    key = sample_key(theme)
    base = base_layer(key)
    lay = layout_of(key)
    sample = Image.new("RGB", (lay.width, lay.height * 2), theme.frame)
    sample.paste(base, (0, 0))
    dressed = base.copy()
    _dress(dressed, lay, theme)
    sample.paste(dressed, (0, lay.height))
    found = sample.quantize(colours, method=Image.Quantize.FASTOCTREE).getpalette() or []
    palette = Image.new("P", (1, 1))  # keep the colours, not the sample
    palette.putpalette(found)
    return palette


SAMPLE_COLS, SAMPLE_ROWS = 6, 9
SAMPLE_WIDTH = 800  # the blends at other widths are the same colours in other places


def sample_key(theme: Theme) -> BoardKey:
    """A board with every row shade (each side's zone and half, a neutral row between) and
    every terrain kind on every other cell, so the dressing puts each mark on each."""
    kinds = list(TerrainKind)
    cells = [Cell(c, r) for r in range(SAMPLE_ROWS) for c in range(SAMPLE_COLS)]
    terrain = tuple(
        (cell, Terrain(kinds[(i // 2) % len(kinds)])) for i, cell in enumerate(cells) if i % 2 == 0
    )
    return BoardKey(
        cols=SAMPLE_COLS,
        rows=SAMPLE_ROWS,
        halves=((Side.SOUTH, (0, 3)), (Side.NORTH, (5, 8))),
        zones=((Side.SOUTH, (0, 1)), (Side.NORTH, (7, 8))),
        terrain=terrain,
        fortifications=True,
        width=SAMPLE_WIDTH,
        lang="en",
        theme=theme,
    )


def quantize(image: Image.Image, palette: Image.Image) -> Image.Image:
    """The nearest palette colour for each pixel; dithering would only add noise to text."""
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def _dress(image: Image.Image, lay: Layout, theme: Theme) -> None:
    cells = [Cell(c, r) for r in range(lay.rows) for c in range(lay.cols)]
    kinds = list(UnitType)
    draw = ImageDraw.Draw(image)
    marks.highlight(image, lay, cells[::3], theme)
    for i, cell in enumerate(cells):
        side = Side.SOUTH if i % 2 == 0 else Side.NORTH
        if i % 5 == 0:
            marks.sp_ring(draw, lay, cell, side, i % 2 == 0, theme)
        k = i % len(kinds)  # a few distinct tokens: drawing each costs more than pasting
        spec = TokenSpec(
            side=side,
            kind=kinds[k],
            handle="abc1",
            hp=2 + k % 3,
            wounds=1 + k % 2,
            max_hp=6,
            damaged=k % 2 == 0,
            passenger="abc2" if k % 3 == 0 else None,
        )
        if i % 7 == 3:
            marks.ghost(image, lay, cell, spec, theme)
            marks.cross(image, lay, cell, theme)
        else:
            marks.token(image, lay, cell, spec, theme)
        if i % 5 == 0:
            marks.sp_badge(image, lay, cell, side, theme)
        if i % 6 == 1:
            marks.cover_badge(image, lay, cell, 3 + i % 4, theme)
        marks.words(image, lay, cell, spec, theme)
        if spec.passenger is not None:
            room = marks.passenger_room(lay.cell, None)
            marks.passenger_tag(image, lay, cell, spec.passenger, side, room, theme)
    last_row = [Cell(c, lay.rows - 1) for c in range(lay.cols)]
    first_col = [Cell(0, r) for r in range(lay.rows)]
    marks.path(image, lay, Side.SOUTH, first_col, theme)
    marks.path(image, lay, Side.NORTH, last_row, theme)
    marks.strike(image, lay, cells[0], cells[-1], theme)
    marks.strike(image, lay, cells[lay.cols - 1], cells[-lay.cols], theme)
    for i, cell in enumerate(cells[1::4]):
        marks.damage(image, lay, cell, i % 4, theme)
    x0, y0, x1, y1 = lay.header
    plate = mix(theme.frame, theme.frame_text, 0.14)
    draw.rounded_rectangle((x0, y0, x0 + (x1 - x0) // 3, y1 // 2), radius=8, fill=plate)
    for i, side in enumerate(Side):
        chip = side_chip(side, lay.px(26), theme)
        image.paste(chip, (x0 + i * lay.px(40), y0), chip)
        draw.rectangle(
            (x1 - (i + 1) * 60, y0, x1 - i * 60 - 10, y0 + 4), fill=theme.side(side).fill
        )
