"""The message catalogues: both languages complete, every engine refusal readable."""

from __future__ import annotations

import ast
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
    assert describe_error(error, "ru") == "[D2] Путь перекрыт на C3: Водоём."
    assert describe_error(error, "en") == "[D2] Blocked at C3 by Water."


def test_unknown_message_is_an_error() -> None:
    with pytest.raises(KeyError):
        translate("en", "error-no-such-message")
