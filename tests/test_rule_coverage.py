"""Every rule of the project's own rules reference, sections A-K, M and N, is named by a test.

The reference is ``vahalite_bot/rulebook/rules.{ru,en}.md`` (package data): the tests read
nothing outside the repository. A test names a rule by carrying its ID in its function name
(``test_E4_los_blocked``) or its docstring, as a whole word: ``E14`` does not name ``E1``.
A test module whose docstring opens with rule IDs and a colon (``N1: turn deadlines ...``)
declares that each of its tests is about those rules. Section L (scenarios) has no rule IDs:
its scenario files are checked by ``test_scenarios*.py``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

from vahalite_bot import rulebook
from vahalite_bot.i18n import LANGUAGES

TESTS_DIR = Path(__file__).resolve().parent

REQUIRED_SECTIONS = "ABCDEFGHIJKMN"
# Sections that hold rules in the reference; L (scenarios) has text but no rule IDs yet.
SECTIONS_WITH_RULES = "ABCDEFGHIJKMN"
_CLAIM = re.compile(r"^\s*((?:[A-Z][0-9]+)(?:\s*,\s*[A-Z][0-9]+)*)\s*:")


def required_ids(ids: Iterable[str]) -> list[str]:
    """The IDs a test must name: those of the required sections, in the given order."""
    return [rule for rule in ids if rule[0] in REQUIRED_SECTIONS]


def names_rule(text: str, rule: str) -> bool:
    """Whether ``text`` carries ``rule`` as a whole word (``test_E1_x`` yes, ``E14`` no)."""
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(rule)}(?![0-9])", text) is not None


def module_claim(docstring: str) -> str:
    """The rule IDs a module's docstring opens with before a colon (``N1:``), else ``""``."""
    match = _CLAIM.match(docstring)
    return match[1] if match else ""


def texts_of_tests(source: str) -> list[str]:
    """Name and docstring of every ``test_*`` function (methods too) in a module's source,
    and the module docstring's opening claim when the module has tests."""
    tree = ast.parse(source)
    texts: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test_"
        ):
            texts.append(node.name)
            texts.append(ast.get_docstring(node) or "")
    if texts:
        texts.append(module_claim(ast.get_docstring(tree) or ""))
    return texts


def uncovered(rules: Iterable[str], texts: Iterable[str]) -> list[str]:
    corpus = list(texts)
    return [rule for rule in rules if not any(names_rule(text, rule) for text in corpus)]


# -- the checker checks itself ----------------------------------------------------------------
def test_required_ids_keep_sections_a_to_k_m_and_n_only() -> None:
    ids = ["A1", "E14", "E1", "K2", "L1", "M3", "N1", "Z9"]
    assert required_ids(ids) == ["A1", "E14", "E1", "K2", "M3", "N1"]


def test_rule_named_as_a_whole_word_only() -> None:
    assert names_rule("test_E1_range_in_steps", "E1")
    assert names_rule("test_d6_E1", "E1")
    assert names_rule("Range counts diagonals twice (E1).", "E1")
    assert not names_rule("test_E14_results_shown", "E1")
    assert not names_rule("test_BE1_typo", "E1")
    assert not names_rule("test_e1_lowercase", "E1")


def test_texts_of_tests_reads_names_and_docstrings_of_tests_only() -> None:
    source = (
        "def helper_B2():\n    '''B3'''\n"
        "def test_a():\n    '''Covers C1.'''\n"
        "class TestX:\n    async def test_D4_flyer(self):\n        pass\n"
    )
    texts = texts_of_tests(source)
    assert uncovered(["B2", "B3", "C1", "D4"], texts) == ["B2", "B3"]


def test_module_docstring_names_rules_only_when_it_opens_with_ids_and_has_tests() -> None:
    claimed = '"""N1, N2: deadlines and the referee; see also K1."""\ndef test_a():\n    pass\n'
    assert uncovered(["N1", "N2", "K1"], texts_of_tests(claimed)) == ["K1"]
    mentioned = '"""Dice (RULES.md K1-K2): logged."""\ndef test_a():\n    pass\n'
    assert uncovered(["K1"], texts_of_tests(mentioned)) == ["K1"]
    no_tests = '"""N1: deadlines."""\ndef helper():\n    pass\n'
    assert uncovered(["N1"], texts_of_tests(no_tests)) == ["N1"]


# -- the reference itself ---------------------------------------------------------------------
def test_reference_defines_the_same_ids_in_both_languages_and_every_section() -> None:
    ids = rulebook.rule_ids()
    for lang in LANGUAGES:
        assert list(rulebook.book(lang).rules) == ids, lang
    assert {rule[0] for rule in ids} == set(SECTIONS_WITH_RULES), ids
    assert len(ids) >= 70


def test_every_rule_has_text_in_both_languages() -> None:
    empty = [
        f"{lang}:{rule}"
        for lang in LANGUAGES
        for rule in rulebook.rule_ids()
        if not (rulebook.rule_text(lang, rule) or "").strip()
        or not (rulebook.rule_title(lang, rule) or "").strip()
    ]
    assert empty == []


# -- the real check ---------------------------------------------------------------------------
def test_every_rule_of_sections_a_to_k_and_n_is_named_by_a_test() -> None:
    ids = required_ids(rulebook.rule_ids())
    texts = [
        text
        for path in sorted(TESTS_DIR.rglob("test_*.py"))
        for text in texts_of_tests(path.read_text(encoding="utf-8"))
    ]
    missing = uncovered(ids, texts)
    assert missing == [], f"rules with no test naming them: {', '.join(missing)}"
