"""The faction file loader: one schema, and a bad file refused with file, sheet, field, reason."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from vahalite_bot.codex.__main__ import main as codex_main
from vahalite_bot.codex.loader import (
    DEMO_DIR,
    CodexError,
    Faction,
    all_sheets,
    codex_factions,
    demo_factions,
    load_faction,
    load_factions,
    read_factions,
)
from vahalite_bot.rules.roster import Roster, RosterEntry
from vahalite_bot.rules.sheets import Slot, SpecialRule, UnitType, WeaponKind

Data = dict[str, Any]


# -- a small valid faction, written as TOML ------------------------------------------------
def weapon(en: str = "Bolters", kind: str = "shooting", strength: int = 1, **more: Any) -> Data:
    return {
        "name": {"ru": en + " (ru)", "en": en},
        "kind": kind,
        "strength": strength,
        "dice": 1,
        **more,
    }


def sheet(sid: str, slot: str = "troops", unit_type: str = "infantry", **more: Any) -> Data:
    data: Data = {
        "id": sid,
        "name": {"ru": f"Юнит {sid}", "en": f"Unit {sid}"},
        "slot": slot,
        "points": 50,
        "type": unit_type,
        "models": 5,
        "wounds": 1,
        "defense": 5,
        "maneuverability": 2,
        "morale": 3,
        "weapons": [weapon()],
    }
    data.update(more)
    return data


def vehicle(sid: str, slot: str = "heavy", **more: Any) -> Data:
    return sheet(
        sid,
        slot,
        "vehicle",
        models=1,
        wounds=5,
        defense=7,
        morale="fearless",
        damaged_weapons=[weapon()],
        **more,
    )


def base() -> Data:
    return {
        "faction": "testers",
        "name": {"ru": "Испытатели", "en": "Testers"},
        "training": True,
        "sheet": [
            sheet("boss", "hq", models=1, wounds=3),
            sheet("line"),
            vehicle("truck", "transport", capacity=5),
        ],
        "list": [
            {
                "name": "300",
                "units": [
                    {"sheet": "boss"},
                    {"sheet": "line", "transport": "truck"},
                    {"sheet": "line"},
                ],
            }
        ],
    }


def toml(value: Any) -> str:
    """Inline TOML: a top-level array of inline tables is valid TOML, so this is all we need."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{k} = {toml(v)}" for k, v in value.items()) + "}"


def write(folder: Path, data: Data, name: str = "testers.toml") -> Path:
    path = folder / name
    path.write_text("\n".join(f"{k} = {toml(v)}" for k, v in data.items()) + "\n", encoding="utf-8")
    return path


def refused(tmp_path: Path, change: Callable[[Data], None]) -> CodexError:
    data = base()
    change(data)
    with pytest.raises(CodexError) as caught:
        load_faction(write(tmp_path, data))
    return caught.value


# -- the public API, unchanged -------------------------------------------------------------
def test_base_faction_loads(tmp_path: Path) -> None:
    faction = load_faction(write(tmp_path, base()))
    assert faction == Faction(faction.id, faction.name, faction.sheets, faction.lists)
    assert (faction.id, faction.name.ru) == ("testers", "Испытатели")
    assert set(faction.sheets) == {"boss", "line", "truck"}
    truck = faction.sheets["truck"]
    assert truck.capacity == 5 and truck.carries == frozenset({UnitType.INFANTRY})
    assert truck.damaged_weapons is not None and truck.is_fearless
    assert faction.lists["300"] == Roster(
        "testers",
        (RosterEntry("boss"), RosterEntry("line", transport="truck"), RosterEntry("line")),
    )


def test_demo_factions_keep_their_meaning() -> None:
    """The training factions that tests/builders.py relies on, field by field."""
    factions = demo_factions()
    assert set(factions) == {"imperials", "raiders"}
    sheets = all_sheets(factions)
    assert len(sheets) == 17
    tactical = sheets["tactical"]
    assert (tactical.models, tactical.defense, tactical.morale, tactical.points) == (5, 5, 3, 90)
    assert tactical.option("plasma") is not None
    assert sheets["raider"].open_topped and sheets["raider"].capacity == 6
    assert sheets["archon"].rules == frozenset({SpecialRule.FEARLESS})
    assert sheets["scouts"].weapons[0].range == 4
    assert sheets["whirlwind"].weapons[0].kind is WeaponKind.ARTILLERY
    assert sheets["captain"].weapons[0].per_model is False
    assert sheets["razorwing"].type is UnitType.FLYER
    assert set(factions["imperials"].lists) == {"500"}


