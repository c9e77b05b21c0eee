"""Dice (rulebook K): streams the caller passes in, and the provably fair one (K2)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Die:
    """One rolled d6: its position in the game, what it was for, and its value (K1)."""

    position: int
    purpose: str
    value: int

    def __init__(self, position: int, purpose: str, value: int) -> None:
        # Written out: the generated frozen __init__ sets each field through
        # object.__setattr__, twice as slow, and every die of every game is one.
        self.__dict__.update(position=position, purpose=purpose, value=value)


class DiceStream(Protocol):
    def roll(self, position: int, purpose: str) -> int:
        """The d6 at ``position`` in the game (0, 1, 2, ...)."""
        ...


class DiceExhausted(RuntimeError):
    """A fixed stream ran out of dice."""


class FixedDice:
    """Dice given in advance, in order: for tests and for replaying a recorded log."""

    def __init__(self, values: Iterable[int]) -> None:
        self._values = list(values)
        self._next = 0
        for value in self._values:
            if not 1 <= value <= 6:
                raise ValueError(f"not a d6 value: {value}")

    def roll(self, position: int, purpose: str) -> int:
        if self._next >= len(self._values):
            raise DiceExhausted(f"no die left for {purpose} at position {position}")
        value = self._values[self._next]
        self._next += 1
        return value

    @property
    def remaining(self) -> int:
        return len(self._values) - self._next


class NoDice:
    """A stream for actions that must not roll: any roll is a bug."""

    def roll(self, position: int, purpose: str) -> int:
        raise DiceExhausted(f"unexpected roll for {purpose} at position {position}")


def fair_die(seed: bytes, position: int) -> int:
    """K2: the die at ``position``, derived from the seed with HMAC-SHA256.

    Bytes of the MAC are taken in order and those >= 252 rejected, so each face is exactly
    equally likely; a fresh counter extends the stream in the (rare) case all are rejected.
    docs/dice.md states this procedure for players and tests/test_dice_vectors.py pins it
    with published vectors: any change here changes every game's dice.
    """
    return _fair_die(hmac.new(seed, digestmod=hashlib.sha256), position)


def _fair_die(keyed: hmac.HMAC, position: int) -> int:
    """``fair_die`` from an HMAC already keyed with the seed (copied, never changed):
    keying it is half the work of a die, and a game rolls hundreds."""
    counter = 0
    while True:
        mac = keyed.copy()
        mac.update(f"{position}:{counter}".encode())
        for byte in mac.digest():
            if byte < 252:
                return byte % 6 + 1
        counter += 1


class FairDice:
    """The game's fair stream: every die is a function of the secret seed and its position."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self._keyed: tuple[bytes, hmac.HMAC] | None = None  # made at the first roll

    def __getstate__(self) -> dict[str, bytes]:
        return {"seed": self.seed}  # an HMAC object neither pickles nor copies

    def __setstate__(self, state: dict[str, bytes]) -> None:
        self.seed = state["seed"]
        self._keyed = None

    @classmethod
    def new(cls) -> FairDice:
        return cls(secrets.token_bytes(32))

    @property
    def commitment(self) -> str:
        """Published at game start; the seed is revealed at the end."""
        return commitment(self.seed)

    def roll(self, position: int, purpose: str) -> int:
        keyed = self._keyed
        if keyed is None or keyed[0] is not self.seed:  # the first roll, or a new seed
            keyed = self._keyed = (self.seed, hmac.new(self.seed, digestmod=hashlib.sha256))
        return _fair_die(keyed[1], position)


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


WORD_MAX = 32  # characters of a player's word: enough entropy, short enough to read out


def clean_word(word: str) -> str:
    """A player's entropy word as stored and mixed: NFC, trimmed; ``ValueError`` if empty,
    too long, or holding a control character (a newline would make the mix ambiguous)."""
    cleaned = unicodedata.normalize("NFC", word).strip()
    if not cleaned or len(cleaned) > WORD_MAX or not cleaned.isprintable():
        raise ValueError("a word is 1 to 32 printable characters")
    return cleaned


def draw_word() -> str:
    """A word the bot draws for a player who gives none: 8 random letters."""
    return "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(8))


def dice_key(seed: bytes, words: Mapping[str, str] | None = None) -> bytes:
    """The key the game's dice are drawn with: the committed seed, mixed with the players'
    words (side name -> word) given after the commitment was published.

    Without words the key is the seed itself, so games from before words existed keep
    their dice. With words: HMAC-SHA256(seed, "north=<word>\nsouth=<word>"), one line per
    side that gave a word, sorted by side name, UTF-8.
    """
    if not words:
        return seed
    message = "\n".join(f"{side}={words[side]}" for side in sorted(words))
    return hmac.new(seed, message.encode(), hashlib.sha256).digest()


def verify(
    seed: bytes,
    published: str,
    dice: Iterable[Die],
    first: int = 0,
    words: Mapping[str, str] | None = None,
) -> list[Die]:
    """Recompute every recorded die from the revealed seed; returns the ones that are wrong.

    ``dice`` is the log's dice in order, from position ``first``. A die is wrong if its value
    is not the seed's, or if its position is out of sequence: a skipped or repeated position
    would let whoever rolls discard an unwelcome die and take the next.
    ``words`` are the players' words from the log (see ``dice_key``).
    Raises ``ValueError`` if the seed does not match the hash published at the start.
    """
    if not hmac.compare_digest(commitment(seed), published):
        raise ValueError("the revealed seed does not match the published hash")
    key = dice_key(seed, words)
    wrong: list[Die] = []
    expected = first
    for die in dice:
        if die.position != expected or fair_die(key, die.position) != die.value:
            wrong.append(die)
        expected = max(expected, die.position + 1)
    return wrong
