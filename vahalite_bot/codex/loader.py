"""Reads faction files (TOML) into unit sheets and ready-made rosters.

Issue 3 brings full schema validation; this loader already refuses a bad file with the
file, the sheet id, the field and the reason.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vahalite_bot.rules.roster import Roster, RosterEntry
from vahalite_bot.rules.sheets import (
    Names,
    Option,
    Slot,
    SpecialRule,
    UnitSheet,
    UnitType,
    Weapon,
    WeaponKind,
)

DEMO_DIR = Path(__file__).parent / "demo"


class CodexError(ValueError):
    def __init__(self, file: str, sheet: str, field: str, reason: str) -> None:
        self.file, self.sheet, self.field, self.reason = file, sheet, field, reason
        super().__init__(f"{file}: sheet {sheet!r}, field {field!r}: {reason}")


@dataclass(frozen=True)
class Faction:
    id: str
    name: Names
    sheets: dict[str, UnitSheet]
    lists: dict[str, Roster]  # ready-made rosters by name


def load_faction(path: Path) -> Faction:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    reader = _Reader(path.name, "-", data)
    faction = reader.text("faction")
    name = reader.names("name")
    sheets: dict[str, UnitSheet] = {}
    for raw in reader.tables("sheet"):
        sheet = _sheet(path.name, faction, raw)
        if sheet.id in sheets:
            raise CodexError(path.name, sheet.id, "id", "duplicate sheet id")
        sheets[sheet.id] = sheet
    lists = {
        _Reader(path.name, "-", raw).text("name"): _roster(path.name, faction, raw)
        for raw in reader.tables("list")
    }
    return Faction(faction, name, sheets, lists)


def load_factions(paths: Iterable[Path]) -> dict[str, Faction]:
    factions = [load_faction(p) for p in sorted(paths)]
    return {f.id: f for f in factions}


def demo_factions() -> dict[str, Faction]:
    """The two small training factions that exercise every unit type (tests, self-play)."""
    return load_factions(DEMO_DIR.glob("*.toml"))


def all_sheets(factions: Mapping[str, Faction]) -> dict[str, UnitSheet]:
    return {sid: s for f in factions.values() for sid, s in f.sheets.items()}


# -- reading -----------------------------------------------------------------------------
class _Reader:
    """Typed access to one TOML table, raising CodexError that names where."""

    def __init__(self, file: str, sheet: str, data: Mapping[str, Any]) -> None:
        self.file, self.sheet, self.data = file, sheet, data

    def fail(self, field: str, reason: str) -> CodexError:
        return CodexError(self.file, self.sheet, field, reason)

    def get(self, field: str, kind: type, default: Any = ...) -> Any:
        if field not in self.data:
            if default is ...:
                raise self.fail(field, "missing")
            return default
        value = self.data[field]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.fail(field, f"must be {kind.__name__}, not {type(value).__name__}")
        return value

    def text(self, field: str) -> str:
        value: str = self.get(field, str)
        return value

    def integer(self, field: str, low: int, high: int, default: Any = ...) -> int:
        value: int = self.get(field, int, default)
        if not low <= value <= high:
            raise self.fail(field, f"{value} is outside {low}..{high}")
        return value

    def names(self, field: str) -> Names:
        raw = self.get(field, dict)
        sub = _Reader(self.file, self.sheet, raw)
        return Names(ru=sub.text("ru"), en=sub.text("en"))

    def tables(self, field: str) -> list[Mapping[str, Any]]:
        value: list[Mapping[str, Any]] = self.get(field, list, [])
        return value

    def choice(self, field: str, enum: Any, default: Any = ...) -> Any:
        raw = self.get(field, str, default)
        if raw is default and default is not ...:
            return default
        try:
            return enum(raw)
        except ValueError:
            allowed = ", ".join(e.value for e in enum)
            raise self.fail(field, f"unknown value {raw!r} (one of: {allowed})") from None


def _sheet(file: str, faction: str, raw: Mapping[str, Any]) -> UnitSheet:
    sid = raw.get("id", "?")
    r = _Reader(file, str(sid), raw)
    rules = frozenset(_choices(r, "rules", SpecialRule, []))
    weapons = _weapons(r, "weapons")
    damaged = _weapons(r, "damaged_weapons") if "damaged_weapons" in raw else None
    morale = None if raw.get("morale") == "fearless" else r.integer("morale", 2, 6)
    return UnitSheet(
        id=r.text("id"),
        name=r.names("name"),
        faction=faction,
        slot=r.choice("slot", Slot),
        points=r.integer("points", 1, 1000),
        type=r.choice("type", UnitType),
        models=r.integer("models", 1, 30),
        wounds=r.integer("wounds", 1, 20),
        defense=r.integer("defense", 3, 8),
        maneuverability=r.integer("maneuverability", 1, 6),
        morale=morale,
        weapons=weapons,
        damaged_weapons=damaged,
        capacity=r.integer("capacity", 0, 30, 0),
        carries=frozenset(
            _choices(r, "carries", UnitType, [UnitType.INFANTRY.value])
        ),
        open_topped=r.get("open_topped", bool, False),
        rules=rules,
        options=tuple(_option(r, o) for o in r.tables("options")),
    )


def _choices(r: _Reader, field: str, enum: Any, default: list[str]) -> list[Any]:
    values: list[str] = r.get(field, list, default)
    return [_Reader(r.file, r.sheet, {field: v}).choice(field, enum) for v in values]


def _weapons(r: _Reader, field: str) -> tuple[Weapon, ...]:
    return tuple(_weapon(_Reader(r.file, r.sheet, w)) for w in r.tables(field))


def _weapon(r: _Reader) -> Weapon:
    return Weapon(
        name=r.names("name"),
        kind=r.choice("kind", WeaponKind),
        strength=r.integer("strength", 0, 5),
        dice=r.integer("dice", 1, 12),
        per_model=r.get("per_model", bool, True),
        range=r.integer("range", 1, 12) if "range" in r.data else None,
        min_range=r.integer("min_range", 1, 12) if "min_range" in r.data else None,
    )


def _option(r: _Reader, raw: Mapping[str, Any]) -> Option:
    o = _Reader(r.file, r.sheet, raw)
    return Option(
        id=o.text("id"),
        name=o.names("name"),
        points=o.integer("points", 0, 500),
        add_weapons=_weapons(o, "add_weapons"),
        remove_weapons=tuple(o.get("remove_weapons", list, [])),
        models=o.integer("models", 0, 20, 0),
        defense=o.integer("defense", 0, 2, 0),
        maneuverability=o.integer("maneuverability", 0, 2, 0),
        add_rules=tuple(_choices(o, "add_rules", SpecialRule, [])),
    )


def _roster(file: str, faction: str, raw: Mapping[str, Any]) -> Roster:
    r = _Reader(file, "list", raw)
    entries = []
    for unit in r.tables("units"):
        u = _Reader(file, "list", unit)
        entries.append(
            RosterEntry(
                sheet=u.text("sheet"),
                options=tuple(u.get("options", list, [])),
                transport=u.get("transport", str, None),
                transport_options=tuple(u.get("transport_options", list, [])),
            )
        )
    return Roster(faction, tuple(entries))
