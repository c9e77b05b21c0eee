"""Plain values (frozen dataclasses, enums, cells, collections) to JSON-ready data and back.

The engine's ``rules.codec`` covers actions and events; snapshots also hold states, sheets
and scenarios (frozensets, dicts keyed by cells or sides), and the service logs records of
its own. Decoding follows the type hints of the dataclass fields, so a value decodes to
exactly the type it was written as; a union of dataclasses is told apart by the class name
stored beside the fields.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from enum import Enum
from functools import cache, partial
from typing import Any

from vahalite_bot.rules.codec import as_is, enum_decoder
from vahalite_bot.rules.geometry import Cell, cell_of

KIND = "type"


def encode(value: Any) -> Any:
    """``value`` as dicts, lists, strings, numbers, booleans and None."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    encoder = _ENCODERS.get(kind)
    if encoder is None:
        encoder = _ENCODERS[kind] = _encoder_for(kind)
    return encoder(value)


# Snapshots encode every unit of the state at each new turn: which branch a value takes, and
# a dataclass's field names, depend only on its class, so they are worked out once per class.
_ENCODERS: dict[type[Any], Callable[[Any], Any]] = {}


def _encoder_for(kind: type[Any]) -> Callable[[Any], Any]:
    """How ``encode`` treats a value of class ``kind`` (the same tests, in the same order,
    as if asked of each value; a class itself is no value to encode)."""
    if issubclass(kind, bool | int | str):
        return _same
    if issubclass(kind, Cell):
        return _cell
    if issubclass(kind, Enum):
        return _enum
    if issubclass(kind, datetime):
        return _datetime
    if dataclasses.is_dataclass(kind) and not issubclass(kind, type):
        return _dataclass_encoder(kind)
    if issubclass(kind, tuple | list):
        return _sequence
    if issubclass(kind, frozenset | set):
        return _set
    if issubclass(kind, Mapping):
        return _mapping
    return _refuse


def _same(value: Any) -> Any:
    return value


def _cell(value: Cell) -> str:
    return value.name


def _enum(value: Enum) -> Any:
    return value.value


def _datetime(value: datetime) -> str:
    return value.isoformat()


def _dataclass_encoder(kind: type[Any]) -> Callable[[Any], dict[str, Any]]:
    name = kind.__name__
    names = tuple(f.name for f in dataclasses.fields(kind))

    def encode_dataclass(value: Any) -> dict[str, Any]:
        # The class name first, then the fields in their declared order: the stored text.
        data: dict[str, Any] = {KIND: name}
        for field in names:
            data[field] = encode(getattr(value, field))
        return data

    return encode_dataclass


def _sequence(value: tuple[Any, ...] | list[Any]) -> list[Any]:
    return [encode(v) for v in value]


def _set(value: frozenset[Any] | set[Any]) -> list[Any]:
    # Sorted, so that equal sets always encode to the same text.
    return sorted((encode(v) for v in value), key=repr)


def _mapping(value: Mapping[Any, Any]) -> dict[str, Any]:
    return {_key(k): encode(v) for k, v in value.items()}


def _refuse(value: Any) -> Any:
    raise TypeError(f"cannot encode {type(value).__name__}")


def decode_fields(
    cls: type[Any], data: Mapping[str, Any], skip: Iterable[str] = ()
) -> dict[str, Any]:
    """The fields of dataclass ``cls`` decoded from ``data``, all but those in ``skip``.

    A field with a default that ``data`` lacks is left to its default: records written
    before the field was added still decode.
    """
    left_out = set(skip)
    return _decode_plan(_plan(cls), data, left_out)


def _decode_plan(
    plan: tuple[tuple[str, Callable[[Any], Any], bool], ...],
    data: Mapping[str, Any],
    left_out: frozenset[str] | set[str] = frozenset(),
) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for name, decode, optional in plan:
        if name in left_out:
            continue
        if name in data:
            value = data[name]
            # Most fields are plain values: no call for them.
            fields[name] = value if value is None or decode is as_is else decode(value)
        elif not optional:
            raise KeyError(name)
    return fields


_PLANS: dict[type[Any], tuple[tuple[str, Callable[[Any], Any], bool], ...]] = {}


