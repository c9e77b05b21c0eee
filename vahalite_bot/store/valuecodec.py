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
from typing import Any

from vahalite_bot.rules.geometry import Cell

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
    hints = field_hints(cls)
    left_out = set(skip)
    return {
        f.name: decode_as(hints[f.name], data[f.name])
        for f in dataclasses.fields(cls)
        if f.name not in left_out and (f.name in data or not _has_default(f))
    }


def _has_default(field: dataclasses.Field[Any]) -> bool:
    return (
        field.default is not dataclasses.MISSING or field.default_factory is not dataclasses.MISSING
    )


def decode_as(hint: Any, data: Any) -> Any:
    """``data`` decoded as a value of type ``hint`` (a resolved type hint)."""
    if data is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        return _decode_union(hint, data)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode_as(args[0], d) for d in data)
        return tuple(decode_as(a, d) for a, d in zip(args, data, strict=True))
    if origin is frozenset:
        (item,) = typing.get_args(hint)
        return frozenset(decode_as(item, d) for d in data)
    if origin is dict:
        key, value = typing.get_args(hint)
        return {decode_as(key, k): decode_as(value, v) for k, v in data.items()}
    if hint is Cell:
        return Cell.parse(data)
    if hint is datetime:
        return datetime.fromisoformat(data)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(data)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return hint(**decode_fields(hint, data))
    if hint is Any:
        return data
    return data


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


def _decode_union(hint: Any, data: Any) -> Any:
    options = [a for a in typing.get_args(hint) if a is not type(None)]
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
