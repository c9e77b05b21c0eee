"""The administrator's commands against the Discord stand-in (issue 20): ``vahalite doctor``
with permissions missing, ``vahalite commands sync --guild`` / ``clear``, and the bot token,
which no log line or error ever shows.

Each runs ``python -m vahalite_bot`` as its own process, as an admin would, with a config
that points it at the stand-in.
"""

from __future__ import annotations

import asyncio
import base64
import os
import secrets
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.botproc import BotProcess, write_config
from tests.standin import StandIn

SEND_MESSAGES_IN_THREADS = 1 << 38
ATTACH_FILES = 1 << 15


def bot_token(standin: StandIn) -> str:
    """A token shaped like Discord's (the bot's id in base64, a timestamp, an HMAC), which
    the stand-in then requires: the doctor checks the shape before it logs in."""
    ident = base64.urlsafe_b64encode(str(standin.bot_user_id).encode()).decode().rstrip("=")
    token = f"{ident}.{secrets.token_urlsafe(5)[:6]}.{secrets.token_urlsafe(30)[:38]}"
    standin.token = standin.gateway.token = token
    return token


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    server = StandIn(message_content_allowed=False)
    bot_token(server)
    await server.start()
    try:
        yield server
    finally:
        await server.close()


def club(standin: StandIn) -> tuple[int, int, int]:
    """A server with a text channel and a forum: (guild, text, forum)."""
    owner = standin.add_user("owner")
    guild = standin.add_guild("Vaha club", owner=owner)
    return (
        guild,
        standin.add_text_channel(guild, "games"),
        standin.add_forum_channel(guild, "battles"),
    )


async def vahalite(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VAHALITE_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "vahalite_bot", "--config", str(config), *args,
        cwd=config.parent, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 180)
    assert process.returncode is not None
    return subprocess.CompletedProcess(args, process.returncode, out.decode(), err.decode())


async def test_doctor_lists_what_is_missing_and_fails_when_play_is_blocked(
    standin: StandIn, tmp_path: Path
) -> None:
    guild, text, forum = club(standin)
    standin.deny_bot(guild, SEND_MESSAGES_IN_THREADS)  # no game can be played anywhere
    standin.deny_bot(text, ATTACH_FILES)  # boards as text there: a warning
    config = write_config(tmp_path, standin)

    sick = await vahalite(config, "doctor")
    assert sick.returncode == 1, sick.stdout + sick.stderr
    lines = sick.stdout.splitlines()
    server = next(line for line in lines if "server Vaha club" in line)
    assert server.startswith("[FAIL]")
    assert "no Send Messages in Threads in any channel" in server
    assert "no Attach Files in #games" in server
    assert any(line.startswith("[warn] Message Content intent") for line in lines)
    assert not any(line.startswith("[ok]   Message Content intent") for line in lines)
    assert "PyNaCl" not in sick.stdout + sick.stderr  # the checklist alone, no library notes
    assert any(line.startswith("[ok]   login") for line in lines)
    assert any(line.startswith("[ok]   worker pool") for line in lines)
    assert lines[-1] == "blocked: fix the FAIL lines above"
    assert standin.token not in sick.stdout + sick.stderr

    standin.allow_bot(guild, SEND_MESSAGES_IN_THREADS)
    well = await vahalite(config, "doctor")
    assert well.returncode == 0, well.stdout + well.stderr
    server = next(line for line in well.stdout.splitlines() if "server Vaha club" in line)
    assert server.startswith("[warn]") and "no Attach Files in #games" in server
    assert well.stdout.splitlines()[-1] == "nothing blocks play"
    _ = forum


async def test_doctor_says_a_refused_token_blocks(standin: StandIn, tmp_path: Path) -> None:
    club(standin)
    wrong = bot_token(StandIn())  # shaped right, but not this application's
    config = write_config(tmp_path, standin, token=wrong)
    result = await vahalite(config, "doctor")
    assert result.returncode == 1
    assert "[FAIL] login: Discord refused the token" in result.stdout
    assert wrong not in result.stdout + result.stderr


async def test_commands_sync_to_one_server_at_once_and_clear(
    standin: StandIn, tmp_path: Path
) -> None:
    guild, _, _ = club(standin)
    config = write_config(tmp_path, standin)

    synced = await vahalite(config, "commands", "sync", "--guild", str(guild))
    assert synced.returncode == 0, synced.stderr
    assert f"in server {guild} (at once)" in synced.stdout
    names = {(c["name"], c.get("guild_id")) for c in standin.commands}
    assert names == {("vl", str(guild))}

    everywhere = await vahalite(config, "commands", "sync")
    assert everywhere.returncode == 0, everywhere.stderr
    assert {c.get("guild_id") for c in standin.commands} == {None, str(guild)}
    marker = tmp_path / "discord-commands.sha256"
    assert marker.is_file()  # the bot's next start sees them unchanged

    cleared = await vahalite(config, "commands", "clear", "--guild", str(guild))
    assert cleared.returncode == 0, cleared.stderr
    assert [c.get("guild_id") for c in standin.commands] == [None]

    gone = await vahalite(config, "commands", "clear")
    assert gone.returncode == 0, gone.stderr
    assert standin.commands == []
    assert not marker.exists()  # so the bot's next start sends them again


async def test_the_token_is_in_no_log_line_even_at_debug(standin: StandIn, tmp_path: Path) -> None:
    club(standin)
    config = write_config(tmp_path, standin)
    with config.open("a") as file:
        file.write('\n[logging]\nlevel = "debug"\n')
    bot = BotProcess(config)
    await bot.start()
    try:
        await standin.wait_for(lambda: bool(standin.commands), 60)
        await asyncio.sleep(1)
    finally:
        await bot.stop()
    output = bot.output()
    assert "DEBUG discord" in output  # debug logging was on: there was much to leak
    assert standin.token not in output
    parts = standin.token.split(".")
    assert parts[2] not in output  # not even the secret part alone


# Three starts of the bot in a row: a long run, kept for make test-soak (and CI).
@pytest.mark.soak
async def test_the_bot_syncs_at_start_only_when_the_commands_changed(
    standin: StandIn, tmp_path: Path
) -> None:
    club(standin)
    config = write_config(tmp_path, standin)

    def puts() -> int:
        return sum(
            1 for method, path in standin.requests if method == "PUT" and "/commands" in path
        )

    for start in range(2):
        connected = standin.connected
        bot = BotProcess(config)
        await bot.start()
        try:
            await standin.wait_for(lambda c=connected: standin.connected > c, 60)
            await standin.wait_for(lambda: bool(standin.commands), 60)
            await asyncio.sleep(1)
        finally:
            await bot.stop()
        assert puts() == 1, f"start {start}: the commands were sent {puts()} times"
    assert "slash commands unchanged since the last sync: not sent" in bot.output()
    # A changed command set (here: a lost hash, as after `vahalite commands clear`) is sent.
    (tmp_path / "discord-commands.sha256").write_text("another version's commands")
    bot = BotProcess(config)
    await bot.start()
    try:
        await standin.wait_for(lambda: puts() == 2, 60)
    finally:
        await bot.stop()
