"""Colours of the board image: one opaque palette that reads on Discord's dark and light themes.

The board brings its own dark frame, so it never depends on the chat's background. The two
sides are the Okabe-Ito blue/orange pair (safe for the common colour-vision deficiencies) and
differ in lightness too, so they stay apart in greyscale; their tokens also differ in shape.
Terrain kinds differ in lightness and pattern, not only in hue.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from vahalite_bot.rules.scenario import Side, TerrainKind

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]


@dataclass(frozen=True)
class SidePalette:
    fill: RGB  # the token's body
    edge: RGB  # the token's outline, darker
    ink: RGB  # text and icons drawn on the token
    halo: RGB  # the outline around that ink, for contrast
    tint: RGB  # the colour mixed into this side's half of the board


@dataclass(frozen=True)
class TerrainPalette:
    fill: RGB
    line: RGB  # the pattern that tells the kind apart without colour


def _sides() -> dict[Side, SidePalette]:
    return {
        Side.SOUTH: SidePalette(
            fill=(0, 114, 178),
            edge=(8, 44, 74),
            ink=(255, 255, 255),
            halo=(8, 44, 74),
            tint=(86, 160, 214),
        ),
        Side.NORTH: SidePalette(
            fill=(230, 159, 0),
            edge=(92, 58, 0),
            ink=(28, 22, 10),
            halo=(255, 236, 190),
            tint=(232, 170, 60),
        ),
    }


def _terrain() -> dict[TerrainKind, TerrainPalette]:
    return {
        TerrainKind.OBSTACLE: TerrainPalette(fill=(66, 66, 70), line=(150, 150, 156)),
        TerrainKind.WATER: TerrainPalette(fill=(118, 182, 222), line=(245, 250, 255)),
        TerrainKind.HEIGHT: TerrainPalette(fill=(226, 198, 142), line=(128, 92, 40)),
        TerrainKind.COVER: TerrainPalette(fill=(104, 156, 80), line=(42, 84, 30)),
        TerrainKind.FORTIFICATION: TerrainPalette(fill=(150, 146, 138), line=(72, 68, 62)),
    }


@dataclass(frozen=True)
class Theme:
    name: str = "default"
    frame: RGB = (30, 34, 41)  # the image's own background around the board
    frame_text: RGB = (236, 238, 242)
    frame_muted: RGB = (160, 168, 180)
    board: RGB = (236, 231, 220)
    grid: RGB = (170, 162, 146)
    divider: RGB = (70, 64, 56)  # the line between the two halves
    half_tint: float = 0.10  # how much of the side's tint colours its half
    zone_tint: float = 0.22  # ... and its deployment zone
    sides: dict[Side, SidePalette] = field(default_factory=_sides)
    terrain: dict[TerrainKind, TerrainPalette] = field(default_factory=_terrain)
    badge: RGB = (250, 250, 250)  # small white plates with dark text (cover value, ...)
    badge_text: RGB = (20, 20, 20)
    hp_plate: RGB = (24, 24, 28)
    hp_left: RGB = (240, 240, 240)
    hp_lost: RGB = (92, 92, 98)
    highlight: RGBA = (255, 244, 160, 110)  # the cells the last action touched
    damage: RGB = (176, 30, 36)  # the plate with the damage dealt
    cross: RGB = (160, 16, 24)
    shadow: RGBA = (0, 0, 0, 70)

    def __hash__(self) -> int:
        # The dict fields are fixed per theme name; caches key on the name.
        return hash(self.name)

    def side(self, side: Side) -> SidePalette:
        return self.sides[side]


DEFAULT_THEME = Theme()


def mix(a: RGB, b: RGB, amount: float) -> RGB:
    """``a`` with ``amount`` (0..1) of ``b`` mixed in."""
    return (
        round(a[0] + (b[0] - a[0]) * amount),
        round(a[1] + (b[1] - a[1]) * amount),
        round(a[2] + (b[2] - a[2]) * amount),
    )


def with_alpha(colour: RGB, alpha: int) -> RGBA:
    return (colour[0], colour[1], colour[2], alpha)
