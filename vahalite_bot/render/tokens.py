"""Unit tokens: side colour and shape (south a disc, north a rounded square), the type glyph,
the handle the orders use, HP pips grouped by model, a mark for a damaged profile and a
plate with the passenger's handle on a loaded transport.

A token is a pure function of a few values, so each is drawn once and reused: a bot that
redraws a game after every action redraws only the units that changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from vahalite_bot.render.canvas import Canvas
from vahalite_bot.render.fonts import Face, Font, fit, fitting_font, font
from vahalite_bot.render.icons import draw_icon
from vahalite_bot.render.theme import Theme, with_alpha
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.sheets import UnitType
from vahalite_bot.rules.state import GameState, UnitState

# Below this cell size a token shows no type glyph: the handle matters more.
ICON_MIN_CELL = 52
MAX_PIPS = 12


@dataclass(frozen=True)
class TokenSpec:
    side: Side
    kind: UnitType
    handle: str
    hp: int
    wounds: int
    max_hp: int
    damaged: bool  # E7: fires its damaged profile's weapons now
    passenger: str | None


def token_spec(state: GameState, unit: UnitState) -> TokenSpec:
    passenger = state.passenger_of(unit.id)
    return TokenSpec(
        side=unit.side,
        kind=unit.type,
        handle=unit.id,
        hp=unit.hp,
        wounds=unit.sheet.wounds,
        max_hp=unit.sheet.max_hp,
        damaged=unit.sheet.has_damaged_profile and unit.is_damaged,
        passenger=None if passenger is None else passenger.id,
    )


def fallen_spec(unit: UnitState) -> TokenSpec:
    """A destroyed unit's token: no HP left, nothing aboard."""
    sheet = unit.sheet
    return TokenSpec(unit.side, unit.type, unit.id, 0, sheet.wounds, sheet.max_hp, False, None)


@dataclass(frozen=True)
class TokenGeometry:
    """Where the parts of a token go inside its cell (``px`` square)."""

    px: int

    @property
    def centre(self) -> tuple[float, float]:
        return (self.px * 0.5, self.px * 0.45)

    @property
    def radius(self) -> float:
        return self.px * 0.36

    def body(self, side: Side) -> tuple[float, float, float, float]:
        cx, cy = self.centre
        r = self.radius if side is Side.SOUTH else self.radius * 0.92
        return (cx - r, cy - r, cx + r, cy + r)

    @property
    def has_icon(self) -> bool:
        return self.px >= ICON_MIN_CELL

    @property
    def icon_box(self) -> tuple[float, float, float, float]:
        cx, cy = self.centre
        half = self.px * 0.11
        iy = cy - self.px * 0.15
        return (cx - half, iy - half, cx + half, iy + half)

    @property
    def label_y(self) -> float:
        return self.centre[1] + (self.px * 0.1 if self.has_icon else 0)

    @property
    def hp_box(self) -> tuple[int, int, int, int]:
        p = self.px
        return (round(p * 0.12), round(p * 0.80), round(p * 0.88), round(p * 0.93))


def draw_body(canvas: Canvas, side: Side, g: TokenGeometry, theme: Theme, dx: float = 0) -> None:
    """The token's shape with its outline (and the drop shadow under it)."""
    palette = theme.side(side)
    x0, y0, x1, y1 = g.body(side)
    edge = g.px * 0.035
    shade = g.px * 0.025
    shadow_box = (x0 + dx + shade, y0 + shade, x1 + dx + shade, y1 + shade)
    box = (x0 + dx, y0, x1 + dx, y1)
    if side is Side.SOUTH:
        canvas.ellipse(shadow_box, fill=theme.shadow)
        canvas.ellipse(box, fill=palette.fill, outline=palette.edge, width=edge)
    else:
        radius = g.px * 0.08
        canvas.rect(shadow_box, fill=theme.shadow, radius=radius)
        canvas.rect(box, fill=palette.fill, outline=palette.edge, width=edge, radius=radius)


@lru_cache(maxsize=512)
def token_sprite(spec: TokenSpec, px: int, theme: Theme) -> Image.Image:
    """The token as a ``px`` square RGBA image, to be pasted onto its cell."""
    g = TokenGeometry(px)
    palette = theme.side(spec.side)
    canvas = Canvas((0, 0, px, px), scale=3)
    draw_body(canvas, spec.side, g, theme)
    if g.has_icon:
        draw_icon(canvas, spec.kind, g.icon_box, palette.ink)
    pill = _passenger_pill(spec, g) if spec.passenger else None
    if pill is not None:
        box, _, _ = pill
        canvas.rect(box, fill=theme.badge, outline=palette.edge, width=px * 0.02, radius=px * 0.05)
    if spec.damaged:
        _damaged_mark(canvas, g, theme)
    image = canvas.image()
    draw = ImageDraw.Draw(image)
    _label(draw, spec, g, theme)
    _hp(draw, spec, g, theme)
    if pill is not None:
        box, text, f = pill
        draw.text(
            ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
            text,
            font=f,
            fill=theme.badge_text,
            anchor="mm",
        )
    if spec.damaged:
        cx, cy, size = _damaged_place(g)
        draw.text(
            (cx, cy + size * 0.12),
            "!",
            font=font(Face.BOLD, round(size * 0.62)),
            fill=theme.badge_text,
            anchor="mm",
        )
    return image


