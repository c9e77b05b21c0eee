"""Unit tokens: side colour and shape (south a disc, north a rounded square), the type glyph,
the handle the orders use, HP pips grouped by model with the HP as a number, and a mark for
a damaged profile.

A token is drawn in two layers. The body (shape, glyph, damaged mark) goes under the last
action's arrows, crosses and plates; the words (handle, HP plate) go over everything, so an
arrow or a cross never hides a name or a number. ``TokenGeometry`` says where every part
lies in its cell, so the marks drawn beside them (``marks.damage``) can keep clear of them.

Each layer is a pure function of a few values, so it is drawn once and reused: a bot that
redraws a game after every action redraws only the units that changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

from PIL import Image, ImageDraw

from vahalite_bot.render.canvas import Canvas
from vahalite_bot.render.fonts import MIN_PX, Face, Font, fit, fitting_font, font, text_width
from vahalite_bot.render.icons import draw_icon
from vahalite_bot.render.layout import Box
from vahalite_bot.render.theme import Theme, with_alpha
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.sheets import UnitType
from vahalite_bot.rules.state import GameState, UnitState

# Below this cell size a token shows no type glyph: the handle matters more.
ICON_MIN_CELL = 52
MAX_PIPS = 12
# Handles are lower-case letters and digits.
HANDLE_GLYPHS = "abcdefghijklmnopqrstuvwxyz0123456789"
FloatBox = tuple[float, float, float, float]


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
    """Where the parts of a token go inside its cell (``px`` square), top to bottom: the
    passenger tag (``marks.passenger_tag``) above the body; in the body the damaged mark,
    the glyph and the damage plate side by side, then the handle; the HP plate at the foot.
    Nothing overlaps the handle or the HP plate, at any cell size the layout makes (the
    tests check it from 40 to 192 px)."""

    px: int

    @property
    def centre(self) -> tuple[float, float]:
        return (self.px * 0.5, self.px * 0.45)

    @property
    def radius(self) -> float:
        return self.px * 0.36

    def body(self, side: Side) -> FloatBox:
        cx, cy = self.centre
        r = self.radius if side is Side.SOUTH else self.radius * 0.92
        return (cx - r, cy - r, cx + r, cy + r)

    @property
    def has_icon(self) -> bool:
        return self.px >= ICON_MIN_CELL

    @property
    def icon_box(self) -> FloatBox:
        cx, cy = self.centre
        half = self.px * 0.11
        iy = cy - self.px * 0.15
        return (cx - half, iy - half, cx + half, iy + half)

    # -- the handle ----------------------------------------------------------------------
    @property
    def label_y(self) -> float:
        return self.centre[1] + self.px * (0.12 if self.has_icon else 0.08)

    @property
    def label_width(self) -> float:
        # Without a glyph (small cells) the handle may spread over the whole cell.
        return self.radius * 1.75 if self.has_icon else self.px * 0.98

    @property
    def label_px(self) -> int:
        return round(self.px * (0.24 if self.has_icon else 0.28))

    @property
    def halo(self) -> int:
        return max(1, round(self.px / 90))

    def label_font(self, handle: str) -> Font:
        return fitting_font(handle, Face.CONDENSED_BOLD, self.label_px, self.label_width)

    def label_box(self, handle: str) -> FloatBox:
        """The pixels the handle (with its halo) may cover."""
        f = self.label_font(handle)
        text = fit(handle, f, self.label_width)
        x0, y0, x1, y1 = f.getbbox(text, anchor="mm")
        h = self.halo
        cx, cy = self.centre[0], self.label_y
        return (cx + x0 - h, cy + y0 - h, cx + x1 + h, cy + y1 + h)

    @cached_property
    def label_band(self) -> tuple[float, float]:
        """Top and bottom of any handle's ink, halo included."""
        _, top, _, bottom = font(Face.CONDENSED_BOLD, self.label_px).getbbox(
            HANDLE_GLYPHS, anchor="mm"
        )
        return (self.label_y + top - self.halo, self.label_y + bottom + self.halo)

    @property
    def words_zone(self) -> FloatBox:
        """Where a handle of up to five letters lies (arrows keep off it): as wide as the
        glyph's row allows; a longer handle on a small cell may spill wider, over arrows."""
        half = min(self.label_width, self.radius * 1.75) / 2 + self.halo
        top, bottom = self.label_band
        return (self.centre[0] - half, top, self.centre[0] + half, bottom)

    # -- beside the glyph: the damaged mark (left) and the damage plate (right) ----------
    @property
    def _row_bottom(self) -> float:
        """The foot of the row above the handle, a little clear of its tallest glyph."""
        return self.label_band[0] - max(1.0, self.px * 0.015)

    @property
    def damaged_box(self) -> FloatBox:
        """The damaged mark's triangle: left of the glyph, above the handle."""
        size = self.px * 0.21
        x0 = self.centre[0] - self.radius * 0.9
        y1 = self._row_bottom
        return (x0, y1 - size * 0.95, x0 + size, y1)

    def damage_box(self, width: float) -> FloatBox:
        """The damage plate ``width`` px wide: right of the glyph, above the handle."""
        height = max(self.px * 0.21, MIN_PX + 4.0)
        x1 = self.px * 0.98
        y1 = self._row_bottom
        return (x1 - width, y1 - height, x1, y1)

    @property
    def damage_px(self) -> int:
        return max(MIN_PX, round(self.px * 0.17))

    # -- the HP plate --------------------------------------------------------------------
    @property
    def hp_box(self) -> tuple[int, int, int, int]:
        p = self.px
        bottom = round(p * 0.965)
        height = max(round(p * 0.15), MIN_PX + 2)
        return (round(p * 0.08), bottom - height, round(p * 0.92), bottom)

    @property
    def hp_pad(self) -> int:
        y0, y1 = self.hp_box[1], self.hp_box[3]
        return max(1, (y1 - y0) // 5)

    @property
    def hp_px(self) -> int:
        y0, y1 = self.hp_box[1], self.hp_box[3]
        return max(MIN_PX, y1 - y0 - 1)

    def hp_split(self, max_hp: int) -> tuple[Box, Box]:
        """The plate's pip area and its number area: the number is as wide as the widest
        it can get (``max/max``), so the pips do not shift as HP is lost."""
        x0, y0, x1, y1 = self.hp_box
        pad = self.hp_pad
        number_w = round(
            text_width(_hp_text(max_hp, max_hp), font(Face.CONDENSED_BOLD, self.hp_px))
        )
        split = x1 - pad - number_w - pad
        return (x0 + pad, y0 + pad, split - pad, y1 - pad), (split, y0, x1 - pad, y1)


def _hp_text(hp: int, max_hp: int) -> str:
    return f"{hp}/{max_hp}"


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
    """The token's body as a ``px`` square RGBA image, to be pasted onto its cell: shape,
    glyph and damaged mark. Its words are ``words_sprite``."""
    g = TokenGeometry(px)
    palette = theme.side(spec.side)
    canvas = Canvas((0, 0, px, px), scale=3)
    draw_body(canvas, spec.side, g, theme)
    if g.has_icon:
        draw_icon(canvas, spec.kind, g.icon_box, palette.ink)
    if spec.damaged:
        draw_damaged_mark(canvas, g.damaged_box, theme)
    image = canvas.image()
    if spec.damaged:
        draw_damaged_sign(ImageDraw.Draw(image), g.damaged_box, theme)
    return image


@lru_cache(maxsize=512)
def words_sprite(spec: TokenSpec, px: int, theme: Theme) -> Image.Image:
    """The token's handle and HP plate as a ``px`` square RGBA image, pasted over
    everything else on the board."""
    g = TokenGeometry(px)
    image = Image.new("RGBA", (px, px), (0, 0, 0, 0))
    # The handle (its stroked halo is most of the cost) is drawn once per unit; the HP
    # plate under it, which changes more often, never overlaps it.
    label, x, y = _label_sprite(spec.side, spec.handle, px, theme)
    image.paste(label, (x, y))
    _hp(ImageDraw.Draw(image), spec, g, theme)
    return image


@lru_cache(maxsize=1024)
def _label_sprite(side: Side, handle: str, px: int, theme: Theme) -> tuple[Image.Image, int, int]:
    image = Image.new("RGBA", (px, px), (0, 0, 0, 0))
    _label(ImageDraw.Draw(image), side, handle, TokenGeometry(px), theme)
    box = image.getchannel("A").getbbox() or (0, 0, 1, 1)
    return image.crop(box), box[0], box[1]


GHOST_OPACITY = 0.5


@lru_cache(maxsize=64)
def ghost_sprite(spec: TokenSpec, px: int, theme: Theme) -> Image.Image:
    """A faded token: where a destroyed unit stood."""
    faded = token_sprite(spec, px, theme).copy()
    alpha = faded.getchannel("A").point(lambda a: round(a * GHOST_OPACITY))
    faded.putalpha(alpha)
    return faded


# -- parts -------------------------------------------------------------------------------
def _label(
    draw: ImageDraw.ImageDraw, side: Side, handle: str, g: TokenGeometry, theme: Theme
) -> None:
    """The handle in the side's ink on a halo: readable over any arrow, cross or pattern."""
    palette = theme.side(side)
    f = g.label_font(handle)
    draw.text(
        (g.centre[0], g.label_y),
        fit(handle, f, g.label_width),
        font=f,
        fill=palette.ink,
        anchor="mm",
        stroke_width=g.halo,
        stroke_fill=palette.halo,
    )


def _hp(draw: ImageDraw.ImageDraw, spec: TokenSpec, g: TokenGeometry, theme: Theme) -> None:
    """HP as pips, a group per model (F1), one pip per model or a bar when too many; and
    as a number, ``left/max``, at the plate's right end."""
    x0, y0, x1, y1 = g.hp_box
    draw.rounded_rectangle((x0, y0, x1, y1), radius=max(1, (y1 - y0) // 3), fill=theme.hp_plate)
    pips, number = g.hp_split(spec.max_hp)
    draw.text(
        ((number[0] + number[2]) / 2, (number[1] + number[3]) / 2),
        _hp_text(spec.hp, spec.max_hp),
        font=font(Face.CONDENSED_BOLD, g.hp_px),
        fill=theme.hp_left,
        anchor="mm",
    )
    _pips(draw, spec, g, pips, theme)


def _pips(
    draw: ImageDraw.ImageDraw, spec: TokenSpec, g: TokenGeometry, box: Box, theme: Theme
) -> None:
    ix0, iy0, ix1, iy1 = box
    if ix1 - ix0 < 4:  # a tiny cell: the number says it all
        return
    models = max(1, spec.max_hp // spec.wounds)
    gap = max(1, round(g.px / 90))
    if spec.max_hp <= MAX_PIPS:
        cells, per, fill_units = spec.max_hp, spec.wounds, spec.hp
    elif models <= MAX_PIPS:
        cells, per, fill_units = models, 1, -(-spec.hp // spec.wounds)
    else:
        cells, per, fill_units = 0, 1, 0
    group_gap = gap * 2 if per > 1 else gap
    groups = max(1, cells // per)
    span = ix1 - ix0 + 1 - gap * (cells - groups) - group_gap * (groups - 1)
    if cells == 0 or span < 2 * cells:  # too many, or too little room: a bar
        share = spec.hp / spec.max_hp
        draw.rectangle((ix0, iy0, ix1, iy1), fill=theme.hp_lost)
        if spec.hp > 0:
            draw.rectangle((ix0, iy0, ix0 + round((ix1 - ix0) * share), iy1), fill=theme.hp_left)
        return
    pip = span / cells
    x = float(ix0)
    for i in range(cells):
        colour = theme.hp_left if i < fill_units else theme.hp_lost
        draw.rectangle((round(x), iy0, max(round(x), round(x + pip) - 1), iy1), fill=colour)
        x += pip + (group_gap if (i + 1) % per == 0 else gap)


def draw_damaged_mark(canvas: Canvas, box: FloatBox, theme: Theme) -> None:
    """A warning triangle: E7's damaged profile is in force (the legend's swatch too)."""
    x0, y0, x1, y1 = box
    size = x1 - x0
    points = [((x0 + x1) / 2, y0), (x1, y1), (x0, y1)]
    canvas.polygon(
        points, fill=theme.badge, outline=with_alpha(theme.badge_text, 255), width=size * 0.09
    )


def draw_damaged_sign(draw: ImageDraw.ImageDraw, box: FloatBox, theme: Theme) -> None:
    """The "!" in the triangle, drawn at the final scale (text stays sharper so)."""
    x0, y0, x1, y1 = box
    size = x1 - x0
    draw.text(
        ((x0 + x1) / 2, y0 + (y1 - y0) * 0.62),
        "!",
        font=font(Face.BOLD, max(1, round(size * 0.6))),
        fill=theme.badge_text,
        anchor="mm",
    )
