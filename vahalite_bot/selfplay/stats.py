"""Counting a run of games: results, game lengths, speed; and the lines that report them."""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from vahalite_bot.rules.events import GameEnded
from vahalite_bot.rules.scenario import Side
from vahalite_bot.selfplay.game import GameRecord

Z95 = 1.959964  # the normal quantile of a two-sided 95 % interval


@dataclass
class RunStats:
    players: dict[Side, str]
    swapped: bool = False  # the seats change every game (--codex)
    games: int = 0
    finished: int = 0
    errors: int = 0
    results: Counter[Side | None] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    actions: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    wins: Counter[str] = field(default_factory=Counter)
    # By who took the first turn (the roll-off's winner), each player's games and points.
    games_first: Counter[str] = field(default_factory=Counter)
    points_first: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    games_second: Counter[str] = field(default_factory=Counter)
    points_second: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))

    def add(self, record: GameRecord, seats: dict[Side, str] | None = None) -> None:
        self.games += 1
        self.actions.append(len(record.actions))
        if not record.finished:
            return
        self.finished += 1
        self.rounds.append(record.final.round)
        self.results[record.final.winner] += 1
        winner = record.final.winner
        names = seats or self.players
        if winner is not None:
            self.wins[names[winner]] += 1
        first = record.final.first_player
        for side, name in names.items():
            points = 0.5 if winner is None else float(winner is side)
            games, scored = (
                (self.games_first, self.points_first)
                if side is first
                else (self.games_second, self.points_second)
            )
            games[name] += 1
            scored[name] += points
        end = record.events[-1]
        self.reasons[end.reason if isinstance(end, GameEnded) else "?"] += 1

    def add_error(self) -> None:
        self.games += 1
        self.errors += 1

    @property
    def ok(self) -> bool:
        return self.errors == 0 and self.finished == self.games

    def _score_line(self, name: str) -> str:
        """The first player's score (a draw counts half) with its 95 % interval."""
        points = self.wins[name] + self.results[None] / 2
        low, high = wilson(points, self.finished)
        share = points / max(1, self.finished)
        return (
            f"score of {name}: {100 * share:.1f}% of {self.finished} games, draws half"
            f" (95% interval {100 * low:.1f}-{100 * high:.1f}%)"
        )

    def _seat_line(self, name: str) -> str:
        """The first player's score split by who took the first turn."""
        parts = []
        for label, games, points in (
            ("moving first", self.games_first, self.points_first),
            ("moving second", self.games_second, self.points_second),
        ):
            low, high = wilson(points[name], games[name])
            share = points[name] / max(1, games[name])
            parts.append(
                f"{label} {100 * share:.1f}% of {games[name]} ({100 * low:.1f}-{100 * high:.1f}%)"
            )
        return f"score of {name} by seat: " + ", ".join(parts)

    def lines(self, seconds: float, extra: list[str] | None = None) -> list[str]:
        """The report; only ``extra`` (the search's timing) and the last line's games_per_s
        depend on anything but the seed."""
        swapped = " (seats swapped every game)" if self.swapped else ""
        lines = [
            f"players: south={self.players[Side.SOUTH]} north={self.players[Side.NORTH]}{swapped}",
            f"actions per game (setup included): {_spread(self.actions)}",
            f"rounds played: {_spread(self.rounds)}; {_histogram(self.rounds)}",
            "game ends: " + " ".join(f"{k}={v}" for k, v in sorted(self.reasons.items())),
        ]
        if self.players[Side.SOUTH] != self.players[Side.NORTH]:
            names = list(self.players.values())
            rate = " ".join(
                f"{name}={self.wins[name]} ({100 * self.wins[name] / max(1, self.finished):.1f}%)"
                for name in names
            )
            lines.append(f"wins by player: {rate}")
            lines.append(self._score_line(names[0]))
            lines.append(self._seat_line(names[0]))
        lines.extend(extra or [])
        rate_per_s = self.games / seconds if seconds > 0 else float("inf")
        mean = statistics.fmean(self.actions) if self.actions else 0.0
        lines.append(
            f"games={self.games} finished={self.finished} errors={self.errors}"
            f" south_wins={self.results[Side.SOUTH]} north_wins={self.results[Side.NORTH]}"
            f" draws={self.results[None]} games_per_s={rate_per_s:.1f} mean_actions={mean:.1f}"
        )
        return lines


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _spread(values: list[int]) -> str:
    if not values:
        return "none"
    return (
        f"min={min(values)} median={statistics.median(values):g} max={max(values)}"
        f" mean={statistics.fmean(values):.1f}"
    )


def _histogram(values: list[int]) -> str:
    counts = Counter(values)
    return " ".join(f"{key}:{counts[key]}" for key in sorted(counts))
