"""Everything drawn over the static layer, one cell or one arrow at a time."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from vahalite_bot.render.base import draw_sp_badge
from vahalite_bot.render.canvas import Canvas, Point, shorten
from vahalite_bot.render.fonts import Face, draw_text, font
from vahalite_bot.render.layout import Layout
from vahalite_bot.render.theme import Theme, with_alpha
from vahalite_bot.render.tokens import TokenGeometry, TokenSpec, ghost_sprite, token_sprite
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side

WHITE = (255, 255, 255)


def on_board(lay: Layout, cell: Cell) -> bool:
    return 0 <= cell.col < lay.cols and 0 <= cell.row < lay.rows


def highlight(image: Image.Image, lay: Layout, cells: Sequence[Cell], theme: Theme) -> None:
    """A light wash over the cells the last action touched (like a chess board's last move)."""
    r, g, b, a = theme.highlight
    mask = _flat_mask(lay.cell, a)
    for cell in cells:
        if on_board(lay, cell):
            x0, y0, x1, y1 = lay.cell_box(cell)
            image.paste((r, g, b), (x0, y0, x1, y1), mask)


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
        sprite = token_sprite(spec, lay.cell, theme)
        x0, y0, _, _ = lay.cell_box(cell)
        image.paste(sprite, (x0, y0), sprite)


def ghost(image: Image.Image, lay: Layout, cell: Cell, spec: TokenSpec, theme: Theme) -> None:
    """The faded token of a unit the last action destroyed."""
    if on_board(lay, cell):
        sprite = ghost_sprite(spec, lay.cell, theme)
        x0, y0, _, _ = lay.cell_box(cell)
        image.paste(sprite, (x0, y0), sprite)


# -- overlays, drawn once per shape and cell size ------------------------------------------
# An arrow depends only on the cells it joins relative to its first cell, so each overlay
# is a sprite cached by that shape and pasted at the first cell's corner.
Sprite = tuple[Image.Image, int, int]  # the image and where it goes from the cell's corner
Steps = tuple[tuple[int, int], ...]  # cells as (columns east, rows north) of the first


def _paste(image: Image.Image, lay: Layout, cell: Cell, sprite: Sprite) -> None:
    layer, dx, dy = sprite
    x0, y0, _, _ = lay.cell_box(cell)
    image.paste(layer, (x0 + dx, y0 + dy), layer)


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


def _end_gap(px: int, points: Sequence[Point]) -> float:
    """How far short of the last token's centre an arrow stops: the HP plate hangs below
    the token, so an arrow arriving from below stops under the plate."""
    if points[-2][1] > points[-1][1] + 1:
        return px * 0.52
    return TokenGeometry(px).radius * 1.05


def path(image: Image.Image, lay: Layout, side: Side, cells: Sequence[Cell], theme: Theme) -> None:
    """A move: an arrow through the cells' centres, from a ring where the unit started."""
    if len(cells) >= 2:
        _paste(image, lay, cells[0], _path_sprite(side, _steps(cells), lay.cell, theme))


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
    line = shorten(points, ring, _end_gap(px, points))
    canvas.arrow(line, with_alpha(WHITE, 210), width * 1.7, head * 1.25)
    canvas.arrow(line, with_alpha(palette.fill, 240), width, head)
    return _sprite(canvas)


def strike(image: Image.Image, lay: Layout, source: Cell, target: Cell, theme: Theme) -> None:
    """An attack: a line from the attacker's edge to an arrowhead at the target."""
    _paste(image, lay, source, _strike_sprite(_steps((source, target)), lay.cell, theme))


@lru_cache(maxsize=128)
def _strike_sprite(steps: Steps, px: int, theme: Theme) -> Sprite:
    points = _points(steps, px)
    g = TokenGeometry(px)
    points = shorten(points, g.radius * 1.05, _end_gap(px, points))
    width = px * 0.05
    head = px * 0.17
    canvas = _canvas(points, head * 1.5, scale=2)
    canvas.arrow(points, with_alpha(WHITE, 235), width * 2.2, head * 1.3)
    canvas.arrow(points, with_alpha(theme.damage, 255), width, head)
    return _sprite(canvas)


def damage(image: Image.Image, lay: Layout, target: Cell, amount: int, theme: Theme) -> None:
    """The damage dealt, on a plate at the target's right, below any SP star."""
    _paste(image, lay, target, _damage_sprite(amount, lay.cell, theme))


@lru_cache(maxsize=64)
def _damage_sprite(amount: int, px: int, theme: Theme) -> Sprite:
    text = f"−{amount}" if amount else "0"
    size = round(px * 0.2)
    w = font(Face.BOLD, size).getlength(text) + px * 0.12
    h = px * 0.27
    top = px * 0.32
    box = (px * 0.98 - w, top, px * 0.98, top + h)
    canvas = Canvas((math.floor(box[0]) - 2, math.floor(top) - 2, px, math.ceil(box[3]) + 2), 3)
    fill = theme.damage if amount else theme.hp_lost
    canvas.rect(box, fill=fill, outline=WHITE, width=px * 0.025, radius=h * 0.35)
    layer = canvas.image()
    centre = ((box[0] + box[2]) / 2 - canvas.box[0], (box[1] + box[3]) / 2 - canvas.box[1])
    draw_text(layer, centre, text, Face.BOLD, size, WHITE)
    return layer, canvas.box[0], canvas.box[1]


def cross(image: Image.Image, lay: Layout, cell: Cell, theme: Theme) -> None:
    """A cross over a destroyed unit's faded token."""
    _paste(image, lay, cell, _cross_sprite(lay.cell, theme))


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


def _badge_geometry(lay: Layout) -> tuple[int, int]:
    return round(lay.cell * 0.26), round(lay.cell * 0.03)


def sp_badge(image: Image.Image, lay: Layout, cell: Cell, holder: Side, theme: Theme) -> None:
    """The SP's star in its holder's colour and shape, at the cell's upper right."""
    size, inset = _badge_geometry(lay)
    _, y0, x1, _ = lay.cell_box(cell)
    sprite = _sp_sprite(holder, size, theme)
    image.paste(sprite, (x1 - inset - size, y0 + inset), sprite)


def cover_badge(image: Image.Image, lay: Layout, cell: Cell, value: int, theme: Theme) -> None:
    """The cover value (E8) at the cell's upper left."""
    size, inset = _badge_geometry(lay)
    x0, y0, _, _ = lay.cell_box(cell)
    sprite = _cover_sprite(value, size, theme)
    image.paste(sprite, (x0 + inset, y0 + inset), sprite)


@lru_cache(maxsize=16)
def _sp_sprite(holder: Side, size: int, theme: Theme) -> Image.Image:
    canvas = Canvas((0, 0, size, size), scale=4)
    draw_sp_badge(canvas, (0.5, 0.5, size - 0.5, size - 0.5), holder, theme)
    return canvas.image()


@lru_cache(maxsize=16)
def _cover_sprite(value: int, size: int, theme: Theme) -> Image.Image:
    text = f"{value}+"
    f = font(Face.CONDENSED_BOLD, round(size * 0.66))
    w = max(size, round(f.getlength(text) + size * 0.3))
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
