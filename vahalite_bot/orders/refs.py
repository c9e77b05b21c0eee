"""Which unit a ``Ref`` names in a game: by handle, by cell, or by the start of its name.

In this order, the first that finds anything decides:

1. a handle (``tac1``; spaces dropped, so ``tac 1`` works, and Cyrillic look-alike letters
   read as Latin, so ``тас1`` works too);
2. a cell (``C2``): the unit standing there, so a transport rather than its passenger,
   except for ``disembark``, which wants the passenger;
3. the name, Russian or English, or a nickname the codex gives (``босс``), word by word:
   the full name, else each typed word the start of the name's word in the same place
   (``tac sq``, ``такт``), else the same with Russian case endings tolerated
   (``тактическому отделению``, ``хищника``, ``рабов``), else the same two tests from
   any word of the name on (``warriors`` for Kabalite Warriors, ``кабала``).

Within a step, several matches are narrowed to the side the order prefers (the player's
own units for the one acting, the opponent's for a target); still several is a refusal
that lists them. Nothing found is a refusal with the nearest handles and names
(``difflib``) as suggestions. Destroyed units are never found, but are named as such.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable

from vahalite_bot.orders.lexicon import LINK_WORDS, fold, latin_letters
from vahalite_bot.orders.model import OrderError, Ref, Suggestion
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, UnitState

_WORD = re.compile(r"[^\W_]+")
# A typed word "declines" a name's word when they share a stem this long or longer ...
_STEM = 3
# ... that leaves at most this many letters of the name's word (its ending) unmatched.
_ENDING = 2
SUGGESTIONS = 3


def find_unit(
    state: GameState, ref: Ref, prefer: Side | None, *, passenger: bool = False
) -> UnitState:
    """The living unit ``ref`` names; raises ``OrderError`` with suggestions otherwise."""
    unit = _by_handle(state, ref)
    if unit is not None:
        return unit
    if ref.cell is not None:
        return _by_cell(state, ref, passenger)
    words = _WORD.findall(ref.text)
    if words:
        for matches in (_full_name, _prefix, _declined, _inner_prefix, _inner_declined):
            found = [u for u in state.units.values() if matches(words, u)]
            living = [u for u in found if u.alive]
            if living:
                return _one(ref, living, prefer)
            if found:
                raise OrderError("unit_destroyed", unit=found[0].id)
    raise OrderError("unknown_unit", _near(state, ref.text), ref=ref.text)


def describe_units(units: Iterable[UnitState]) -> tuple[Suggestion, ...]:
    return tuple(Suggestion(u.id, u.sheet.name) for u in units)


# -- the steps ---------------------------------------------------------------------------
def _by_handle(state: GameState, ref: Ref) -> UnitState | None:
    key = ref.text.replace(" ", "")
    for handle in dict.fromkeys((key, latin_letters(key))):
        unit = state.units.get(handle)
        if unit is not None:
            if unit.destroyed:
                raise OrderError("unit_destroyed", unit=unit.id)
            return unit
    return None


def _by_cell(state: GameState, ref: Ref, passenger: bool) -> UnitState:
    assert ref.cell is not None
    occupant = state.unit_at(ref.cell)
    if occupant is None:
        raise OrderError("no_unit_at", cell=ref.cell.name)
    if passenger:
        rider = state.passenger_of(occupant.id)
        if rider is None:
            raise OrderError("no_passenger", unit=occupant.id, cell=ref.cell.name)
        return rider
    return occupant


def _one(ref: Ref, units: list[UnitState], prefer: Side | None) -> UnitState:
    preferred = [u for u in units if u.side is prefer] or units
    if len(preferred) == 1:
        return preferred[0]
    raise OrderError("ambiguous_unit", describe_units(preferred), ref=ref.text)


def _name_words(unit: UnitState) -> list[list[str]]:
    """The words of the unit's names and nicknames (``босс``), without the link words the
    parser drops from refs."""
    sheet = unit.sheet
    return [
        [word for word in _WORD.findall(fold(name)) if word not in LINK_WORDS]
        for name in (sheet.name.ru, sheet.name.en, *sheet.nicknames)
    ]


def _full_name(typed: list[str], unit: UnitState) -> bool:
    return any(typed == name for name in _name_words(unit))


def _prefix(typed: list[str], unit: UnitState) -> bool:
    return _word_by_word(typed, unit, _starts, inner=False)


def _declined(typed: list[str], unit: UnitState) -> bool:
    return _word_by_word(typed, unit, _declines, inner=False)


def _inner_prefix(typed: list[str], unit: UnitState) -> bool:
    return _word_by_word(typed, unit, _starts, inner=True)


def _inner_declined(typed: list[str], unit: UnitState) -> bool:
    return _word_by_word(typed, unit, _declines, inner=True)


def _word_by_word(
    typed: list[str], unit: UnitState, same: Callable[[str, str], bool], *, inner: bool
) -> bool:
    """Each typed word matches the name's word in the same place, from the first word (or,
    ``inner``, from a later one)."""
    for name in _name_words(unit):
        for start in range(1, len(name)) if inner else (0,):
            words = name[start:]
            if len(typed) <= len(words) and all(map(same, typed, words)):
                return True
    return False


def _starts(typed: str, name: str) -> bool:
    return name.startswith(typed)


def _declines(typed: str, name: str) -> bool:
    """``хищника`` for ``хищник``, ``рабов`` for ``рабы``: a shared stem, a new ending."""
    if name.startswith(typed):
        return True
    stem = 0
    for a, b in zip(typed, name, strict=False):
        if a != b:
            break
        stem += 1
    return stem >= _STEM and stem >= len(name) - _ENDING and len(typed) - stem <= _ENDING + 1


def _near(state: GameState, text: str) -> tuple[Suggestion, ...]:
    """The units whose handle or name (whole, or its first word) is closest to ``text``."""
    keys: dict[str, UnitState] = {}
    for unit in state.living():
        keys.setdefault(unit.id, unit)
        for words in _name_words(unit):
            keys.setdefault(" ".join(words), unit)
            if words:
                keys.setdefault(words[0], unit)
    typed = latin_letters(text.replace(" ", "")) if any(c.isdigit() for c in text) else text
    close = difflib.get_close_matches(typed, list(keys), n=SUGGESTIONS * 2, cutoff=0.6)
    units = list(dict.fromkeys(keys[k].id for k in close))[:SUGGESTIONS]
    return describe_units(state.units[u] for u in units)
