"""The eight codexes of CODEX.md: coverage, scales, and ready-made lists that are legal and
playable as fielded."""

from __future__ import annotations

import pytest

from vahalite_bot.codex.loader import FACTIONS_DIR, Faction, all_sheets, codex_factions
from vahalite_bot.rules.roster import Roster, RosterEntry, field_units, roster_points, validate
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.rules.sheets import Slot, UnitType
from vahalite_bot.rules.state import fits, new_game

FACTIONS = codex_factions()
SHEETS = all_sheets(FACTIONS)
EIGHT = {
    "space_marines",
    "imperial_guard",
    "chaos_marines",
    "orks",
    "eldar",
    "tyranids",
    "necrons",
    "tau",
}
LIMITS = (500, 750, 1000)
READY = [(f, str(limit)) for f in sorted(EIGHT) for limit in LIMITS]
# B5: twelve deployment cells; the greedy player puts its Obstacle and Water in them.
MOST_UNITS_ON_BOARD = 10


def test_the_eight_factions_each_in_its_own_file() -> None:
    assert set(FACTIONS) == EIGHT
    assert sorted(p.stem for p in FACTIONS_DIR.glob("*.toml")) == sorted(EIGHT)


@pytest.mark.parametrize("faction_id", sorted(EIGHT))
def test_faction_has_12_to_18_sheets_in_every_slot(faction_id: str) -> None:
    faction = FACTIONS[faction_id]
    assert 12 <= len(faction.sheets) <= 18
    assert {s.slot for s in faction.sheets.values()} == set(Slot)


@pytest.mark.parametrize("faction_id", sorted(EIGHT))
def test_faction_names_in_russian_and_english(faction_id: str) -> None:
    faction = FACTIONS[faction_id]
    for names in [faction.name, *(s.name for s in faction.sheets.values())]:
        assert any("а" <= ch <= "я" or ch == "ё" for ch in names.ru.lower()), names
        assert names.en.isascii(), names


def test_community_names() -> None:
    """CODEX.md names three as the community says them."""
    names = {s.name.ru for s in SHEETS.values()}
    assert {"Тактическое отделение", "Бойз", "Гвардейцы"} <= names


def test_sheet_ids_unique_across_codexes() -> None:
    assert len(SHEETS) == sum(len(f.sheets) for f in FACTIONS.values())


@pytest.mark.parametrize("sheet_id", sorted(SHEETS))
def test_sheet_on_the_scales(sheet_id: str) -> None:
    """CODEX.md scales and E7: damaged profiles where the type has one."""
    sheet = SHEETS[sheet_id]
    assert 3 <= sheet.defense <= 8 and 1 <= sheet.maneuverability <= 6
    assert all(0 <= w.strength <= 5 for w in sheet.weapons)
    if sheet.type in (UnitType.VEHICLE, UnitType.WALKER, UnitType.SKIMMER, UnitType.FLYER):
        assert sheet.damaged_weapons is not None
    if sheet.type is UnitType.FLYER:
        assert sheet.maneuverability >= 5
    if sheet.slot is Slot.TRANSPORT:
        assert sheet.capacity > 0
    assert len(sheet.options) <= 2


def test_every_transport_carries_a_troops_unit_of_its_faction() -> None:
    """A4: a transport is bought for a unit it can carry; each must have one to serve."""
    for faction in FACTIONS.values():
        troops = [s for s in faction.sheets.values() if s.slot is Slot.TROOPS]
        for transport in faction.sheets.values():
            if transport.slot is Slot.TRANSPORT:
                assert any(
                    t.type in transport.carries and t.models <= transport.capacity for t in troops
                ), transport.id


@pytest.mark.parametrize(("faction_id", "name"), READY)
def test_ready_made_list_is_legal(faction_id: str, name: str) -> None:
    """A1-A7 at 500, 750 and 1000 points, for every faction."""
    roster = FACTIONS[faction_id].lists[name]
    assert validate(roster, SHEETS, int(name)) == []
    # Spent well: a newcomer's army uses nearly all of its points.
    assert roster_points(roster, SHEETS) >= 0.9 * int(name)


@pytest.mark.parametrize(("faction_id", "name"), READY)
def test_ready_made_list_can_be_fielded(faction_id: str, name: str) -> None:
    """B5 and H1 as the game sees them: each unit fits its transport as fielded (options
    applied), and the units on the board fit the deployment zone."""
    faction: Faction = FACTIONS[faction_id]
    roster = faction.lists[name]
    units = field_units(roster, SHEETS)
    state = new_game(STANDARD, {Side.SOUTH: units})
    handles = iter(state.units.values())
    board = 0
    for entry in roster.entries:
        unit = next(handles)
        board += 1
        if entry.transport is not None:
            transport = next(handles)
            assert fits(transport, unit), (entry.sheet, entry.transport)
    assert board <= MOST_UNITS_ON_BOARD


@pytest.mark.parametrize("faction_id", sorted(FACTIONS))
def test_handles_tell_a_factions_units_apart(faction_id: str) -> None:
    """Orders name units by handle: no two sheets of one codex share a handle's stem."""
    faction = FACTIONS[faction_id]
    one_of_each = Roster(faction.id, tuple(RosterEntry(sid) for sid in faction.sheets))
    stems: dict[str, set[str]] = {}
    for handle, sheet in field_units(one_of_each, faction.sheets):
        stems.setdefault(handle.rstrip("0123456789"), set()).add(sheet.id)
    assert len(stems) == len(faction.sheets), stems
