"""The decoders worked out once per class: the same values as the type hints say, None and
missing fields included, and a cell parsed once answers as ``Cell.parse``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum

import pytest

from vahalite_bot.rules.codec import decode, encode
from vahalite_bot.rules.events import Moved
from vahalite_bot.rules.geometry import Cell, cell_of
from vahalite_bot.rules.scenario import Side
from vahalite_bot.store import valuecodec


class Mood(Enum):
    CALM = 1
    ANGRY = "angry"

    @classmethod
    def _missing_(cls, value: object) -> Mood | None:
        return cls.CALM if value == "calm" else None


@dataclass(frozen=True)
class Inner:
    cell: Cell
    mood: Mood


@dataclass(frozen=True)
class Outer:
    inners: tuple[Inner | None, ...]
    by_side: dict[Side, tuple[Cell, ...]]
    pair: tuple[int, Cell | None]
    moods: frozenset[Mood]
    maybe: Inner | None = None
    added_later: int = 7
    more: tuple[str, ...] = field(default=())


def test_a_value_decodes_to_what_was_encoded_nested_nones_included() -> None:
    value = Outer(
        inners=(Inner(Cell(0, 0), Mood.CALM), None, Inner(Cell(25, 98), Mood.ANGRY)),
        by_side={Side.SOUTH: (Cell(1, 2), Cell(3, 4)), Side.NORTH: ()},
        pair=(3, None),
        moods=frozenset({Mood.CALM, Mood.ANGRY}),
        maybe=Inner(Cell(4, 4), Mood.ANGRY),
    )
    stored = json.loads(json.dumps(valuecodec.encode(value)))
    assert valuecodec.decode_as(Outer, stored) == value


def test_a_missing_field_keeps_its_default_and_a_required_one_is_refused() -> None:
    stored = {"inners": [], "by_side": {}, "pair": [1, "B2"], "moods": [], "maybe": None}
    decoded = valuecodec.decode_as(Outer, stored)
    assert (decoded.added_later, decoded.more, decoded.maybe) == (7, (), None)
    assert decoded.pair == (1, Cell(1, 1))
    with pytest.raises(KeyError):
        valuecodec.decode_as(Outer, {"inners": []})
    fields = valuecodec.decode_fields(Outer, stored, skip=("by_side", "moods"))
    assert set(fields) == {"inners", "pair", "maybe"}


def test_an_enum_value_decodes_as_the_enum_answers_it() -> None:
    assert valuecodec.decode_as(Mood, 1) is Mood.CALM
    assert valuecodec.decode_as(Mood, "calm") is Mood.CALM  # the enum's own fallback
    with pytest.raises(ValueError):
        valuecodec.decode_as(Mood, "sad")
    with pytest.raises(ValueError):
        valuecodec.decode_as(Mood, [1])  # unhashable: the enum itself refuses it


def test_a_logged_value_with_a_field_left_out_decodes_with_its_default() -> None:
    moved = Moved("tac1", Cell(2, 1), (Cell(2, 2), Cell(2, 3)), embarked_in="rh1")
    data = encode(moved)
    assert decode(data) == moved
    older = {"type": "Moved", "unit": "tac1", "start": "C2", "path": ["C3"], "passenger": None}
    assert decode(older) == Moved("tac1", Cell(2, 1), (Cell(2, 2),))


def test_cell_of_answers_as_parse_and_keeps_no_refused_text() -> None:
    for text in ("A1", "z99", " c 7 ", "B10"):
        assert cell_of(text) == Cell.parse(text)
        assert cell_of(text) == Cell.parse(text)  # the kept one, the same
    for bad in ("A0", "AA1", "", "1A"):
        with pytest.raises(ValueError):
            cell_of(bad)
        with pytest.raises(ValueError):
            cell_of(bad)
