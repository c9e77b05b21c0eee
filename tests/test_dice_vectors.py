"""K2: known-answer vectors pinning how a die is derived (docs/dice.md publishes the same).

Anyone re-implementing the procedure from docs/dice.md must get these values; a change to
the HMAC message, the key, the rejection of bytes >= 252 or the face mapping fails here.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path

import pytest

from vahalite_bot.rules.dice import clean_word, commitment, dice_key, fair_die

SEED = bytes(range(32))  # 000102...1f
SEED_HEX = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"

# (position, first MAC of "position:0" in hex, die)
VECTORS = [
    (0, "2d664c31ff27713cee9962dc21b2f9134616408329dd3460ed2f5d9e8d2cf1c9", 4),
    (1, "7bb5573220a3490bb421ad2614d845e4a35c019b4c4076638a5af62580a9d729", 4),
    (2, "82514f5810a56f2461b818f73eb3f7627f641265d2e2f9b5e6ca799ffaa1fd38", 5),
    # The first byte (0xfe = 254) is rejected: the die comes from the second (0xbb = 187).
    (22, "febb2a14999cb5d3d0243d2690d75e0a915370c926ec8c64b3172e6babafc3fc", 2),
    # The boundary itself: 0xfb = 251 is the largest byte kept (251 mod 6 + 1 = 6) ...
    (37, "fb6a378a50836e417a77da9add497379c97a5353bab3d9598ba824a1bd0b5bb4", 6),
    (104, "fe1b34ddf56264d76cd07533d2b1001ece96861b711f81e4368cbb3ab6d875d7", 4),
    # Two rejected bytes (0xfe, 0xfd): the die comes from the third (0xa5 = 165).
    # ... and 0xfc = 252 the smallest rejected: the die comes from 0xa3 = 163.
    (442, "fca3dbd17744de20f06eca0ec1f416300db5ca2155645c9ca9732be44a59efa7", 2),
    (11353, "fefda50752e84d675fd094f9c1534dce1aa9277afe5e56ab7f58fd00b7bc56f0", 4),
]
REJECTED = [v for v in VECTORS if bytes.fromhex(v[1])[0] >= 252]
FIRST_TWELVE = [4, 4, 5, 3, 6, 6, 5, 2, 6, 2, 3, 6]

WORDS = {"south": "apple", "north": "волга"}
WORDS_KEY = "7cc015d5230e758fd67a9b0308b3c7bf2b1c0aa31493a0cfb338dedb50b0814f"
WORDS_FIRST_SIX = [4, 6, 5, 6, 5, 6]


def test_commitment_vector() -> None:
    assert SEED.hex() == SEED_HEX
    assert commitment(SEED) == COMMITMENT


@pytest.mark.parametrize(("position", "mac", "die"), VECTORS)
def test_die_vectors(position: int, mac: str, die: int) -> None:
    assert hmac.new(SEED, f"{position}:0".encode(), hashlib.sha256).hexdigest() == mac
    assert fair_die(SEED, position) == die


def test_first_twelve_dice() -> None:
    assert [fair_die(SEED, p) for p in range(12)] == FIRST_TWELVE


def test_rejection_changes_the_vectored_dice() -> None:
    """The vectors above are chosen so that skipping the rejection gives another die."""
    assert [p for p, _, _ in REJECTED] == [22, 104, 442, 11353]
    for _position, mac, die in REJECTED:
        assert bytes.fromhex(mac)[0] % 6 + 1 != die


@pytest.mark.parametrize("boundary", [251, 253])
def test_the_boundary_vectors_pin_252(boundary: int) -> None:
    """Moving the rejection one byte either way changes a published die: 251 would reject
    position 37's 0xfb (giving 0x6a's 5), 253 would keep position 442's 0xfc (giving 1)."""

    def die_with(position: int) -> int:
        mac = hmac.new(SEED, f"{position}:0".encode(), hashlib.sha256).digest()
        return next(b % 6 + 1 for b in mac if b < boundary)

    assert [die_with(p) for p, _, _ in VECTORS] != [d for _, _, d in VECTORS]


def test_words_key_vector() -> None:
    key = dice_key(SEED, WORDS)
    assert key.hex() == WORDS_KEY
    assert [fair_die(key, p) for p in range(6)] == WORDS_FIRST_SIX
    # The order the words were given in does not matter: sides are sorted by name.
    assert dice_key(SEED, dict(reversed(WORDS.items()))) == key


def test_no_words_keeps_the_seed() -> None:
    """Games created before words existed keep their dice."""
    assert dice_key(SEED, {}) == SEED
    assert dice_key(SEED, None) == SEED


def test_one_word_changes_the_key() -> None:
    assert dice_key(SEED, {"south": "apple"}) not in (SEED, dice_key(SEED, WORDS))


@pytest.mark.parametrize("word", ["", "   ", "a\nb", "tab\there", "x" * 33])
def test_bad_words_are_refused(word: str) -> None:
    with pytest.raises(ValueError):
        clean_word(word)


def test_words_are_normalised() -> None:
    # "й" as one code point, and as "и" + combining breve: the same word once stored.
    assert clean_word("  мои\u0306  ") == clean_word("мой") == "мой"


DOC = Path(__file__).resolve().parents[1] / "docs" / "dice.md"


def test_docs_publish_the_same_vectors() -> None:
    """docs/dice.md shows these vectors to players: they must be the values the bot uses."""
    text = DOC.read_text(encoding="utf-8")
    assert SEED_HEX in text and COMMITMENT in text and WORDS_KEY in text
    rows = re.findall(r"^\|\s*(\d+)\s*\|\s*`([0-9a-f]{64})`\s*\|\s*(\d)\s*\|", text, re.M)
    assert [(int(p), m, int(d)) for p, m, d in rows] == VECTORS
    assert " ".join(map(str, FIRST_TWELVE)) in text
    assert " ".join(map(str, WORDS_FIRST_SIX)) in text
