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
from vahalite_bot.discord import DiscordOptions, run_discord
from vahalite_bot.discord.options import DISCORD_API
from vahalite_bot.i18n import DEFAULT_LANGUAGE, LANGUAGES
from vahalite_bot.selfplay.levels import THINK_MS
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
    discord: Mapping[str, Any]  # the [discord] table: api_base, gateway, workers, shards...
    think_ms: float = THINK_MS  # [game] bot_think_ms: the hard bot's time per decision


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
        help="play South against the automatic player: easy, normal (greedy is another name "
        "for it) or hard (default: two players, hot-seat)",
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
    parser.add_argument(
        "--shard-ids",
        default=None,
        metavar="0,1",
        help="Discord shards this process serves (default: all, or [discord] shard_ids)",
    )
    parser.add_argument(
        "--shard-count", type=int, default=None, help="the total number of Discord shards"
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
        discord=discord,
        think_ms=float(game.get("bot_think_ms", THINK_MS)),
    )


def discord_options(chosen: Settings, args: argparse.Namespace) -> DiscordOptions:
    """The bot's options: the [discord] table, then the command line."""
    table = chosen.discord
    shard_ids = args.shard_ids if args.shard_ids is not None else table.get("shard_ids")
    if isinstance(shard_ids, str):
        shard_ids = [int(part) for part in shard_ids.split(",") if part.strip()]
    shard_count = args.shard_count if args.shard_count is not None else table.get("shard_count")
    if shard_ids is not None and shard_count is None:
        raise SystemExit("--shard-ids needs --shard-count (or [discord] shard_count)")
    data = Path(table.get("data_dir", "data"))
    return DiscordOptions(
        token=chosen.token,
        database_url=chosen.database_url,
        language=chosen.language,
        deadline_hours=chosen.deadline_hours,
        missed_turns_forfeit=chosen.missed_turns_forfeit,
        homebrew=chosen.homebrew,
        api_base=str(table.get("api_base", DISCORD_API)),
        gateway=table.get("gateway"),
        message_content=bool(table.get("message_content", True)),
        workers=int(table.get("workers", 2)),
        deadline_tick=float(table.get("deadline_tick", 30)),
        shard_ids=None if shard_ids is None else tuple(int(s) for s in shard_ids),
        shard_count=None if shard_count is None else int(shard_count),
        stall_file=Path(table["stall_file"]) if table.get("stall_file") else None,
        sync_file=data / "discord-commands.sha256",
        think_ms=chosen.think_ms,
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    chosen = settings(read_config(args.config), os.environ, args)
    if chosen.token and not args.console:
        return run_discord(discord_options(chosen, args))
    options = ConsoleOptions(
        lang=chosen.language,
        database_url=chosen.database_url,
        vs=args.vs,
        new=args.new,
        seed=args.seed,
        deadline_hours=chosen.deadline_hours,
        missed_turns_forfeit=chosen.missed_turns_forfeit,
        homebrew=chosen.homebrew,
        think_ms=chosen.think_ms,
    )
    return run_console(options)


if __name__ == "__main__":
    sys.exit(main())
