"""``python -m vahalite_bot.selfplay``: play many complete games and report how they went."""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Callable
from functools import partial
from itertools import product

from vahalite_bot.codex.loader import codex_factions
from vahalite_bot.rules.actions import Action
from vahalite_bot.rules.events import Event
from vahalite_bot.rules.house import HouseRule, parse_house_rules
from vahalite_bot.rules.scenario import Scenario, Side
from vahalite_bot.rules.state import GameState
from vahalite_bot.scenarios import shipped_scenarios
from vahalite_bot.selfplay.decisions import DecisionLog
from vahalite_bot.selfplay.describe import describe
from vahalite_bot.selfplay.game import MAX_ACTIONS, Observer, game_seed, play_game
from vahalite_bot.selfplay.hard import DEFAULT_BUDGET_MS, HardPlayer
from vahalite_bot.selfplay.invariants import game_problems, state_problems
from vahalite_bot.selfplay.levels import NAMES, level_of, make_player
from vahalite_bot.selfplay.players import Player
from vahalite_bot.selfplay.stats import RunStats

PLAYERS: dict[str, Callable[[], Player]] = {name: partial(make_player, name) for name in NAMES}
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


class InvariantBroken(AssertionError):
    pass


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m vahalite_bot.selfplay",
        description="Play complete Vaha-Lite games between automatic players.",
    )
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="run seed (default 1)")
    parser.add_argument(
        "--start", type=int, default=0, help="index of the first game (to replay one alone)"
    )
    parser.add_argument(
        "--players",
        type=player_pair,
        default=("greedy", "greedy"),
        help="south,north among: " + ", ".join(PLAYERS) + " (default greedy,greedy)",
    )
    parser.add_argument(
        "--budget-ms",
        type=float,
        default=DEFAULT_BUDGET_MS,
        help=f"the hard player's thinking time per decision (default {DEFAULT_BUDGET_MS:g})",
    )
    parser.add_argument(
        "--budget-clock",
        choices=CLOCKS,
        default="wall",
        help="measure the budget in wall time (default) or in this process's CPU time, "
        "which other programs on a shared machine do not eat into",
    )
    parser.add_argument(
        "--codex",
        action="store_true",
        help="the eight codex factions' ready-made lists, paired in turn, each deal played "
        "twice with the players' seats swapped (default: the demo factions drawn by seed)",
    )
    parser.add_argument(
        "--house",
        type=_house_rules,
        default=frozenset(),
        help="house rules to switch on, e.g. M2,M7, or 'all' (section M of docs/rules.en.md)",
    )
    parser.add_argument(
        "--scenario",
        type=_scenario,
        default=None,
        help=f"a scenario of boards/ by id: {', '.join(shipped_scenarios())} (default standard)",
    )
    parser.add_argument("--verbose", action="store_true", help="print every action and event")
    parser.add_argument(
        "--check",
        action="store_true",
        help="check the invariants after every action and replay every game (slower)",
    )
    parser.add_argument("--max-actions", type=int, default=MAX_ACTIONS, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def player_pair(text: str) -> tuple[str, str]:
    """``south,north``: two known player names (an argparse type)."""
    names = tuple(part.strip() for part in text.split(","))
    if len(names) != 2 or any(n not in PLAYERS for n in names):
        raise argparse.ArgumentTypeError(f"expected two of {', '.join(PLAYERS)}, got {text!r}")
    return names[0], names[1]


def _house_rules(text: str) -> frozenset[HouseRule]:
    if text.strip().lower() == "all":
        return frozenset(HouseRule)
    try:
        return parse_house_rules(text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected ids among M1-M9 or 'all', got {text!r}"
        ) from None


def _scenario(text: str) -> Scenario:
    known = shipped_scenarios()
    if text not in known:
        raise argparse.ArgumentTypeError(f"expected one of {', '.join(known)}, got {text!r}")
    return known[text]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    names = dict(zip(Side, args.players, strict=True))
    # One player object per name for the whole run: the greedy player's odds cache carries
    # over; their choices depend only on the state and the game's own generator.
    clock = CLOCKS[args.budget_clock]
    made = {name: _player(name, args.budget_ms, clock) for name in set(names.values())}
    logs = [player for player in made.values() if isinstance(player, DecisionLog)]
    stats = RunStats(players=names, swapped=args.codex)
    factions = codex_factions() if args.codex else None
    pairs = [(a, b) for a, b in product(sorted(factions), repeat=2)] if factions else []
    started = time.perf_counter()
    for index in range(args.start, args.start + args.games):
        seats, seed, matchup = _deal(args.seed, index, names, pairs)
        players = {side: made[name] for side, name in seats.items()}
        observers = [_printer(index)] if args.verbose else []
        if args.check:
            observers.append(_checker)
        try:
            record = play_game(
                players,
                seed,
                index,
                observe=_chain(observers),
                max_actions=args.max_actions,
                house=args.house,
                scenario=args.scenario,
                factions=factions,
                matchup=matchup,
            )
            problems = game_problems(record) if args.check else []
            if problems:
                raise InvariantBroken("; ".join(problems))
        except Exception as error:
            stats.add_error()
            print(f"game {index} (seed {args.seed}) failed: {error!r}", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
            continue
        stats.add(record, seats)
        if not record.finished:
            print(
                f"game {index} (seed {args.seed}) passed {args.max_actions} actions",
                file=sys.stderr,
            )
    elapsed = time.perf_counter() - started
    if args.scenario is not None:
        print(f"scenario: {args.scenario.id} ({args.scenario.title('en')})")
    for line in stats.lines(elapsed, [log.line() for log in logs]):
        print(line)
    return 0 if stats.ok else 1


def _player(name: str, budget_ms: float, clock: Callable[[], float]) -> Player:
    """The searching player thinks within the run's budget; the others as registered."""
    if level_of(name) == "hard":
        player = make_player(name, budget_ms, clock)
        assert isinstance(player, HardPlayer)
        return DecisionLog(player)
    return PLAYERS[name]()


def _deal(
    run_seed: int, index: int, names: dict[Side, str], pairs: list[tuple[str, str]]
) -> tuple[dict[Side, str], bytes, dict[Side, str] | None]:
    """Game ``index``'s seats, dice seed and factions. With ``pairs`` (``--codex``) games
    2k and 2k+1 are one deal (match-up and dice seed) with the seats swapped, so neither
    player profits from a lucky deal."""
    if not pairs:
        return names, game_seed(run_seed, index), None
    deal, swap = divmod(index, 2)
    south, north = pairs[deal % len(pairs)]
    seats = {side: names[side.other if swap else side] for side in Side}
    return seats, game_seed(run_seed, deal), {Side.SOUTH: south, Side.NORTH: north}


def _printer(index: int) -> Observer:
    def show(state: GameState, action: Action, events: list[Event]) -> None:
        print(f"[{index}] > {describe(action)}")
        for event in events:
            print(f"[{index}]   {describe(event)}")

    return show


def _checker(state: GameState, action: Action, events: list[Event]) -> None:
    problems = state_problems(state)
    if problems:
        raise InvariantBroken(f"after {describe(action)}: " + "; ".join(problems))


def _chain(observers: list[Observer]) -> Observer | None:
    if not observers:
        return None

    def observe(state: GameState, action: Action, events: list[Event]) -> None:
        for observer in observers:
            observer(state, action, events)

    return observe
