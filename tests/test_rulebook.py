"""The rules reference: lookup, both languages alike, entries short enough for one message.

Test names and docstrings here carry no rule ID on purpose: these tests check the book, not
the rules, and must not count as covering a rule (test_rule_coverage).
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path

import pytest

from vahalite_bot import rulebook
from vahalite_bot.i18n import LANGUAGES
from vahalite_bot.rulebook import RulebookError, parse, unwrap

ROOT = Path(__file__).resolve().parents[1]
CYRILLIC = re.compile("[\u0400-\u04ff]")


# -- lookup ------------------------------------------------------------------------------------
@pytest.mark.parametrize("typed", ["E8", "e8", " E8 ", "\tE8\n", "E 8", "Е8", "е8", " Е 8 "])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_way_of_typing_an_id_finds_the_same_rule(lang: str, typed: str) -> None:
    assert rulebook.rule_text(lang, typed) == rulebook.book(lang).rules["E8"].text
    assert rulebook.rule_title(lang, typed) == rulebook.book(lang).rules["E8"].title


def test_lookup_finds_the_rule_asked_for_not_a_neighbour() -> None:
    assert rulebook.rule_title("en", "e8") == "Cover"
    assert rulebook.rule_title("ru", "Е8") == "Укрытие"
    assert rulebook.rule_title("en", "e1") == "Range"
    assert rulebook.rule_title("en", "E10") == "Taking the cell"
    assert rulebook.rule_title("en", "с2") == "Move, then attack"  # Cyrillic с
    assert rulebook.rule_title("en", "н1") == "Who rides"  # Cyrillic н looks like H


@pytest.mark.parametrize(
    "typed", ["E99", "E0", "Z1", "L1", "", "   ", "E", "8", "EE8", "E8x", "rule E8", "Ж8"]
)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_unknown_or_malformed_id_gives_none(lang: str, typed: str) -> None:
    assert rulebook.rule_text(lang, typed) is None
    assert rulebook.rule_title(lang, typed) is None
    assert rulebook.rule_entry(lang, typed) is None
    assert rulebook.section_of(typed) is None


def test_section_of_gives_the_letter_of_a_known_rule() -> None:
    assert rulebook.section_of("e10") == "E"
    assert rulebook.section_of(" Н5 ") == "H"
    assert rulebook.section_of("n2") == "N"


def test_section_title_by_letter_in_each_language() -> None:
    assert rulebook.section_title("en", "e") == "Attacks"
    assert rulebook.section_title("ru", "Е") == "Атаки"
    assert rulebook.section_title("en", "L") == "Scenarios"  # a section without rules
    assert rulebook.section_title("en", "Z") is None


def test_entry_is_id_title_and_text() -> None:
    entry = rulebook.rule_entry("en", "b1")
    assert entry is not None
    assert entry.startswith("B1. Roll-off\n")
    assert entry.endswith(rulebook.book("en").rules["B1"].text)


def test_unsupported_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unsupported language"):
        rulebook.rule_text("de", "A1")


# -- the two books -----------------------------------------------------------------------------
def test_rule_ids_in_book_order_same_in_both_languages() -> None:
    ids = rulebook.rule_ids()
    assert ids[:3] == ["A1", "A2", "A3"]
    assert ids[-1] == "N2"
    assert ids.index("E9") < ids.index("E10")  # book order, not string order
    assert len(ids) == len(set(ids))
    for lang in LANGUAGES:
        assert list(rulebook.book(lang).rules) == ids


def test_both_languages_have_the_same_lettered_sections() -> None:
    letters = {lang: [s.letter for s in rulebook.book(lang).sections] for lang in LANGUAGES}
    assert letters["ru"] == letters["en"]
    assert [letter for letter in letters["en"] if letter] == list("ABCDEFGHIJKLMN")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_entry_fits_well_inside_one_discord_message(lang: str) -> None:
    assert rulebook.MAX_ENTRY_CHARS <= 1500
    too_long = [
        rule
        for rule in rulebook.rule_ids()
        if len(rulebook.rule_entry(lang, rule) or "") > rulebook.MAX_ENTRY_CHARS
    ]
    assert too_long == []


def test_each_book_is_written_in_its_own_language() -> None:
    for rule in rulebook.rule_ids():
        ru = rulebook.rule_entry("ru", rule) or ""
        en = rulebook.rule_entry("en", rule) or ""
        assert CYRILLIC.search(ru), f"ru {rule} has no Russian"
        assert not CYRILLIC.search(en), f"en {rule} has Russian in it"


def test_house_rules_are_marked_as_switched_on_per_game() -> None:
    markers = {
        "en": "House rule, only when switched on.",
        "ru": "Домашнее правило, только если включено.",
    }
    house = [rule for rule in rulebook.rule_ids() if rulebook.section_of(rule) == "M"]
    assert len(house) == 9
    for lang, marker in markers.items():
        assert all((rulebook.rule_text(lang, rule) or "").startswith(marker) for rule in house)
        others = [rule for rule in rulebook.rule_ids() if rule not in house]
        assert not any(marker in (rulebook.rule_text(lang, rule) or "") for rule in others)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_refer_only_to_rules_that_exist(lang: str) -> None:
    ids = set(rulebook.rule_ids())
    reference = re.compile(r"(?<![A-Za-z0-9])[A-Z][0-9]+(?![0-9])")
    dangling = {
        f"{rule}->{ref}"
        for rule in rulebook.rule_ids()
        for ref in reference.findall(rulebook.rule_text(lang, rule) or "")
        if ref not in ids
    }
    assert dangling == set()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_texts_come_unwrapped_for_narrow_screens(lang: str) -> None:
    # A wrapped source line would show in Discord as a ragged break in mid-sentence.
    for rule in rulebook.rule_ids():
        for line in (rulebook.rule_text(lang, rule) or "").split("\n"):
            assert line == "" or line.startswith("- ") or line[0].isupper(), (rule, line)


# -- the file form -----------------------------------------------------------------------------
def test_parse_reads_sections_rules_and_unlettered_text() -> None:
    book = parse(
        "# Title\nintro\n## Board\nsix by six\n## A. Army\nsection text\n"
        "### A1. Points\nfirst line\nsecond line\n\n- item one\n- item\n  two\n"
        "### A2. Slots\nHQ 1-2\n## B. Setup\n### B1. Roll\nd6\n"
    )
    assert book.title == "Title"
    assert [(s.letter, s.title, s.intro) for s in book.sections] == [
        (None, "Board", "six by six"),
        ("A", "Army", "section text"),
        ("B", "Setup", ""),
    ]
    assert list(book.rules) == ["A1", "A2", "B1"]
    assert book.rules["A1"].text == "first line second line\n\n- item one\n- item two"
    assert (book.rules["A2"].section, book.rules["B1"].section) == ("A", "B")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("no title\n## A. Army\n", "line 1"),
        ("# T\n### A1. Points\nx\n", "outside its section"),
        ("# T\n## Board\n### A1. Points\nx\n", "outside its section"),
        ("# T\n## A. Army\n### B1. Roll\nx\n", "outside its section"),
        ("# T\n## A. Army\n### A1. Points\nx\n### A1. Again\ny\n", "defined twice"),
        ("# T\n## A. Army\n## A. Again\n", "section A is defined twice"),
        ("# T\n## A. Army\n### A1. Points\n\n### A2. Slots\nx\n", "A1 has no text"),
        ("# T\n## A. Army\n### A1 Points\nx\n", "line 3"),
        ("# T\n## A. Army\n#### A1. Points\nx\n", "only '##' sections"),
    ],
)
def test_parse_refuses_a_malformed_file_naming_the_problem(text: str, problem: str) -> None:
    with pytest.raises(RulebookError, match=re.escape(problem)):
        parse(text)


def test_unwrap_joins_soft_breaks_and_keeps_paragraphs_and_items() -> None:
    assert unwrap("a\nb\n\nc\n- d\n  e\n- f\n\n\n") == "a b\n\nc\n- d e\n- f"


# -- shipping ----------------------------------------------------------------------------------
def test_the_rule_files_are_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["vahalite_bot"]
    for lang in LANGUAGES:
        name = f"rulebook/rules.{lang}.md"
        assert (ROOT / "vahalite_bot" / name).is_file()
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), patterns


def test_docs_point_to_the_package_files_and_do_not_copy_them() -> None:
    for lang in LANGUAGES:
        doc = (ROOT / "docs" / f"rules.{lang}.md").read_text(encoding="utf-8")
        assert f"../vahalite_bot/rulebook/rules.{lang}.md" in doc
        assert "### " not in doc  # no rule entries: one source only
