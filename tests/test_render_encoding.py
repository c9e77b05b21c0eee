"""The shortcuts that keep a new game's picture cheap draw what the slow way draws.

Lines of text are laid out from glyphs drawn once (``fonts.text_mask``) and widths summed
from glyph advances (``fonts.text_width``): both must give FreeType's own pixels and
widths for a whole line. The PNG is written by ``render/png.py`` with ISA-L: any decoder
must read back the very palette and pixels. The replay's GIF (``render/gif.py``) holds of
each frame only the box that changed: decoded, each frame must be its drawing whole.
"""

from __future__ import annotations

import io
import math
import random

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageSequence

from vahalite_bot.render import png
from vahalite_bot.render.fonts import Face, font, text_mask, text_width
from vahalite_bot.render.gif import animated_gif
from vahalite_bot.render.palette import quantize

LETTERS = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
    "·:,.−+/!?()-…ØøÆæ№fjTekvAV"
)
# Words the board writes, and strings whose glyphs touch or overlap (k and v at 9 px).
LINES = ("Раунд 3 из 5 · Ход: Алексей", "kvI", "Ødegård", "fjord Type", "−3", "10/10")


def freetype_mask(text: str, face: Face, px: int, anchor: str) -> tuple[Image.Image, int, int]:
    """The whole line drawn by FreeType at once, as ``text_mask`` drew it before."""
    f = font(face, px)
    box = f.getbbox(text, anchor=anchor)
    left, top = math.floor(box[0]), math.floor(box[1])
    right, bottom = math.ceil(box[2]), math.ceil(box[3])
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def random_lines(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    lines = ["".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 30))) for _ in range(count)]
    return [line.strip() or "x" for line in lines]


@pytest.mark.parametrize("face", list(Face))
@pytest.mark.parametrize("px", [9, 13, 19, 24, 34, 48])
def test_a_line_laid_out_from_glyphs_is_freetypes_line(face: Face, px: int) -> None:
    for text in (*LINES, *random_lines(px, 25)):
        for anchor in ("mm", "lm"):
            mask, left, top = text_mask(text, face, px, anchor)
            ref, ref_left, ref_top = freetype_mask(text, face, px, anchor)
            assert (left, top, mask.size) == (ref_left, ref_top, ref.size), (text, anchor)
            assert ImageChops.difference(mask, ref).getbbox() is None, (text, anchor)


@pytest.mark.parametrize("face", list(Face))
def test_a_lines_width_is_freetypes(face: Face) -> None:
    for px in (9, 17, 24, 68):
        f = font(face, px)
        for text in (*LINES, *random_lines(100 + px, 25)):
            assert text_width(text, f) == f.getlength(text), text


def test_a_blank_line_draws_nothing() -> None:
    mask, _, _ = text_mask("   ", Face.BOLD, 24, "mm")
    assert mask.getextrema() == (0, 0)


def test_the_png_reads_back_as_the_same_palette_and_pixels() -> None:
    rng = random.Random(5)
    image = Image.new("P", (97, 41))
    image.putpalette([rng.randrange(256) for _ in range(768)])
    image.putdata([rng.randrange(256) if i % 7 else 3 for i in range(97 * 41)])
    data = png.encode(image)
    read = Image.open(io.BytesIO(data))
    read.load()
    assert read.format == "PNG" and read.mode == "P" and read.size == image.size
    assert read.getpalette() == image.getpalette()
    assert read.tobytes() == image.tobytes()


def test_only_a_palette_image_is_encoded() -> None:
    with pytest.raises(ValueError, match="palette"):
        png.encode(Image.new("RGB", (4, 4)))


def test_the_gif_decodes_to_every_frame_whole_and_keeps_each_frames_time() -> None:
    rng = random.Random(8)
    colours = [tuple(rng.randrange(250) for _ in range(3)) for _ in range(40)]
    palette = Image.new("P", (1, 1))
    # the rest magenta, the last entry (gif.KEEP) with them: no drawn colour is near it
    palette.putpalette([c for colour in colours for c in colour] + [255, 0, 255] * 216)
    first = Image.new("RGB", (64, 48))
    first.putdata([rng.choice(colours) for _ in range(64 * 48)])
    r, g, b = colours[5]
    first.paste((r, g, b), (0, 0, 64, 2))
    moved = first.copy()
    moved.paste(colours[3], (10, 5, 30, 12))
    moved.paste(colours[7], (50, 40, 52, 47))  # a second change far from the first
    nudged = moved.copy()
    nudged.paste((r + 1, g, b), (0, 0, 64, 2))  # drawn otherwise, coded the same
    changed = nudged.copy()
    changed.paste((r, g + 1, b), (0, 0, 64, 2))
    changed.paste(colours[9], (20, 30, 25, 35))  # its box is below the nudged rows'
    frames = [first, moved, moved.copy(), nudged, changed, first.copy()]
    for index, frame in enumerate(frames):
        frame.info["duration"] = 100 * (index + 1)
    gif = Image.open(io.BytesIO(animated_gif(iter(frames), palette)))
    decoded = [(f.info["duration"], f.convert("RGBA")) for f in ImageSequence.Iterator(gif)]
    assert len(decoded) == len(frames)
    for frame, (duration, shown) in zip(frames, decoded, strict=True):
        assert duration == frame.info["duration"]
        expected = quantize(frame, palette).convert("RGBA")
        assert ImageChops.difference(shown, expected).getbbox(alpha_only=False) is None
