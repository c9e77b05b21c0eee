"""The one place a die of an attack is judged (E6 with M1, M3, M7, M9).

Rolling and the odds both ask ``DieRule.succeeds``, so they cannot disagree. Every rule here
makes the set of succeeding faces upward closed (a higher face never does worse), so one
number, ``needed``, describes it exactly: the odds and the narration use that number.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

FACES = range(1, 7)


def modified_face(face: int, modifier: int) -> int:
    """Section M: a +1/-1 changes the face before strength is added, kept within 1-6."""
    return min(6, max(1, face + modifier))


@dataclass(frozen=True)
class DieRule:
    strength: int
    defense: int
    modifier: int = 0  # M3 and M9, summed
    natural_one_fails: bool = False  # M1
    natural_six_only: bool = False  # M7: Overwatch

    def __init__(
        self,
        strength: int,
        defense: int,
        modifier: int = 0,
        natural_one_fails: bool = False,
        natural_six_only: bool = False,
    ) -> None:
        # Written out: the generated frozen __init__ sets each field through
        # object.__setattr__, twice as slow, and each die's judge and each odds asked is one.
        self.__dict__.update(
            strength=strength,
            defense=defense,
            modifier=modifier,
            natural_one_fails=natural_one_fails,
            natural_six_only=natural_six_only,
        )

    def succeeds(self, face: int) -> bool:
        if self.natural_one_fails and face == 1:
            return False
        if self.natural_six_only and face != 6:
            return False
        return modified_face(face, self.modifier) + self.strength >= self.defense

    @property
    def needed(self) -> int:
        """The lowest natural d6 that succeeds; 7 or more when none does.

        When none does, the plain E6 gap (Defense - strength) is kept, as narration has
        always shown it ("needs 8").
        """
        return _needed(self)


@lru_cache(maxsize=1024)
def _needed(rule: DieRule) -> int:
    # Players weigh thousands of attacks a game, all with a few dozen distinct rules.
    for face in FACES:
        if rule.succeeds(face):
            return face
    return max(7, rule.defense - rule.strength)
