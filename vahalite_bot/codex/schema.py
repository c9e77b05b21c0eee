"""The one schema every faction file is checked against (CODEX.md "A sheet holds").

pydantic models mirror the TOML tables; the engine's own model stays the frozen dataclasses
of ``vahalite_bot.rules.sheets``, which the loader builds from a validated file. Checks that
span fields or sheets raise ``PydanticCustomError`` with a ``field`` in its context, so that
the loader can name the exact field (``options[1].remove_weapons``) in its error.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Annotated, Any, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    StrictBool,
    StrictInt,
    StrictStr,
    model_validator,
)
from pydantic_core import PydanticCustomError

from vahalite_bot.rules.sheets import BASE_RANGE, Slot, SpecialRule, UnitType, WeaponKind

# The army list format (armylist.py) splits lines on these, so no name may hold one.
NAME_SEPARATORS = "+>[]"
SHEETS_PER_FACTION = (12, 18)  # CODEX.md
MAX_OPTIONS = 2  # A5
MAX_NICKNAMES = 6
# E7 / G3: these types lose strength through their damaged profile, not by losing models ...
NEEDS_DAMAGED_PROFILE = frozenset(
    {UnitType.VEHICLE, UnitType.WALKER, UnitType.SKIMMER, UnitType.FLYER}
)
# ... while squads of these lose it model by model (a monster may be either).
NO_DAMAGED_PROFILE = frozenset({UnitType.INFANTRY, UnitType.JUMP, UnitType.BIKE})
MAX_DEFENSE, MAX_MANEUVERABILITY = 8, 6

_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_HANDLE = re.compile(r"^[a-z]{2,4}$")


def fail(reason: str, field: str | None = None) -> PydanticCustomError:
    context: dict[str, Any] = {"reason": reason}
    if field is not None:
        context["field"] = field
    return PydanticCustomError("codex", "{reason}", context)


def _check_id(value: str) -> str:
    if not _ID.match(value):
        raise fail(f"{value!r} is not a lowercase ascii id (a-z, 0-9, _)")
    return value


def _check_handle(value: str) -> str:
    if not _HANDLE.match(value):
        raise fail(f"{value!r} is not a handle stem (2 to 4 lowercase letters a-z)")
    return value


def _check_text(value: str) -> str:
    if value != value.strip() or "  " in value:
        raise fail(f"{value!r} has stray spaces")
    bad = "".join(sorted({c for c in value if c in NAME_SEPARATORS}))
    if bad:
        raise fail(f"{value!r} holds {bad!r}, which the army list format keeps for itself")
    return value


def _rule(value: Any) -> SpecialRule:
    try:
        return SpecialRule(value)
    except ValueError:
        known = ", ".join(r.value for r in SpecialRule)
        raise fail(f"unknown special rule {value!r} (the engine knows: {known})") from None


def _morale(value: Any) -> int | None:
    if value == "fearless":
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 2 <= value <= 6:
        return value
    raise fail(f'must be 2 to 6 or "fearless", not {value!r}')


Id = Annotated[StrictStr, AfterValidator(_check_id)]
Handle = Annotated[StrictStr, AfterValidator(_check_handle)]
Text = Annotated[StrictStr, Field(min_length=1, max_length=60), AfterValidator(_check_text)]
Rule = Annotated[SpecialRule, PlainValidator(_rule)]
Morale = Annotated[int | None, PlainValidator(_morale)]
Strength = Annotated[StrictInt, Field(ge=0, le=5)]
Dice = Annotated[StrictInt, Field(ge=1, le=12)]
Range = Annotated[StrictInt, Field(ge=1, le=12)]
Points = Annotated[StrictInt, Field(ge=1, le=1000)]
OptionPoints = Annotated[StrictInt, Field(ge=0, le=500)]
Models = Annotated[StrictInt, Field(ge=1, le=30)]
Wounds = Annotated[StrictInt, Field(ge=1, le=20)]
Defense = Annotated[StrictInt, Field(ge=3, le=MAX_DEFENSE)]
Maneuverability = Annotated[StrictInt, Field(ge=1, le=MAX_MANEUVERABILITY)]
Capacity = Annotated[StrictInt, Field(ge=0, le=30)]
ExtraModels = Annotated[StrictInt, Field(ge=0, le=20)]
Bonus = Annotated[StrictInt, Field(ge=0, le=2)]
Limit = Annotated[StrictInt, Field(ge=1, le=10000)]


class _Table(BaseModel):
    # A misspelt field is an error, not a silently ignored line.
    model_config = ConfigDict(extra="forbid", frozen=True)


class NamesModel(_Table):
    ru: Text
    en: Text


class WeaponModel(_Table):
    name: NamesModel
    kind: WeaponKind
    strength: Strength
    dice: Dice
    per_model: StrictBool = True
    range: Range | None = None
    min_range: Range | None = None

    @model_validator(mode="after")
    def _valid(self) -> Self:
        high = self.range if self.range is not None else BASE_RANGE[self.kind]
        if self.min_range is not None and self.min_range > high:
            raise fail(f"minimum range {self.min_range} exceeds the range {high}", "min_range")
        return self


class OptionModel(_Table):
    id: Id
    name: NamesModel
    points: OptionPoints
    add_weapons: list[WeaponModel] = []
    remove_weapons: list[StrictStr] = []
    models: ExtraModels = 0
    defense: Bonus = 0
    maneuverability: Bonus = 0
    add_rules: list[Rule] = []

    @model_validator(mode="after")
    def _valid(self) -> Self:
        changes = (
            self.add_weapons,
            self.remove_weapons,
            self.models,
            self.defense,
            self.maneuverability,
            self.add_rules,
        )
        if not any(changes):
            raise fail("the option changes nothing", "id")
        return self


class SheetModel(_Table):
    id: Id
    # The stem of the unit's handle in orders ("tac" -> tac1, tac2); default: the id's start.
    handle: Handle | None = None
    name: NamesModel
    slot: Slot
    points: Points
    type: UnitType
    models: Models
    wounds: Wounds
    defense: Defense
    maneuverability: Maneuverability
    morale: Morale
    weapons: Annotated[list[WeaponModel], Field(min_length=1)]
    damaged_weapons: list[WeaponModel] | None = None
    capacity: Capacity = 0
    carries: list[UnitType] | None = None
    open_topped: StrictBool = False
    rules: list[Rule] = []
    options: Annotated[list[OptionModel], Field(max_length=MAX_OPTIONS)] = []
    # What players call the unit besides its names ("босс" for a Warboss): read in orders.
    nicknames: Annotated[list[Text], Field(max_length=MAX_NICKNAMES)] = []
    # M9: the unit's 40k Weapon Skill; without it the engine derives one from Morale.
    ws: Annotated[StrictInt, Field(ge=1, le=10)] | None = None

    @model_validator(mode="after")
    def _valid(self) -> Self:
        self._check_damaged_profile()
        self._check_transport()
        self._check_options()
        self._check_flyer()
        return self

    def _check_damaged_profile(self) -> None:
        damaged = self.damaged_weapons
        if damaged is None and self.type in NEEDS_DAMAGED_PROFILE:
            raise fail(f"a {self.type.value} needs a damaged profile (E7)", "damaged_weapons")
        if damaged is not None and self.type in NO_DAMAGED_PROFILE:
            raise fail(
                f"a {self.type.value} unit loses strength by models, not by a damaged profile",
                "damaged_weapons",
            )

    def _check_transport(self) -> None:
        if self.slot is Slot.TRANSPORT and self.capacity == 0:
            raise fail("a transport needs a capacity of 1 or more (H1)", "capacity")
        if self.capacity == 0 and self.open_topped:
            raise fail("only a transport (capacity 1 or more) is open-topped", "open_topped")
        if self.capacity == 0 and self.carries is not None:
            raise fail("only a transport (capacity 1 or more) carries units", "carries")

    def _check_options(self) -> None:
        ids = Counter(o.id for o in self.options)
        for option_id, count in ids.items():
            if count > 1:
                raise fail(f"option id {option_id!r} appears {count} times", "options")
        names = {w.name.en for w in self.weapons}
        names |= {w.name.en for w in self.damaged_weapons or ()}
        for index, option in enumerate(self.options):
            where = f"options[{index}]"
            for removed in option.remove_weapons:
                if removed not in names:
                    raise fail(
                        f"the sheet has no weapon named {removed!r}", f"{where}.remove_weapons"
                    )
            if self.defense + option.defense > MAX_DEFENSE:
                raise fail(f"Defense would exceed {MAX_DEFENSE}", f"{where}.defense")
            if self.maneuverability + option.maneuverability > MAX_MANEUVERABILITY:
                raise fail(
                    f"Maneuverability would exceed {MAX_MANEUVERABILITY}",
                    f"{where}.maneuverability",
                )

    def _check_flyer(self) -> None:
        if self.type is not UnitType.FLYER:
            return
        profiles = {
            "weapons": self.weapons,
            "damaged_weapons": self.damaged_weapons or [],
            **{f"options[{i}].add_weapons": o.add_weapons for i, o in enumerate(self.options)},
        }
        for field, weapons in profiles.items():
            if any(w.kind is WeaponKind.MELEE for w in weapons):
                raise fail("a flyer makes no melee attacks (E12)", field)


class ListUnitModel(_Table):
    sheet: Id
    options: list[Id] = []
    transport: Id | None = None
    transport_options: list[Id] = []


class ListModel(_Table):
    name: Annotated[StrictStr, Field(min_length=1, max_length=40)]
    limit: Limit | None = None
    units: Annotated[list[ListUnitModel], Field(min_length=1)]

    @property
    def points_limit(self) -> int | None:
        """The limit the list is built for: ``limit``, or a name such as "750"."""
        if self.limit is not None:
            return self.limit
        return int(self.name) if self.name.isdigit() else None


class FactionModel(_Table):
    faction: Id
    name: NamesModel
    # What players call the faction besides its names ("гвардия"): read when choosing one.
    nicknames: Annotated[list[Text], Field(max_length=MAX_NICKNAMES)] = []
    # The training factions (demo/) are deliberately small; real codexes follow CODEX.md.
    training: StrictBool = False
    # Arrays of tables in TOML, so singular there: [[sheet]], [[list]].
    sheets: Annotated[list[SheetModel], Field(min_length=1, alias="sheet")]
    lists: Annotated[list[ListModel], Field(alias="list")] = []

    @model_validator(mode="after")
    def _valid(self) -> Self:
        self._check_unique()
        if not self.training:
            self._check_coverage()
        self._check_lists()
        return self

    def _check_unique(self) -> None:
        seen_ids: set[str] = set()
        seen_names: dict[str, str] = {}
        for index, sheet in enumerate(self.sheets):
            if sheet.id in seen_ids:
                raise fail(f"duplicate sheet id {sheet.id!r}", f"sheet[{index}].id")
            seen_ids.add(sheet.id)
            # The army list reads names back in either language, whatever the case.
            for name in (sheet.name.ru, sheet.name.en):
                other = seen_names.setdefault(fold(name), sheet.id)
                if other != sheet.id:
                    raise fail(f"{name!r} is also the name of {other!r}", f"sheet[{index}].name")
            option_names: dict[str, str] = {}
            for option in sheet.options:
                for name in (option.name.ru, option.name.en):
                    other = option_names.setdefault(fold(name), option.id)
                    if other != option.id:
                        raise fail(f"two options are named {name!r}", f"sheet[{index}].options")
        # Orders read nicknames as names: one may be neither a name nor another's nickname.
        for index, sheet in enumerate(self.sheets):
            own = {fold(sheet.name.ru), fold(sheet.name.en)}
            for nickname in sheet.nicknames:
                other = seen_names.setdefault(fold(nickname), sheet.id)
                if other != sheet.id or fold(nickname) in own:
                    what = "a name" if other == sheet.id else f"a name of {other!r}"
                    raise fail(
                        f"nickname {nickname!r} is already {what}", f"sheet[{index}].nicknames"
                    )

    def _check_coverage(self) -> None:
        low, high = SHEETS_PER_FACTION
        if not low <= len(self.sheets) <= high:
            raise fail(f"{len(self.sheets)} sheets; a faction has {low} to {high}", "sheet")
        missing = [s.value for s in Slot if all(sheet.slot is not s for sheet in self.sheets)]
        if missing:
            raise fail(f"no sheet for the slot(s): {', '.join(missing)}", "sheet")

    def _check_lists(self) -> None:
        names = Counter(lst.name for lst in self.lists)
        for index, lst in enumerate(self.lists):
            if names[lst.name] > 1:
                raise fail(f"two lists are named {lst.name!r}", f"list[{index}].name")
            if lst.points_limit is None:
                raise fail("give a limit, or name the list by it", f"list[{index}].limit")


def fold(text: str) -> str:
    """How names are compared: case, ё/е, dash variants and runs of spaces don't matter."""
    text = text.casefold().replace("ё", "е")
    text = re.sub("[\u2010-\u2015\u2212]", "-", text)
    return " ".join(text.split())
