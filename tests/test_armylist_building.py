"""Building an army with real codexes: edits, and rulebook A1-A7 through the engine's roster
check, each with a passing and a failing case, with every reason in Russian and English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vahalite_bot.codex import messages
from vahalite_bot.codex.army import Army, ArmyEditError
from vahalite_bot.codex.loader import all_sheets, codex_factions
from vahalite_bot.rules.roster import Roster, RosterEntry, RosterProblem, roster_points, validate
from vahalite_bot.rules.scenario import Side
from vahalite_bot.scenarios.loader import shipped as shipped_scenario

FACTIONS = codex_factions()
SHEETS = all_sheets(FACTIONS)
SM = FACTIONS["space_marines"].sheets


def marines(limit: int | None = 2000) -> Army:
    """A legal core: 1 HQ, 2 Troops."""
    return Army.empty("space_marines", limit).add("captain").add("tactical").add("tactical")


def codes(army: Army, limit: int | None = None) -> list[str]:
    return [p.code for p in army.problems(SHEETS, limit)]


# -- edits ---------------------------------------------------------------------------------
def test_edits_return_new_armies() -> None:
    empty = Army.empty("space_marines", 500)
    one = empty.add("captain")
    assert empty.entries == () and one.entries == (RosterEntry("captain"),)


def test_add_remove_options_and_transport() -> None:
    army = (
        marines()
        .choose_options(1, ["plasma_gun"])
        .attach_transport(1, "razorback", ["twin_lascannon"])
    )
    assert army.entries[1] == RosterEntry(
        "tactical", ("plasma_gun",), "razorback", ("twin_lascannon",)
    )
    army = army.detach_transport(1).remove(0)
    assert army.entries == (RosterEntry("tactical", ("plasma_gun",)), RosterEntry("tactical"))


def test_edit_of_a_missing_unit() -> None:
    with pytest.raises(ArmyEditError) as caught:
        marines().remove(3)
    assert (caught.value.index, caught.value.size) == (3, 3)
    with pytest.raises(ArmyEditError):
        marines().choose_options(-1, [])


def test_points_count_options_and_transports() -> None:
    """A1: everything counts."""
    army = marines().choose_options(1, ["plasma_gun"]).attach_transport(1, "rhino")
    expected = SM["captain"].points + 2 * SM["tactical"].points
    expected += SM["tactical"].option("plasma_gun").points + SM["rhino"].points  # type: ignore[union-attr]
    assert army.points(SHEETS) == expected


def test_ready_made_army() -> None:
    army = Army.ready_made(FACTIONS["orks"], "750")
    assert (army.faction, army.limit) == ("orks", 750)
    assert army.is_legal(SHEETS)


# -- A1 points -------------------------------------------------------------------------------
def test_A1_at_the_limit_passes() -> None:
    army = marines()
    assert codes(army, army.points(SHEETS)) == []


def test_A1_over_the_limit_by_n() -> None:
    army = marines()
    total = army.points(SHEETS)
    (problem,) = army.problems(SHEETS, total - 7)
    assert (problem.rule, problem.code) == ("A1", "over_points")
    assert problem.params == {"points": total, "limit": total - 7, "over": 7}


def test_A1_the_army_own_limit_applies() -> None:
    assert codes(marines(limit=100)) == ["over_points"]
    assert codes(marines(limit=None)) == []


# -- A2 force organisation, A3 slot trading --------------------------------------------------
def test_A2_minimums() -> None:
    army = Army.empty("space_marines", 2000).add("tactical")
    problems = army.problems(SHEETS)
    assert [(p.code, p.params["slot"]) for p in problems] == [
        ("too_few", "hq"),
        ("too_few", "troops"),
    ]


def test_A2_maximum_with_nothing_to_trade() -> None:
    army = marines().add("tactical").add("tactical")  # 1 HQ, 4 Troops
    for sheet in ("dreadnought", "terminators", "bikers", "assault_squad", "predator", "whirlwind"):
        army = army.add(sheet)
    army = army.add("captain").add("devastators")  # a third Heavy: no spare slot to trade
    problems = army.problems(SHEETS)
    assert [(p.rule, p.code, p.params["slot"]) for p in problems] == [("A3", "too_many", "heavy")]


def test_A3_source_example_two_hq_seven_troops() -> None:
    """The source's example: trade every Fast, Heavy and Elite slot for 2 HQ and 7 Troops."""
    army = Army.empty("imperial_guard", 5000).add("command_squad").add("commissar")
    for _ in range(7):
        army = army.add("guardsmen")
    assert codes(army) == []
    assert codes(army.add("guardsmen")) == ["too_many"]


