"""Building an army step by step: add and remove units, choose options, attach transports.

An ``Army`` is a value: every edit returns a new one. Edits never refuse a rules problem:
a half-built army is illegal all the time (no Troops yet), so ``problems`` reports every
reason at once, with the engine's roster validation (rulebook A1-A7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from vahalite_bot.codex.loader import Faction, all_sheets
from vahalite_bot.codex.messages import roster_problem
from vahalite_bot.rules.roster import (
    FORCE_ORGANISATION,
    Organisation,
    Roster,
    RosterEntry,
    RosterProblem,
    roster_points,
    validate,
)
from vahalite_bot.rules.sheets import UnitSheet


class ArmyEditError(IndexError):
    """An edit names a unit the army does not have (by its 0-based position)."""

    def __init__(self, index: int, size: int) -> None:
        self.index, self.size = index, size
        super().__init__(f"no unit at position {index} (the army has {size})")


@dataclass(frozen=True)
class Army:
    faction: str
    limit: int | None  # A1: the points limit it is built for (None: not said)
    roster: Roster

    @classmethod
    def empty(cls, faction: str, limit: int | None = None) -> Army:
        return cls(faction, limit, Roster(faction, ()))

    @classmethod
    def ready_made(cls, faction: Faction, name: str) -> Army:
        """One of the faction's ready-made lists, e.g. "750"."""
        roster = faction.lists[name]
        return cls(faction.id, int(name) if name.isdigit() else None, roster)

    @classmethod
    def ready_for(
        cls,
        faction: Faction,
        limit: int,
        sheets: Mapping[str, UnitSheet],
        organisation: Organisation = FORCE_ORGANISATION,
    ) -> Army | None:
        """The ready-made list to field at ``limit``: the one named for it, else the largest
        that fits grown to ``limit`` (``grown``), so a side is given all its points (issue
        19: Fortress's 975-point attacker, a 1500-point Big battle under its own slot
        maxima, ``organisation``). None when no list fits."""
        if str(limit) in faction.lists:
            return cls.ready_made(faction, str(limit))
        sizes = [int(name) for name in faction.lists if name.isdigit() and int(name) <= limit]
        if not sizes:
            return None
        base = faction.lists[str(max(sizes))]
        return cls(faction.id, limit, grown(base, sheets, limit, organisation))

    @property
    def entries(self) -> tuple[RosterEntry, ...]:
        return self.roster.entries

    # -- edits -------------------------------------------------------------------------
    def add(
        self,
        sheet: str,
        options: Sequence[str] = (),
        transport: str | None = None,
        transport_options: Sequence[str] = (),
    ) -> Army:
        entry = RosterEntry(sheet, tuple(options), transport, tuple(transport_options))
        return self._with((*self.entries, entry))

    def remove(self, index: int) -> Army:
        self._check(index)
        return self._with(self.entries[:index] + self.entries[index + 1 :])

    def choose_options(self, index: int, options: Sequence[str]) -> Army:
        return self._edit(index, options=tuple(options))

    def attach_transport(self, index: int, transport: str, options: Sequence[str] = ()) -> Army:
        return self._edit(index, transport=transport, transport_options=tuple(options))

    def detach_transport(self, index: int) -> Army:
        return self._edit(index, transport=None, transport_options=())

    def with_limit(self, limit: int | None) -> Army:
        return replace(self, limit=limit)

    # -- questions ---------------------------------------------------------------------
    def points(self, sheets: Mapping[str, UnitSheet]) -> int:
        return roster_points(self.roster, sheets)

    def problems(
        self, sheets: Mapping[str, UnitSheet], limit: int | None = None
    ) -> list[RosterProblem]:
        """A1-A7, every reason at once; A1 is checked against ``limit`` or the army's own
        (with neither, the points are not checked)."""
        cap = limit if limit is not None else self.limit
        return validate(self.roster, sheets, cap if cap is not None else _NO_LIMIT)

    def is_legal(self, sheets: Mapping[str, UnitSheet], limit: int | None = None) -> bool:
        return not self.problems(sheets, limit)

    def explain(
        self,
        factions: Mapping[str, Faction],
        lang: str,
        limit: int | None = None,
    ) -> list[str]:
        """Every problem as a sentence in ``lang`` ("ru" or "en")."""
        sheets = all_sheets(factions)
        names = {f.id: f.name.get(lang) for f in factions.values()}
        return [roster_problem(p, lang, sheets, names) for p in self.problems(sheets, limit)]

    # -- helpers -----------------------------------------------------------------------
    def _with(self, entries: tuple[RosterEntry, ...]) -> Army:
        return replace(self, roster=Roster(self.faction, entries))

    def _edit(self, index: int, **changes: Any) -> Army:
        self._check(index)
        entries = list(self.entries)
        entries[index] = replace(entries[index], **changes)
        return self._with(tuple(entries))

    def _check(self, index: int) -> None:
        if not 0 <= index < len(self.entries):
            raise ArmyEditError(index, len(self.entries))


def grown(
    roster: Roster, sheets: Mapping[str, UnitSheet], limit: int, organisation: Organisation
) -> Roster:
    """``roster`` with its entries bought again, in its order, while the roster stays legal
    under ``limit`` and ``organisation`` (A1-A3): a ready-made list for more points."""
    pattern = roster.entries
    grew = True
    while grew:  # a whole pass through the pattern that adds nothing ends it
        grew = False
        for entry in pattern:
            bigger = Roster(roster.faction, (*roster.entries, entry))
            if not validate(bigger, sheets, limit, organisation):
                roster, grew = bigger, True
    return roster


# With no limit given, A1 cannot fail: no roster of real sheets costs this much.
_NO_LIMIT = 10**9
