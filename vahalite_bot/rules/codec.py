"""Actions and events to plain JSON-ready data and back, for the game log (K1).

Every logged value is a frozen dataclass, an enum, a Cell, a tuple or a scalar; the class
name is stored beside the fields so a log line decodes to exactly what was written.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from typing import Any

from vahalite_bot.rules import actions, events
from vahalite_bot.rules.dice import Die
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.sheets import Names

_KIND = "type"


def _registry() -> dict[str, type[Any]]:
    classes: dict[str, type[Any]] = {"Die": Die, "Names": Names, "Score": events.Score}
    for module in (actions, events):
        for name, value in vars(module).items():
            if isinstance(value, type) and dataclasses.is_dataclass(value):
                classes[name] = value
    return classes


REGISTRY = _registry()
# Resolved once: the annotations are strings under ``from __future__ import annotations``.
HINTS = {name: typing.get_type_hints(cls) for name, cls in REGISTRY.items()}


def encode(value: Any) -> Any:
    """A logged value as JSON-ready data (dicts, lists, strings, numbers, None)."""
    if isinstance(value, Cell):
        return value.name
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        data = {
            f.name: encode(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not _omitted(f, getattr(value, f.name))
        }
        return {_KIND: type(value).__name__, **data}
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    return value


def _omitted(field: dataclasses.Field[Any], value: Any) -> bool:
    """A field added later (``omit_default``) is left out at its default: the old shape."""
    return bool(field.metadata.get("omit_default")) and value == field.default


def decode(data: dict[str, Any]) -> Any:
    """The inverse of ``encode`` for a dataclass value (an action or an event)."""
    cls = REGISTRY[data[_KIND]]
    hints = HINTS[data[_KIND]]
    # A field added later with a default is absent from older logs: the default stands.
    fields = {
        f.name: _decode_as(hints[f.name], data[f.name])
        for f in dataclasses.fields(cls)
        if f.name in data
    }
    return cls(**fields)


def _decode_as(hint: Any, data: Any) -> Any:
    if data is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return _decode_as(options[0], data) if len(options) == 1 else decode(data)
    if origin is tuple:
        item = typing.get_args(hint)[0]
        return tuple(_decode_as(item, d) for d in data)
    if hint is Cell:
        return Cell.parse(data)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(data)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return decode(data)
    return data
