"""Checking an exported log: the commitment, the words, the revealed seed, every die.

Only the file and the dice derivation (``rules.dice``) are used: this is the procedure of
docs/dice.md, written once. Each finding is a ``Problem`` naming a catalogue message, so
the report reads in the player's language.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field

from vahalite_bot.rules.dice import clean_word, commitment, dice_key, fair_die
from vahalite_bot.verify.logfile import LogFile, LoggedDie, LogLine, parse

CREATED, JOINED, REVEALED = "GameCreated", "PlayerJoined", "SeedRevealed"


@dataclass(frozen=True)
class Problem:
    code: str  # a message id in verify.ftl
    args: Mapping[str, int | str] = field(default_factory=dict)


@dataclass(frozen=True)
class CheckedDie:
    seq: int
    die: LoggedDie
    expected: int | None  # the seed's die at that position; None: no seed to compute it


@dataclass(frozen=True)
class Report:
    game: int | None
    commitment: str
    seed: str | None  # hex; None: not revealed yet, so values could not be recomputed
    words: Mapping[str, str]  # side -> word, as mixed into the dice key
    dice: tuple[CheckedDie, ...]
    problems: tuple[Problem, ...]

    @property
    def verified(self) -> bool:
        """Every die recomputed from the revealed seed and found right, nothing else wrong."""
        return self.seed is not None and not self.problems


def check_text(text: str, seed: bytes | None = None) -> Report:
    """Check an exported log given as text; ``seed`` if the file does not reveal it.

    Raises ``LogFileError`` when the text is not an exported log at all."""
    return check_lines(parse(text), seed)


def check_lines(log: LogFile, seed: bytes | None = None) -> Report:
    problems: list[Problem] = []
    _check_sequence(log.lines, problems)
    _check_creation(log, problems)
    words = _words(log.lines, problems)
    seed = _seed(log, seed, problems)
    key = None if seed is None else dice_key(seed, words)
    dice = _check_dice(log.lines, key, problems)
    return Report(
        log.game, log.commitment, None if seed is None else seed.hex(), words, dice, tuple(problems)
    )


def _check_sequence(lines: tuple[LogLine, ...], problems: list[Problem]) -> None:
    """Entries numbered 1, 2, 3 ...: a missing entry could hide a die."""
    for expected, line in enumerate(lines, 1):
        if line.seq != expected:
            problems.append(Problem("verify-seq", {"seq": line.seq, "expected": expected}))
            return


def _check_creation(log: LogFile, problems: list[Problem]) -> None:
    """The first entry is the creation, with the hash that was published then."""
    first = log.lines[0].record if log.lines else {}
    if first.get("type") != CREATED:
        problems.append(Problem("verify-no-creation"))
    elif first.get("commitment") != log.commitment:
        problems.append(Problem("verify-commitment-mismatch"))


def _words(lines: tuple[LogLine, ...], problems: list[Problem]) -> dict[str, str]:
    """The players' words, each given at joining: before any die was rolled."""
    words: dict[str, str] = {}
    rolled = False
    for line in lines:
        record = line.record
        word = record.get("word")
        if record.get("type") == JOINED and word is not None:
            side = str(record.get("side"))
            if rolled:
                problems.append(Problem("verify-late-word", {"seq": line.seq}))
            elif side in words:
                problems.append(Problem("verify-two-words", {"seq": line.seq}))
            elif not isinstance(word, str) or _clean(word) != word:
                problems.append(Problem("verify-bad-word", {"seq": line.seq}))
            else:
                words[side] = word
        rolled = rolled or bool(line.dice)
    return words


def _clean(word: str) -> str | None:
    try:
        return clean_word(word)
    except ValueError:
        return None


def _seed(log: LogFile, given: bytes | None, problems: list[Problem]) -> bytes | None:
    """The revealed seed (from the log, or given), if it matches the published hash."""
    seed = given
    for line in log.lines:
        if line.record.get("type") != REVEALED:
            continue
        try:
            revealed = bytes.fromhex(str(line.record.get("seed")))
        except ValueError:
            problems.append(Problem("verify-bad-seed", {"seq": line.seq}))
            return None
        if seed is not None and seed != revealed:
            problems.append(Problem("verify-two-seeds", {"seq": line.seq}))
            return None
        seed = revealed
    if seed is not None and not hmac.compare_digest(commitment(seed), log.commitment):
        problems.append(Problem("verify-seed-mismatch"))
        return None
    return seed


def _check_dice(
    lines: tuple[LogLine, ...], key: bytes | None, problems: list[Problem]
) -> tuple[CheckedDie, ...]:
    """Positions 0, 1, 2 ... with none skipped or used twice (a skipped position would let
    whoever rolls drop an unwelcome die), each value the key's die at its position."""
    checked: list[CheckedDie] = []
    position = 0
    for line in lines:
        for die in line.dice:
            expected = None if key is None else fair_die(key, die.position)
            checked.append(CheckedDie(line.seq, die, expected))
            args = {"seq": line.seq, "position": die.position, "value": die.value}
            if die.position != position:
                problems.append(Problem("verify-position", {**args, "expected": position}))
            elif expected is not None and die.value != expected:
                problems.append(Problem("verify-wrong-die", {**args, "expected": expected}))
            elif not 1 <= die.value <= 6:
                problems.append(Problem("verify-wrong-die", {**args, "expected": "1-6"}))
            position = max(position, die.position + 1)
    return tuple(checked)