def test_A3_two_spare_slots_buy_a_third_heavy() -> None:
    army = marines().add("predator").add("whirlwind").add("devastators")
    assert codes(army) == []


def test_A3_first_hq_and_two_troops_cannot_be_traded() -> None:
    """With Elite, Fast and Heavy full, only the second HQ and Troops 3-4 are spare: three
    slots buy one extra slot, not two."""
    army = Army.empty("space_marines", 5000).add("captain").add("tactical").add("tactical")
    for sheet in ("dreadnought", "terminators", "bikers", "assault_squad", "predator", "whirlwind"):
        army = army.add(sheet)
    assert codes(army.add("land_speeder")) == []  # a third Fast
    problems = army.add("land_speeder").add("devastators").problems(SHEETS)  # and a third Heavy
    assert [(p.code, p.params["slot"]) for p in problems] == [
        ("too_many", "heavy"),
        ("too_many", "fast"),
    ]
    assert {(p.params["spare"], p.params["needed"]) for p in problems} == {(3, 4)}


# -- A4 transports ------------------------------------------------------------------------------
def test_A4_transports_take_no_slot() -> None:
    army = marines().attach_transport(1, "rhino").attach_transport(2, "razorback")
    assert codes(army) == []


def test_A4_transport_on_its_own() -> None:
    assert codes(marines().add("rhino")) == ["transport_without_unit"]


def test_A4_transport_must_be_a_transport() -> None:
    assert codes(marines().attach_transport(1, "predator")) == ["not_a_transport"]


def test_A4_transport_must_carry_its_unit() -> None:
    """H1: a Rhino carries infantry; bikes do not ride."""
    army = marines().add("bikers", transport="rhino")
    assert codes(army) == ["cannot_carry"]
    eldar = Army.empty("eldar", 2000).add("farseer").add("guardians").add("dire_avengers")
    assert codes(eldar.attach_transport(2, "wave_serpent")) == []
    # Eight Guardians fill a Wave Serpent; a Farseer fits; Windriders (bikes) do not.
    assert codes(eldar.add("windriders", transport="wave_serpent")) == ["cannot_carry"]


# -- A5 options ---------------------------------------------------------------------------------
def test_A5_listed_options_at_their_cost() -> None:
    army = marines().choose_options(0, ["terminator_armour", "jump_pack"])
    assert codes(army) == []
    option = SM["captain"].option("jump_pack")
    assert option is not None
    assert army.points(SHEETS) == marines().points(SHEETS) + option.points + 25


def test_A5_unknown_option() -> None:
    assert codes(marines().choose_options(0, ["jet_pack"])) == ["unknown_option"]


def test_A5_option_twice() -> None:
    assert codes(marines().choose_options(0, ["jump_pack", "jump_pack"])) == ["duplicate_option"]


def test_A5_options_of_a_transport() -> None:
    army = marines().attach_transport(1, "razorback", ["twin_lascannon"])
    assert codes(army) == []
    assert codes(marines().attach_transport(1, "rhino", ["twin_lascannon"])) == ["unknown_option"]


# -- A6 one codex -----------------------------------------------------------------------------
def test_A6_unit_of_another_codex() -> None:
    assert codes(marines().add("boyz")) == ["wrong_faction"]


def test_A6_unknown_unit() -> None:
    assert codes(marines().add("primaris_intercessors")) == ["unknown_sheet"]


