"""The bundled fonts (never the system's), and fitting text into a width."""

from __future__ import annotations

import math
from enum import StrEnum
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

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


def covered(char: str) -> bool:
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in COVERAGE)


def printable(text: str) -> str:
    """``text`` with characters the fonts lack replaced by ``?`` and line breaks by spaces."""
    text = " ".join(text.split())
    if all(covered(ch) for ch in text):
        return text
    return "".join(ch if covered(ch) else "?" for ch in text)


@lru_cache(maxsize=2048)
def text_width(text: str, f: Font) -> float:
    """``f.getlength(text)``, remembered: names and labels come back in every image."""
    return f.getlength(text)


@lru_cache(maxsize=1024)
def fit(text: str, f: Font, max_width: float) -> str:
    """``text`` cut with an ellipsis so that it is at most ``max_width`` wide."""
    text = printable(text)
    if text_width(text, f) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if f.getlength(text[:mid].rstrip() + ELLIPSIS) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo > 0 else ""


def fitting_font(text: str, face: Face, px: int, max_width: float, min_px: int = MIN_PX) -> Font:
    """The largest size of ``face`` up to ``px`` at which ``text`` fits ``max_width``."""
    size = px
    while size > min_px and font(face, size).getlength(text) > max_width:
        size -= 1
    return font(face, size)


@lru_cache(maxsize=1024)
def text_mask(text: str, face: Face, px: int, anchor: str) -> tuple[Image.Image, int, int]:
    """The text's coverage, and where its box lies relative to the anchor point.

    Headers, names and numbers repeat from one image of a game to the next; drawing each
    once and pasting it after is several times cheaper than asking FreeType again.
    """
    f = font(face, px)
    box = f.getbbox(text, anchor=anchor)
    left, top = math.floor(box[0]), math.floor(box[1])
    right, bottom = math.ceil(box[2]), math.ceil(box[3])
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


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
    image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
