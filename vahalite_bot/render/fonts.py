"""The bundled fonts (never the system's), and fitting text into a width."""

from __future__ import annotations

import math
import re
from enum import StrEnum
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from vahalite_bot.render.canvas import stamp

FONT_DIR = Path(__file__).parent / "fonts"

# The code points the bundled subsets carry (fonts/README.md); anything else would be drawn
# as an empty box, so it is replaced before drawing.
COVERAGE: tuple[tuple[int, int], ...] = (
    (0x0020, 0x007E),
    (0x00A0, 0x017F),
    (0x0400, 0x045F),
    (0x0490, 0x0491),
    (0x2010, 0x2027),
    (0x2030, 0x203A),
    (0x2116, 0x2116),
    (0x2190, 0x2195),
    (0x2212, 0x2212),
    (0x25A0, 0x25CF),
    (0x2605, 0x2606),
    (0x2713, 0x2713),
    (0x2715, 0x2716),
)
ELLIPSIS = "…"
MIN_PX = 9


class Face(StrEnum):
    BOLD = "DejaVuSans-Bold.ttf"
    CONDENSED_BOLD = "DejaVuSansCondensed-Bold.ttf"
    CONDENSED = "DejaVuSansCondensed.ttf"


Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=128)
def font(face: Face, px: int) -> Font:
    """The face at ``px`` pixels; the basic layout keeps output identical with or without
    libraqm (Cyrillic needs no shaping)."""
    return ImageFont.truetype(
        str(FONT_DIR / face.value), max(MIN_PX, px), layout_engine=ImageFont.Layout.BASIC
    )


# Any character outside COVERAGE: one search of a line rather than a loop per character.
UNCOVERED = re.compile("[^" + "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in COVERAGE) + "]")


def printable(text: str) -> str:
    """``text`` with characters the fonts lack replaced by ``?`` and line breaks by spaces."""
    return UNCOVERED.sub("?", " ".join(text.split()))


@lru_cache(maxsize=2048)
def text_width(text: str, f: Font) -> float:
    """``f.getlength(text)``: the sum of its glyphs' advances in the basic layout (no
    kerning), each asked of FreeType once rather than once per line measured."""
    return _width(text, f)


def _width(text: str, f: Font) -> float:
    return sum(_advance(char, f) for char in text)


@lru_cache(maxsize=8192)
def _advance(char: str, f: Font) -> float:
    return f.getlength(char)


@lru_cache(maxsize=1024)
def fit(text: str, f: Font, max_width: float) -> str:
    """``text`` cut with an ellipsis so that it is at most ``max_width`` wide."""
    text = printable(text)
    if text_width(text, f) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if _width(text[:mid].rstrip() + ELLIPSIS, f) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo > 0 else ""


def fitting_font(text: str, face: Face, px: int, max_width: float, min_px: int = MIN_PX) -> Font:
    """The largest size of ``face`` up to ``px`` at which ``text`` fits ``max_width``."""
    size = px
    while size > min_px and _width(text, font(face, size)) > max_width:
        size -= 1
    return font(face, size)


Glyph = tuple[Image.Image | None, int, int, int]  # mask (None: no ink), left, top, advance


@lru_cache(maxsize=1024)
def text_mask(text: str, face: Face, px: int, anchor: str) -> tuple[Image.Image, int, int]:
    """The text's coverage, and where its box lies relative to the anchor point.

    Laid out from glyphs drawn once each: asking FreeType for a whole line costs 0.2-0.7 ms,
    and every game brings lines of its own (its players' names, whose turn, its last action).
    The pixels are FreeType's own: the basic layout puts each glyph at a whole pixel (hinted
    advances, no kerning) and lays a glyph over its neighbour as a paste through its mask does.
    """
    placed: list[tuple[Image.Image, int, int]] = []
    pen = 0
    for char in text:
        mask, left, top, advance = _glyph(char, face, px)
        if mask is not None:
            placed.append((mask, pen + left, top))
        pen += advance
    if not placed:
        return Image.new("L", (1, 1), 0), 0, 0
    x0 = min(x for _, x, _ in placed)
    y0 = min(y for _, _, y in placed)
    x1 = max(x + mask.width for mask, x, _ in placed)
    y1 = max(y + mask.height for mask, _, y in placed)
    line = Image.new("L", (x1 - x0, y1 - y0), 0)
    for mask, x, y in placed:
        stamp(line, 255, (x - x0, y - y0), mask)
    across = {"l": 0.0, "m": pen / 2, "r": float(pen)}[anchor[0]]
    return line, math.floor(x0 - across), math.floor(y0 - _baseline_to(face, px, anchor[1]))


@lru_cache(maxsize=4096)
def _glyph(char: str, face: Face, px: int) -> Glyph:
    """One glyph's coverage and its box from the pen on the baseline, and its advance."""
    f = font(face, px)
    left, top, right, bottom = f.getbbox(char, anchor="ls")
    advance = round(f.getlength(char))
    if right <= left or bottom <= top:
        return None, 0, 0, advance
    left, top = math.floor(left), math.floor(top)
    mask = Image.new("L", (math.ceil(right) - left, math.ceil(bottom) - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), char, font=f, fill=255, anchor="ls")
    return mask, left, top, advance


@lru_cache(maxsize=64)
def _baseline_to(face: Face, px: int, vertical: str) -> float:
    """How far below the baseline the vertical anchor ``vertical`` lies ("s": 0)."""
    f = font(face, px)
    return f.getbbox("x", anchor="ls")[1] - f.getbbox("x", anchor="l" + vertical)[1]


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    face: Face,
    px: int,
    fill: tuple[int, int, int],
    anchor: str = "mm",
) -> None:
    """Like ``ImageDraw.text`` with the bundled ``face``, through the cache of masks."""
    if not text:
        return
    mask, left, top = text_mask(text, face, max(MIN_PX, px), anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    stamp(image, fill, (x, y), mask)
