"""Golden images of the board: a handful of scenes compared with the committed PNGs.

Regenerate after an intended change of the image (and look at the new files):

    VAHALITE_REGOLDEN=1 .venv/bin/python -m pytest tests/test_render_golden.py

The comparison tolerates what another Pillow or FreeType build changes (antialiasing, a
glyph's hinting): the mean difference must stay below 1 level of 255 and fewer than 0.5%
of the pixels may differ by more than 32 in any channel.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from tests.golden.states import SCENES, Scene
from vahalite_bot.render import render_board

GOLDEN_DIR = Path(__file__).parent / "golden"
GOLDEN_SIZE = 480  # small files; the layout scales, so this is the same picture
SIZES = {"big_board": 800}  # ... except where cells would get too small to read
REGENERATE = os.environ.get("VAHALITE_REGOLDEN") == "1"
MAX_MEAN_DIFF = 1.0
MAX_SHARE_FAR = 0.005
FAR = 32


def render(scene: Scene, size: int = GOLDEN_SIZE) -> bytes:
    return render_board(
        scene.state,
        events=scene.events,
        before=scene.before,
        names=scene.names,
        lang=scene.lang,
        size=size,
    )


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """Mean absolute difference per channel value, and the share of pixels differing by more
    than ``FAR`` in some channel."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    channels = diff.split()
    total = sum(i * n for band in channels for i, n in enumerate(band.histogram()))
    mean = total / (3 * a.width * a.height)
    far_mask = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
    far = sum(far_mask.histogram()[FAR + 1 :])
    return mean, far / (a.width * a.height)


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
    mean, far = difference(actual, expected)
    assert mean < MAX_MEAN_DIFF and far < MAX_SHARE_FAR, (
        f"{name}: mean difference {mean:.3f}, {far:.2%} of pixels far off; if the change is "
        "intended, regenerate (see this module's docstring) and look at the new image"
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
    mean, far = difference(image, other)
    assert mean >= MAX_MEAN_DIFF or far >= MAX_SHARE_FAR
