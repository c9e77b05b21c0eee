"""The console's words: messages of ``console.ftl`` and the small pieces every view shares
(a side's name, a unit's label, a list of dice), painted when the terminal has colours."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from vahalite_bot.i18n import translate
from vahalite_bot.present.paint import Paint
from vahalite_bot.rules.dice import Die
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState


def say(lang: str, key: str, **args: Any) -> str:
    """The console message ``console-<key>``."""
    return translate(lang, f"console-{key}", **args)


def side_name(lang: str, side: Side, paint: Paint) -> str:
    return paint(translate(lang, f"side-{side.value}"), side.value)


def unit_label(
    state: GameState, handle: str, lang: str, paint: Paint, *, named: bool = False
) -> str:
    """``tac1``, coloured by its side; with ``named``, ``tac1 (Tactical Squad)``."""
    unit = state.units.get(handle)
    if unit is None:
        return handle
    label = paint(handle, unit.side.value)
    if named:
        return say(lang, "unit-named", handle=label, name=unit.sheet.name.get(lang))
    return label


def dice_values(dice: Iterable[Die], paint: Paint) -> str:
    return paint(" ".join(str(d.value) for d in dice), "dice")


def cells_text(cells: Iterable[Cell]) -> str:
    return ", ".join(c.name for c in cells)


def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"
