"""The plain-text army list: export and import round-trip, tolerant reading, clear errors."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vahalite_bot.codex.army import Army
from vahalite_bot.codex.armylist import ArmyListError, ListProblem, format_army, parse_army
from vahalite_bot.codex.loader import Faction, all_sheets, codex_factions
from vahalite_bot.rules.roster import Roster, RosterEntry
from vahalite_bot.rules.sheets import Names

FACTIONS = codex_factions()
SHEETS = all_sheets(FACTIONS)
READY = [(f, name) for f in sorted(FACTIONS) for name in FACTIONS[f].lists]


def ready(faction: str, name: str) -> Army:
    return Army.ready_made(FACTIONS[faction], name)


def problems(text: str) -> list[tuple[int, str]]:
    with pytest.raises(ArmyListError) as caught:
        parse_army(text, FACTIONS)
    return [(p.line, p.code) for p in caught.value.problems]


@pytest.mark.parametrize(("faction", "name"), READY)
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_round_trip_of_every_ready_made_list(faction: str, name: str, lang: str) -> None:
    army = ready(faction, name)
    text = format_army(army, FACTIONS, lang)
    back = parse_army(text, FACTIONS)
    assert back == army
    assert format_army(back, FACTIONS, lang) == text


def test_export_in_english() -> None:
    army = (
        Army.empty("space_marines", 500)
        .add("captain")
        .add(
            "tactical", ["plasma_gun"], transport="razorback", transport_options=["twin_lascannon"]
        )
    )
    sheets = FACTIONS["space_marines"].sheets
    captain, tactical, razorback = sheets["captain"], sheets["tactical"], sheets["razorback"]
    plasma = tactical.points + tactical.options[0].points
    twin = razorback.points + razorback.options[0].points
    assert format_army(army, FACTIONS, "en").splitlines() == [
        "Space Marines — 500 pts",
        f"Captain [{captain.points}]",
        f"Tactical Squad + Plasma gun [{plasma}] > Razorback + Twin lascannon [{twin}]",
        f"Total: {captain.points + plasma + twin}",
    ]


def test_export_in_russian() -> None:
    army = Army.empty("orks", 750).add("boyz", ["nob"], transport="trukk")
    boyz, trukk = FACTIONS["orks"].sheets["boyz"], FACTIONS["orks"].sheets["trukk"]
    nob = boyz.points + boyz.options[0].points
    assert format_army(army, FACTIONS, "ru").splitlines() == [
        "Орки — 750 очк.",
        f"Бойз + Ноб с силовой клешнёй [{nob}] > Трак [{trukk.points}]",
        f"Итого: {nob + trukk.points}",
    ]


def test_tolerant_reading() -> None:
    """Case, spacing, ё/е, mixed languages, bullets, numbering, Discord markup, fences,
    arrows, no points, no total: the same army."""
    text = """```
**КОСМОДЕСАНТ** ,   750   очков
1.  капитан
-   тактическое   ОТДЕЛЕНИЕ +  PLASMA GUN   ->  носорог
* Tactical Squad
• дредноут + мульти-мельта
```"""
    assert parse_army(text, FACTIONS) == Army(
        "space_marines",
        750,
        Roster(
            "space_marines",
            (
                RosterEntry("captain"),
                RosterEntry("tactical", ("plasma_gun",), "rhino"),
                RosterEntry("tactical"),
                RosterEntry("dreadnought", ("multi_melta",)),
            ),
        ),
    )


def test_yo_and_ye_are_one_letter() -> None:
    army = parse_army("Орки\nБойз + Ноб с силовой клешней", FACTIONS)
    assert army.entries == (RosterEntry("boyz", ("nob",)),)


def test_header_variants() -> None:
    for header in ("Orks", "orks: 1000", "Orks (1000 pts)", "Орки - 1000", "orks, 1000 points"):
        army = parse_army(f"{header}\nBoyz", FACTIONS)
        assert army.faction == "orks"
        assert army.limit == (None if header == "Orks" else 1000)


def test_faction_guessed_without_a_header() -> None:
    army = parse_army("Warboss\nBoyz\nBoyz", FACTIONS)
    assert (army.faction, army.limit) == ("orks", None)


def test_unit_of_another_codex_reads_for_A6_to_refuse() -> None:
    """A6: the list reads, and the roster check names the stranger."""
    army = parse_army("Space Marines\nCaptain\nBoyz", FACTIONS)
    assert army.entries[1].sheet == "boyz"
    assert [p.code for p in army.problems(SHEETS)] == ["wrong_faction", "too_few"]


# -- bad lines -----------------------------------------------------------------------------
def test_unknown_unit_names_its_line_with_a_suggestion() -> None:
    with pytest.raises(ArmyListError) as caught:
        parse_army("Space Marines\nCaptian", FACTIONS)
    assert caught.value.messages("en") == [
        "Line 2 (“Captian”): no unit named “Captian”; did you mean “Captain”?"
    ]
    assert caught.value.messages("ru") == [
        "Строка 2 («Captian»): не знаю отряда «Captian»; может быть, «Captain»?"
    ]


def test_unknown_option() -> None:
    with pytest.raises(ArmyListError) as caught:
        parse_army("Space Marines\nCaptain\nTactical Squad + Flamer", FACTIONS)
    assert caught.value.messages("en") == [
        "Line 3 (“Tactical Squad + Flamer”): “Tactical Squad” has no option “Flamer”."
    ]
    assert caught.value.messages("ru") == [
        "Строка 3 («Tactical Squad + Flamer»): у «Тактическое отделение» нет опции «Flamer»."
    ]


def test_every_bad_line_at_once() -> None:
    text = "\n".join(
        [
            "Space Marines, 750",
            "Captain [1]",
            "Tactical Squad > Rhino > Razorback",
            "Tactical Squad [ninety]",
            "Tactical Squad +  + Plasma gun",
            "Scout Squad",
        ]
    )
    assert problems(text) == [
        (2, "points_mismatch"),
        (3, "several_transports"),
        (4, "bad_points"),
        (5, "empty_name"),
    ]


def test_wrong_total() -> None:
    captain = FACTIONS["space_marines"].sheets["captain"].points
    assert problems(f"Space Marines\nCaptain [{captain}]\nTotal: {captain + 1}") == [
        (3, "total_mismatch")
    ]


def test_points_mismatch_message() -> None:
    captain = FACTIONS["space_marines"].sheets["captain"].points
    with pytest.raises(ArmyListError) as caught:
        parse_army("Space Marines\nCaptain [1]", FACTIONS)
    assert caught.value.messages("en") == [
        f"Line 2 (“Captain [1]”): it says 1 point, the codex says {captain}."
    ]


def test_empty_list() -> None:
    assert problems("Space Marines\n\n") == [(0, "no_units")]
    assert problems("") == [(0, "no_units")]


def test_unknown_faction_without_header() -> None:
    assert problems("Bloodletters\nPink Horrors") == [(0, "unknown_faction")]


def test_comments_are_ignored() -> None:
    army = parse_army("# my list\nOrks\n// fast one\nBoyz", FACTIONS)
    assert army.entries == (RosterEntry("boyz"),)


def test_name_in_two_codexes_needs_the_header() -> None:
    """A homebrew codex may reuse a name: without a header the list cannot tell which."""
    captain = FACTIONS["space_marines"].sheets["captain"]
    twin = replace(captain, id="renegade_captain", faction="renegades")
    renegades = Faction("renegades", Names("Ренегаты", "Renegades"), {twin.id: twin}, {})
    factions = {**FACTIONS, "renegades": renegades}
    with pytest.raises(ArmyListError) as caught:
        parse_army("Captain", factions)
    assert [(p.line, p.code) for p in caught.value.problems] == [(1, "ambiguous_unit")]
    assert "Renegades, Space Marines" in caught.value.messages("en")[0]
    assert parse_army("Renegades\nCaptain", factions).entries == (RosterEntry(twin.id),)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_list_problem_has_a_message_with_its_parameters(lang: str) -> None:
    """codex.ftl: each code the parser emits reads, given the parameters the parser passes."""
    marines = FACTIONS["space_marines"]
    samples = [
        ListProblem(0, "", "no_units"),
        ListProblem(0, "", "unknown_faction", {"example": marines.name}),
        ListProblem(2, "x", "unknown_unit", {"name": "x"}),
        ListProblem(2, "x", "unknown_unit", {"name": "x", "suggestion": "y"}),
        ListProblem(2, "x", "unknown_option", {"unit": marines.name, "option": "x"}),
        ListProblem(2, "x", "several_transports"),
        ListProblem(2, "x", "bad_points"),
        ListProblem(2, "x", "empty_name"),
        ListProblem(2, "x", "points_mismatch", {"shown": 1, "actual": 2}),
        ListProblem(2, "x", "total_mismatch", {"shown": 1, "actual": 2}),
        ListProblem(2, "x", "ambiguous_unit", {"name": "x", "factions": (marines.name,)}),
    ]
    for problem in samples:
        text = problem.message(lang)
        assert problem.code not in text and "{" not in text
