"""The player-facing rules reference, in Russian and English, with every rule's ID.

The single source is the two Markdown files beside this module, ``rules.ru.md`` and
``rules.en.md``: they ship as package data, so an installed bot can show a rule (``rule E8``
in the console, ``/vl rule E8`` in Discord) without the repository. ``docs/rules.*.md`` only
point here, so there is nothing to keep in step. The specification they are checked against
stays ``RULES.md`` of the project's shared folder; this book restates it for players.

The files' form, read by :func:`parse` (a malformed file is a ``RulebookError`` at load):

- ``# Title`` on the first line, then free text;
- ``## A. Army``: a lettered section, which holds rules; ``## Board`` (no letter): text only;
- ``### A1. Points limit``: one rule, its ID (the section's letter and a number), a full
  stop and a short title; its text runs to the next heading and must not be empty.

The text is Markdown wrapped at 96 columns for the repository's readers; the API returns it
unwrapped as Markdown would show it (paragraphs apart, each ``- `` item on its own line), so
a narrow phone screen in Discord wraps it by itself instead of breaking every line at 96.

Each file is parsed once per process and cached.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

from vahalite_bot.i18n import LANGUAGES

# Discord allows 2,000 characters per message; a rule's title and text stay well under it
# so the adapter can add a header or a "see also" line without splitting the message.
MAX_ENTRY_CHARS = 1500

_SECTION = re.compile(r"^## (?:(?P<letter>[A-Z])\. )?(?P<title>\S.*)$")
_RULE = re.compile(r"^### (?P<id>[A-Z][0-9]+)\. (?P<title>\S.*)$")
_ID = re.compile(r"[A-Z][0-9]+")


class RulebookError(ValueError):
    """A rules file that does not follow the form of the module docstring."""


@dataclass(frozen=True)
class Rule:
    id: str
    section: str
    title: str
    text: str


@dataclass(frozen=True)
class Section:
    letter: str | None
    title: str
    intro: str


@dataclass(frozen=True)
class Book:
    title: str
    sections: tuple[Section, ...]
    rules: Mapping[str, Rule]  # in book order; read-only, as the book is cached


def unwrap(text: str) -> str:
    """Markdown's soft line breaks undone: blank-line paragraphs, one line per ``- `` item."""
    blocks: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines: list[str] = []
        for line in block.splitlines():
            if line.startswith("- ") or not lines:
                lines.append(line.strip())
            else:
                lines[-1] += " " + line.strip()
        blocks.append("\n".join(lines))
    return "\n\n".join(block for block in blocks if block)


def parse(text: str) -> Book:
    """A rules file as a Book; raises RulebookError naming the line that breaks the form."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# "):
        raise RulebookError("line 1: the file must start with a '# Title' line")
    sections: list[Section] = []
    rules: dict[str, Rule] = {}
    # The heading being filled: ("section", Section-to-be) or ("rule", Rule-to-be).
    current: tuple[str, str | None, str, int] | None = None  # kind, key, title, line
    body: list[str] = []
    section_letter: str | None = None

    def close() -> None:
        if current is None:
            return
        kind, key, title, line = current
        content = unwrap("\n".join(body))
        if kind == "section":
            sections.append(Section(key, title, content))
            return
        assert key is not None
        if not content:
            raise RulebookError(f"line {line}: rule {key} has no text")
        assert section_letter is not None
        rules[key] = Rule(key, section_letter, title, content)

    for number, line in enumerate(lines[1:], start=2):
        if line.startswith("### "):
            match = _RULE.match(line)
            if match is None:
                raise RulebookError(f"line {number}: a rule heading is '### A1. Title'")
            rule_id = match["id"]
            close()
            if section_letter is None or rule_id[0] != section_letter:
                raise RulebookError(f"line {number}: rule {rule_id} is outside its section")
            if rule_id in rules:
                raise RulebookError(f"line {number}: rule {rule_id} is defined twice")
            current, body = ("rule", rule_id, match["title"], number), []
        elif line.startswith("## "):
            match = _SECTION.match(line)
            if match is None:
                raise RulebookError(f"line {number}: a section heading is '## A. Title'")
            close()
            letter = match["letter"]
            if letter is not None and any(s.letter == letter for s in sections):
                raise RulebookError(f"line {number}: section {letter} is defined twice")
            section_letter = letter
            current, body = ("section", letter, match["title"], number), []
        elif line.startswith("#"):
            raise RulebookError(f"line {number}: only '##' sections and '###' rules")
        else:
            body.append(line)
    close()
    return Book(lines[0][2:].strip(), tuple(sections), MappingProxyType(rules))


@cache
def book(lang: str) -> Book:
    """The parsed rules file of ``lang`` (``ru`` or ``en``); ValueError for another."""
    if lang not in LANGUAGES:
        raise ValueError(f"unsupported language {lang!r}; one of {LANGUAGES}")
    text = resources.files(__package__).joinpath(f"rules.{lang}.md").read_text("utf-8")
    return parse(text)


def normalise_id(raw: str) -> str | None:
    """``e8``, `` Е8 `` (Cyrillic Е), ``E 8`` -> ``E8``; None when it is not an ID's shape.

    Cyrillic letters are read as the order language reads cell letters (by look, and Б Д Ф Г
    by sound), so a player types a rule ID the way they type a cell.
    """
    candidate = _latin("".join(raw.split()))
    return candidate if _ID.fullmatch(candidate) else None


def _latin(text: str) -> str:
    """``text`` in upper case with Cyrillic letters read as the order language reads them."""
    # Imported here, not at the top: the order language will answer ``rule E8`` by calling
    # this module, and a top-level import would make the two packages import each other.
    from vahalite_bot.orders.lexicon import fold, latin_letters

    return latin_letters(fold(text)).upper()


def _rule(lang: str, rule_id: str) -> Rule | None:
    rules = book(lang).rules
    key = normalise_id(rule_id)
    return rules.get(key) if key is not None else None


def rule_ids() -> list[str]:
    """Every rule ID in book order (both languages define the same, in the same order)."""
    return list(book("en").rules)


def rule_text(lang: str, rule_id: str) -> str | None:
    """The rule's text (without its title) in ``lang``; None if there is no such rule."""
    rule = _rule(lang, rule_id)
    return rule.text if rule is not None else None


def rule_title(lang: str, rule_id: str) -> str | None:
    """The rule's short name in ``lang`` (``Cover``); None if there is no such rule."""
    rule = _rule(lang, rule_id)
    return rule.title if rule is not None else None


def rule_entry(lang: str, rule_id: str) -> str | None:
    """``E8. Cover`` and the text below it, ready to show; None if there is no such rule."""
    rule = _rule(lang, rule_id)
    return f"{rule.id}. {rule.title}\n{rule.text}" if rule is not None else None


def section_of(rule_id: str) -> str | None:
    """The letter of the rule's section (``E`` for ``e8``); None if there is no such rule."""
    rule = _rule("en", rule_id)
    return rule.section if rule is not None else None


def section_title(lang: str, letter: str) -> str | None:
    """The title of the lettered section (``Attacks`` for ``E``); None if there is none."""
    key = _latin(letter.strip())
    for section in book(lang).sections:
        if section.letter is not None and section.letter == key:
            return section.title
    return None
