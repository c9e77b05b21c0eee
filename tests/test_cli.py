"""The ``vahalite`` command (issue 20): where its files live, what it runs, how it logs."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import platformdirs
import pytest

from vahalite_bot.app import GameService, autoplay
from vahalite_bot.cli import logs, paths
from vahalite_bot.cli.common import Common
from vahalite_bot.cli.start import load
from vahalite_bot.console.options import in_language
from vahalite_bot.discord import eventloop
from vahalite_bot.rules.actions import EndTurn
from vahalite_bot.rules.scenario import Side

ROOT = Path(__file__).resolve().parents[1]


def vahalite(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("VAHALITE_")}
    return subprocess.run(
        [sys.executable, "-m", "vahalite_bot", *args],
        cwd=cwd, env={**base, **(env or {})}, capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip


# -- where files live ------------------------------------------------------------------------
def test_the_data_directory_comes_from_the_flag_the_environment_the_config_or_the_default(
    tmp_path: Path,
) -> None:
    env = {paths.DATA_ENV: str(tmp_path / "env")}
    config = {"paths": {"data_dir": str(tmp_path / "config")}}
    assert paths.data_dir(tmp_path / "flag", env, config) == tmp_path / "flag"
    assert paths.data_dir(None, env, config) == tmp_path / "env"
    assert paths.data_dir(None, {}, config) == tmp_path / "config"
    old = {"discord": {"data_dir": str(tmp_path / "old")}}  # before [paths] existed
    assert paths.data_dir(None, {}, old) == tmp_path / "old"
    assert paths.data_dir(None, {}, {}) == ROOT / "data"  # a checkout's own data/


def test_an_installed_copy_keeps_its_files_in_the_users_folders(tmp_path: Path) -> None:
    installed = tmp_path / "site-packages" / "vahalite_bot"
    installed.mkdir(parents=True)
    assert paths.checkout(installed) is None
    assert paths.default_data_dir(installed) == platformdirs.user_data_path("vahalite")
    assert paths.default_config(installed) == platformdirs.user_config_path("vahalite") / (
        "config.toml"
    )
    assert paths.checkout() == ROOT
    assert paths.default_config() == ROOT / "config.toml"


def test_the_database_and_sync_file_follow_the_data_directory(tmp_path: Path) -> None:
    from vahalite_bot.cli.start import discord_options

    args, chosen = load([], Common(config=tmp_path / "none.toml", data_dir=tmp_path / "d"))
    assert chosen.database_url == f"sqlite+aiosqlite:///{tmp_path / 'd' / 'vahalite.db'}"
    assert discord_options(chosen, args).sync_file == tmp_path / "d" / "discord-commands.sha256"


def test_the_bot_runs_on_uvloop_unless_the_environment_or_the_config_says_asyncio(
    tmp_path: Path,
) -> None:
    from vahalite_bot.cli.start import discord_options, parse_args, settings

    def chosen(config: dict[str, Any], env: dict[str, str]) -> str:
        args = parse_args([])
        return discord_options(settings(config, env, args), args).event_loop

    off = {"discord": {"event_loop": "asyncio"}}
    assert chosen({}, {}) == "uvloop"
    assert chosen(off, {}) == "asyncio"
    assert chosen(off, {eventloop.EVENT_LOOP_ENV: "uvloop"}) == "uvloop"
    assert chosen({}, {eventloop.EVENT_LOOP_ENV: "asyncio"}) == "asyncio"
    with pytest.raises(SystemExit, match="unknown event loop 'trio'"):
        chosen({"discord": {"event_loop": "trio"}}, {})


def test_each_event_loop_name_gives_that_loop() -> None:
    import uvloop

    async def running() -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    for wanted, kind in (("uvloop", uvloop.Loop), ("asyncio", asyncio.BaseEventLoop)):
        name, factory = eventloop.loop_factory(wanted)
        assert name.split()[0] == wanted
        with asyncio.Runner(loop_factory=factory) as runner:
            loop = runner.run(running())
        assert isinstance(loop, kind)
        assert wanted == "uvloop" or not isinstance(loop, uvloop.Loop)
    with pytest.raises(ValueError, match="unknown event loop"):
        eventloop.loop_factory("trio")


def test_the_config_is_looked_up_from_the_flag_then_the_environment(tmp_path: Path) -> None:
    named = tmp_path / "named.toml"
    assert paths.config_path(named, {paths.CONFIG_ENV: "other.toml"}) == named
    assert paths.config_path(None, {paths.CONFIG_ENV: "other.toml"}) == Path("other.toml")
    assert paths.config_path(None, {}) == ROOT / "config.toml"


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["/usr/local/bin/vahalite", "console", "--vs", "greedy"], None),
        ([str(ROOT / "vahalite_bot" / "__main__.py"), "console"], "-m vahalite_bot console"),
        (["bot.py", "--lang", "ru"], "bot.py --lang ru"),
    ],
)
def test_the_start_screen_repeats_the_command_the_player_typed(
    argv: list[str], shown: str | None
) -> None:
    words = paths.invoked_as(argv)
    if shown is None:  # a console script: its name if it is the one on PATH, else its path
        assert words[1:] == ("console", "--vs", "greedy")
        assert words[0] in ("vahalite", "/usr/local/bin/vahalite")
    else:
        assert " ".join(words).endswith(shown)
    assert in_language(("vahalite", "console", "--lang", "ru", "--vs", "greedy"), "en") == (
        "vahalite console --vs greedy --lang en"
    )
    assert in_language(("bot.py", "--lang=en"), "ru") == "bot.py --lang ru"


# -- the command -----------------------------------------------------------------------------
def test_python_m_vahalite_bot_lists_every_subcommand(tmp_path: Path) -> None:
    shown = vahalite("--help", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    for name in ("run", "console", "verify", "selfplay", "codex", "db", "commands", "doctor"):
        assert f"  {name} " in shown.stdout
    db = vahalite("db", "--help", cwd=tmp_path)
    assert all(f"  {n} " in db.stdout for n in ("upgrade", "current", "backup", "restore"))


def test_subcommands_hand_their_options_to_the_parsers_they_always_had(tmp_path: Path) -> None:
    selfplay = vahalite("selfplay", "--help", cwd=tmp_path)
    assert selfplay.returncode == 0 and "--players" in selfplay.stdout
    console = vahalite("console", "--help", cwd=tmp_path)
    assert console.returncode == 0 and "--vs" in console.stdout and "--seed" in console.stdout
    codex = vahalite("codex", "check", cwd=tmp_path)
    assert codex.returncode == 0, codex.stderr
    assert codex.stdout.splitlines()[-1].startswith("factions=8 ")


def test_run_without_a_token_says_how_to_get_one(tmp_path: Path) -> None:
    result = vahalite("--config", str(tmp_path / "none.toml"), "run", cwd=tmp_path)
    assert result.returncode == 1
    assert "developer portal" in result.stderr and "VAHALITE_DISCORD_TOKEN" in result.stderr


def test_db_upgrade_and_current_on_the_data_directory(tmp_path: Path) -> None:
    data = tmp_path / "state"
    env = {paths.DATA_ENV: str(data)}
    # Asking before there is a database says so and makes none.
    early = vahalite(
        "--config", str(tmp_path / "none.toml"), "db", "current", cwd=tmp_path, env=env
    )
    assert early.returncode == 2 and "no database at" in early.stdout, early.stdout
    assert not (data / "vahalite.db").exists()
    upgraded = vahalite(
        "--config", str(tmp_path / "none.toml"), "db", "upgrade", cwd=tmp_path, env=env
    )
    assert upgraded.returncode == 0, upgraded.stderr
    assert (data / "vahalite.db").is_file()
    current = vahalite(
        "--config", str(tmp_path / "none.toml"), "db", "current", cwd=tmp_path, env=env
    )
    from vahalite_bot.store import migrate

    assert current.stdout.splitlines()[0] == (
        f"database: {migrate.head_revision()}; this version: {migrate.head_revision()}"
    )


# -- logs ------------------------------------------------------------------------------------
@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def test_level_and_format_come_from_the_flag_the_environment_then_the_config() -> None:
    table = {"level": "warning", "format": "json"}
    assert logs.LogSettings.of(table, {}) == logs.LogSettings("warning", "json")
    env = {logs.LEVEL_ENV: "DEBUG"}
    assert logs.LogSettings.of(table, env) == logs.LogSettings("debug", "json")
    assert logs.LogSettings.of(table, env, "error", "text") == logs.LogSettings("error", "text")
    with pytest.raises(SystemExit, match="unknown log level"):
        logs.LogSettings.of({"level": "loud"}, {})


TOKEN = "MTE4NDk1MzkxMzU5MzYwMjAyNw.GhWfZx.k3Lq9x2mYbN7vQpR8sTuW1xZaB4cD5eF6gH7iJ"


def test_the_token_never_reaches_the_output_even_in_a_traceback(
    restore_logging: None,
) -> None:
    for fmt in logs.FORMATS:
        out = io.StringIO()
        logs.configure(logs.LogSettings("info", fmt), secrets=["s3cret-token"], stream=out)
        log = logging.getLogger("vahalite_bot.test")
        log.info("connecting with %s", "s3cret-token")
        try:
            raise RuntimeError(f"refused Bot {TOKEN}")
        except RuntimeError:
            log.exception("login failed")
        text = out.getvalue()
        assert "s3cret-token" not in text and TOKEN not in text, text
        assert text.count(logs.HIDDEN) == 2  # in the message, and in the error


async def test_one_info_line_per_command_with_game_verb_outcome_and_ms(
    sqlite_url: str, restore_logging: None
) -> None:
    from vahalite_bot.store.database import open_database

    out = io.StringIO()
    logs.configure(logs.LogSettings("info", "json"), stream=out)
    db = await open_database(sqlite_url)
    try:
        service = GameService(db)
        outcome = await autoplay.new_game(service, "log-channel")
        out.truncate(0)
        out.seek(0)
        with pytest.raises(Exception):  # noqa: B017 - any refusal: the line says which
            await service.act(outcome.game_id, autoplay.NORTH, EndTurn(Side.NORTH))
    finally:
        await db.close()
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    commands = [r for r in records if r["name"] == "vahalite_bot.commands"]
    assert len(commands) == 1, records
    (line,) = commands
    assert line["levelname"] == "INFO"
    assert line["game"] == outcome.game_id and line["verb"] == "act"
    assert line["outcome"].startswith("refused:")
    assert isinstance(line["ms"], float) and line["ms"] >= 0
