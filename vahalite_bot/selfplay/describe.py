"""Developer-readable one-line forms of actions and events for ``--verbose``.

Not player-facing text (that comes from the message catalogues): this is a compact repr
that shows cells by name, sides and kinds by value, names in English and dice as values.
"""

from __future__ import annotations

import dataclasses
from enum import Enum

from vahalite_bot.rules.actions import Action
from vahalite_bot.rules.dice import Die
from vahalite_bot.rules.events import Event
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.sheets import Names


def describe(item: Action | Event) -> str:
    fields = [
        f"{f.name}={_value(getattr(item, f.name))}"
        for f in dataclasses.fields(item)
        if getattr(item, f.name) not in (None, ())
    ]
    return " ".join([type(item).__name__, *fields])


def _value(value: object) -> str:
    if isinstance(value, Cell):
        return value.name
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, Names):
        return repr(value.en)
    if isinstance(value, Die):
        return str(value.value)
    if isinstance(value, tuple):
        if value and all(isinstance(v, Cell) for v in value):
            return "-".join(v.name for v in value if isinstance(v, Cell))
        return "[" + ",".join(_value(v) for v in value) + "]"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        inner = " ".join(
            f"{f.name}={_value(getattr(value, f.name))}" for f in dataclasses.fields(value)
        )
        return "{" + inner + "}"
    return str(value)
