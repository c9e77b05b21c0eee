"""The words on the board image, in Russian and English: a thin layer over ``vahalite_bot.i18n``.

The texts live in the Fluent catalogues ``i18n/locales/<lang>/render.ftl``. The drawing code
asks for a key such as ``"event.moved"`` (message ``render-event-moved``: the dots become
hyphens; a segment spells an enum value with ``_``), never spells out a word.

Translated strings are remembered: a board image asks for a dozen labels and a replay for
over a thousand, and Fluent takes tens of microseconds to format a number (Babel), which
would add several per cent to a render. Argument-free labels are cached for good, labels
with arguments in a bounded LRU cache (their arguments include players' names).
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from fluent.syntax import FluentParser, ast
from fluent.syntax.visitor import Visitor

from vahalite_bot.i18n import LANGUAGES, LOCALES, translate

PREFIX = "render-"
FALLBACK = "en"


def message_id(key: str) -> str:
    """The catalogue's message id for a label key: ``"side.south"`` -> ``render-side-south``."""
    return PREFIX + key.replace(".", "-")


def label(lang: str, key: str, **params: Any) -> str:
    """The text for ``key`` in ``lang`` (English for an unknown language).

    Raises ``KeyError`` (``i18n.MissingMessage``) for an unknown key or a missing parameter.
    """
    if lang not in LANGUAGES:
        lang = FALLBACK
    if not params:
        return _plain(lang, key)
    args = tuple(params.items())
    try:
        hash(args)
    except TypeError:  # an unhashable argument: no caching
        return translate(lang, message_id(key), **params)
    return _with_args(lang, key, args)


@cache
def _plain(lang: str, key: str) -> str:
    return translate(lang, message_id(key))


@lru_cache(maxsize=4096)
def _with_args(lang: str, key: str, args: tuple[tuple[str, Any], ...]) -> str:
    return translate(lang, message_id(key), **dict(args))


# -- the catalogue as str.format templates -----------------------------------------------
class _Variables(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_VariableReference(self, node: ast.VariableReference) -> None:
        self.names.add(node.id.name)
        self.generic_visit(node)


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """Every label as a ``str.format`` template, by language and key: ``{"ru": {"round":
    "Раунд {round} из {rounds}", ...}, ...}`` (a selector gives its default variant).

    For tests and tools that check the texts; the renderer calls ``label``.
    """
    result: dict[str, dict[str, str]] = {}
    for lang in LANGUAGES:
        source = (LOCALES / lang / "render.ftl").read_text(encoding="utf-8")
        table: dict[str, str] = {}
        for entry in FluentParser().parse(source).body:
            if not (isinstance(entry, ast.Message) and entry.id.name.startswith(PREFIX)):
                continue
            variables = _Variables()
            variables.visit(entry)
            placeholders = {name: "{" + name + "}" for name in variables.names}
            key = entry.id.name.removeprefix(PREFIX).replace("-", ".")
            table[key] = translate(lang, entry.id.name, **placeholders)
        result[lang] = table
    return result


def __getattr__(name: str) -> dict[str, dict[str, str]]:
    # ``CATALOGUE``, read from the .ftl files on first use rather than at import.
    if name == "CATALOGUE":
        return catalogue()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
