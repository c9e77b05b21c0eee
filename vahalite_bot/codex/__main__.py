"""``python -m vahalite_bot.codex``: check the codexes, show a ready-made army, run balance.

    check [--homebrew DIR]           validate every faction file; last line
                                     "factions=8 sheets=N errors=0"; exit 1 on any error
    show FACTION [LIST] [--lang ru]  print a ready-made army in the army list format
    balance --games N --seed S       greedy-vs-greedy self-play between the ready-made lists
                                     (--players hard,hard: the search player instead,
                                     --budget-ms 50 --budget-clock cpu: its thinking time)
                                     (--suggest: the next tuning step's points)

The homebrew folder defaults to the environment variable VAHALITE_HOMEBREW_DIR.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from vahalite_bot.codex.army import Army
from vahalite_bot.codex.armylist import format_army
from vahalite_bot.codex.loader import (
    HOMEBREW_ENV,
    all_sheets,
    codex_factions,
    codex_paths,
    read_factions,
)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m vahalite_bot.codex", description="Vaha-Lite codexes."
    )
    parser.add_argument(
        "--homebrew",
        type=Path,
        default=os.environ.get(HOMEBREW_ENV) or None,
        help=f"a folder of extra faction files (default: ${HOMEBREW_ENV})",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="validate every faction file")
    show = commands.add_parser("show", help="print a ready-made army")
    show.add_argument("faction")
    show.add_argument("list", nargs="?", default="750")
    show.add_argument("--lang", choices=("ru", "en"), default="ru")
    balance = commands.add_parser("balance", help="self-play between the ready-made lists")
    balance.add_argument("--games", type=int, default=2000)
    balance.add_argument("--seed", type=int, default=1)
    balance.add_argument("--list", default="750", help="the ready-made list (default 750)")
    balance.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    balance.add_argument(
        "--players",
        type=_players,
        default=("greedy", "greedy"),
        help="the automatic players, south,north (default greedy,greedy; hard thinks 50 ms)",
    )
    balance.add_argument(
        "--budget-ms",
        type=float,
        help="the hard player's time per decision (default: its own, 50 ms)",
    )
    balance.add_argument(
        "--budget-clock",
        choices=("wall", "cpu"),
        default="wall",
        help="measure that time in wall time (default) or in the process's CPU time",
    )
    balance.add_argument("--markdown", action="store_true", help="tables in Markdown")
    balance.add_argument(
        "--suggest",
        action="store_true",
        help="also print the points the tuning step of docs/balance.md would give",
    )
    return parser.parse_args(argv)


def _players(text: str) -> tuple[str, str]:
    from vahalite_bot.selfplay.cli import player_pair  # only balance needs the players

    return player_pair(text)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.homebrew is not None and not args.homebrew.is_dir():
        print(f"homebrew folder {args.homebrew} does not exist", file=sys.stderr)
        return 2
    if args.command == "check":
        return check(args.homebrew)
    if args.command == "show":
        return show(args.homebrew, args.faction, args.list, args.lang)
    return balance(args)


def check(homebrew: Path | None) -> int:
    paths = codex_paths(homebrew)
    factions, errors = read_factions(paths)
    for error in errors:
        print(f"ERROR {error}")
    for faction in factions.values():
        lists = ", ".join(faction.lists) or "none"
        print(f"ok    {faction.id}: {len(faction.sheets)} sheets, ready-made lists: {lists}")
    sheets = sum(len(f.sheets) for f in factions.values())
    print(f"factions={len(factions)} sheets={sheets} errors={len(errors)}")
    return 1 if errors else 0


def show(homebrew: Path | None, faction_id: str, list_name: str, lang: str) -> int:
    factions = codex_factions(homebrew)
    faction = factions.get(faction_id)
    if faction is None or list_name not in faction.lists:
        known = ", ".join(f"{f.id} ({'/'.join(f.lists)})" for f in factions.values())
        print(f"no list {list_name!r} of {faction_id!r}; there are: {known}", file=sys.stderr)
        return 2
    print(format_army(Army.ready_made(faction, list_name), factions, lang))
    return 0


def balance(args: argparse.Namespace) -> int:
    # Imported here: only this command needs the self-play players.
    from vahalite_bot.codex.balance import Report, RunSettings, run, suggested_points

    settings = RunSettings(
        args.games,
        args.seed,
        args.list,
        players=args.players,
        homebrew=args.homebrew,
        budget_clock=args.budget_clock,
        **({} if args.budget_ms is None else {"budget_ms": args.budget_ms}),
    )
    started = time.perf_counter()

    def progress(done: int) -> None:
        if done % 200 < 8 or done == settings.games:
            print(f"... {done}/{settings.games} games", file=sys.stderr)

    results = run(settings, jobs=args.jobs, progress=progress)
    report = Report.of(settings, results)
    for line in report.lines(markdown=args.markdown):
        print(line)
    if args.suggest:
        sheets = all_sheets(codex_factions(args.homebrew))
        print("")
        print("suggested points (edit the faction files, then refit the ready-made lists):")
        for sheet_id, (now, suggested) in sorted(suggested_points(report, sheets).items()):
            print(f"  {sheet_id}: {now} -> {suggested}")
    elapsed = time.perf_counter() - started
    print(f"{len(results)} games in {elapsed:.0f} s", file=sys.stderr)
    return 0 if report.unfinished == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
