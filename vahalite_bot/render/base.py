"""The part of the image that changes only during setup: frame, shaded halves and zones,
terrain, grid, coordinates on all four sides and the legend.

Everything but the terrain is the same for every game on one scenario's board in one
language, so that is drawn once (``frame_layer``) and shared; each image then lays its
game's terrain tiles (cached per kind and size) on a copy and draws the grid over them
again. That costs a fraction of a millisecond, so a game never drawn before costs what
one drawn a moment ago does: a busy bot draws dozens of games in turn, and a cache per
terrain layout missed on nearly every image."""

from __future__ import annotations

import math
import string
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache

from PIL import Image, ImageDraw

from vahalite_bot.render.canvas import Canvas, stamp
from vahalite_bot.render.fonts import Face, Font, fitting_font, font
from vahalite_bot.render.labels import label
from vahalite_bot.render.layout import Layout, layout_for
from vahalite_bot.render.terrain import terrain_tile
from vahalite_bot.render.theme import RGB, Theme, mix
from vahalite_bot.render.tokens import draw_damaged_mark, draw_damaged_sign
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side, Terrain, TerrainKind
from vahalite_bot.rules.state import GameState

LEGEND_KINDS = (TerrainKind.OBSTACLE, TerrainKind.WATER, TerrainKind.HEIGHT, TerrainKind.COVER)
Rows = tuple[int, int]


@dataclass(frozen=True)
class BoardKey:
    """Everything the static layer depends on (a Scenario holds dicts, so not itself)."""

    cols: int
    rows: int
    halves: tuple[tuple[Side, Rows], ...]
    zones: tuple[tuple[Side, Rows], ...]
    terrain: tuple[tuple[Cell, Terrain], ...]
    fortifications: bool  # the legend explains them only where a scenario has them
    width: int
    lang: str
    theme: Theme


def board_key(state: GameState, width: int, lang: str, theme: Theme) -> BoardKey:
    sc = state.scenario
    pieces = list(state.terrain.values()) + list(sc.preplaced.values())
    return BoardKey(
        cols=sc.width,
        rows=sc.height,
        halves=tuple(sorted(sc.half_rows.items())),
        zones=tuple(sorted(sc.deploy_rows.items())),
        terrain=tuple(sorted(state.terrain.items())),
        fortifications=any(p.kind is TerrainKind.FORTIFICATION for p in pieces),
        width=width,
        lang=lang,
        theme=theme,
    )


# -- legend ------------------------------------------------------------------------------
@dataclass(frozen=True)
class LegendItem:
    key: str  # a terrain kind's value, "sp", "damaged" or "loaded"
    text: str  # one line, or two separated by a line break

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


def legend_items(key: BoardKey) -> list[LegendItem]:
    kinds = list(LEGEND_KINDS)
    if key.fortifications:
        kinds.append(TerrainKind.FORTIFICATION)
    items = [LegendItem(k.value, label(key.lang, f"terrain.{k.value}", value=3)) for k in kinds]
    if key.fortifications:  # its value varies: the badge on each cell tells it
        items[-1] = LegendItem(
            TerrainKind.FORTIFICATION.value, label(key.lang, "legend.fortification")
        )
    for extra in ("sp", "damaged", "loaded"):
        items.append(LegendItem(extra, label(key.lang, f"legend.{extra}")))
    return items


def _legend_font(width: int) -> Font:
    return font(Face.CONDENSED, round(16 * width / 800))


def _legend_metrics(width: int) -> tuple[int, int, int, int]:
    """The swatch's side, the gap after it, the height of one legend entry and how much
    taller each further line of text makes it."""
    u = width / 800
    return round(22 * u), round(6 * u), round(34 * u), round(19 * u)


def frame_key(key: BoardKey) -> BoardKey:
    """What the frame layer (and the layout) depend on: ``key`` without its terrain."""
    return replace(key, terrain=()) if key.terrain else key


def legend_width(key: BoardKey) -> int:
    return _legend_width(frame_key(key))


@lru_cache(maxsize=64)
def _legend_width(key: BoardKey) -> int:
    f = _legend_font(key.width)
    swatch, gap, _, _ = _legend_metrics(key.width)
    longest = max(f.getlength(line) for item in legend_items(key) for line in item.lines)
    return swatch + gap + round(longest) + 2


def layout_of(key: BoardKey) -> Layout:
    return _layout(frame_key(key))


@lru_cache(maxsize=64)
def _layout(key: BoardKey) -> Layout:
    return layout_for(key.cols, key.rows, key.width, legend_width(key))


