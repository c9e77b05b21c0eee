"""Terrain tiles: each kind has its own lightness and its own pattern, so none is told apart
by hue alone (greyscale, colour-blind players): cross-hatched rock, waves, peaks,
bushes, masonry."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image

from vahalite_bot.render.canvas import Canvas
from vahalite_bot.render.theme import RGB, Theme
from vahalite_bot.rules.scenario import TerrainKind


def _obstacle(c: Canvas, s: float, line: RGB) -> None:
    step = s / 5
    width = s / 26
    for i in range(-5, 6):  # cross-hatching: impassable, blocks sight
        off = i * step
        c.line([(off, 0), (off + s, s)], line, width)
        c.line([(off, s), (off + s, 0)], line, width)


def _water(c: Canvas, s: float, line: RGB) -> None:
    amp, width = s / 22, s / 24
    for row in (0.2, 0.4, 0.6, 0.8):
        y0 = s * row
        pts = [(s * t / 24, y0 + amp * math.sin(t / 24 * 4 * math.pi)) for t in range(25)]
        c.line(pts, line, width)


def _height(c: Canvas, s: float, line: RGB) -> None:
    # Rows of peaks, the map sign for hills: pointing up, and nothing like the concentric
    # rings of a target (which a height was once drawn as).
    width = s / 20
    half, rise = s * 0.15, s * 0.15
    for row, y in enumerate((0.36, 0.78)):
        for k in range(-1, 3):
            x = s * (0.25 + 0.5 * k + (0.25 if row % 2 else 0.0))
            base = s * y
            c.line([(x - half, base), (x, base - rise), (x + half, base)], line, width)


def _cover(c: Canvas, s: float, line: RGB) -> None:
    r = s / 13
    for row in range(4):  # staggered bushes
        for col in range(4):
            x = s * (0.14 + 0.24 * col + (0.1 if row % 2 else 0))
            y = s * (0.14 + 0.24 * row)
            if x - r < s:
                c.ellipse((x - r, y - r, x + r, y + r), fill=line)


def _fortification(c: Canvas, s: float, line: RGB) -> None:
    width = s / 32
    rows = 5
    h = s / rows
    for row in range(rows + 1):  # masonry courses
        c.line([(0, row * h), (s, row * h)], line, width)
    for row in range(rows):
        shift = 0.5 if row % 2 else 0.0
        for k in range(4):
            x = s * (k + shift) / 3
            c.line([(x, row * h), (x, (row + 1) * h)], line, width)


PATTERNS: dict[TerrainKind, Callable[[Canvas, float, RGB], None]] = {
    TerrainKind.OBSTACLE: _obstacle,
    TerrainKind.WATER: _water,
    TerrainKind.HEIGHT: _height,
    TerrainKind.COVER: _cover,
    TerrainKind.FORTIFICATION: _fortification,
}


@lru_cache(maxsize=64)
def terrain_tile(kind: TerrainKind, px: int, theme: Theme) -> Image.Image:
    """A ``px`` square RGB tile of ``kind``."""
    palette = theme.terrain[kind]
    canvas = Canvas((0, 0, px, px), scale=3, mode="RGB", fill=palette.fill)
    PATTERNS[kind](canvas, float(px), palette.line)
    return canvas.image()
