"""Self-play over scenarios and house rules: ``python -m benchmarks.selfplay``.

Two measurements, as issue 13 asks:

- **Balance and soundness** (``--games``, default 1000, in ``--jobs`` processes): for every
  configuration, that many complete greedy-vs-greedy games, each checked after every action
  (``selfplay.invariants.state_problems``) and at its end (log and replay checks). Reports
  errors, invariant breaks, south/north/draw %, mean rounds and actions. The games are
  reproducible from ``--seed``: the same run gives the same table.
- **Speed** (``--speed-games``, default 200, ``--runs`` times, one process, no checks):
  games per second, the median of the runs and each run.

Configurations: every scenario of ``boards/`` with no house rules, then the standard board
with each house rule alone and with all of them (``--only scenarios|house`` narrows it).
``--markdown`` prints the tables as they appear in ``docs/balance.md``.
"""

from __future__ import annotations

import argparse
import statistics
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from vahalite_bot.rules.actions import Action
from vahalite_bot.rules.events import Event
from vahalite_bot.rules.house import HouseRule, house_rules_label
from vahalite_bot.rules.scenario import Scenario, Side
from vahalite_bot.rules.state import GameState
from vahalite_bot.scenarios import shipped_scenarios
from vahalite_bot.selfplay.game import game_seed, play_game
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.selfplay.invariants import game_problems, state_problems
from vahalite_bot.selfplay.players import Player


@dataclass(frozen=True)
class Config:
    """One row of a table: a scenario and a set of house rules."""

    label: str
    scenario: str
    house: frozenset[HouseRule]


@dataclass(frozen=True)
class Outcome:
    """One game, as the tables count it."""

    winner: Side | None
    finished: bool
    rounds: int
    actions: int
    error: str | None = None
    broken: str | None = None


@dataclass
class Tally:
    games: int = 0
    errors: int = 0
    broken: int = 0
    unfinished: int = 0
    results: Counter[Side | None] = field(default_factory=Counter)
    rounds: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    first_problems: list[str] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        self.games += 1
        problem = outcome.error or outcome.broken
        if problem is not None:
            self.errors += outcome.error is not None
            self.broken += outcome.broken is not None
            if len(self.first_problems) < 3:
                self.first_problems.append(problem)
            return
        if not outcome.finished:
            self.unfinished += 1
            return
        self.results[outcome.winner] += 1
        self.rounds.append(outcome.rounds)
        self.actions.append(outcome.actions)

    def percent(self, side: Side | None) -> float:
        played = sum(self.results.values())
        return 100 * self.results[side] / played if played else 0.0


class InvariantBroken(AssertionError):
    pass


def configs(only: str | None) -> list[Config]:
    found: list[Config] = []
    if only in (None, "scenarios"):
        found += [Config(sid, sid, frozenset()) for sid in shipped_scenarios()]
    if only in (None, "house"):
        found.append(Config("none", "standard", frozenset()))
        found += [Config(rule.value, "standard", frozenset({rule})) for rule in HouseRule]
        found.append(Config("all (M1-M9)", "standard", frozenset(HouseRule)))
    return found


def _players() -> dict[Side, Player]:
    return {side: GreedyPlayer() for side in Side}


def _check_each(state: GameState, action: Action, events: list[Event]) -> None:
    problems = state_problems(state)
    if problems:
        raise InvariantBroken("; ".join(problems))


def play_checked(config: Config, run_seed: int, indexes: range) -> list[Outcome]:
    """Play and check games ``indexes`` of a run (a worker's share)."""
    scenario = shipped_scenarios()[config.scenario]
    players = _players()
    outcomes: list[Outcome] = []
    for index in indexes:
        seed = game_seed(run_seed, index)
        try:
            record = play_game(
                players, seed, index, observe=_check_each, house=config.house, scenario=scenario
            )
        except InvariantBroken as broken:
            outcomes.append(Outcome(None, False, 0, 0, broken=f"game {index}: {broken}"))
            continue
        except Exception as error:  # a crash is what this run counts
            trace = traceback.format_exc(limit=3)
            outcomes.append(Outcome(None, False, 0, 0, error=f"game {index}: {error!r}\n{trace}"))
            continue
        problems = game_problems(record)
        final = record.final
        outcomes.append(
            Outcome(
                final.winner,
                record.finished,
                final.round,
                len(record.actions),
                broken=f"game {index}: {'; '.join(problems)}" if problems else None,
            )
        )
    return outcomes


def _shares(games: int, jobs: int) -> Iterator[range]:
    size = -(-games // jobs)
    for start in range(0, games, size):
        yield range(start, min(games, start + size))


def balance(config: Config, games: int, seed: int, jobs: int) -> Tally:
    tally = Tally()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play_checked, config, seed, share) for share in _shares(games, jobs)]
        for future in futures:
            for outcome in future.result():
                tally.add(outcome)
    return tally


def speed(config: Config, games: int, seed: int, runs: int) -> list[float]:
    """Games per second of ``runs`` unchecked runs in this process."""
    scenario: Scenario = shipped_scenarios()[config.scenario]
    rates: list[float] = []
    for _ in range(runs):
        players = _players()
        started = time.perf_counter()
        for index in range(games):
            play_game(players, game_seed(seed, index), index, house=config.house, scenario=scenario)
        rates.append(games / (time.perf_counter() - started))
    return rates


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.selfplay", description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="checked games per row")
    parser.add_argument("--speed-games", type=int, default=200, help="games per speed run")
    parser.add_argument("--runs", type=int, default=3, help="speed runs per row (median)")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the checked games")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--only", choices=("scenarios", "house"), default=None)
    parser.add_argument("--markdown", action="store_true")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    header = (
        "| configuration | rules | games | errors | invariant breaks | south win % "
        "| north win % | draw % | mean rounds | mean actions | games/s (median; runs) |"
    )
    print(header if args.markdown else header.replace("|", " ").strip())
    if args.markdown:
        print("|" + " --- |" * 11)
    failed = False
    for config in configs(args.only):
        tally = balance(config, args.games, args.seed, args.jobs) if args.games else Tally()
        rates = speed(config, args.speed_games, args.seed, args.runs) if args.runs else []
        failed |= bool(tally.errors or tally.broken or tally.unfinished)
        cells = [
            config.label,
            house_rules_label(config.house) or "-",
            str(tally.games),
            str(tally.errors),
            str(tally.broken),
            f"{tally.percent(Side.SOUTH):.1f}",
            f"{tally.percent(Side.NORTH):.1f}",
            f"{tally.percent(None):.1f}",
            f"{statistics.fmean(tally.rounds):.2f}" if tally.rounds else "-",
            f"{statistics.fmean(tally.actions):.0f}" if tally.actions else "-",
            (
                f"{statistics.median(rates):.1f} ({' / '.join(f'{r:.1f}' for r in rates)})"
                if rates
                else "-"
            ),
        ]
        print("| " + " | ".join(cells) + " |" if args.markdown else "  ".join(cells), flush=True)
        for problem in tally.first_problems:
            print(f"    {problem}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