# -- the layer ---------------------------------------------------------------------------
class _Kept(threading.local):
    """The last layer laid in this thread while ``layers_kept`` is open."""

    open = False
    key: BoardKey | None = None
    layer: Image.Image | None = None


_kept = _Kept()


@contextmanager
def layers_kept() -> Iterator[None]:
    """While open, ``base_layer`` keeps the last layer it laid and hands out copies of it
    for the same key: a replay draws a hundred frames of one game's terrain in a row, where
    a bot's posts of many games in turn would only pay for a copy that none reuses."""
    was = _kept.open
    _kept.open = True
    try:
        yield
    finally:
        _kept.open = was
        if not was:  # the layer goes with the last one to close
            _kept.key, _kept.layer = None, None


def base_layer(key: BoardKey) -> Image.Image:
    """A new image of ``key``'s static layer, to draw on: the shared frame layer with the
    game's terrain laid on it (the grid runs over the tiles, so it is drawn again)."""
    if not _kept.open:
        return _laid(key)
    if _kept.layer is None or _kept.key != key:
        _kept.key, _kept.layer = key, _laid(key)
    return _kept.layer.copy()


def _laid(key: BoardKey) -> Image.Image:
    frame = frame_key(key)
    image = frame_layer(frame).copy()
    if not key.terrain:
        return image
    lay = layout_of(frame)
    for cell, piece in key.terrain:
        if 0 <= cell.col < key.cols and 0 <= cell.row < key.rows:
            x0, y0, _, _ = lay.cell_box(cell)
            stamp(image, terrain_tile(piece.kind, lay.cell, key.theme), (x0, y0))
    _grid(ImageDraw.Draw(image), lay, dict(key.halves), key.theme)
    return image


# One per scenario board, language, width and theme: a few dozen at most on a busy bot.
@lru_cache(maxsize=64)
def frame_layer(key: BoardKey) -> Image.Image:
    """Everything of the static layer but the terrain: shaded rows, grid, coordinates,
    legend. Shared by every game with the same ``frame_key``; never drawn on."""
    lay = layout_of(key)
    theme = key.theme
    image = Image.new("RGB", (lay.width, lay.height), theme.frame)
    draw = ImageDraw.Draw(image)
    halves, zones = dict(key.halves), dict(key.zones)
    for row in range(key.rows):
        colour = row_colour(row, halves, zones, theme)
        for col in range(key.cols):
            draw.rectangle(_inclusive(lay.cell_box(Cell(col, row))), fill=colour)
    _grid(draw, lay, halves, theme)
    _coordinates(draw, lay, theme)
    _legend(image, draw, key, lay)
    return image


