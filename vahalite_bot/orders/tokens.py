"""One line of text to tokens: words, cells, numbers, path dashes and the attack sign.

Normalisation, in order: Unicode NFKC (full-width letters and digits become plain ones);
a leading ``/`` or ``!`` dropped (slash-command habits); arrows (``->``, ``=>``, ``→``, ...)
and every Unicode dash become ``-``; a dash between two letters is a space (``roll-off``,
``end-turn``), so a dash only ever links cells or numbers; quotes and other punctuation
separate words and are otherwise ignored; ``?`` is kept (``?`` alone asks for help).
Words are folded (lower case, ``ё`` as ``е``).
"""

from __future__ import annotations

import re
import string
import unicodedata
from dataclasses import dataclass
from enum import Enum

from vahalite_bot.orders.lexicon import CELL_LETTERS, fold
from vahalite_bot.rules.geometry import Cell

_ARROWS = re.compile(r"-->|->|=>|[→⇒⟶➔➜➝⇨⭢]")
_DASHES = re.compile(r"[‐‑‒–—―−﹘﹣－]")
_WORD_DASH = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")
_TOKEN = re.compile(r"[^\W_]+|[->?]")
# Longer runs of digits are no row, weapon or count anyone means (and int() of thousands of
# digits is refused by Python itself).
MAX_NUMBER_DIGITS = 6


class Kind(Enum):
    WORD = "word"  # letters and digits: a verb, a handle, a name, maybe a cell
    NUMBER = "number"
    DASH = "-"
    ARROW = ">"  # the attack sign
    QUESTION = "?"


@dataclass(frozen=True)
class Token:
    kind: Kind
    text: str  # folded
    cell: Cell | None = None  # a WORD that reads as a cell
    number: int | None = None


def normalise(line: str) -> str:
    text = unicodedata.normalize("NFKC", line).strip()
    if text[:1] in ("/", "!"):
        text = text[1:]
    text = _ARROWS.sub("-", text)
    text = _DASHES.sub("-", text)
    return _WORD_DASH.sub(" ", text)


def tokenize(line: str) -> list[Token]:
    tokens: list[Token] = []
    for raw in _TOKEN.findall(normalise(line)):
        text = fold(raw)
        if text == "-":
            tokens.append(Token(Kind.DASH, text))
        elif text == ">":
            tokens.append(Token(Kind.ARROW, text))
        elif text == "?":
            tokens.append(Token(Kind.QUESTION, text))
        elif text.isdecimal():
            number = int(text) if len(text) <= MAX_NUMBER_DIGITS else None
            tokens.append(Token(Kind.NUMBER, text, number=number))
        else:
            tokens.append(Token(Kind.WORD, text, cell=read_cell(text)))
    return tokens


def read_cell(word: str) -> Cell | None:
    """``c2``, ``C12``, ``с2`` (Cyrillic) as a cell; None when the word is not one."""
    if len(word) < 2 or len(word) > 3:
        return None
    letter = CELL_LETTERS.get(word[0], word[0])
    digits = word[1:]
    if letter not in string.ascii_lowercase or not (digits.isascii() and digits.isdigit()):
        return None
    row = int(digits)
    if row < 1:
        return None
    return Cell(string.ascii_lowercase.index(letter), row - 1)
