"""Player-facing text in Russian and English, from Fluent catalogues (``locales/<lang>/``).

Fluent gives Russian its plural forms (1 кубик, 2 кубика, 5 кубиков) from CLDR rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
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
    """The message in ``lang``; raises MissingMessage for an unknown id or argument."""
    catalogue = bundle(lang)
    if not catalogue.has_message(message_id):
        raise MissingMessage(f"{lang}: {message_id}")
    message = catalogue.get_message(message_id)
    if message.value is None:
        raise MissingMessage(f"{lang}: {message_id} has no value")
    text, errors = catalogue.format_pattern(message.value, args)
    if errors:
        raise MissingMessage(f"{lang}: {message_id}: {errors[0]}")
    return str(text)


def describe_error(error: IllegalAction, lang: str) -> str:
    """A refusal a player can read: the rule ID and the reason, in the player's language."""
    args = localised_args(error.params, lang)
    return f"[{error.rule}] {translate(lang, 'error-' + error.code, **args)}"


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
