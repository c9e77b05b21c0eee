"""The ``vahalite`` command group (click): the options every subcommand shares, and the
subcommands. Those that have parsers of their own receive their arguments untouched."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

import click

from vahalite_bot.cli import logs, paths
from vahalite_bot.cli.common import Common, Mode

# A subcommand that hands everything after its name, --help included, to its own parser.
PASS_THROUGH = {"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []}


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--config",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar=paths.CONFIG_ENV,
    help="settings file [env VAHALITE_CONFIG; default: config.toml of the checkout, else the "
    "user's config folder]",
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar=paths.DATA_ENV,
    help="the database, board images and small files [env VAHALITE_DATA_DIR; config [paths] "
    "data_dir; default: data/ of the checkout, else the user's data folder]",
)
@click.option(
    "--log-level",
    type=click.Choice(logs.LEVELS, case_sensitive=False),
    help="[env VAHALITE_LOG_LEVEL; config [logging] level; default info]",
)
@click.option(
    "--log-format",
    type=click.Choice(logs.FORMATS),
    help="text, or one JSON object a line [env VAHALITE_LOG_FORMAT; default text]",
)
@click.pass_context
def cli(
    ctx: click.Context,
    config: Path | None,
    data_dir: Path | None,
    log_level: str | None,
    log_format: str | None,
) -> None:
    """Vaha-Lite: the Discord bot, the game in the terminal, and their administration."""
    ctx.obj = Common(config, data_dir, log_level, log_format)


def _passing(name: str, help_text: str, run: Callable[[Common, list[str]], int]) -> None:
    @cli.command(name, context_settings=PASS_THROUGH, add_help_option=False, help=help_text)
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    @click.pass_obj
    def command(common: Common, args: Sequence[str]) -> None:
        raise SystemExit(run(common, list(args)))


def _run(common: Common, args: list[str]) -> int:
    from vahalite_bot.cli.start import main

    return main(args, common, Mode.BOT, prog="vahalite run")


def _console(common: Common, args: list[str]) -> int:
    from vahalite_bot.cli.start import main

    return main(args, common, Mode.CONSOLE, prog="vahalite console")


def _verify(common: Common, args: list[str]) -> int:
    from vahalite_bot.verify.__main__ import main

    return main(args)


def _selfplay(common: Common, args: list[str]) -> int:
    from vahalite_bot.selfplay.cli import main

    return main(args)


def _codex(common: Common, args: list[str]) -> int:
    from vahalite_bot.codex.__main__ import main

    return main(args)


_passing("run", "Run the Discord bot (options: vahalite run --help).", _run)
_passing("console", "Play in the terminal (options: vahalite console --help).", _console)
_passing("verify", "Check every die of an exported game log: verify FILE.", _verify)
_passing("selfplay", "Play many games between automatic players.", _selfplay)
_passing("codex", "Check the codexes, show an army, run balance.", _codex)


@cli.group()
def db() -> None:
    """The database: upgrade, current, backup, restore."""


@db.command()
@click.option("--db", "url", metavar="URL", help="database URL (default: the configured one)")
@click.pass_obj
def upgrade(common: Common, url: str | None) -> None:
    """Migrate the database to this version's schema (the bot also does it at start)."""
    from vahalite_bot.cli import database

    raise SystemExit(asyncio.run(database.upgrade(database.url_of(common, url))))


@db.command()
@click.option("--db", "url", metavar="URL", help="database URL (default: the configured one)")
@click.pass_obj
def current(common: Common, url: str | None) -> None:
    """Print the database's schema revision and this version's."""
    from vahalite_bot.cli import database

    raise SystemExit(asyncio.run(database.current(database.url_of(common, url))))


@db.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--db", "url", metavar="URL", help="database URL (default: the configured one)")
@click.pass_obj
def backup(common: Common, file: Path, url: str | None) -> None:
    """Copy the database into FILE, consistently, while the bot runs."""
    from vahalite_bot.cli import database

    raise SystemExit(database.backup(database.url_of(common, url), file))


@db.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--db", "url", metavar="URL", help="database URL (default: the configured one)")
@click.pass_obj
def restore(common: Common, file: Path, url: str | None) -> None:
    """Replace the database with the backup FILE (refused while a bot uses the database)."""
    from vahalite_bot.cli import database

    raise SystemExit(database.restore(database.url_of(common, url), file))


@cli.group()
def commands() -> None:
    """The bot's slash commands on Discord: sync, clear."""


GUILD = click.option(
    "--guild", type=int, metavar="ID", help="one server only (at once, for testing)"
)


@commands.command()
@GUILD
@click.pass_obj
def sync(common: Common, guild: int | None) -> None:
    """Send the slash commands to Discord: everywhere (up to an hour to show), or to one
    server at once (--guild)."""
    from vahalite_bot.cli import slash

    raise SystemExit(slash.main(common, guild, clear=False))


@commands.command()
@GUILD
@click.pass_obj
def clear(common: Common, guild: int | None) -> None:
    """Remove the slash commands: everywhere, or one server's (--guild)."""
    from vahalite_bot.cli import slash

    raise SystemExit(slash.main(common, guild, clear=True))


@cli.command()
@click.pass_obj
def doctor(common: Common) -> None:
    """Check the config, the token, Discord, the database, the data folder and the workers."""
    from vahalite_bot.cli.doctor import main as check

    raise SystemExit(check(common))


def main(argv: Sequence[str] | None = None) -> None:
    cli.main(args=None if argv is None else list(argv))
