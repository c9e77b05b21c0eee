"""Unit type glyphs: simple silhouettes drawn in a 100 x 100 design square."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from vahalite_bot.render.canvas import Canvas, Colour, Point
from vahalite_bot.rules.sheets import UnitType


class _Pen:
    """Maps the 100 x 100 design square onto ``box`` of a canvas."""

    def __init__(self, canvas: Canvas, box: Sequence[float], colour: Colour) -> None:
        self.c, self.colour = canvas, colour
        self.x, self.y = box[0], box[1]
        self.k = (box[2] - box[0]) / 100

    def pt(self, x: float, y: float) -> Point:
        return (self.x + x * self.k, self.y + y * self.k)

    def poly(self, *points: Point) -> None:
        self.c.polygon([self.pt(x, y) for x, y in points], fill=self.colour)

    def disc(self, x: float, y: float, r: float) -> None:
        self.c.ellipse((*self.pt(x - r, y - r), *self.pt(x + r, y + r)), fill=self.colour)

    def ring(self, x: float, y: float, r: float, width: float) -> None:
        box = (*self.pt(x - r, y - r), *self.pt(x + r, y + r))
        self.c.ellipse(box, outline=self.colour, width=width * self.k)

    def bar(self, x0: float, y0: float, x1: float, y1: float, radius: float = 0) -> None:
        self.c.rect((*self.pt(x0, y0), *self.pt(x1, y1)), fill=self.colour, radius=radius * self.k)

    def stroke(self, width: float, *points: Point) -> None:
        self.c.line([self.pt(x, y) for x, y in points], self.colour, width * self.k)


def _infantry(p: _Pen) -> None:
    p.disc(50, 22, 15)
    p.poly((22, 92), (27, 50), (38, 42), (62, 42), (73, 50), (78, 92))


def _jump(p: _Pen) -> None:
    p.poly((6, 30), (34, 46), (30, 70))  # wings behind the shoulders
    p.poly((94, 30), (66, 46), (70, 70))
    p.disc(50, 24, 14)
    p.poly((30, 92), (34, 52), (42, 44), (58, 44), (66, 52), (70, 92))


def _bike(p: _Pen) -> None:
    p.ring(22, 68, 17, 9)
    p.ring(78, 68, 17, 9)
    p.poly((22, 68), (44, 40), (70, 40), (78, 68), (66, 68), (60, 52), (46, 52), (30, 72))
    p.stroke(8, (62, 40), (70, 18), (84, 18))


def _walker(p: _Pen) -> None:
    p.bar(26, 10, 74, 52, radius=8)
    p.bar(10, 20, 26, 40, radius=4)  # arms
    p.bar(74, 20, 90, 40, radius=4)
    p.stroke(13, (38, 52), (30, 88))
    p.stroke(13, (62, 52), (70, 88))
    p.bar(16, 84, 42, 96, radius=3)
    p.bar(58, 84, 84, 96, radius=3)


def _vehicle(p: _Pen) -> None:
    p.bar(6, 60, 94, 90, radius=15)  # tracks
    p.bar(16, 40, 84, 64, radius=4)
    p.bar(34, 20, 64, 44, radius=6)
    p.stroke(9, (60, 31), (96, 24))


def _skimmer(p: _Pen) -> None:
    p.poly((4, 52), (30, 30), (78, 30), (98, 46), (80, 62), (18, 62))
    p.stroke(6, (18, 78), (38, 78))
    p.stroke(6, (46, 78), (66, 78))
    p.stroke(6, (74, 78), (88, 78))


def _monster(p: _Pen) -> None:
    for dx in (0, 28, 56):  # three claw slashes
        p.poly((12 + dx, 88), (22 + dx, 10), (34 + dx, 12), (26 + dx, 90))


def _flyer(p: _Pen) -> None:
    p.poly(
        (50, 4),
        (58, 36),
        (98, 60),
        (98, 70),
        (57, 62),
        (55, 84),
        (70, 96),
        (30, 96),
        (45, 84),
        (43, 62),
        (2, 70),
        (2, 60),
        (42, 36),
    )


ICONS: dict[UnitType, Callable[[_Pen], None]] = {
    UnitType.INFANTRY: _infantry,
    UnitType.JUMP: _jump,
    UnitType.BIKE: _bike,
    UnitType.WALKER: _walker,
    UnitType.VEHICLE: _vehicle,
    UnitType.SKIMMER: _skimmer,
    UnitType.MONSTER: _monster,
    UnitType.FLYER: _flyer,
}


def draw_icon(canvas: Canvas, kind: UnitType, box: Sequence[float], colour: Colour) -> None:
    ICONS[kind](_Pen(canvas, box, colour))