GHOST_OPACITY = 0.5


@lru_cache(maxsize=64)
def ghost_sprite(spec: TokenSpec, px: int, theme: Theme) -> Image.Image:
    """A faded token: where a destroyed unit stood."""
    faded = token_sprite(spec, px, theme).copy()
    alpha = faded.getchannel("A").point(lambda a: round(a * GHOST_OPACITY))
    faded.putalpha(alpha)
    return faded


# -- parts -------------------------------------------------------------------------------
def _label(draw: ImageDraw.ImageDraw, spec: TokenSpec, g: TokenGeometry, theme: Theme) -> None:
    palette = theme.side(spec.side)
    # Without a glyph (small cells) the handle may spread over the whole cell: it must stay whole.
    max_width = g.radius * 1.75 if g.has_icon else g.px * 0.98
    f = fitting_font(spec.handle, Face.CONDENSED_BOLD, round(g.px * 0.24), max_width)
    text = fit(spec.handle, f, max_width)
    draw.text(
        (g.centre[0], g.label_y),
        text,
        font=f,
        fill=palette.ink,
        anchor="mm",
        stroke_width=max(1, round(g.px / 90)),
        stroke_fill=palette.halo,
    )


def _hp(draw: ImageDraw.ImageDraw, spec: TokenSpec, g: TokenGeometry, theme: Theme) -> None:
    """HP as pips, a group per model (F1); one pip per model, or a bar, when too many."""
    x0, y0, x1, y1 = g.hp_box
    draw.rounded_rectangle((x0, y0, x1, y1), radius=max(1, (y1 - y0) // 3), fill=theme.hp_plate)
    pad = max(1, (y1 - y0) // 4)
    ix0, iy0, ix1, iy1 = x0 + pad, y0 + pad, x1 - pad, y1 - pad
    models = max(1, spec.max_hp // spec.wounds)
    if spec.max_hp <= MAX_PIPS:
        cells, per, fill_units = spec.max_hp, spec.wounds, spec.hp
    elif models <= MAX_PIPS:
        cells, per, fill_units = models, 1, -(-spec.hp // spec.wounds)
    else:
        cells, per, fill_units = 0, 1, 0
    if cells == 0:
        share = spec.hp / spec.max_hp
        draw.rectangle((ix0, iy0, ix1, iy1), fill=theme.hp_lost)
        draw.rectangle((ix0, iy0, ix0 + round((ix1 - ix0) * share), iy1), fill=theme.hp_left)
        return
    gap = max(1, round(g.px / 90))
    group_gap = gap * 2 if per > 1 else gap
    groups = cells // per
    span = ix1 - ix0 + 1 - gap * (cells - groups) - group_gap * (groups - 1)
    pip = span / cells
    x = float(ix0)
    for i in range(cells):
        colour = theme.hp_left if i < fill_units else theme.hp_lost
        draw.rectangle((round(x), iy0, max(round(x), round(x + pip) - 1), iy1), fill=colour)
        x += pip + (group_gap if (i + 1) % per == 0 else gap)


def _passenger_pill(
    spec: TokenSpec, g: TokenGeometry
) -> tuple[tuple[float, float, float, float], str, Font] | None:
    assert spec.passenger is not None
    f = font(Face.CONDENSED_BOLD, round(g.px * 0.155))
    text = fit("+" + spec.passenger, f, g.px * (0.6 if g.has_icon else 0.92))
    w = f.getlength(text) + g.px * 0.08
    cx = g.centre[0]
    top = g.px * 0.005
    return ((cx - w / 2, top, cx + w / 2, top + g.px * 0.19), text, f)


def _damaged_place(g: TokenGeometry) -> tuple[float, float, float]:
    cx, cy = g.centre
    size = g.px * 0.27
    return (cx - g.radius * 0.98, cy + g.radius * 0.45, size)


def _damaged_mark(canvas: Canvas, g: TokenGeometry, theme: Theme) -> None:
    """A warning triangle: E7's damaged profile is in force."""
    cx, cy, size = _damaged_place(g)
    h = size * 0.95
    points = [(cx, cy - h / 2), (cx + size / 2, cy + h / 2), (cx - size / 2, cy + h / 2)]
    canvas.polygon(
        points, fill=theme.badge, outline=with_alpha(theme.badge_text, 255), width=size * 0.09
    )
