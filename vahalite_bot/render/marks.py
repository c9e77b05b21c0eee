"""Everything drawn over the static layer, one cell or one arrow at a time."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import replace
from functools import lru_cache

from PIL import Image, ImageDraw

from vahalite_bot.render.base import draw_sp_badge
from vahalite_bot.render.canvas import Canvas, Point, stamp
from vahalite_bot.render.fonts import Face, Font, draw_text, fit, fitting_font, font, text_width
from vahalite_bot.render.layout import Box, Layout
from vahalite_bot.render.theme import Theme, with_alpha
from vahalite_bot.render.tokens import (
    FloatBox,
    TokenGeometry,
    TokenSpec,
    ghost_sprite,
    token_sprite,
    words_sprite,
)
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side

WHITE = (255, 255, 255)
Ground = Hashable  # what lies under a mark in its cell (see ``board.draw_story``)


def on_board(lay: Layout, cell: Cell) -> bool:
    return 0 <= cell.col < lay.cols and 0 <= cell.row < lay.rows


def highlight(image: Image.Image, lay: Layout, cells: Sequence[Cell], theme: Theme) -> None:
    """A light wash over the cells the last action touched (like a chess board's last move)."""
    for cell in cells:
        if on_board(lay, cell):
            x0, y0, _, _ = lay.cell_box(cell)
            _wash(image, (x0, y0), lay.cell, theme)


def _wash(image: Image.Image, xy: tuple[int, int], px: int, theme: Theme) -> None:
    r, g, b, a = theme.highlight
    stamp(image, (r, g, b), xy, _flat_mask(px, a))


# Blending the wash through a mask costs some 50 us a cell (a whole turn's recap washes
# many), an opaque paste 2 us; what a cell holds before it is one of a few grounds, so
# each ground is washed once.
WASHED = 128  # some 40 KB each at 800 px
_washed: OrderedDict[tuple[Hashable, int, float, Theme], Image.Image] = OrderedDict()


def wash(image: Image.Image, lay: Layout, cell: Cell, ground: Ground, theme: Theme) -> None:
    """``highlight`` of one cell that holds only ``ground`` yet (its terrain tile or row's
    shade and the lines along its edges: ``board.draw_story``)."""
    if not on_board(lay, cell):
        return
    key = (ground, lay.cell, lay.u, theme)  # the lines' widths go with u, not px
    box = lay.cell_box(cell)
    tile = _washed.get(key)
    if tile is None:
        tile = image.crop(box)
        _wash(tile, (0, 0), lay.cell, theme)
        _washed[key] = tile
        if len(_washed) > WASHED:
            _washed.popitem(last=False)
    else:
        _washed.move_to_end(key)
    stamp(image, tile, box[:2])


@lru_cache(maxsize=8)
def _flat_mask(px: int, alpha: int) -> Image.Image:
    return Image.new("L", (px, px), alpha)


def sp_ring(
    draw: ImageDraw.ImageDraw, lay: Layout, cell: Cell, holder: Side, bold: bool, theme: Theme
) -> None:
    """A frame inside an SP's cell in its holder's colour (J1), bolder where just taken."""
    x0, y0, x1, y1 = lay.cell_box(cell)
    palette = theme.side(holder)
    width = max(2, round(lay.cell * (0.075 if bold else 0.045)))
    inset = max(1, round(lay.cell * 0.02))
    box = (x0 + inset, y0 + inset, x1 - inset - 1, y1 - inset - 1)
    draw.rectangle(box, outline=palette.edge, width=width + 2)
    inner = (box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1)
    draw.rectangle(inner, outline=palette.fill, width=width)


def token(image: Image.Image, lay: Layout, cell: Cell, spec: TokenSpec, theme: Theme) -> None:
    if on_board(lay, cell):
        _paste(image, lay, cell, _trimmed("body", spec, lay.cell, theme))


def words(image: Image.Image, lay: Layout, cell: Cell, spec: TokenSpec, theme: Theme) -> None:
    """The token's handle and HP plate, pasted last: nothing drawn on the board covers them."""
    if on_board(lay, cell):
        _paste(image, lay, cell, _trimmed("words", spec, lay.cell, theme))


def ghost(image: Image.Image, lay: Layout, cell: Cell, spec: TokenSpec, theme: Theme) -> None:
    """The faded token of a unit the last action destroyed."""
    if on_board(lay, cell):
        _paste(image, lay, cell, _trimmed("ghost", spec, lay.cell, theme))


@lru_cache(maxsize=4096)  # by the whole spec: ``replace`` on each token cost more than a look-up
def _trimmed(layer: str, spec: TokenSpec, px: int, theme: Theme) -> Sprite:
    if layer != "words":  # a body shows only side, kind and damaged mark: many units share it
        spec = replace(spec, handle="", hp=0, wounds=1, max_hp=1, passenger=None)
    return _trimmed_sprite(layer, spec, px, theme)


@lru_cache(maxsize=1024)
def _trimmed_sprite(layer: str, spec: TokenSpec, px: int, theme: Theme) -> Sprite:
    """A token layer cut to its visible part: pasting is most of a board's drawing time,
    and half of a cell-sized layer is transparent."""
    makers = {"body": token_sprite, "words": words_sprite, "ghost": ghost_sprite}
    sprite = makers[layer](spec, px, theme)
    box = sprite.getchannel("A").getbbox() or (0, 0, 1, 1)
    return sprite.crop(box), box[0], box[1]


# -- a token and its words in one opaque paste ----------------------------------------------
# Blending a token's two layers onto the board was a fifth of a board's CPU time. Where
# nothing is drawn between them (no arrow, cross, plate or faded token over the cell) and
# what lies under them is one of a few grounds (the row's shade or a terrain tile, the wash
# of a touched cell, an SP's frame), the cell's pixels there are the same every time: the
# ground, the body and the words are blended once and pasted whole after that.
WHOLE_TOKENS = 1024  # some 18 KB each at 800 px
_whole: OrderedDict[tuple[Hashable, TokenSpec, int, float, Theme], Sprite] = OrderedDict()


def whole_token(
    image: Image.Image, lay: Layout, cell: Cell, spec: TokenSpec, ground: Ground, theme: Theme
) -> None:
    """The token's body and words in one paste (``ground``: all that lies under them in
    the cell, the lines along its edges included)."""
    if not on_board(lay, cell):
        return
    px = lay.cell
    key = (ground, spec, px, lay.u, theme)  # the lines' widths go with u, not px
    sprite = _whole.get(key)
    x, y, _, _ = lay.cell_box(cell)
    if sprite is None:
        body, words = _trimmed("body", spec, px, theme), _trimmed("words", spec, px, theme)
        x0 = min(body[1], words[1])
        y0 = min(body[2], words[2])
        x1 = max(body[1] + body[0].width, words[1] + words[0].width)
        y1 = max(body[2] + body[0].height, words[2] + words[0].height)
        tile = image.crop((x + x0, y + y0, x + x1, y + y1))  # the ground, nothing on it yet
        for layer, dx, dy in (body, words):
            stamp(tile, layer, (dx - x0, dy - y0), layer)
        sprite = (tile, x0, y0)
        _whole[key] = sprite
        if len(_whole) > WHOLE_TOKENS:
            _whole.popitem(last=False)
    else:
        _whole.move_to_end(key)
    stamp(image, sprite[0], (x + sprite[1], y + sprite[2]))


@lru_cache(maxsize=4096)
def within_cell(spec: TokenSpec, px: int, theme: Theme) -> bool:
    """Whether both layers of the token lie inside its cell (a long handle on a small cell
    may spill over into the next)."""
    return all(
        dx >= 0 and dy >= 0 and dx + layer.width <= px and dy + layer.height <= px
        for layer, dx, dy in (_trimmed(kind, spec, px, theme) for kind in ("body", "words"))
    )


def covered_cells(lay: Layout, boxes: Sequence[Box]) -> set[Cell]:
    """The cells any of ``boxes`` (image pixels) reaches into."""
    x0, _, _, y1 = lay.board_box
    cells: set[Cell] = set()
    for bx0, by0, bx1, by1 in boxes:
        cols = range(max(0, (bx0 - x0) // lay.cell), min(lay.cols, (bx1 - 1 - x0) // lay.cell + 1))
        rows = range(max(0, (y1 - by1) // lay.cell), min(lay.rows, (y1 - 1 - by0) // lay.cell + 1))
        cells.update(Cell(col, row) for col in cols for row in rows)
    return cells


def _box(lay: Layout, cell: Cell, sprite: Sprite) -> Box:
    layer, dx, dy = sprite
    x, y, _, _ = lay.cell_box(cell)
    return (x + dx, y + dy, x + dx + layer.width, y + dy + layer.height)


def path_box(lay: Layout, side: Side, cells: Sequence[Cell], theme: Theme) -> Box | None:
    if len(cells) < 2:
        return None
    return _box(lay, cells[0], _path_sprite(side, _steps(cells), lay.cell, theme))


def strike_box(lay: Layout, source: Cell, target: Cell, theme: Theme) -> Box:
    return _box(lay, source, _strike_sprite(_steps((source, target)), lay.cell, theme))


def ghost_box(lay: Layout, cell: Cell, spec: TokenSpec, theme: Theme) -> Box:
    return _box(lay, cell, _trimmed("ghost", spec, lay.cell, theme))


def cross_box(lay: Layout, cell: Cell, theme: Theme) -> Box:
    return _box(lay, cell, _cross_sprite(lay.cell, theme))


def damage_box(lay: Layout, target: Cell, amount: int, theme: Theme) -> Box:
    return _box(lay, target, _damage_sprite(amount, lay.cell, theme))


# -- overlays, drawn once per shape and cell size ------------------------------------------
# An arrow depends only on the cells it joins relative to its first cell, so each overlay
# is a sprite cached by that shape and pasted at the first cell's corner.
Sprite = tuple[Image.Image, int, int]  # the image and where it goes from the cell's corner
Steps = tuple[tuple[int, int], ...]  # cells as (columns east, rows north) of the first


def _paste(image: Image.Image, lay: Layout, cell: Cell, sprite: Sprite) -> None:
    layer, dx, dy = sprite
    x0, y0, _, _ = lay.cell_box(cell)
    stamp(image, layer, (x0 + dx, y0 + dy), layer)


def _steps(cells: Sequence[Cell]) -> Steps:
    first = cells[0]
    return tuple((c.col - first.col, c.row - first.row) for c in cells)


def _points(steps: Steps, px: int) -> list[Point]:
    """Token centres of the cells, from the first cell's corner (rows go up the image)."""
    g = TokenGeometry(px)
    return [(g.centre[0] + dc * px, g.centre[1] - dr * px) for dc, dr in steps]


def _canvas(points: Sequence[Point], pad: float, scale: int) -> Canvas:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    box = (
        math.floor(min(xs) - pad),
        math.floor(min(ys) - pad),
        math.ceil(max(xs) + pad),
        math.ceil(max(ys) + pad),
    )
    return Canvas(box, scale=scale)


def _sprite(canvas: Canvas) -> Sprite:
    return canvas.image(), canvas.box[0], canvas.box[1]


# Pasting through a mask costs the same for every pixel of the layer, a transparent one
# too, and an arrow or a cross covers a tenth to a third of its box: pasted as bands, each
# cut to what it shows, it blends a third as many pixels (transparent ones change nothing).
def _bands(sprite: Sprite, px: int) -> tuple[Sprite, ...]:
    """``sprite`` as horizontal bands, each cut to its visible part (none if it has none)."""
    layer, dx, dy = sprite
    height = max(8, px // 6)  # about an arrow's width: a diagonal's bands stay narrow
    alpha = layer.getchannel("A")
    bands = []
    for top in range(0, layer.height, height):
        band = (0, top, layer.width, min(layer.height, top + height))
        box = alpha.crop(band).getbbox()
        if box is not None:
            x0, y0, x1, y1 = box[0], top + box[1], box[2], top + box[3]
            bands.append((layer.crop((x0, y0, x1, y1)), dx + x0, dy + y0))
    return tuple(bands)


def _paste_bands(image: Image.Image, lay: Layout, cell: Cell, bands: Sequence[Sprite]) -> None:
    for band in bands:
        _paste(image, lay, cell, band)


EDGE_HALF_WIDTH = 0.06  # of a cell: the widest line an arrow draws (its white edge), halved


def _exit(start: Point, direction: Point, box: FloatBox) -> float:
    """How far along ``direction`` (a unit vector) from ``start`` a ray leaves ``box``; 0
    if it never crosses it."""
    lo, hi = 0.0, math.inf
    for origin, d, a, b in (
        (start[0], direction[0], box[0], box[2]),
        (start[1], direction[1], box[1], box[3]),
    ):
        if abs(d) < 1e-9:
            if not a <= origin <= b:
                return 0.0
            continue
        t0, t1 = sorted(((a - origin) / d, (b - origin) / d))
        lo, hi = max(lo, t0), min(hi, t1)
    return hi if lo <= hi else 0.0


def clearance(px: int, towards: Point) -> float:
    """How far from a token's centre a line in direction ``towards`` must start (or stop)
    to keep off the token's words, its handle and its HP plate (the words are pasted over
    arrows anyway, but an arrowhead hidden under them would say nothing): where the ray
    leaves them grown by the half width of an arrow's white edge, so the whole width
    stays off (a ray that has left a box never comes back to it)."""
    g = TokenGeometry(px)
    length = math.hypot(*towards) or 1.0
    unit = (towards[0] / length, towards[1] / length)
    grow = px * EDGE_HALF_WIDTH
    far = 0.0
    for x0, y0, x1, y1 in (g.words_zone, g.hp_box):
        far = max(far, _exit(g.centre, unit, (x0 - grow, y0 - grow, x1 + grow, y1 + grow)))
    return far + px * 0.01 if far else 0.0


def _ends(
    px: int, points: Sequence[Point], head: float, start: float | None = None
) -> tuple[float, float]:
    """How far an arrow along ``points`` stays from its first and its last token's centre:
    off the token's body where there is room, off its words always (between neighbours
    the arrow may cross the attacker's glyph rather than lose its head). ``start`` fixes
    the first (a move starts at a ring where no token stands any more)."""
    (ax, ay), (bx, by) = points[0], points[1]
    (yx, yy), (zx, zy) = points[-2], points[-1]
    body = TokenGeometry(px).radius * 1.05
    end_words = clearance(px, (yx - zx, yy - zy))
    end = max(body, end_words)
    if start is not None:
        return start, end
    start_words = clearance(px, (bx - ax, by - ay))
    begin = max(body, start_words)
    if len(points) == 2:
        room = math.hypot(bx - ax, by - ay) - head * 1.1
        if begin + end > room:
            begin = max(start_words, room - end)
        if begin + end > room:
            end = max(end_words, room - begin)
    return begin, end


def trim(points: Sequence[Point], start: float, end: float) -> list[Point]:
    """The polyline with ``start`` px cut from its first segment and ``end`` px from its
    last (never more than leaves a pixel of either)."""
    pts = list(points)
    for index, neighbour, cut in ((0, 1, start), (-1, -2, end)):
        (x, y), (nx, ny) = pts[index], pts[neighbour]
        length = math.hypot(nx - x, ny - y) or 1.0
        k = min(cut, length - 1.0) / length
        pts[index] = (x + (nx - x) * k, y + (ny - y) * k)
    return pts


def path(image: Image.Image, lay: Layout, side: Side, cells: Sequence[Cell], theme: Theme) -> None:
    """A move: an arrow through the cells' centres, from a ring where the unit started."""
    if len(cells) >= 2:
        _paste_bands(image, lay, cells[0], _path_bands(side, _steps(cells), lay.cell, theme))


@lru_cache(maxsize=128)
def _path_bands(side: Side, steps: Steps, px: int, theme: Theme) -> tuple[Sprite, ...]:
    return _bands(_path_sprite(side, steps, px, theme), px)


@lru_cache(maxsize=128)
def _path_sprite(side: Side, steps: Steps, px: int, theme: Theme) -> Sprite:
    points = _points(steps, px)
    palette = theme.side(side)
    g = TokenGeometry(px)
    width = px * 0.085
    head = px * 0.2
    ring = g.radius * 0.75
    canvas = _canvas(points, g.radius + width, scale=2)
    sx, sy = points[0]
    canvas.ellipse(
        (sx - ring, sy - ring, sx + ring, sy + ring),
        outline=with_alpha(palette.edge, 200),
        width=width * 0.6,
    )
    line = trim(points, ring, _ends(px, points, head * 1.25, start=ring)[1])
    canvas.arrow(line, with_alpha(WHITE, 210), width * 1.7, head * 1.25)
    canvas.arrow(line, with_alpha(palette.fill, 240), width, head)
    return _sprite(canvas)


def strike(image: Image.Image, lay: Layout, source: Cell, target: Cell, theme: Theme) -> None:
    """An attack: a line from the attacker's edge to an arrowhead at the target."""
    _paste_bands(image, lay, source, _strike_bands(_steps((source, target)), lay.cell, theme))


@lru_cache(maxsize=128)
def _strike_bands(steps: Steps, px: int, theme: Theme) -> tuple[Sprite, ...]:
    return _bands(_strike_sprite(steps, px, theme), px)


@lru_cache(maxsize=128)
def _strike_sprite(steps: Steps, px: int, theme: Theme) -> Sprite:
    points = _points(steps, px)
    width = px * 0.05
    head = px * 0.17
    begin, end = _ends(px, points, head * 1.3)
    if len(points) == 2:  # between close neighbours a smaller head, rather than one on a name
        room = math.hypot(points[1][0] - points[0][0], points[1][1] - points[0][1])
        head = max(px * 0.06, min(head, (room - begin - end) / 1.3))
    points = trim(points, begin, end)
    canvas = _canvas(points, head * 1.5, scale=2)
    canvas.arrow(points, with_alpha(WHITE, 235), width * 2.2, head * 1.3)
    canvas.arrow(points, with_alpha(theme.damage, 255), width, head)
    return _sprite(canvas)


def damage(image: Image.Image, lay: Layout, target: Cell, amount: int, theme: Theme) -> None:
    """The damage dealt, on a plate right of the target's glyph and above its handle (over
    the lower edge of an SP star there: the frame round the cell still marks the SP)."""
    _paste(image, lay, target, _damage_sprite(amount, lay.cell, theme))


def damage_geometry(amount: int, px: int) -> tuple[FloatBox, str]:
    """The damage plate's box in the target's cell (right of its glyph, above its handle,
    clear of both) and its text."""
    g = TokenGeometry(px)
    text = f"−{amount}" if amount else "0"
    width = text_width(text, font(Face.BOLD, g.damage_px)) + px * 0.1
    return g.damage_box(width), text


@lru_cache(maxsize=64)
def _damage_sprite(amount: int, px: int, theme: Theme) -> Sprite:
    box, text = damage_geometry(amount, px)
    g = TokenGeometry(px)
    h = box[3] - box[1]
    canvas = Canvas((math.floor(box[0]) - 2, math.floor(box[1]) - 2, px, math.ceil(box[3]) + 2), 3)
    fill = theme.damage if amount else theme.hp_lost
    canvas.rect(box, fill=fill, outline=WHITE, width=max(1.0, px * 0.018), radius=h * 0.35)
    layer = canvas.image()
    centre = ((box[0] + box[2]) / 2 - canvas.box[0], (box[1] + box[3]) / 2 - canvas.box[1])
    draw_text(layer, centre, text, Face.BOLD, g.damage_px, WHITE)
    return layer, canvas.box[0], canvas.box[1]


def cross(image: Image.Image, lay: Layout, cell: Cell, theme: Theme) -> None:
    """A cross over a destroyed unit's faded token."""
    _paste_bands(image, lay, cell, _cross_bands(lay.cell, theme))


@lru_cache(maxsize=8)
def _cross_bands(px: int, theme: Theme) -> tuple[Sprite, ...]:
    return _bands(_cross_sprite(px, theme), px)


@lru_cache(maxsize=8)
def _cross_sprite(px: int, theme: Theme) -> Sprite:
    g = TokenGeometry(px)
    cx, cy = g.centre
    r = g.radius * 0.75
    width = px * 0.055
    canvas = _canvas([(cx - r, cy - r), (cx + r, cy + r)], width * 2, scale=3)
    for colour, w in ((with_alpha(WHITE, 220), width * 1.8), (with_alpha(theme.cross, 230), width)):
        canvas.line([(cx - r, cy - r), (cx + r, cy + r)], colour, w)
        canvas.line([(cx - r, cy + r), (cx + r, cy - r)], colour, w)
    return _sprite(canvas)


def _badge_geometry(px: int) -> tuple[int, int]:
    return round(px * 0.26), round(px * 0.03)


def sp_badge_box(px: int) -> Box:
    """The SP star's box in its cell: the upper right corner."""
    size, inset = _badge_geometry(px)
    return (px - inset - size, inset, px - inset, inset + size)


def cover_badge_box(px: int, value: int) -> Box:
    """The cover value's plate in its cell: the upper left corner."""
    size, inset = _badge_geometry(px)
    width = _cover_width(value, size)
    return (inset, inset, inset + width, inset + size)


def sp_badge(image: Image.Image, lay: Layout, cell: Cell, holder: Side, theme: Theme) -> None:
    """The SP's star in its holder's colour and shape, at the cell's upper right."""
    size, _ = _badge_geometry(lay.cell)
    x, y, _, _ = sp_badge_box(lay.cell)
    x0, y0, _, _ = lay.cell_box(cell)
    sprite = _sp_sprite(holder, size, theme)
    stamp(image, sprite, (x0 + x, y0 + y), sprite)


def cover_badge(image: Image.Image, lay: Layout, cell: Cell, value: int, theme: Theme) -> None:
    """The cover value (E8) at the cell's upper left."""
    size, _ = _badge_geometry(lay.cell)
    x, y, _, _ = cover_badge_box(lay.cell, value)
    x0, y0, _, _ = lay.cell_box(cell)
    sprite = _cover_sprite(value, size, theme)
    stamp(image, sprite, (x0 + x, y0 + y), sprite)


# -- the passenger tag ---------------------------------------------------------------------
def passenger_geometry(
    passenger: str, px: int, left: float, right: float
) -> tuple[FloatBox, str, Font]:
    """The tag naming a transport's passenger, above its token, between ``left`` and
    ``right`` (the cell's edges, or the corner badges beside it): its box, its text (whole
    unless it does not fit even in the smallest type) and its font."""
    return tag_geometry("+" + passenger, px, left, right)


def tag_geometry(text: str, px: int, left: float, right: float) -> tuple[FloatBox, str, Font]:
    """A tag's box above a token, its text and its font (see ``passenger_geometry``)."""
    pad = max(1.0, px * 0.025)
    room = right - left
    f = fitting_font(text, Face.CONDENSED_BOLD, round(px * 0.155), room - 2 * pad)
    text = fit(text, f, room - 2 * pad)
    width = min(room, text_width(text, f) + 2 * pad)
    centre = min(max(px / 2, left + width / 2), right - width / 2)
    height = max(px * 0.18, f.size + 2.0)
    top = max(0.0, min(px * 0.005, px * 0.185 - height))  # clear of the glyph below it
    return (centre - width / 2, top, centre + width / 2, top + height), text, f


def passenger_room(px: int, cover: int | None) -> tuple[float, float]:
    """Where a passenger tag may spread in a cell: right of a cover value's plate if the
    cell has one. It may cover the SP star's corner: the frame in the holder's colour
    round the cell still tells the SP and its holder, while the cover value is told
    nowhere else."""
    gap = max(1.0, px * 0.015)
    left = cover_badge_box(px, cover)[2] + gap if cover is not None else px * 0.02
    return left, px * 0.98


def passenger_tag(
    image: Image.Image,
    lay: Layout,
    cell: Cell,
    passenger: str,
    side: Side,
    room: tuple[float, float],
    theme: Theme,
) -> None:
    if on_board(lay, cell):
        _paste(image, lay, cell, _passenger_sprite(passenger, side, lay.cell, room, theme))


@lru_cache(maxsize=64)
def _passenger_sprite(
    passenger: str, side: Side, px: int, room: tuple[float, float], theme: Theme
) -> Sprite:
    box, text, f = passenger_geometry(passenger, px, *room)
    canvas = Canvas((math.floor(box[0]) - 1, 0, math.ceil(box[2]) + 1, math.ceil(box[3]) + 1), 3)
    canvas.rect(
        box,
        fill=theme.badge,
        outline=theme.side(side).edge,
        width=max(1.0, px * 0.02),
        radius=px * 0.05,
    )
    layer = canvas.image()
    centre = ((box[0] + box[2]) / 2 - canvas.box[0], (box[1] + box[3]) / 2 - canvas.box[1])
    ImageDraw.Draw(layer).text(centre, text, font=f, fill=theme.badge_text, anchor="mm")
    return layer, canvas.box[0], canvas.box[1]


def fallen_tag(
    image: Image.Image, lay: Layout, cell: Cell, text: str, low: bool, theme: Theme
) -> None:
    """Issue 19: a tag naming a unit that fell on this cell, now held by a living unit (its
    faded token and cross would cross that one out); ``low``: under a passenger tag."""
    if on_board(lay, cell):
        _paste(image, lay, cell, _fallen_sprite(text, low, lay.cell, theme))


@lru_cache(maxsize=64)
def _fallen_sprite(text: str, low: bool, px: int, theme: Theme) -> Sprite:
    box, text, f = tag_geometry(text, px, px * 0.02, px * 0.98)
    if low:
        drop = box[3] - box[1]
        box = (box[0], box[1] + drop, box[2], box[3] + drop)
    canvas = Canvas((math.floor(box[0]) - 1, 0, math.ceil(box[2]) + 1, math.ceil(box[3]) + 1), 3)
    width = max(1.0, px * 0.02)
    canvas.rect(box, fill=theme.badge, outline=theme.cross, width=width, radius=px * 0.05)
    layer = canvas.image()
    centre = ((box[0] + box[2]) / 2 - canvas.box[0], (box[1] + box[3]) / 2 - canvas.box[1])
    ImageDraw.Draw(layer).text(centre, text, font=f, fill=theme.cross, anchor="mm")
    return layer, canvas.box[0], canvas.box[1]


@lru_cache(maxsize=16)
def _sp_sprite(holder: Side, size: int, theme: Theme) -> Image.Image:
    canvas = Canvas((0, 0, size, size), scale=4)
    draw_sp_badge(canvas, (0.5, 0.5, size - 0.5, size - 0.5), holder, theme)
    return canvas.image()


def _cover_width(value: int, size: int) -> int:
    f = font(Face.CONDENSED_BOLD, round(size * 0.66))
    return max(size, round(text_width(f"{value}+", f) + size * 0.3))


@lru_cache(maxsize=16)
def _cover_sprite(value: int, size: int, theme: Theme) -> Image.Image:
    text = f"{value}+"
    f = font(Face.CONDENSED_BOLD, round(size * 0.66))
    w = _cover_width(value, size)
    canvas = Canvas((0, 0, w, size), scale=4)
    canvas.rect(
        (0.5, 0.5, w - 0.5, size - 0.5),
        fill=theme.badge,
        outline=theme.badge_text,
        width=size * 0.07,
        radius=size * 0.2,
    )
    sprite = canvas.image()
    ImageDraw.Draw(sprite).text((w / 2, size / 2), text, font=f, fill=theme.badge_text, anchor="mm")
    return sprite
