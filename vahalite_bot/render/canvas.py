"""Antialiased shapes: Pillow draws hard edges, so shapes are drawn larger and reduced.

Text is left to the final scale (FreeType antialiases it already and it stays sharper).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from vahalite_bot.render.theme import RGB, RGBA

Colour = RGB | RGBA
Point = tuple[float, float]


class Canvas:
    """A transparent (or filled) layer over ``box`` of the final image, ``scale`` times larger.

    Every method takes final-image coordinates; ``image()`` returns the layer at final size.
    """

    def __init__(
        self,
        box: tuple[int, int, int, int],
        scale: int = 3,
        mode: str = "RGBA",
        fill: Colour = (0, 0, 0, 0),
    ) -> None:
        self.box = box
        self.scale = scale
        w, h = box[2] - box[0], box[3] - box[1]
        self._image = Image.new(mode, (max(1, w) * scale, max(1, h) * scale), fill)
        self.draw = ImageDraw.Draw(self._image)

    def p(self, x: float, y: float) -> tuple[float, float]:
        return ((x - self.box[0]) * self.scale, (y - self.box[1]) * self.scale)

    def r(self, box: Sequence[float]) -> tuple[float, float, float, float]:
        x0, y0 = self.p(box[0], box[1])
        x1, y1 = self.p(box[2], box[3])
        return (x0, y0, x1, y1)

    def w(self, width: float) -> int:
        return max(1, round(width * self.scale))

    def image(self) -> Image.Image:
        return self._image.reduce(self.scale)

    # -- shapes ---------------------------------------------------------------------------
    def ellipse(
        self,
        box: Sequence[float],
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0,
    ) -> None:
        self.draw.ellipse(
            self.r(box), fill=fill, outline=outline, width=self.w(width) if width else 0
        )

    def rect(
        self,
        box: Sequence[float],
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0,
        radius: float = 0,
    ) -> None:
        self.draw.rounded_rectangle(
            self.r(box),
            radius=radius * self.scale,
            fill=fill,
            outline=outline,
            width=self.w(width) if width else 0,
        )

    def polygon(
        self,
        points: Sequence[Point],
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0,
    ) -> None:
        pts = [self.p(x, y) for x, y in points]
        self.draw.polygon(pts, fill=fill, outline=outline, width=self.w(width) if width else 1)

    def line(self, points: Sequence[Point], colour: Colour, width: float) -> None:
        """A polyline with round joints and round caps."""
        pts = [self.p(x, y) for x, y in points]
        w = self.w(width)
        self.draw.line(pts, fill=colour, width=w, joint="curve")
        r = w / 2
        for x, y in (pts[0], pts[-1]):
            self.draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)

    def arrow(
        self,
        points: Sequence[Point],
        colour: Colour,
        width: float,
        head: float,
    ) -> None:
        """A polyline ending in a triangular head whose tip is the last point."""
        (x0, y0), (x1, y1) = points[-2], points[-1]
        angle = math.atan2(y1 - y0, x1 - x0)
        base = (x1 - head * math.cos(angle), y1 - head * math.sin(angle))
        self.line([*points[:-1], base], colour, width)
        self.polygon(arrow_head(points[-1], angle, head), fill=colour)


def arrow_head(tip: Point, angle: float, head: float) -> list[Point]:
    x, y = tip
    back = angle + math.pi
    spread = 0.5
    return [
        (x, y),
        (x + head * math.cos(back - spread), y + head * math.sin(back - spread)),
        (x + head * math.cos(back + spread), y + head * math.sin(back + spread)),
    ]


def stamp(
    image: Image.Image,
    source: Image.Image | Colour | int,
    xy: tuple[int, int],
    mask: Image.Image | None = None,
) -> None:
    """``image.paste(source, xy, mask)`` handed straight to Pillow's core, for the hundred
    pastes of a board (tokens, glyphs, badges): ``Image.paste``'s checks (modes, lazy
    loading, shared buffers; none can apply to images drawn here) cost more than pasting a
    token. ``source`` is of ``image``'s mode, or RGBA over RGB; a colour needs a mask."""
    x, y = xy
    pixels: object = source
    if isinstance(source, Image.Image):
        width, height = source.size
        pixels = source.im
    else:
        assert mask is not None, "a colour is pasted through a mask"
        width, height = mask.size
    box = (x, y, x + width, y + height)
    if mask is None:
        image.im.paste(pixels, box)
    else:
        image.im.paste(pixels, box, mask.im)
