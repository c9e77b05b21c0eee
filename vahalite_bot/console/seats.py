"""Who sits at each side of the console game: a person, or the built-in automatic player.

Both sides are players of the service like any other (their ids start with ``console:``).
The automatic player's id names the player (``console:auto:greedy``), so a game resumed
later is played on by the same opponent, whatever the command line says then.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from vahalite_bot.app import Actor
from vahalite_bot.rules.scenario import Side
from vahalite_bot.selfplay import levels
from vahalite_bot.selfplay.players import Player

CHANNEL = "console"
AUTO_PREFIX = "console:auto:"
# The console's owner closes an unfinished game for ``--new`` as the referee would (N2).
OWNER = Actor("console:owner", admin=True)


AUTO_PLAYERS = levels.NAMES


def make_player(name: str, think_ms: float = levels.THINK_MS) -> Player:
    return levels.make_player(name, think_ms)


@dataclass(frozen=True)
class Seats:
    auto: Mapping[Side, str] = field(default_factory=dict)  # side -> automatic player's name

    @classmethod
    def new(cls, vs: str | None) -> Seats:
        """A new game: the person is South (the creator); ``vs`` plays North."""
        return cls({} if vs is None else {Side.NORTH: vs})

    @classmethod
    def of_users(cls, users: Mapping[Side, str]) -> Seats:
        """The seats of a stored game, from its players' ids."""
        return cls(
            {
                side: user.removeprefix(AUTO_PREFIX)
                for side, user in users.items()
                if user.startswith(AUTO_PREFIX) and user.removeprefix(AUTO_PREFIX) in AUTO_PLAYERS
            }
        )

    def user(self, side: Side) -> str:
        name = self.auto.get(side)
        return f"{AUTO_PREFIX}{name}" if name is not None else f"console:{side.value}"

    def actor(self, side: Side) -> Actor:
        return Actor(self.user(side))

    def is_auto(self, side: Side) -> bool:
        return side in self.auto

    @property
    def vs(self) -> str | None:
        return next(iter(self.auto.values()), None)
