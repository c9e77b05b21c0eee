"""Actions and events to plain JSON-ready data and back, for the game log (K1).

Every logged value is a frozen dataclass, an enum, a Cell, a tuple or a scalar; the class
name is stored beside the fields so a log line decodes to exactly what was written.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any

from vahalite_bot.rules import actions, events
from vahalite_bot.rules.dice import Die
from vahalite_bot.rules.geometry import Cell, cell_of
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
    kind = data[_KIND]
    cls, fields = _PLANS.get(kind) or _plan(kind)
    # A field added later with a default is absent from older logs: the default stands.
    values: dict[str, Any] = {}
    for name, decoder in fields:
        if name in data:
            value = data[name]
            values[name] = value if value is None or decoder is as_is else decoder(value)
    return cls(**values)


# Each class's fields with their decoders, worked out at its first value: a recap decodes
# hundreds of logged values, and reading each field's hint again for each was most of it.
_PLANS: dict[str, tuple[type[Any], tuple[tuple[str, Callable[[Any], Any]], ...]]] = {}


def _plan(kind: str) -> tuple[type[Any], tuple[tuple[str, Callable[[Any], Any]], ...]]:
    cls = REGISTRY[kind]
    hints = HINTS[kind]
    fields = tuple((f.name, _decoder(hints[f.name])) for f in dataclasses.fields(cls))
    plan = _PLANS[kind] = (cls, fields)
    return plan


def _decoder(hint: Any) -> Callable[[Any], Any]:
    """How a value (not None) of type ``hint`` decodes: a dataclass by the class named in
    its data, as ``decode`` does."""
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return _decoder(options[0]) if len(options) == 1 else decode
    if origin is tuple:
        item = _decoder(typing.get_args(hint)[0])
        return lambda data: tuple(None if d is None else item(d) for d in data)
    if hint is Cell:
        return cell_of
    if isinstance(hint, type) and issubclass(hint, Enum):
        return enum_decoder(hint)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return decode
    return as_is


def enum_decoder(cls: type[Enum]) -> Callable[[Any], Any]:
    """The member of ``cls`` with the value ``data``: the enum's own first look-up, without
    the metaclass's call around it; anything else as the class itself answers."""
    members = cls._value2member_map_

    def decode_enum(data: Any) -> Any:
        try:
            return members[data]
        except (KeyError, TypeError):
            return cls(data)

    return decode_enum


def as_is(data: Any) -> Any:
    """A plain value's decoder: the value itself."""
    return data
