"""Army rosters and their validation (rulebook A1-A7)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# A2's table lives with the scenarios, which may raise its maxima; re-exported here.
from vahalite_bot.rules.scenario import FORCE_ORGANISATION as FORCE_ORGANISATION
from vahalite_bot.rules.sheets import Slot, UnitSheet

Organisation = Mapping[Slot, tuple[int, int]]
MAX_OPTIONS = 2


@dataclass(frozen=True)
class RosterEntry:
    sheet: str
    options: tuple[str, ...] = ()
    transport: str | None = None  # A4: a dedicated transport's sheet id
    transport_options: tuple[str, ...] = ()


@dataclass(frozen=True)
class Roster:
    faction: str
    entries: tuple[RosterEntry, ...]


@dataclass(frozen=True)
class RosterProblem:
    """One reason a roster is illegal: the rule, a message key and its parameters."""

    rule: str
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)


def roster_points(roster: Roster, sheets: Mapping[str, UnitSheet]) -> int:
    """A1: everything counts, options and transports included."""
    total = 0
    for entry in roster.entries:
        for sheet_id, options in _bought(entry):
            sheet = sheets.get(sheet_id)
            if sheet is None:
                continue
            total += sheet.points + sum(o.points for o in sheet.options if o.id in set(options))
    return total


def validate(
    roster: Roster,
    sheets: Mapping[str, UnitSheet],
    limit: int,
    organisation: Organisation = FORCE_ORGANISATION,
) -> list[RosterProblem]:
    """A1-A7: every reason the roster is illegal, all at once (empty: legal); a scenario
    may give its own ``organisation`` (``Scenario.organisation()``)."""
    problems: list[RosterProblem] = []
    for entry in roster.entries:
        problems.extend(_entry_problems(roster.faction, entry, sheets))
    total = roster_points(roster, sheets)
    if total > limit:
        problems.append(
            RosterProblem(
                "A1", "over_points", {"points": total, "limit": limit, "over": total - limit}
            )
        )
    counts = Counter(sheets[e.sheet].slot for e in roster.entries if e.sheet in sheets)
    problems.extend(slot_problems(counts, organisation))
    return problems


def slot_problems(
    counts: Mapping[Slot, int], organisation: Organisation = FORCE_ORGANISATION
) -> list[RosterProblem]:
    """A2 and A3: minimums, and maximums with two spare slots buying one extra."""
    problems: list[RosterProblem] = []
    spare = over = 0
    for slot, (low, high) in organisation.items():
        count = counts.get(slot, 0)
        if count < low:
            problems.append(
                RosterProblem("A2", "too_few", {"slot": slot.value, "count": count, "minimum": low})
            )
        spare += max(0, high - max(count, low))
        over += max(0, count - high)
    if spare < 2 * over:
        for slot, (_, high) in organisation.items():
            if counts.get(slot, 0) > high:
                problems.append(
                    RosterProblem(
                        "A3",
                        "too_many",
                        {
                            "slot": slot.value,
                            "count": counts[slot],
                            "maximum": high,
                            "spare": spare,
                            "needed": 2 * over,
                        },
                    )
                )
    return problems


def field_units(
    roster: Roster, sheets: Mapping[str, UnitSheet], taken: Sequence[str] = ()
) -> list[tuple[str, UnitSheet]]:
    """The roster's units as the game fields them: a short unique handle and the sheet with
    its options applied; each transport comes right after the unit it was bought for."""
    used = set(taken)
    units: list[tuple[str, UnitSheet]] = []
    for entry in roster.entries:
        for sheet_id, options in _bought(entry):
            sheet = sheets[sheet_id].with_options(options)
            handle = _handle(sheet.handle or _stem(sheet_id), used)
            used.add(handle)
            units.append((handle, sheet))
    return units


# -- helpers -----------------------------------------------------------------------------
def _bought(entry: RosterEntry) -> list[tuple[str, tuple[str, ...]]]:
    bought = [(entry.sheet, entry.options)]
    if entry.transport is not None:
        bought.append((entry.transport, entry.transport_options))
    return bought


def _entry_problems(
    faction: str, entry: RosterEntry, sheets: Mapping[str, UnitSheet]
) -> list[RosterProblem]:
    problems: list[RosterProblem] = []
    for sheet_id, options in _bought(entry):
        sheet = sheets.get(sheet_id)
        if sheet is None:
            problems.append(RosterProblem("A6", "unknown_sheet", {"sheet": sheet_id}))
            continue
        if sheet.faction != faction:
            problems.append(
                RosterProblem("A6", "wrong_faction", {"sheet": sheet_id, "faction": sheet.faction})
            )
        problems.extend(_option_problems(sheet, options))
    unit, transport = sheets.get(entry.sheet), None
    if entry.transport is not None:
        transport = sheets.get(entry.transport)
    if unit is not None and unit.slot is Slot.TRANSPORT:
        problems.append(RosterProblem("A4", "transport_without_unit", {"sheet": unit.id}))
    if unit is not None and transport is not None:
        problems.extend(_transport_problems(_fielded(unit, entry.options), transport))
    return problems


def _option_problems(sheet: UnitSheet, options: tuple[str, ...]) -> list[RosterProblem]:
    problems: list[RosterProblem] = []
    if len(set(options)) != len(options):
        duplicated = sorted({o for o in options if options.count(o) > 1})
        problems.append(
            RosterProblem("A5", "duplicate_option", {"sheet": sheet.id, "options": duplicated})
        )
    if len(set(options)) > MAX_OPTIONS:
        problems.append(
            RosterProblem("A5", "too_many_options", {"sheet": sheet.id, "count": len(set(options))})
        )
    for option in options:
        if sheet.option(option) is None:
            problems.append(
                RosterProblem("A5", "unknown_option", {"sheet": sheet.id, "option": option})
            )
    return problems


def _fielded(sheet: UnitSheet, options: tuple[str, ...]) -> UnitSheet:
    """The sheet with its known options applied once each (unknown ones are A5's problem):
    an option that adds models may make the unit too big for its transport (A4)."""
    known = tuple(dict.fromkeys(o for o in options if sheet.option(o) is not None))
    return sheet.with_options(known)


def _transport_problems(unit: UnitSheet, transport: UnitSheet) -> list[RosterProblem]:
    if transport.slot is not Slot.TRANSPORT or not transport.is_transport:
        return [RosterProblem("A4", "not_a_transport", {"sheet": transport.id})]
    if unit.type not in transport.carries or unit.models > transport.capacity:
        return [RosterProblem("A4", "cannot_carry", {"transport": transport.id, "sheet": unit.id})]
    return []


def _stem(sheet_id: str) -> str:
    return re.sub(r"[^a-z]", "", sheet_id.lower())[:3] or "u"


def _handle(stem: str, used: set[str]) -> str:
    """A short handle for orders: the stem and the first free number (tac1, tac2, ...)."""
    number = 1
    while f"{stem}{number}" in used:
        number += 1
    return f"{stem}{number}"
