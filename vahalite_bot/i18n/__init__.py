"""Player-facing text in Russian and English, from Fluent catalogues (``locales/<lang>/``).

Fluent gives Russian its plural forms (1 кубик, 2 кубика, 5 кубиков) from CLDR rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle, FluentResource
from fluent.syntax import FluentParser, ast

from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.sheets import Names

LANGUAGES = ("ru", "en")
DEFAULT_LANGUAGE = "ru"
LOCALES = Path(__file__).parent / "locales"

# Error parameters that name a value with its own message (an enum's value).
_NAMED_VALUES = {
    "side": "side",
    "kind": "terrain",
    "terrain": "terrain",
    "phase": "phase",
    "expected": "phase",
}


# Fluent refuses to format a placeable longer than 1000 characters (an error, which
# translate() raises): every text argument is cut below that, so no input can crash a reply.
MAX_ARGUMENT = 900
# What a player typed is echoed back at most this long (a 3000-character line is shown as
# its start and an ellipsis): enough to recognise it, short enough for one chat line.
ECHO_LIMIT = 60
ELLIPSIS = "…"
# Numbers beyond this are shown as text: Babel's number formatting fails on huge ones.
MAX_NUMBER = 10**15


def shorten(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to at most ``limit`` characters, an ellipsis marking the cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - len(ELLIPSIS), 0)].rstrip() + ELLIPSIS


class MissingMessage(KeyError):
    """A message id that the catalogue does not have."""


@cache
def bundle(lang: str) -> FluentBundle:
    if lang not in LANGUAGES:
        raise ValueError(f"unsupported language {lang!r}; one of {LANGUAGES}")
    result = FluentBundle([lang], use_isolating=False)
    for path in sorted((LOCALES / lang).glob("*.ftl")):
        result.add_resource(FluentResource(path.read_text(encoding="utf-8")))
    return result


def message_ids(lang: str) -> set[str]:
    ids: set[str] = set()
    for path in (LOCALES / lang).glob("*.ftl"):
        resource = FluentParser().parse(path.read_text(encoding="utf-8"))
        ids.update(entry.id.name for entry in resource.body if isinstance(entry, ast.Message))
    return ids


def translate(lang: str, message_id: str, **args: Any) -> str:
    """The message in ``lang``; raises MissingMessage for an unknown id or argument.

    Formatting a Fluent pattern costs tens of microseconds, and the bot formats the same
    lines (a unit's status line, the next player's prompt) after every command: the
    answers for hashable arguments are remembered (the catalogues never change in a run)."""
    # Sorted: the same arguments in another order are the same answer (one or none need not).
    key = tuple(sorted(args.items())) if len(args) > 1 else tuple(args.items())
    try:
        return _remembered(lang, message_id, key)
    except TypeError:  # an argument that cannot be a key
        return _translate(lang, message_id, args)


@lru_cache(maxsize=8192)
def _remembered(lang: str, message_id: str, args: tuple[tuple[str, Any], ...]) -> str:
    return _translate(lang, message_id, dict(args))


def _translate(lang: str, message_id: str, args: Mapping[str, Any]) -> str:
    catalogue = bundle(lang)
    if not catalogue.has_message(message_id):
        raise MissingMessage(f"{lang}: {message_id}")
    message = catalogue.get_message(message_id)
    if message.value is None:
        raise MissingMessage(f"{lang}: {message_id} has no value")
    safe = {key: _safe(value) for key, value in args.items()}
    text, errors = catalogue.format_pattern(message.value, safe)
    if errors:
        raise MissingMessage(f"{lang}: {message_id}: {errors[0]}")
    return str(text)


def _safe(value: Any) -> Any:
    """An argument Fluent formats without failing: long text cut, huge numbers as text."""
    if isinstance(value, str):
        return shorten(value, MAX_ARGUMENT)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
        return shorten(str(value), ECHO_LIMIT)  # Babel cannot format one this long
    return value


def describe_error(error: IllegalAction, lang: str) -> str:
    """A refusal a player can read: the rule ID and the reason, in the player's language.

    The rule is written out ("(rule C2)"), never bare in brackets: "[C2]" reads as a cell;
    a refusal no rule gives (``NO_RULE``) names none.
    """
    args = localised_args(error.params, lang)
    reason = translate(lang, "error-" + error.code, **args)
    if not error.rule:
        return reason
    return translate(lang, "rule-reference", rule=error.rule, reason=reason)


def localised_args(params: Mapping[str, Any], lang: str) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, Names):
            args[key] = value.get(lang)
        elif key in _NAMED_VALUES and isinstance(value, str):
            args[key] = translate(lang, f"{_NAMED_VALUES[key]}-{value}")
        else:
            args[key] = value
    return args
