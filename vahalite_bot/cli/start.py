"""Starting the bot or the terminal game: today's options of ``bot.py``, shared by ``vahalite
run``, ``vahalite console`` and ``bot.py`` itself (which keeps its old meaning: the bot with a
token, else the game in the terminal).

Settings, each overriding the one before: the defaults, the config file (see
``config.example.toml``; where it is looked up: ``paths``), the environment
(``VAHALITE_DISCORD_TOKEN``, ``VAHALITE_DATABASE_URL``, ``VAHALITE_LANG``,
``VAHALITE_DATA_DIR``, ``VAHALITE_LOG_LEVEL``, ``VAHALITE_EVENT_LOOP``...), the command line.
"""

from __future__ import annotations

import argparse
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vahalite_bot.cli import logs, paths
from vahalite_bot.cli.common import NO_OPTIONS, Common, Mode
from vahalite_bot.codex.loader import HOMEBREW_ENV
from vahalite_bot.console.seats import AUTO_PLAYERS
from vahalite_bot.discord.eventloop import EVENT_LOOP_ENV, EVENT_LOOPS, UVLOOP
from vahalite_bot.discord.options import DISCORD_API, DiscordOptions
from vahalite_bot.i18n import DEFAULT_LANGUAGE, LANGUAGES
from vahalite_bot.selfplay.levels import THINK_MS
from vahalite_bot.store.database import URL_ENV

TOKEN_ENV = "VAHALITE_DISCORD_TOKEN"
# What ``vahalite run`` says without a token: where to get one and where to put it.
NO_TOKEN = (
    "No Discord bot token. Create an application in the Discord developer portal "
    "(https://discord.com/developers/applications), copy its bot token (Bot -> Reset Token), "
    f'and put it in {{config}} as [discord] token = "..." or in the environment as {TOKEN_ENV}. '
    "docs/discord.md walks through it; `vahalite console` plays in the terminal without one."
)


@dataclass(frozen=True)
class Settings:
    token: str
    database_url: str
    language: str
    deadline_hours: int
    missed_turns_forfeit: int
    homebrew: Path | None  # a folder of extra faction files (CODEX homebrew)
    discord: Mapping[str, Any]  # the [discord] table: api_base, gateway, workers, shards...
    data_dir: Path
    config_file: Path
    log: logs.LogSettings
    think_ms: float = THINK_MS  # [game] bot_think_ms: the hard bot's time per decision
    event_loop: str = UVLOOP  # [discord] event_loop, VAHALITE_EVENT_LOOP: uvloop or asyncio


DESCRIPTIONS = {
    Mode.EITHER: "Run the Vaha-Lite bot: on Discord with a token, else a game in the terminal.",
    Mode.BOT: "Run the Vaha-Lite bot on Discord (the token: [discord] token in the config, or "
    f"{TOKEN_ENV}).",
    Mode.CONSOLE: "Play Vaha-Lite in the terminal, against a friend or the automatic player.",
}


def parser(prog: str | None = None, mode: Mode = Mode.EITHER) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=DESCRIPTIONS[mode])
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
        "--config",
        type=Path,
        default=None,
        help=f"settings file (default: ${paths.CONFIG_ENV}, else config.toml of the checkout "
        "or the user's config folder)",
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
    return parser


def parse_args(
    argv: Sequence[str] | None = None, prog: str | None = None, mode: Mode = Mode.EITHER
) -> argparse.Namespace:
    return parser(prog, mode).parse_args(argv)


def read_config(path: Path) -> dict[str, Any]:
    """The settings file, or nothing if there is none."""
    if not path.is_file():
        return {}
    try:
        with path.open("rb") as file:
            return tomllib.load(file)
    except tomllib.TOMLDecodeError as error:
        raise SystemExit(f"{path}: not valid TOML: {error}") from None


def settings(
    config: Mapping[str, Any],
    env: Mapping[str, str],
    args: argparse.Namespace,
    common: Common = NO_OPTIONS,
) -> Settings:
    discord = config.get("discord", {})
    database = config.get("database", {})
    game = config.get("game", {})
    homebrew = env.get(HOMEBREW_ENV) or config.get("codex", {}).get("homebrew_dir") or None
    data = paths.data_dir(common.data_dir, env, config)
    url = args.db or env.get(URL_ENV) or database.get("url") or paths.sqlite_url(data)
    language = args.lang or env.get("VAHALITE_LANG") or game.get("language") or DEFAULT_LANGUAGE
    if language not in LANGUAGES:
        raise SystemExit(f"unknown language {language!r}: one of {', '.join(LANGUAGES)}")
    event_loop = env.get(EVENT_LOOP_ENV) or discord.get("event_loop") or UVLOOP
    if event_loop not in EVENT_LOOPS:
        raise SystemExit(f"unknown event loop {event_loop!r}: one of {', '.join(EVENT_LOOPS)}")
    return Settings(
        token=env.get(TOKEN_ENV) or discord.get("token") or "",
        database_url=url,
        language=language,
        deadline_hours=int(game.get("default_deadline_hours", 48)),
        missed_turns_forfeit=int(game.get("missed_turns_forfeit", 3)),
        homebrew=None if homebrew is None else Path(homebrew),
        discord=discord,
        data_dir=data,
        config_file=paths.config_path(common.config or args.config, env),
        log=logs.LogSettings.of(
            config.get("logging", {}), env, common.log_level, common.log_format
        ),
        think_ms=float(game.get("bot_think_ms", THINK_MS)),
        event_loop=event_loop,
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
        sync_file=chosen.data_dir / "discord-commands.sha256",
        think_ms=chosen.think_ms,
        event_loop=chosen.event_loop,
    )


def load(
    argv: Sequence[str] | None,
    common: Common = NO_OPTIONS,
    prog: str | None = None,
    mode: Mode = Mode.EITHER,
) -> tuple[argparse.Namespace, Settings]:
    """The parsed command line and the settings it and the config give."""
    args = parse_args(argv, prog, mode)
    config_file = paths.config_path(common.config or args.config, os.environ)
    return args, settings(read_config(config_file), os.environ, args, common)


def main(
    argv: Sequence[str] | None = None,
    common: Common = NO_OPTIONS,
    mode: Mode = Mode.EITHER,
    prog: str | None = None,
) -> int:
    args, chosen = load(argv, common, prog, mode)
    console = mode is Mode.CONSOLE or args.console or (mode is Mode.EITHER and not chosen.token)
    # The terminal game's screen is the player's: only warnings go there, unless asked.
    logs.configure(chosen.log, secrets=(chosen.token,), quiet=console)
    if not console:
        if not chosen.token:
            raise SystemExit(NO_TOKEN.format(config=chosen.config_file))
        from vahalite_bot.discord import run_discord

        return run_discord(discord_options(chosen, args))
    from vahalite_bot.console import ConsoleOptions, run_console

    options = ConsoleOptions(
        lang=chosen.language,
        database_url=chosen.database_url,
        vs=args.vs,
        new=args.new,
        seed=args.seed,
        deadline_hours=chosen.deadline_hours,
        missed_turns_forfeit=chosen.missed_turns_forfeit,
        homebrew=chosen.homebrew,
        started_as=paths.invoked_as(),
        think_ms=chosen.think_ms,
    )
    return run_console(options)
