"""Army rosters (rulebook A1-A7): points, force organisation, slot trading, transports,
options, one faction, and every problem reported at once."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping

import pytest

from tests.builders import FACTIONS, SHEETS, sheet
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.roster import (
    FORCE_ORGANISATION,
    Roster,
    RosterEntry,
    field_units,
    roster_points,
    slot_problems,
    validate,
)
from vahalite_bot.rules.scenario import STANDARD
from vahalite_bot.rules.sheets import Names, Option, Slot, UnitSheet, UnitType, Weapon, WeaponKind
from vahalite_bot.rules.state import new_game

# Enough points that only the rule under test can make a roster illegal.
NO_LIMIT = 100_000


def imperials(*entries: RosterEntry | str) -> Roster:
    return Roster("imperials", tuple(RosterEntry(e) if isinstance(e, str) else e for e in entries))


def found(
    roster: Roster, limit: int = NO_LIMIT, sheets: Mapping[str, UnitSheet] = SHEETS
) -> set[tuple[str, str]]:
    return {(p.rule, p.code) for p in validate(roster, sheets, limit)}


def with_sheets(*extra: UnitSheet) -> dict[str, UnitSheet]:
    return {**SHEETS, **{s.id: s for s in extra}}


# -- A1 points --------------------------------------------------------------------------------
def test_A1_training_lists_fit_500() -> None:
    for faction in FACTIONS.values():
        assert validate(faction.lists["500"], SHEETS, 500) == []


def test_A1_total_counts_options_and_transports() -> None:
    roster = imperials(
        "captain",
        RosterEntry("tactical", options=("plasma",), transport="rhino"),
        "scouts",
    )
    # captain 70 + tactical 90 + plasma 10 + rhino 35 + scouts 60
    assert roster_points(roster, SHEETS) == 265
    assert found(roster, limit=265) == set()


def test_A1_one_point_over_the_limit_is_refused_with_the_excess() -> None:
    roster = imperials(
        "captain",
        RosterEntry("tactical", options=("plasma",), transport="rhino"),
        "scouts",
    )
    problems = validate(roster, SHEETS, 264)
    assert [(p.rule, p.code) for p in problems] == [("A1", "over_points")]
    assert problems[0].params == {"points": 265, "limit": 264, "over": 1}


def test_A1_scenario_offers_the_standard_limits() -> None:
    assert STANDARD.points_limits == (500, 750, 1000)


# -- A2 force organisation --------------------------------------------------------------------
def test_A2_full_chart_is_legal() -> None:
    roster = imperials(
        *["captain"] * 2,
        *["scouts"] * 4,
        *["predator"] * 2,
        *["bikers"] * 2,
        *["dreadnought"] * 2,
    )
    assert found(roster) == set()


def test_A2_minimums_hq_and_troops() -> None:
    no_hq = validate(imperials("scouts", "scouts"), SHEETS, NO_LIMIT)
    assert [(p.rule, p.code, p.params["slot"]) for p in no_hq] == [("A2", "too_few", "hq")]
    one_troop = validate(imperials("captain", "scouts"), SHEETS, NO_LIMIT)
    assert [(p.rule, p.code, p.params["slot"]) for p in one_troop] == [("A2", "too_few", "troops")]
    assert one_troop[0].params["count"] == 1
    assert one_troop[0].params["minimum"] == 2


def test_A2_one_over_a_full_chart_is_refused() -> None:
    roster = imperials(
        *["captain"] * 2,
        *["scouts"] * 4,
        *["predator"] * 3,
        *["bikers"] * 2,
        *["dreadnought"] * 2,
    )
    problems = validate(roster, SHEETS, NO_LIMIT)
    # A maximum is only broken when no slot trade (A3) can pay for the excess.
    assert [(p.rule, p.code) for p in problems] == [("A3", "too_many")]
    assert problems[0].params["slot"] == "heavy"
    assert problems[0].params["count"] == 3
    assert problems[0].params["maximum"] == 2


# -- A3 slot trading --------------------------------------------------------------------------
def test_A3_source_example_two_hq_seven_troops_is_legal() -> None:
    roster = imperials(*["captain"] * 2, *["scouts"] * 7)
    assert validate(roster, SHEETS, 1000) == []


def test_A3_eight_troops_cost_more_than_the_spare_slots() -> None:
    roster = imperials(*["captain"] * 2, *["scouts"] * 8)
    problems = validate(roster, SHEETS, NO_LIMIT)
    assert [(p.rule, p.code) for p in problems] == [("A3", "too_many")]
    assert problems[0].params["spare"] == 6
    assert problems[0].params["needed"] == 8


def test_A3_two_spare_slots_of_two_types_buy_one() -> None:
    base = ["captain", "captain", *["scouts"] * 4, *["predator"] * 3]
    assert found(imperials(*base, "bikers", "dreadnought")) == set()
    # With Fast full only Elite has a spare slot: one is not enough.
    refused = found(imperials(*base, "bikers", "bikers", "dreadnought"))
    assert refused == {("A3", "too_many")}


def test_A3_first_hq_and_first_two_troops_are_never_traded() -> None:
    # Over by 3 (needs 6 spare); the unused 2nd HQ and troops 3-4 give only 3. Were the
    # first HQ and first two troops tradeable too, there would be 6.
    roster = imperials(
        "captain",
        "scouts",
        "scouts",
        *["predator"] * 3,
        *["bikers"] * 3,
        *["dreadnought"] * 3,
    )
    problems = validate(roster, SHEETS, NO_LIMIT)
    assert {(p.rule, p.code) for p in problems} == {("A3", "too_many")}
    assert {p.params["slot"] for p in problems} == {"heavy", "fast", "elite"}
    assert {p.params["spare"] for p in problems} == {3}
    assert {p.params["needed"] for p in problems} == {6}


def test_A3_a_trade_never_meets_a_minimum() -> None:
    # Many unused slots, but a missing HQ cannot be bought with them.
    assert found(imperials("scouts", "scouts")) == {("A2", "too_few")}


def _formula(counts: Mapping[Slot, int]) -> tuple[bool, int, int]:
    """rulebook A3, written out independently of the engine: (legal, spare, over)."""
    spare = over = 0
    minimum_met = True
    for slot, (low, high) in FORCE_ORGANISATION.items():
        n = counts.get(slot, 0)
        spare += max(0, high - max(n, low))
        over += max(0, n - high)
        minimum_met = minimum_met and n >= low
    return minimum_met and spare >= 2 * over, spare, over


def test_A3_engine_matches_the_exact_formula_for_every_small_roster() -> None:
    assert [slot for slot in FORCE_ORGANISATION] == [
        Slot.HQ,
        Slot.TROOPS,
        Slot.HEAVY,
        Slot.FAST,
        Slot.ELITE,
    ]
    ranges = [range(0, 5), range(0, 9), range(0, 5), range(0, 5), range(0, 5)]
    legal = 0
    for combo in itertools.product(*ranges):
        counts = dict(zip(FORCE_ORGANISATION, combo, strict=True))
        expected, spare, over = _formula(counts)
        legal += expected
        problems = slot_problems(counts)
        assert (problems == []) is expected, counts
        for problem in problems:
            if problem.code == "too_many":
                assert (problem.params["spare"], problem.params["needed"]) == (spare, 2 * over)
    assert 0 < legal < 5 * 9 * 5 * 5 * 5  # both kinds of outcome were exercised


# -- A4 transports ----------------------------------------------------------------------------
def test_A4_transports_take_no_slot() -> None:
    roster = imperials(
        *["captain"] * 2,
        *[RosterEntry("tactical", transport="rhino")] * 4,
        *["predator"] * 2,
        *["bikers"] * 2,
        *["dreadnought"] * 2,
    )
    assert found(roster) == set()


def test_A4_each_transport_comes_with_its_unit() -> None:
    roster = imperials("captain", RosterEntry("tactical", transport="rhino"), "scouts")
    units = field_units(roster, SHEETS)
    assert [s.id for _, s in units] == ["captain", "tactical", "rhino", "scouts"]
    assert len({handle for handle, _ in units}) == 4


def test_A4_transport_bought_alone_is_refused() -> None:
    roster = imperials("captain", "scouts", "scouts", "rhino")
    assert found(roster) == {("A4", "transport_without_unit")}


def test_A4_transport_must_carry_its_unit() -> None:
    bikes = imperials("captain", "scouts", "scouts", RosterEntry("bikers", transport="rhino"))
    assert found(bikes) == {("A4", "cannot_carry")}
    big = sheet("tactical", id="big_squad", models=6)
    too_many = imperials("captain", "scouts", "scouts", RosterEntry("big_squad", transport="rhino"))
    assert found(too_many, sheets=with_sheets(big)) == {("A4", "cannot_carry")}


def test_A4_options_that_add_models_count_against_capacity() -> None:
    extra = Option("sergeant", Names("Сержант", "Sergeant"), 15, models=1)
    squad = sheet("tactical", id="tactical_plus", options=(extra,))
    sheets = with_sheets(squad)
    fits = imperials("captain", "scouts", "scouts", RosterEntry("tactical_plus", transport="rhino"))
    assert found(fits, sheets=sheets) == set()
    overfull = imperials(
        "captain",
        "scouts",
        "scouts",
        RosterEntry("tactical_plus", options=("sergeant",), transport="rhino"),
    )
    assert found(overfull, sheets=sheets) == {("A4", "cannot_carry")}


def test_A4_a_non_transport_cannot_be_bought_as_one() -> None:
    roster = imperials("captain", "scouts", RosterEntry("scouts", transport="predator"))
    assert found(roster) == {("A4", "not_a_transport")}


# -- A5 options -------------------------------------------------------------------------------
def test_A5_listed_option_is_applied_at_its_cost() -> None:
    roster = imperials("captain", RosterEntry("tactical", options=("plasma",)), "scouts")
    assert found(roster) == set()
    without = roster_points(imperials("captain", "tactical", "scouts"), SHEETS)
    assert roster_points(roster, SHEETS) == without + 10
    fielded = dict(field_units(roster, SHEETS))
    squad = next(s for s in fielded.values() if s.id == "tactical")
    assert "Plasma gun" in [w.name.en for w in squad.weapons]
    assert squad.points == 100


def test_A5_option_not_on_the_sheet_is_refused() -> None:
    roster = imperials("captain", RosterEntry("tactical", options=("dark_lance",)), "scouts")
    problems = validate(roster, SHEETS, NO_LIMIT)
    assert [(p.rule, p.code) for p in problems] == [("A5", "unknown_option")]
    assert problems[0].params == {"sheet": "tactical", "option": "dark_lance"}


def _option(option_id: str) -> Option:
    gun = Weapon(Names(option_id, option_id), WeaponKind.SHOOTING, 1, 1, per_model=False)
    return Option(option_id, Names(option_id, option_id), 5, add_weapons=(gun,))


def test_A5_at_most_two_options_per_unit() -> None:
    many = sheet("tactical", id="many_options", options=tuple(_option(x) for x in "abc"))
    sheets = with_sheets(many)
    two = imperials("captain", RosterEntry("many_options", options=("a", "b")), "scouts")
    assert found(two, sheets=sheets) == set()
    three = imperials("captain", RosterEntry("many_options", options=("a", "b", "c")), "scouts")
    assert found(three, sheets=sheets) == {("A5", "too_many_options")}


def test_A5_an_option_is_taken_once() -> None:
    roster = imperials("captain", RosterEntry("tactical", options=("plasma", "plasma")), "scouts")
    assert found(roster) == {("A5", "duplicate_option")}


def test_A5_transport_options_are_checked_too() -> None:
    roster = imperials(
        "captain",
        "scouts",
        RosterEntry("tactical", transport="rhino", transport_options=("plasma",)),
    )
    problems = validate(roster, SHEETS, NO_LIMIT)
    assert [(p.rule, p.code) for p in problems] == [("A5", "unknown_option")]
    assert problems[0].params["sheet"] == "rhino"


# -- A6 one faction ---------------------------------------------------------------------------
def test_A6_unit_of_another_faction_is_refused() -> None:
    roster = imperials("captain", "scouts", "warriors")
    problems = validate(roster, SHEETS, NO_LIMIT)
    assert [(p.rule, p.code) for p in problems] == [("A6", "wrong_faction")]
    assert problems[0].params == {"sheet": "warriors", "faction": "raiders"}


def test_A6_transport_of_another_faction_is_refused() -> None:
    roster = imperials("captain", "scouts", RosterEntry("tactical", transport="raider"))
    assert found(roster) == {("A6", "wrong_faction")}


def test_A6_unknown_sheet_is_refused() -> None:
    roster = imperials("captain", "scouts", "scouts", "titan")
    assert found(roster) == {("A6", "unknown_sheet")}


# -- A7 every reason at once ------------------------------------------------------------------
def test_A7_every_problem_is_reported_at_once() -> None:
    roster = imperials(
        "captain",
        "scouts",
        "scouts",
        *["predator"] * 3,
        *["whirlwind"] * 3,  # five Heavy: over by 3 with 5 spare
        RosterEntry("bikers", transport="rhino"),  # cannot carry
        RosterEntry("tactical", options=("dark_lance",)),  # not its option
        "warriors",  # another faction
    )
    problems = validate(roster, SHEETS, 500)
    codes = Counter((p.rule, p.code) for p in problems)
    assert codes == Counter(
        {
            ("A1", "over_points"): 1,
            ("A3", "too_many"): 1,
            ("A4", "cannot_carry"): 1,
            ("A5", "unknown_option"): 1,
            ("A6", "wrong_faction"): 1,
        }
    )
    over = next(p for p in problems if p.code == "over_points")
    assert over.params["over"] == roster_points(roster, SHEETS) - 500


def test_A7_each_bad_entry_is_named() -> None:
    roster = imperials(
        "captain",
        "scouts",
        "scouts",
        RosterEntry("tactical", options=("x",)),
        RosterEntry("tactical", options=("y",)),
    )
    problems = validate(roster, SHEETS, NO_LIMIT)
    assert sorted(p.params["option"] for p in problems) == ["x", "y"]


def test_A7_two_units_with_one_handle_are_refused() -> None:
    captain = SHEETS["captain"]
    with pytest.raises(IllegalAction) as refused:
        new_game(STANDARD, {side: [("cap1", captain)] for side in STANDARD.half_rows})
    assert (refused.value.rule, refused.value.code) == ("A7", "duplicate_handle")


def test_A7_fielded_handles_avoid_taken_ones() -> None:
    roster = imperials("captain", "scouts", "scouts")
    handles = [h for h, _ in field_units(roster, SHEETS, taken=["cap1", "sco1"])]
    assert handles == ["cap2", "sco2", "sco3"]


def test_A4_flyer_sheet_type_is_not_carried_by_default() -> None:
    assert UnitType.FLYER not in SHEETS["rhino"].carries
    flyer = sheet("captain", id="jetcaptain", type=UnitType.FLYER)
    roster = imperials(RosterEntry("jetcaptain", transport="rhino"), "scouts", "scouts")
    assert found(roster, sheets=with_sheets(flyer)) == {("A4", "cannot_carry")}