def test_codex_error_carries_its_parts() -> None:
    error = CodexError("f.toml", "rhino", "capacity", "too big")
    assert (error.file, error.sheet, error.field, error.reason) == (
        "f.toml",
        "rhino",
        "capacity",
        "too big",
    )
    assert str(error) == "f.toml: sheet 'rhino', field 'capacity': too big"


# -- one test per kind of bad file ---------------------------------------------------------
def test_not_toml(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('faction = "x"\n[[sheet]\n', encoding="utf-8")
    with pytest.raises(CodexError) as caught:
        load_faction(path)
    assert (caught.value.file, caught.value.sheet) == ("broken.toml", "-")
    assert "cannot read" in caught.value.reason


def test_missing_field(tmp_path: Path) -> None:
    error = refused(tmp_path, lambda d: d["sheet"][1].pop("defense"))
    assert (error.file, error.sheet, error.field, error.reason) == (
        "testers.toml",
        "line",
        "defense",
        "missing",
    )


def test_misspelt_field_is_unknown(tmp_path: Path) -> None:
    error = refused(tmp_path, lambda d: d["sheet"][1].update(defence=5))
    assert (error.sheet, error.field, error.reason) == ("line", "defence", "unknown field")


def test_wrong_type(tmp_path: Path) -> None:
    error = refused(tmp_path, lambda d: d["sheet"][1].update(points="fifty"))
    assert (error.sheet, error.field) == ("line", "points")
    assert "integer" in error.reason and "fifty" in error.reason


def test_bool_is_not_a_number(tmp_path: Path) -> None:
    error = refused(tmp_path, lambda d: d["sheet"][1].update(models=True))
    assert (error.sheet, error.field) == ("line", "models")


def test_value_off_the_scale(tmp_path: Path) -> None:
    """CODEX.md scales: Defense 3-8."""
    error = refused(tmp_path, lambda d: d["sheet"][1].update(defense=9))
    assert (error.sheet, error.field) == ("line", "defense")
    assert "less than or equal to 8" in error.reason


def test_weapon_field_is_named_by_its_position(tmp_path: Path) -> None:
    error = refused(tmp_path, lambda d: d["sheet"][1]["weapons"][0].update(strength=6))
    assert (error.sheet, error.field) == ("line", "weapons[0].strength")


def test_unknown_enum_value(tmp_path: Path) -> None:
    error = refused(tmp_path, lambda d: d["sheet"][1].update(slot="troop"))
    assert (error.sheet, error.field) == ("line", "slot")
    assert "'troops'" in error.reason


def test_unknown_special_rule(tmp_path: Path) -> None:
    """F3: only rules the engine implements; any other name is a load error."""
    error = refused(tmp_path, lambda d: d["sheet"][1].update(rules=["fearless", "stealth"]))
    assert (error.sheet, error.field) == ("line", "rules[1]")
    assert "unknown special rule 'stealth'" in error.reason


def test_unknown_rule_in_an_option(tmp_path: Path) -> None:
    option = {"id": "x", "name": {"ru": "Х", "en": "X"}, "points": 5, "add_rules": ["rage"]}
    error = refused(tmp_path, lambda d: d["sheet"][1].update(options=[option]))
    assert (error.sheet, error.field) == ("line", "options[0].add_rules[0]")
    assert "unknown special rule" in error.reason


def test_bad_morale(tmp_path: Path) -> None:
    error = refused(tmp_path, lambda d: d["sheet"][1].update(morale="brave"))
    assert (error.sheet, error.field) == ("line", "morale")
    assert "fearless" in error.reason


def test_bad_id(tmp_path: Path) -> None:
    error = refused(tmp_path, lambda d: d["sheet"][1].update(id="Line Squad"))
    assert (error.sheet, error.field) == ("Line Squad", "id")
    assert "ascii id" in error.reason


def test_duplicate_sheet_id(tmp_path: Path) -> None:
    error = refused(tmp_path, lambda d: d["sheet"].append(sheet("line")))
    assert (error.sheet, error.field) == ("line", "id")
    assert "duplicate" in error.reason


def test_duplicate_name_in_either_language(tmp_path: Path) -> None:
    """The army list reads names back, so two sheets may not share one (case aside)."""

    def change(d: Data) -> None:
        twin = sheet("twin")
        twin["name"] = {"ru": "Другой", "en": "UNIT LINE"}
        d["sheet"].append(twin)

    error = refused(tmp_path, change)
    assert (error.sheet, error.field) == ("twin", "name")
    assert "'line'" in error.reason


def test_name_with_a_list_separator(tmp_path: Path) -> None:
    error = refused(tmp_path, lambda d: d["sheet"][1]["name"].update(en="Line + Co"))
    assert (error.sheet, error.field) == ("line", "name.en")
    assert "army list format" in error.reason


def test_vehicle_without_damaged_profile(tmp_path: Path) -> None:
    """E7: vehicles, walkers, skimmers and flyers need a damaged profile."""
    error = refused(tmp_path, lambda d: d["sheet"][2].pop("damaged_weapons"))
    assert (error.sheet, error.field) == ("truck", "damaged_weapons")
    assert "E7" in error.reason


def test_squad_with_damaged_profile(tmp_path: Path) -> None:
    error = refused(tmp_path, lambda d: d["sheet"][1].update(damaged_weapons=[weapon()]))
    assert (error.sheet, error.field) == ("line", "damaged_weapons")


def test_transport_without_capacity(tmp_path: Path) -> None:
    """H1: a transport carries something."""
    error = refused(tmp_path, lambda d: d["sheet"][2].pop("capacity"))
    assert (error.sheet, error.field) == ("truck", "capacity")


def test_open_topped_without_capacity(tmp_path: Path) -> None:
    error = refused(tmp_path, lambda d: d["sheet"].append(vehicle("tank", open_topped=True)))
    assert (error.sheet, error.field) == ("tank", "open_topped")


def test_option_removes_a_weapon_the_sheet_lacks(tmp_path: Path) -> None:
    option = {
        "id": "swap",
        "name": {"ru": "З", "en": "Swap"},
        "points": 5,
        "remove_weapons": ["Lasgun"],
    }
    error = refused(tmp_path, lambda d: d["sheet"][1].update(options=[option]))
    assert (error.sheet, error.field) == ("line", "options[0].remove_weapons")
    assert "'Lasgun'" in error.reason


def test_option_that_changes_nothing(tmp_path: Path) -> None:
    option = {"id": "nothing", "name": {"ru": "Н", "en": "Nothing"}, "points": 5}
    error = refused(tmp_path, lambda d: d["sheet"][1].update(options=[option]))
    assert (error.sheet, error.field) == ("line", "options[0].id")


def test_three_options(tmp_path: Path) -> None:
    """A5: at most two options per sheet."""
    options = [
        {"id": f"o{i}", "name": {"ru": f"О{i}", "en": f"O{i}"}, "points": 5, "defense": 1}
        for i in range(3)
    ]
    error = refused(tmp_path, lambda d: d["sheet"][1].update(options=options))
    assert (error.sheet, error.field) == ("line", "options")
    assert "at most 2" in error.reason


def test_option_pushes_defense_off_the_scale(tmp_path: Path) -> None:
    option = {"id": "armour", "name": {"ru": "Б", "en": "Armour"}, "points": 5, "defense": 2}
    error = refused(tmp_path, lambda d: d["sheet"][2].update(options=[option]))
    assert (error.sheet, error.field) == ("truck", "options[0].defense")


def test_flyer_with_melee_weapon(tmp_path: Path) -> None:
    """E12: flyers make no melee attacks."""
    jet = vehicle("jet", "fast", type="flyer", weapons=[weapon("Claws", "melee")])
    error = refused(tmp_path, lambda d: d["sheet"].append(jet))
    assert (error.sheet, error.field) == ("jet", "weapons")
    assert "E12" in error.reason


def test_minimum_range_beyond_range(tmp_path: Path) -> None:
    error = refused(tmp_path, lambda d: d["sheet"][1]["weapons"][0].update(range=2, min_range=3))
    assert (error.sheet, error.field) == ("line", "weapons[0].min_range")


def test_real_faction_needs_12_to_18_sheets(tmp_path: Path) -> None:
    """CODEX.md: a faction that is not a training one has 12 to 18 sheets."""
    error = refused(tmp_path, lambda d: d.pop("training"))
    assert (error.sheet, error.field) == ("-", "sheet")
    assert "3 sheets" in error.reason


def test_real_faction_covers_every_slot(tmp_path: Path) -> None:
    def change(d: Data) -> None:
        d.pop("training")
        d["sheet"] += [sheet(f"extra{i}") for i in range(10)]

    error = refused(tmp_path, change)
    assert error.field == "sheet"
    assert "elite, fast" in error.reason


def test_illegal_ready_made_list(tmp_path: Path) -> None:
    """A ready-made list is checked with A1-A7 at its limit."""
    error = refused(tmp_path, lambda d: d["list"][0].update(name="100"))
    assert (error.sheet, error.field) == ("list 100", "units")
    assert "A1" in error.reason


def test_ready_made_list_with_unknown_sheet(tmp_path: Path) -> None:
    error = refused(tmp_path, lambda d: d["list"][0]["units"].append({"sheet": "ghost"}))
    assert error.sheet == "list 300" and "ghost" in error.reason


def test_ready_made_list_needs_a_limit(tmp_path: Path) -> None:
    error = refused(tmp_path, lambda d: d["list"][0].update(name="starter"))
    assert (error.sheet, error.field) == ("list starter", "limit")


def test_named_list_with_a_limit_loads(tmp_path: Path) -> None:
    data = base()
    data["list"][0].update(name="starter", limit=300)
    assert "starter" in load_faction(write(tmp_path, data)).lists


def test_every_error_of_a_file_is_reported(tmp_path: Path) -> None:
    data = base()
    data["sheet"][0]["defense"] = 1
    data["sheet"][1]["slot"] = "boss"
    _, errors = read_factions([write(tmp_path, data)])
    assert {(e.sheet, e.field) for e in errors} == {("boss", "defense"), ("line", "slot")}


# -- several files ---------------------------------------------------------------------------
def test_two_files_with_one_faction_id(tmp_path: Path) -> None:
    paths = [write(tmp_path, base(), "a.toml"), write(tmp_path, base(), "b.toml")]
    with pytest.raises(CodexError) as caught:
        load_factions(paths)
    assert (caught.value.file, caught.value.field) == ("b.toml", "faction")


def test_sheet_ids_are_unique_across_factions(tmp_path: Path) -> None:
    """all_sheets merges factions by sheet id, so a clash is an error, not an overwrite."""
    other = copy.deepcopy(base())
    other["faction"] = "others"
    other["name"] = {"ru": "Другие", "en": "Others"}
    paths = [write(tmp_path, base(), "a.toml"), write(tmp_path, other, "b.toml")]
    with pytest.raises(CodexError) as caught:
        load_factions(paths)
    assert (caught.value.file, caught.value.sheet, caught.value.field) == ("b.toml", "boss", "id")


def test_homebrew_folder_loads_beside_the_codexes(tmp_path: Path) -> None:
    homebrew = tmp_path / "homebrew"
    homebrew.mkdir()
    write(homebrew, base())
    factions = codex_factions(homebrew)
    assert "testers" in factions and len(factions) == 9


# -- the check command -------------------------------------------------------------------------
def test_check_command_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert codex_main(["check"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    sheets = sum(len(f.sheets) for f in codex_factions().values())
    assert last == f"factions=8 sheets={sheets} errors=0"


def test_check_command_fails_on_a_bad_homebrew_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = base()
    data["sheet"][1]["rules"] = ["stealth"]
    write(tmp_path, data)
    assert codex_main(["--homebrew", str(tmp_path), "check"]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1].endswith("errors=1")
    assert any("testers.toml" in line and "'line'" in line and "rules[0]" in line for line in out)


def test_demo_files_are_training_files() -> None:
    assert sorted(p.name for p in DEMO_DIR.glob("*.toml")) == ["imperials.toml", "raiders.toml"]
    assert all(s.slot in Slot for s in all_sheets(demo_factions()).values())
