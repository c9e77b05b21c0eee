"""Counting a run of games: results, game lengths, speed; and the lines that report them."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field

from vahalite_bot.rules.events import GameEnded
from vahalite_bot.rules.scenario import Side
from vahalite_bot.selfplay.game import GameRecord


@dataclass
class RunStats:
    players: dict[Side, str]
    games: int = 0
    finished: int = 0
    errors: int = 0
    results: Counter[Side | None] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    actions: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)

    def add(self, record: GameRecord) -> None:
        self.games += 1
        self.actions.append(len(record.actions))
        if not record.finished:
            return
        self.finished += 1
        self.rounds.append(record.final.round)
        self.results[record.final.winner] += 1
        end = record.events[-1]
        self.reasons[end.reason if isinstance(end, GameEnded) else "?"] += 1

    def add_error(self) -> None:
        self.games += 1
        self.errors += 1

    @property
    def ok(self) -> bool:
        return self.errors == 0 and self.finished == self.games

    def lines(self, seconds: float) -> list[str]:
        """The report; only the last line's games_per_s depends on anything but the seed."""
        lines = [
            f"players: south={self.players[Side.SOUTH]} north={self.players[Side.NORTH]}",
            f"actions per game (setup included): {_spread(self.actions)}",
            f"rounds played: {_spread(self.rounds)}; {_histogram(self.rounds)}",
            "game ends: " + " ".join(f"{k}={v}" for k, v in sorted(self.reasons.items())),
        ]
        if self.players[Side.SOUTH] != self.players[Side.NORTH]:
            wins = Counter({name: 0 for name in self.players.values()})
            for side, name in self.players.items():
                wins[name] += self.results[side]
            rate = " ".join(
                f"{name}={n} ({100 * n / max(1, self.finished):.1f}%)" for name, n in wins.items()
            )
            lines.append(f"wins by player: {rate}")
        rate_per_s = self.games / seconds if seconds > 0 else float("inf")
        mean = statistics.fmean(self.actions) if self.actions else 0.0
        lines.append(
            f"games={self.games} finished={self.finished} errors={self.errors}"
            f" south_wins={self.results[Side.SOUTH]} north_wins={self.results[Side.NORTH]}"
            f" draws={self.results[None]} games_per_s={rate_per_s:.1f} mean_actions={mean:.1f}"
        )
        return lines


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
