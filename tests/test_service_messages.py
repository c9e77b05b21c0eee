"""Every refusal the service makes has its message, in both languages, with its parameters."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from vahalite_bot.app import errors
from vahalite_bot.i18n import LANGUAGES, message_ids

APP_DIR = Path(__file__).resolve().parents[1] / "vahalite_bot" / "app"
ERRORS = {"NotAllowed", "NotFound", "StaleState", "InvalidRequest", "ServiceError", "Unavailable"}
# A valid value for the parameters whose values are translated themselves.
SAMPLE = {"side": "south"}


def raised_codes() -> list[tuple[str, str, tuple[str, ...]]]:
    """Every literal ``NotAllowed("code", **params)`` (and kin) in the service's source."""
    found = []
    for path in sorted(APP_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") in ERRORS):
                continue
            code = node.args[0]
            assert isinstance(code, ast.Constant), f"{path.name}:{node.lineno}: code not literal"
            names = tuple(k.arg for k in node.keywords if k.arg is not None)
            found.append((path.name, str(code.value), names))
    return found


def test_the_service_has_refusals_to_check() -> None:
    assert len(raised_codes()) > 30


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_has_a_message_with_its_parameters(lang: str) -> None:
    missing = []
    for file, code, names in raised_codes():
        error = errors.ServiceError(code, **{name: SAMPLE.get(name, 2) for name in names})
        try:
            error.describe(lang)
        except KeyError as exc:
            missing.append(f"{file}: {code}: {exc}")
    assert missing == []
    roster = errors.RosterRejected([])
    assert "0" in roster.describe(lang)


def test_no_message_without_a_refusal() -> None:
    """The catalogue has no stale keys either: each service- message is raised somewhere."""
    codes = {f"service-{code}" for _, code, _ in raised_codes()} | {"service-roster_rejected"}
    for lang in LANGUAGES:
        assert {m for m in message_ids(lang) if m.startswith("service-")} == codes


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_refusal_quoting_a_huge_value_stays_short_and_shows(lang: str) -> None:
    """A parameter of 2,000 characters (or with NUL) is quoted short; a number of 10**30,
    which the catalogue's number formatting cannot take, is shown as digits."""
    long = errors.InvalidRequest("unknown_scenario", scenario="s\x00" * 1000).describe(lang)
    assert len(long) < 200 and "\x00" not in long
    huge = errors.InvalidRequest("bad_deadline", hours=10**30, low=1, high=336).describe(lang)
    assert "1" + "0" * 20 in huge
