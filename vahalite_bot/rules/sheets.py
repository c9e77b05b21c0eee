"""Unit sheets: the data a codex gives for each unit (CODEX.md), as plain values."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property


class UnitType(StrEnum):
    INFANTRY = "infantry"
    JUMP = "jump"
    BIKE = "bike"
    WALKER = "walker"
    VEHICLE = "vehicle"
    SKIMMER = "skimmer"
    MONSTER = "monster"
    FLYER = "flyer"


class Slot(StrEnum):
    HQ = "hq"
    TROOPS = "troops"
    ELITE = "elite"
    FAST = "fast"
    HEAVY = "heavy"
    TRANSPORT = "transport"


class WeaponKind(StrEnum):
    MELEE = "melee"
    SHOOTING = "shooting"
    ARTILLERY = "artillery"


class SpecialRule(StrEnum):
    """The closed list of special rules the engine implements (F3)."""

    FEARLESS = "fearless"  # never tests morale (G2)


# E8: the unit types that cover protects (jump infantry is infantry).
COVER_PROTECTS = frozenset({UnitType.INFANTRY, UnitType.JUMP, UnitType.WALKER, UnitType.MONSTER})
# D2: wheeled or tracked vehicles cannot enter Cover or Fortification.
GROUND_VEHICLES = frozenset({UnitType.VEHICLE})

BASE_RANGE = {WeaponKind.MELEE: 1, WeaponKind.SHOOTING: 2, WeaponKind.ARTILLERY: 4}
BASE_MIN_RANGE = {WeaponKind.MELEE: 1, WeaponKind.SHOOTING: 2, WeaponKind.ARTILLERY: 2}


@dataclass(frozen=True)
class Names:
    ru: str
    en: str

    def get(self, lang: str) -> str:
        return self.ru if lang == "ru" else self.en


# Weapons and sheets are frozen: what is derived from their fields is a cached_property
# (kept in the instance, which fields, equality and hashing never see), as the engine and
# the players ask it constantly.
@dataclass(frozen=True)
class Weapon:
    name: Names
    kind: WeaponKind
    strength: int
    dice: int
    per_model: bool = True
    range: int | None = None  # a sheet may override the kind's maximum range (E2)
    min_range: int | None = None  # ... and its minimum range

    @cached_property
    def max_range(self) -> int:
        return self.range if self.range is not None else BASE_RANGE[self.kind]

    @cached_property
    def minimum_range(self) -> int:
        return self.min_range if self.min_range is not None else BASE_MIN_RANGE[self.kind]


@dataclass(frozen=True)
class Option:
    """A paid option (A5): what it adds to or changes on the sheet."""

    id: str
    name: Names
    points: int
    add_weapons: tuple[Weapon, ...] = ()
    remove_weapons: tuple[str, ...] = ()  # English weapon names replaced by add_weapons
    models: int = 0
    defense: int = 0
    maneuverability: int = 0
    add_rules: tuple[SpecialRule, ...] = ()


@dataclass(frozen=True)
class UnitSheet:
    id: str
    name: Names
    faction: str
    slot: Slot
    points: int
    type: UnitType
    models: int
    wounds: int
    defense: int
    maneuverability: int
    morale: int | None  # None: Fearless
    weapons: tuple[Weapon, ...]
    damaged_weapons: tuple[Weapon, ...] | None = None  # E7: the damaged profile
    capacity: int = 0  # H1: transports only; the most models it carries
    carries: frozenset[UnitType] = field(default_factory=lambda: frozenset({UnitType.INFANTRY}))
    open_topped: bool = False
    rules: frozenset[SpecialRule] = frozenset()
    options: tuple[Option, ...] = ()
    handle: str = ""  # the stem of this unit's handles in orders; "" lets the id decide
    nicknames: tuple[str, ...] = ()  # what players also call it (orders read these as names)
    ws: int | None = None  # M9: its 40k Weapon Skill; None derives it from Morale

    @cached_property
    def max_hp(self) -> int:
        return self.models * self.wounds

    @cached_property
    def is_transport(self) -> bool:
        return self.capacity > 0

    @cached_property
    def is_flyer(self) -> bool:
        return self.type is UnitType.FLYER

    @cached_property
    def is_fearless(self) -> bool:
        return self.morale is None or SpecialRule.FEARLESS in self.rules

    @cached_property
    def has_damaged_profile(self) -> bool:
        return self.damaged_weapons is not None

    def option(self, option_id: str) -> Option | None:
        return next((o for o in self.options if o.id == option_id), None)

    def with_options(self, option_ids: tuple[str, ...]) -> UnitSheet:
        """The sheet as fielded with the chosen options applied (A5)."""
        sheet = self
        for option_id in option_ids:
            option = self.option(option_id)
            if option is None:
                raise KeyError(option_id)
            sheet = _apply_option(sheet, option)
        return replace(sheet, options=())


def _apply_option(sheet: UnitSheet, option: Option) -> UnitSheet:
    def changed(weapons: tuple[Weapon, ...]) -> tuple[Weapon, ...]:
        kept = tuple(w for w in weapons if w.name.en not in option.remove_weapons)
        return kept + option.add_weapons

    damaged = sheet.damaged_weapons
    return replace(
        sheet,
        points=sheet.points + option.points,
        weapons=changed(sheet.weapons),
        damaged_weapons=None if damaged is None else changed(damaged),
        models=sheet.models + option.models,
        defense=sheet.defense + option.defense,
        maneuverability=sheet.maneuverability + option.maneuverability,
        rules=sheet.rules | frozenset(option.add_rules),
    )