def _plan(cls: type[Any]) -> tuple[tuple[str, Callable[[Any], Any], bool], ...]:
    """Each field of dataclass ``cls``: its name, its decoder, whether it has a default."""
    found = _PLANS.get(cls)
    if found is None:
        found = _PLANS[cls] = tuple(
            (name, _decoder(hint), optional) for name, hint, optional in _fields(cls)
        )
    return found


_FIELDS: dict[type[Any], tuple[tuple[str, Any, bool], ...]] = {}


def _fields(cls: type[Any]) -> tuple[tuple[str, Any, bool], ...]:
    """Each field of dataclass ``cls``: its name, its resolved hint, whether it has a
    default (cached: they never change)."""
    found = _FIELDS.get(cls)
    if found is None:
        hints = field_hints(cls)
        fields = dataclasses.fields(cls)
        found = _FIELDS[cls] = tuple((f.name, hints[f.name], _has_default(f)) for f in fields)
    return found


def _has_default(field: dataclasses.Field[Any]) -> bool:
    return (
        field.default is not dataclasses.MISSING or field.default_factory is not dataclasses.MISSING
    )


def decode_as(hint: Any, data: Any) -> Any:
    """``data`` decoded as a value of type ``hint`` (a resolved type hint)."""
    return None if data is None else _decoder(hint)(data)


@cache
def _decoder(hint: Any) -> Callable[[Any], Any]:
    """How ``decode_as`` decodes data (not None) as ``hint``, worked out once per hint: a
    snapshot's state is thousands of values of a few dozen hints, and reading each hint
    again for each value was most of the time a recap spent decoding it. A container's
    decoder holds its items' decoders: looking one up by its hint hashes the hint, which
    cost more than most items' decoding."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        options = tuple(a for a in args if a is not type(None))
        if len(options) == 1:
            return _decoder(options[0])
        return partial(_decode_union, hint, options)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            return lambda data: tuple(None if d is None else item(d) for d in data)
        items = tuple(_decoder(a) for a in args)
        return lambda data: tuple(
            None if d is None else decode(d) for decode, d in zip(items, data, strict=True)
        )
    if origin is frozenset:
        item = _decoder(args[0])
        return lambda data: frozenset(None if d is None else item(d) for d in data)
    if origin is dict:
        key, value = _decoder(args[0]), _decoder(args[1])
        return lambda data: {
            None if k is None else key(k): None if v is None else value(v) for k, v in data.items()
        }
    if hint is Cell:
        return cell_of
    if hint is datetime:
        return datetime.fromisoformat
    if isinstance(hint, type) and issubclass(hint, Enum):
        return enum_decoder(hint)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_decoder(hint)
    return as_is  # Any, and plain values (str, int, bool)


def _dataclass_decoder(cls: type[Any]) -> Callable[[Any], Any]:
    def decode_dataclass(data: Any) -> Any:
        # The plan is looked up at the first value, not now: a field's hint may name the
        # class itself, whose decoder is still being made.
        return cls(**_decode_plan(_plan(cls), data))

    return decode_dataclass


def decode_tagged(data: Mapping[str, Any], registry: Mapping[str, type[Any]]) -> Any:
    """A dataclass value whose class is named in ``data`` and found in ``registry``."""
    cls = registry[data[KIND]]
    return cls(**decode_fields(cls, data))


_HINTS: dict[type[Any], dict[str, Any]] = {}


def field_hints(cls: type[Any]) -> dict[str, Any]:
    """The resolved type hints of a dataclass's fields (cached: they never change)."""
    hints = _HINTS.get(cls)
    if hints is None:
        module = vars(typing.cast(Any, __import__(cls.__module__, fromlist=["_"])))
        hints = _HINTS[cls] = typing.get_type_hints(cls, globalns=module)
    return hints


def _decode_union(hint: Any, options: tuple[Any, ...], data: Any) -> Any:
    if len(options) == 1:
        return decode_as(options[0], data)
    if isinstance(data, Mapping) and KIND in data:
        for option in options:
            if isinstance(option, type) and option.__name__ == data[KIND]:
                return decode_as(option, data)
    for option in options:
        if isinstance(option, type) and isinstance(data, option):
            return data
    raise TypeError(f"cannot decode {data!r} as {hint}")


def _key(key: Any) -> str:
    encoded = encode(key)
    if not isinstance(encoded, str):
        raise TypeError(f"mapping key {key!r} does not encode to a string")
    return encoded
