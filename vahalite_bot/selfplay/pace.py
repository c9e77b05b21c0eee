"""Whether one more step of a budgeted piece of thinking fits in the time left."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Pace:
    """Asked before each step of a loop (a node of the search, a step of a setup play-out,
    a whole play-out among several): is there time ``left`` for one more step as long as
    the longest yet? A step is not cheap enough to start on the last millisecond: one node
    on an 8 x 8 board or one greedy step of a play-out takes several, and a loop that only
    asked whether any time was left ended rare decisions 10-15 ms past the budget. What
    runs before the first question is not a step."""

    left: Callable[[], float]  # seconds
    longest: float = 0.0
    last: float | None = None

    @classmethod
    def unlimited(cls) -> Pace:
        return cls(lambda: float("inf"))

    def fits(self) -> bool:
        now = self.left()
        if now == float("inf"):  # a node limit, or a test: no clock to keep
            return True
        if self.last is not None:
            self.longest = max(self.longest, self.last - now)
        self.last = now
        return now > self.longest
