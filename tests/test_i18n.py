"""The message catalogues: both languages complete, every engine refusal readable."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from vahalite_bot.i18n import LANGUAGES, describe_error, message_ids, translate
from vahalite_bot.rules.errors import IllegalAction

RULES_DIR = Path(__file__).resolve().parents[1] / "vahalite_bot" / "rules"


# A valid value for the parameters whose values are translated themselves.
SAMPLE = {"side": "south", "kind": "water", "terrain": "water", "phase": "sp", "expected": "sp"}


def raised_codes() -> list[tuple[str, str, tuple[str, ...]]]:
    """Every literal IllegalAction(rule, code, **params) in the engine's source."""
    found = []
    for path in sorted(RULES_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalAction"):
                continue
            code = node.args[1]
            assert isinstance(code, ast.Constant), f"{path.name}:{node.lineno}: code not literal"
            names = tuple(k.arg for k in node.keywords if k.arg is not None)
            found.append((path.name, str(code.value), names))
    return found


def test_catalogues_have_the_same_messages() -> None:
    ru, en = message_ids("ru"), message_ids("en")
    assert ru - en == set(), "in ru only"
    assert en - ru == set(), "in en only"


def test_engine_finds_refusals_to_check() -> None:
    assert len(raised_codes()) > 40


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_engine_refusal_has_a_message_with_its_parameters(lang: str) -> None:
    missing = []
    for file, code, names in raised_codes():
        error = IllegalAction("X1", code, **{name: SAMPLE.get(name, "C3") for name in names})
        try:
            describe_error(error, lang)
        except KeyError as exc:
            missing.append(f"{file}: {code}: {exc}")
    assert missing == []


def test_russian_plural_forms() -> None:
    texts = [
        describe_error(IllegalAction("D1", "path_too_long", unit="tac1", length=9, m=m), "ru")
        for m in (1, 2, 5, 21)
    ]
    assert [t.split(" на ")[1].split(",")[0] for t in texts] == [
        "1 клетку",
        "2 клетки",
        "5 клеток",
        "21 клетку",
    ]


def test_named_values_are_translated() -> None:
    error = IllegalAction("D2", "blocked_by_terrain", cell="C3", terrain="water")
    assert describe_error(error, "ru") == "(правило D2) Путь перекрыт на C3: Водоём."
    assert describe_error(error, "en") == "(rule D2) Blocked at C3 by Water."


def test_unknown_message_is_an_error() -> None:
    with pytest.raises(KeyError):
        translate("en", "error-no-such-message")


PACKAGE = Path(__file__).resolve().parents[1] / "vahalite_bot"
CYRILLIC = re.compile("[А-Яа-яЁё]")
# Modules whose Russian strings are the words and patterns players type, read as input.
INPUT_VOCABULARY = {"orders/lexicon.py", "codex/armylist.py"}


def _vocabulary_nodes(tree: ast.AST) -> set[int]:
    """String constants that are words players type, not text shown to them: members of
    set/tuple/list literals, dict keys, and the arguments of character folding calls."""
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Set | ast.Tuple | ast.List):
            allowed.update(id(e) for e in node.elts)
        elif isinstance(node, ast.Dict):
            allowed.update(id(k) for k in node.keys if k is not None)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") in (
            "replace",
            "maketrans",
        ):
            allowed.update(id(a) for a in node.args)
    return allowed


def _docstrings(tree: ast.AST) -> set[int]:
    kinds = ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, kinds) and node.body and isinstance(node.body[0], ast.Expr)
    }


def hand_built_texts(source: str) -> list[tuple[int, str]]:
    tree = ast.parse(source)
    skip = _vocabulary_nodes(tree) | _docstrings(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and CYRILLIC.search(node.value)
    ]


def test_no_player_text_is_built_outside_the_catalogues() -> None:
    """A Russian sentence in Python code is text built by hand: it belongs in a catalogue."""
    found = [
        f"{path.relative_to(PACKAGE)}:{line}: {text!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).as_posix() not in INPUT_VOCABULARY
        for line, text in hand_built_texts(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_hand_built_text_is_found() -> None:
    source = 'WORDS = {"выход"}\nmessage = f"Ход {n}"\ngreeting = "Привет"\n'
    assert sorted(line for line, _ in hand_built_texts(source)) == [2, 3]
