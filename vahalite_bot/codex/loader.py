"""Reads faction files (TOML) into unit sheets and ready-made rosters.

Every file is checked against one schema (schema.py); a bad file is refused with the file,
the sheet id, the field and the reason. The eight codexes live in ``factions/``; a referee's
homebrew folder holds more files of the same format and loads the same way.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from vahalite_bot.codex import messages
from vahalite_bot.codex.schema import FactionModel, NamesModel, OptionModel, SheetModel
from vahalite_bot.codex.schema import WeaponModel as WeaponData
from vahalite_bot.rules.roster import Roster, RosterEntry, validate
from vahalite_bot.rules.sheets import Names, Option, UnitSheet, UnitType, Weapon

DEMO_DIR = Path(__file__).parent / "demo"
FACTIONS_DIR = Path(__file__).parent / "factions"
_REPR_LIMIT = 60


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
    nicknames: tuple[str, ...] = ()  # what players also call it ("гвардия")


# -- loading -----------------------------------------------------------------------------
def load_faction(path: Path) -> Faction:
    """One faction file; raises the first CodexError found."""
    faction, errors = read_faction(path)
    if errors:
        raise errors[0]
    assert faction is not None
    return faction


def load_factions(paths: Iterable[Path]) -> dict[str, Faction]:
    """Several files that make one codex set; raises the first CodexError found."""
    factions, errors = read_factions(paths)
    if errors:
        raise errors[0]
    return factions


def demo_factions() -> dict[str, Faction]:
    """The two small training factions that exercise every unit type (tests, self-play)."""
    return load_factions(DEMO_DIR.glob("*.toml"))


def codex_paths(homebrew: Path | None = None) -> list[Path]:
    """The eight factions' files, then those of a referee's homebrew folder, if any."""
    paths = sorted(FACTIONS_DIR.glob("*.toml"))
    if homebrew is not None:
        paths += sorted(homebrew.glob("*.toml"))
    return paths


# The environment variable naming a folder of homebrew faction files.
HOMEBREW_ENV = "VAHALITE_HOMEBREW_DIR"


def codex_factions(homebrew: Path | None = None) -> dict[str, Faction]:
    """The playable codexes: the eight of CODEX.md plus any homebrew faction files."""
    return load_factions(codex_paths(homebrew))


def all_sheets(factions: Mapping[str, Faction]) -> dict[str, UnitSheet]:
    return {sid: s for f in factions.values() for sid, s in f.sheets.items()}


# -- checking (every error, not just the first) -------------------------------------------
def read_faction(path: Path) -> tuple[Faction | None, list[CodexError]]:
    file = path.name
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return None, [CodexError(file, "-", "-", f"cannot read the file: {error}")]
    try:
        data = FactionModel.model_validate(raw)
    except ValidationError as error:
        return None, [_codex_error(file, raw, e) for e in error.errors()]
    sheets = {s.id: _sheet(data.faction, s) for s in data.sheets}
    lists: dict[str, Roster] = {}
    errors: list[CodexError] = []
    for ready in data.lists:
        roster = Roster(
            data.faction,
            tuple(
                RosterEntry(
                    sheet=u.sheet,
                    options=tuple(u.options),
                    transport=u.transport,
                    transport_options=tuple(u.transport_options),
                )
                for u in ready.units
            ),
        )
        limit = ready.points_limit
        assert limit is not None  # the schema insists
        for problem in validate(roster, sheets, limit):
            text = messages.roster_problem(problem, "en", sheets)
            errors.append(CodexError(file, f"list {ready.name}", "units", text))
        lists[ready.name] = roster
    faction = Faction(data.faction, _names(data.name), sheets, lists, tuple(data.nicknames))
    return (None if errors else faction), errors


def read_factions(paths: Iterable[Path]) -> tuple[dict[str, Faction], list[CodexError]]:
    """Every faction that loads, and every error in any file or between files."""
    factions: dict[str, Faction] = {}
    errors: list[CodexError] = []
    owners: dict[str, str] = {}  # sheet id -> faction id: ids are unique across a codex set
    for path in sorted(paths):
        faction, found = read_faction(path)
        errors.extend(found)
        if faction is None:
            continue
        if faction.id in factions:
            errors.append(
                CodexError(path.name, "-", "faction", f"faction id {faction.id!r} is taken")
            )
            continue
        clashes = [sid for sid in faction.sheets if sid in owners]
        for sid in clashes:
            reason = f"sheet id {sid!r} is already used by faction {owners[sid]!r}"
            errors.append(CodexError(path.name, sid, "id", reason))
        if clashes:
            continue
        owners.update(dict.fromkeys(faction.sheets, faction.id))
        factions[faction.id] = faction
    return factions, errors


# -- pydantic errors to CodexError ----------------------------------------------------------
def _codex_error(file: str, raw: Mapping[str, Any], error: Mapping[str, Any]) -> CodexError:
    context = error.get("ctx") or {}
    path: list[str | int] = list(error["loc"])
    if "field" in context:
        path += _split_field(str(context["field"]))
    sheet = "-"
    if len(path) >= 2 and path[0] in ("sheet", "list") and isinstance(path[1], int):
        sheet = _table_name(raw, str(path[0]), path[1])
        path = path[2:]
    return CodexError(file, sheet, _dotted(path) or "-", _reason(error))


def _table_name(raw: Mapping[str, Any], table: str, index: int) -> str:
    try:
        entry = raw[table][index]
    except (KeyError, IndexError, TypeError):
        entry = None
    key = "id" if table == "sheet" else "name"
    value = entry.get(key) if isinstance(entry, Mapping) else None
    label = str(value) if isinstance(value, str | int) else f"#{index + 1}"
    return label if table == "sheet" else f"list {label}"


def _split_field(field: str) -> list[str | int]:
    """ "sheet[3].options" -> ["sheet", 3, "options"]."""
    parts: list[str | int] = []
    for piece in field.split("."):
        name, _, rest = piece.partition("[")
        parts.append(name)
        if rest:
            parts.append(int(rest.rstrip("]")))
    return parts


def _dotted(path: Sequence[str | int]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def _reason(error: Mapping[str, Any]) -> str:
    kind = error["type"]
    if kind == "codex":
        return str(error["msg"])
    if kind == "missing":
        return "missing"
    if kind == "extra_forbidden":
        return "unknown field"
    shown = repr(error.get("input"))
    if len(shown) > _REPR_LIMIT:
        shown = shown[: _REPR_LIMIT - 3] + "..."
    return f"{error['msg']} (got {shown})"


# -- validated data to the engine's dataclasses ------------------------------------------------
def _names(names: NamesModel) -> Names:
    return Names(ru=names.ru, en=names.en)


def _weapon(w: WeaponData) -> Weapon:
    return Weapon(
        name=_names(w.name),
        kind=w.kind,
        strength=w.strength,
        dice=w.dice,
        per_model=w.per_model,
        range=w.range,
        min_range=w.min_range,
    )


def _option(o: OptionModel) -> Option:
    return Option(
        id=o.id,
        name=_names(o.name),
        points=o.points,
        add_weapons=tuple(_weapon(w) for w in o.add_weapons),
        remove_weapons=tuple(o.remove_weapons),
        models=o.models,
        defense=o.defense,
        maneuverability=o.maneuverability,
        add_rules=tuple(o.add_rules),
    )


def _sheet(faction: str, s: SheetModel) -> UnitSheet:
    damaged = None if s.damaged_weapons is None else tuple(_weapon(w) for w in s.damaged_weapons)
    return UnitSheet(
        id=s.id,
        handle=s.handle or "",
        name=_names(s.name),
        faction=faction,
        slot=s.slot,
        points=s.points,
        type=s.type,
        models=s.models,
        wounds=s.wounds,
        defense=s.defense,
        maneuverability=s.maneuverability,
        morale=s.morale,
        weapons=tuple(_weapon(w) for w in s.weapons),
        damaged_weapons=damaged,
        capacity=s.capacity,
        carries=frozenset(s.carries if s.carries is not None else [UnitType.INFANTRY]),
        open_topped=s.open_topped,
        rules=frozenset(s.rules),
        options=tuple(_option(o) for o in s.options),
        nicknames=tuple(s.nicknames),
        ws=s.ws,
    )
