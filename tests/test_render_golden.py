"""Golden images of the board: a handful of scenes compared with the committed PNGs.

Regenerate after an intended change of the image (and look at the new files):

    VAHALITE_REGOLDEN=1 .venv/bin/python -m pytest tests/test_render_golden.py

The comparison tolerates what another Pillow or FreeType build changes (antialiasing spread
thin over the image), not a change in one place: the mean difference must stay below 1
level of 255, fewer than 0.5% of the pixels may differ by more than 32 in any channel, and
no 16 x 16 square (on two grids, offset by half a square) may hold more than 8 pixels that
differ by more than 40. The last bound is what catches a small change on a big board: one
HP less (a pip and the number, some 20-50 pixels of 625,000), an SP changing hands, a terrain
piece gone; the whole-image shares alone let all three pass.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from tests.golden.states import SCENES, Scene
from vahalite_bot.render import render_board
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.state import GameState

GOLDEN_DIR = Path(__file__).parent / "golden"
GOLDEN_SIZE = 480  # small files; the layout scales, so this is the same picture
SIZES = {"big_board": 800}  # ... except where cells would get too small to read
REGENERATE = os.environ.get("VAHALITE_REGOLDEN") == "1"
MAX_MEAN_DIFF = 1.0
MAX_SHARE_FAR = 0.005
FAR = 32
TILE = 16
TILE_FAR = 40
MAX_FAR_IN_TILE = 8


def render(scene: Scene, size: int = GOLDEN_SIZE) -> bytes:
    return render_board(
        scene.state,
        events=scene.events,
        before=scene.before,
        names=scene.names,
        lang=scene.lang,
        size=size,
    )


@dataclass(frozen=True)
class Difference:
    mean: float  # mean absolute difference per channel value
    far: float  # the share of pixels differing by more than FAR in some channel
    worst_tile: int  # the most pixels differing by more than TILE_FAR in one TILE square

    @property
    def passes(self) -> bool:
        return (
            self.mean < MAX_MEAN_DIFF
            and self.far < MAX_SHARE_FAR
            and self.worst_tile <= MAX_FAR_IN_TILE
        )


def difference(a: Image.Image, b: Image.Image) -> Difference:
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    channels = diff.split()
    total = sum(i * n for band in channels for i, n in enumerate(band.histogram()))
    pixels = a.width * a.height
    most = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
    far = sum(most.histogram()[FAR + 1 :])
    return Difference(total / (3 * pixels), far / pixels, _worst_tile(most))


def _worst_tile(most: Image.Image) -> int:
    """The most far-off pixels in one square, over two grids offset by half a square (so a
    change on a grid line is not split in two)."""
    marked = most.point(lambda v: 1 if v > TILE_FAR else 0)
    worst = 0
    for shift in (0, TILE // 2):
        part = marked.crop((shift, shift, marked.width, marked.height))
        for top in range(0, part.height, TILE):
            for left in range(0, part.width, TILE):
                tile = part.crop((left, top, left + TILE, top + TILE))
                worst = max(worst, tile.histogram()[1])
    return worst


@pytest.mark.parametrize("name", sorted(SCENES))
def test_board_matches_golden_image(name: str) -> None:
    """Setup, mid-game with every terrain and unit kind, transports loaded, the end of the
    game, and a 12 x 12 board look as they did when last approved."""
    path = GOLDEN_DIR / f"{name}.png"
    actual = Image.open(io.BytesIO(render(SCENES[name](), SIZES.get(name, GOLDEN_SIZE))))
    if REGENERATE:
        actual.save(path, optimize=True)
        pytest.skip(f"regenerated {path.name}")
    assert path.exists(), f"no golden image {path.name}: run with VAHALITE_REGOLDEN=1"
    expected = Image.open(path)
    assert actual.size == expected.size
    diff = difference(actual, expected)
    assert diff.passes, (
        f"{name}: mean difference {diff.mean:.3f}, {diff.far:.2%} of pixels far off, "
        f"{diff.worst_tile} in one {TILE}-px square; if the change is intended, regenerate "
        "(see this module's docstring) and look at the new image"
    )


def test_comparison_catches_a_changed_board() -> None:
    """The tolerance is not so loose that a moved unit passes."""
    scene = SCENES["transports"]()
    image = Image.open(io.BytesIO(render(scene)))
    moved = scene.state.copy()
    unit = moved.units["cap1"]
    assert unit.cell is not None
    unit.cell = unit.cell._replace(col=unit.cell.col + 1)
    other = Image.open(io.BytesIO(render(Scene(moved, scene.events, scene.before))))
    assert not difference(image, other).passes


# -- small changes on the big board (issue 10: all three once passed) -----------------------
BIG = "big_board"


def big_image(state: GameState | None = None) -> Image.Image:
    scene = SCENES[BIG]()
    if state is not None:
        scene = replace(scene, state=state)
    return Image.open(io.BytesIO(render(scene, SIZES[BIG])))


def _hp_lost(handle: str) -> Callable[[GameState], None]:
    def plant(state: GameState) -> None:
        state.units[handle].hp -= 1

    return plant


def _sp_taken(cell: Cell) -> Callable[[GameState], None]:
    def plant(state: GameState) -> None:
        state.sps[cell].holder = state.sps[cell].holder.other

    return plant


def _terrain_gone(cell: Cell) -> Callable[[GameState], None]:
    def plant(state: GameState) -> None:
        state.terrain = {k: v for k, v in state.terrain.items() if k != cell}  # copy on write

    return plant


def _plants() -> dict[str, Callable[[GameState], None]]:
    state = SCENES[BIG]().state
    plants: dict[str, Callable[[GameState], None]] = {}
    for unit in state.units.values():
        if unit.cell is not None and not unit.destroyed and unit.hp > 1:
            plants[f"hp-1 {unit.id}"] = _hp_lost(unit.id)
    for cell in state.sps:
        plants[f"sp {cell.name} changes hands"] = _sp_taken(cell)
    for cell in state.terrain:
        plants[f"terrain {cell.name} removed"] = _terrain_gone(cell)
    return plants


PLANTS = _plants()


def test_every_kind_of_planted_change_is_planted() -> None:
    kinds = {name.split()[0] for name in PLANTS}
    assert kinds == {"hp-1", "sp", "terrain"}
    assert len(PLANTS) >= 14  # 7 units, 3 SPs, 5 terrain pieces


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_comparison_fails_on_a_planted_change_to_the_big_board(plant: str) -> None:
    """One unit's HP -1, one SP changing owner, one terrain piece removed: each fails the
    comparison with the unchanged board."""
    original = big_image()
    changed = SCENES[BIG]().state.copy()
    PLANTS[plant](changed)
    diff = difference(original, big_image(changed))
    assert not diff.passes, diff


def test_comparison_passes_the_same_board_drawn_again() -> None:
    first, second = big_image(), big_image()
    diff = difference(first, second)
    assert diff.passes and diff.worst_tile == 0 and diff.mean == 0
