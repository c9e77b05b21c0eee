"""Vaha-Lite bot entry point: reads the settings, then runs the Discord bot or the console.

Settings, each overriding the one before: the defaults, ``config.toml`` (see
``config.example.toml``), the environment (``VAHALITE_DISCORD_TOKEN``,
``VAHALITE_DATABASE_URL``, ``VAHALITE_LANG``), the command line.
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vahalite_bot.codex.loader import HOMEBREW_ENV
from vahalite_bot.console import ConsoleOptions, run_console
from vahalite_bot.console.seats import AUTO_PLAYERS
from vahalite_bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, translate
from vahalite_bot.store.database import DEFAULT_URL, URL_ENV

CONFIG_FILE = Path("config.toml")


@dataclass(frozen=True)
class Settings:
    token: str
    database_url: str
    language: str
    deadline_hours: int
    missed_turns_forfeit: int
    homebrew: Path | None  # a folder of extra faction files (CODEX homebrew)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Run the Vaha-Lite bot: on Discord with a token, else a game in the terminal."
    )
    parser.add_argument(
        "--console", action="store_true", help="play in the terminal even if a token is set"
    )
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=None, help="message language (default: config)"
    )
    parser.add_argument(
        "--vs",
        choices=AUTO_PLAYERS,
        default=None,
        help="play South against the automatic player (default: two players, hot-seat)",
    )
    parser.add_argument("--db", default=None, metavar="URL", help="database URL (SQLAlchemy)")
    parser.add_argument(
        "--new", action="store_true", help="close the unfinished game, if any, and start anew"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="testing aid: derive the dice of new games from this number (default: a fresh "
        "secret seed per game)",
    )
    parser.add_argument(
        "--config", type=Path, default=CONFIG_FILE, help="settings file (default: config.toml)"
    )
    return parser.parse_args(argv)


def read_config(path: Path) -> dict[str, Any]:
    """The settings file, or nothing if there is none."""
    if not path.is_file():
        return {}
    with path.open("rb") as file:
        return tomllib.load(file)


def settings(
    config: Mapping[str, Any], env: Mapping[str, str], args: argparse.Namespace
) -> Settings:
    discord = config.get("discord", {})
    database = config.get("database", {})
    game = config.get("game", {})
    homebrew = env.get(HOMEBREW_ENV) or config.get("codex", {}).get("homebrew_dir") or None
    url = args.db or env.get(URL_ENV) or database.get("url") or DEFAULT_URL
    language = args.lang or env.get("VAHALITE_LANG") or game.get("language") or DEFAULT_LANGUAGE
    if language not in LANGUAGES:
        raise SystemExit(f"unknown language {language!r}: one of {', '.join(LANGUAGES)}")
    return Settings(
        token=env.get("VAHALITE_DISCORD_TOKEN") or discord.get("token") or "",
        database_url=url,
        language=language,
        deadline_hours=int(game.get("default_deadline_hours", 48)),
        missed_turns_forfeit=int(game.get("missed_turns_forfeit", 3)),
        homebrew=None if homebrew is None else Path(homebrew),
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    chosen = settings(read_config(args.config), os.environ, args)
    if chosen.token and not args.console:
        # The Discord adapter is a later issue: until then a token changes nothing.
        print(translate(chosen.language, "console-discord-unavailable"))
    options = ConsoleOptions(
        lang=chosen.language,
        database_url=chosen.database_url,
        vs=args.vs,
        new=args.new,
        seed=args.seed,
        deadline_hours=chosen.deadline_hours,
        missed_turns_forfeit=chosen.missed_turns_forfeit,
        homebrew=chosen.homebrew,
    )
    return run_console(options)


if __name__ == "__main__":
    sys.exit(main())