# -- A7 every reason at once, in both languages -----------------------------------------------
def test_A7_every_reason_at_once() -> None:
    # The Boyz are Troops too (of the wrong codex), so only the HQ is missing.
    army = (
        Army.empty("space_marines", 100)
        .add("tactical", ["flamer"], transport="predator")
        .add("rhino")
        .add("boyz")
    )
    assert codes(army) == [
        "unknown_option",
        "not_a_transport",
        "transport_without_unit",
        "wrong_faction",
        "over_points",
        "too_few",
    ]
    english = army.explain(FACTIONS, "en")
    russian = army.explain(FACTIONS, "ru")
    assert english == [
        "“Tactical Squad” has no option “flamer” (A5).",
        "“Predator” is not a transport (A4).",
        "“Rhino” is a transport: it is bought for a unit, not on its own (A4).",
        "“Boyz” is from another codex (Orks); an army comes from one codex (A6).",
        f"The army costs {army.points(SHEETS)} points, {army.points(SHEETS) - 100} over the "
        "limit of 100 (A1).",
        "Too few HQ: 0, at least 1 needed (A2).",
    ]
    assert russian[1] == "«Хищник» — не транспорт (A4)."
    assert russian[3] == "«Бойз» — из другого кодекса (Орки); армия набирается из одного (A6)."
    assert russian[5] == "Слишком мало: Штаб (HQ) — 0, нужно не меньше 1 (A2)."


@pytest.mark.parametrize("lang", messages.LANGUAGES)
def test_A7_every_roster_code_has_a_sentence(lang: str) -> None:
    """Each code the roster check emits has a template; none falls back to its raw code."""
    samples = [
        RosterProblem("A1", "over_points", {"points": 800, "limit": 750, "over": 50}),
        RosterProblem("A2", "too_few", {"slot": "troops", "count": 1, "minimum": 2}),
        RosterProblem(
            "A3",
            "too_many",
            {"slot": "heavy", "count": 3, "maximum": 2, "spare": 1, "needed": 2},
        ),
        RosterProblem("A6", "unknown_sheet", {"sheet": "x"}),
        RosterProblem("A6", "wrong_faction", {"sheet": "boyz", "faction": "orks"}),
        RosterProblem("A4", "transport_without_unit", {"sheet": "rhino"}),
        RosterProblem("A5", "too_many_options", {"sheet": "captain", "count": 3}),
        RosterProblem("A5", "duplicate_option", {"sheet": "captain", "options": ["jump_pack"]}),
        RosterProblem("A5", "unknown_option", {"sheet": "captain", "option": "x"}),
        RosterProblem("A4", "not_a_transport", {"sheet": "predator"}),
        RosterProblem("A4", "cannot_carry", {"transport": "rhino", "sheet": "bikers"}),
    ]
    assert messages.roster_codes(lang) == {p.code for p in samples}
    for problem in samples:
        text = messages.roster_problem(problem, lang, SHEETS, {"orks": "Orks"})
        assert problem.code not in text and problem.rule in text


def test_A7_catalogue_covers_every_code_the_roster_check_can_emit() -> None:
    """Read the codes from the engine's source, so a new code without a sentence fails here."""
    import vahalite_bot.rules.roster as roster

    source = Path(roster.__file__).read_text(encoding="utf-8")
    emitted = set(re.findall(r'RosterProblem\(\s*"A\d",\s*"([a-z_]+)"', source))
    assert len(emitted) >= 10
    for lang in messages.LANGUAGES:
        assert emitted <= messages.roster_codes(lang), lang


# -- issue 19: a ready-made list uses the points the game gives the side ------------------
@pytest.mark.parametrize("scenario_id", ["fortress", "big-battle"])
def test_a_ready_made_list_grows_to_the_sides_own_limit(scenario_id: str) -> None:
    """Fortress's north (650, 975, 1300) and Big battle (1500) have no list of their own:
    the largest list that fits is bought again, entry by entry, while it stays legal."""
    scenario = shipped_scenario(scenario_id)
    organisation = scenario.organisation()
    for base in scenario.points_limits:
        limit = scenario.points_for(Side.NORTH, base)
        for faction in FACTIONS.values():
            army = Army.ready_for(faction, limit, SHEETS, organisation)
            assert army is not None, (faction.id, limit)
            shipped = max(int(name) for name in faction.lists if int(name) <= limit)
            assert army.limit == limit
            assert validate(army.roster, SHEETS, limit, organisation) == [], faction.id
            assert army.points(SHEETS) > roster_points(faction.lists[str(shipped)], SHEETS)
            # Nothing more of the list fits: the points are used as far as they go.
            for entry in faction.lists[str(shipped)].entries:
                bigger = Roster(army.faction, (*army.entries, entry))
                assert validate(bigger, SHEETS, limit, organisation) != [], faction.id


def test_a_list_named_for_the_limit_is_fielded_as_it_is() -> None:
    for faction in FACTIONS.values():
        army = Army.ready_for(faction, 750, SHEETS)
        assert army is not None and army.roster == faction.lists["750"]
