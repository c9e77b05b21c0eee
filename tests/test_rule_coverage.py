"""Every rule of RULES.md sections A-K is named by at least one test.

A test names a rule by carrying its ID in its function name (``test_E4_los_blocked``) or its
docstring, as a whole word: ``E14`` does not name ``E1``. Sections L, M and N (scenarios,
house rules, play over days) belong to later issues and are not required here yet.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent
RULES_PATH = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"

REQUIRED_SECTIONS = "ABCDEFGHIJK"
_RULE_ID = re.compile(rf"\*\*([{REQUIRED_SECTIONS}][0-9]+)\*\*")


def rule_ids(text: str) -> list[str]:
    """The IDs RULES.md defines (``**E4**``) in sections A-K, in order, once each."""
    return list(dict.fromkeys(_RULE_ID.findall(text)))


def names_rule(text: str, rule: str) -> bool:
    """Whether ``text`` carries ``rule`` as a whole word (``test_E1_x`` yes, ``E14`` no)."""
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(rule)}(?![0-9])", text) is not None


def texts_of_tests(source: str) -> list[str]:
    """Name and docstring of every ``test_*`` function (methods too) in a module's source."""
    texts: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test_"
        ):
            texts.append(node.name)
            texts.append(ast.get_docstring(node) or "")
    return texts


def uncovered(rules: Iterable[str], texts: Iterable[str]) -> list[str]:
    corpus = list(texts)
    return [rule for rule in rules if not any(names_rule(text, rule) for text in corpus)]


def read_rules() -> str:
    if not RULES_PATH.is_file():
        pytest.fail(
            f"RULES.md not found at {RULES_PATH}: the shared folder must sit beside the "
            "repository (…/shared/RULES.md next to …/main)."
        )
    return RULES_PATH.read_text(encoding="utf-8")


# -- the checker checks itself ----------------------------------------------------------------
def test_rule_ids_found_in_bold_only_and_in_sections_a_to_k() -> None:
    text = "- **A1** limit\n- **E14** results, see E1\n**Ruling:** x\n- **N1** deadline\n**E1** x"
    assert rule_ids(text) == ["A1", "E14", "E1"]


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


# -- the real check ---------------------------------------------------------------------------
def test_rules_md_defines_every_section() -> None:
    ids = rule_ids(read_rules())
    assert {rule[0] for rule in ids} == set(REQUIRED_SECTIONS), ids
    assert len(ids) >= 50


def test_every_rule_of_sections_a_to_k_is_named_by_a_test() -> None:
    ids = rule_ids(read_rules())
    texts = [
        text
        for path in sorted(TESTS_DIR.rglob("test_*.py"))
        for text in texts_of_tests(path.read_text(encoding="utf-8"))
    ]
    missing = uncovered(ids, texts)
    assert missing == [], f"rules with no test naming them: {', '.join(missing)}"