def _inclusive(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return (box[0], box[1], box[2] - 1, box[3] - 1)


def row_colour(row: int, halves: dict[Side, Rows], zones: dict[Side, Rows], theme: Theme) -> RGB:
    for side in Side:
        tint = theme.side(side).tint
        lo, hi = zones.get(side, (-1, -1))
        if lo <= row <= hi:
            return mix(theme.board, tint, theme.zone_tint)
        lo, hi = halves.get(side, (-1, -1))
        if lo <= row <= hi:
            return mix(theme.board, tint, theme.half_tint)
    return theme.board


def divider_rows(halves: dict[Side, Rows], rows: int) -> set[int]:
    """The rows whose lower edge is drawn as a line: where each half ends. With neutral rows
    between the halves (L, River crossing) both edges are marked, so the unshaded band
    between the lines reads as nobody's."""
    south_top = halves.get(Side.SOUTH, (0, -1))[1]
    north_bottom = halves.get(Side.NORTH, (0, -1))[0]
    return {edge for edge in (south_top + 1, north_bottom) if 0 < edge < rows}


def _grid(draw: ImageDraw.ImageDraw, lay: Layout, halves: dict[Side, Rows], theme: Theme) -> None:
    x0, y0, x1, y1 = lay.board_box
    thin = max(1, round(lay.u))
    for col in range(1, lay.cols):
        x = x0 + col * lay.cell
        draw.line((x, y0, x, y1), fill=theme.grid, width=thin)
    for row in range(1, lay.rows):
        y = y0 + row * lay.cell
        draw.line((x0, y, x1, y), fill=theme.grid, width=thin)
    for edge in sorted(divider_rows(halves, lay.rows)):
        y = y0 + (lay.rows - edge) * lay.cell
        draw.line((x0, y, x1, y), fill=theme.divider, width=max(2, round(3 * lay.u)))
    border = max(2, round(3 * lay.u))
    draw.rectangle(
        (x0 - border, y0 - border, x1 + border - 1, y1 + border - 1),
        outline=theme.divider,
        width=border,
    )


def coordinate_font(lay: Layout) -> Font:
    """Bold, as large as the margin takes the longest row number (two digits from row 10)."""
    widest = str(lay.rows)
    return fitting_font(widest, Face.BOLD, min(lay.px(19), round(lay.cell * 0.3)), lay.margin - 4)


def _coordinates(draw: ImageDraw.ImageDraw, lay: Layout, theme: Theme) -> None:
    f = coordinate_font(lay)
    x0, y0, x1, y1 = lay.board_box
    off = lay.margin / 2 + max(1, round(1.5 * lay.u))
    for col in range(lay.cols):
        letter = string.ascii_uppercase[col]
        cx = x0 + (col + 0.5) * lay.cell
        draw.text((cx, y0 - off), letter, font=f, fill=theme.frame_muted, anchor="mm")
        draw.text((cx, y1 + off), letter, font=f, fill=theme.frame_muted, anchor="mm")
    for row in range(lay.rows):
        number = str(row + 1)
        cy = y0 + (lay.rows - 1 - row + 0.5) * lay.cell
        draw.text((x0 - off, cy), number, font=f, fill=theme.frame_muted, anchor="mm")
        draw.text((x1 + off, cy), number, font=f, fill=theme.frame_muted, anchor="mm")


def _legend(image: Image.Image, draw: ImageDraw.ImageDraw, key: BoardKey, lay: Layout) -> None:
    """The legend column beside the board, centred on it."""
    theme = key.theme
    f = _legend_font(key.width)
    swatch, gap, entry, extra = _legend_metrics(key.width)
    items = legend_items(key)
    heights = [entry + extra * (len(item.lines) - 1) for item in items]
    x0, y0, _, y1 = lay.legend
    top = (y0 + y1) / 2 - sum(heights) / 2
    for item, height in zip(items, heights, strict=True):
        cy = top + height / 2
        sy = round(cy - swatch / 2)
        _swatch(image, item.key, (x0, sy, x0 + swatch, sy + swatch), theme)
        first = cy - extra * (len(item.lines) - 1) / 2
        for i, line in enumerate(item.lines):
            draw.text(
                (x0 + swatch + gap, first + i * extra),
                line,
                font=f,
                fill=theme.frame_text,
                anchor="lm",
            )
        top += height


def _swatch(image: Image.Image, key: str, box: tuple[int, int, int, int], theme: Theme) -> None:
    size = box[2] - box[0]
    if key in {k.value for k in TerrainKind}:
        image.paste(terrain_tile(TerrainKind(key), size, theme), box[:2])
        ImageDraw.Draw(image).rectangle(_inclusive(box), outline=theme.frame_muted)
        return
    canvas = Canvas(box, scale=4)
    if key == "sp":
        draw_sp_badge(canvas, box, None, theme)
    elif key == "damaged":  # the very mark a token carries (tokens.draw_damaged_mark)
        draw_damaged_mark(canvas, _damaged_swatch(box), theme)
    else:  # a loaded transport's plate
        pad = size * 0.18
        plate = (box[0], box[1] + pad, box[2], box[3] - pad)
        canvas.rect(
            plate, fill=theme.badge, outline=theme.divider, width=size * 0.06, radius=size * 0.12
        )
    layer = canvas.image()
    image.paste(layer, box[:2], layer)
    draw = ImageDraw.Draw(image)
    if key == "damaged":
        draw_damaged_sign(draw, _damaged_swatch(box), theme)
    elif key == "loaded":
        f = font(Face.CONDENSED_BOLD, round(size * 0.5))
        draw.text(
            (box[0] + size / 2, box[1] + size / 2), "+", font=f, fill=theme.badge_text, anchor="mm"
        )


def _damaged_swatch(box: tuple[int, int, int, int]) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = box
    return (x0 + 1.0, y0 + 2.0, x1 - 1.0, y1 - 2.0)


def draw_sp_badge(
    canvas: Canvas, box: tuple[float, float, float, float], holder: Side | None, theme: Theme
) -> None:
    """A strategic position's mark: a star on its holder's colour and shape (grey: legend)."""
    x0, y0, x1, y1 = box
    size = x1 - x0
    if holder is None:
        fill, edge, ink = theme.frame_muted, theme.divider, theme.badge
    else:
        palette = theme.side(holder)
        fill, edge, ink = palette.fill, palette.edge, palette.ink
    if holder is Side.NORTH:
        canvas.rect(box, fill=fill, outline=edge, width=size * 0.08, radius=size * 0.18)
    else:
        canvas.ellipse(box, fill=fill, outline=edge, width=size * 0.08)
    canvas.polygon(_star((x0 + x1) / 2, (y0 + y1) / 2 + size * 0.02, size * 0.36), fill=ink)


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points
