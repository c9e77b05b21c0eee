"""``vahalite doctor``: what stands between this machine and a bot that answers.

Each check prints one line, ``ok``, ``warn`` or ``FAIL``, and under a failure what to do.
The exit status is 1 if anything blocks play (no token, Discord refuses it, a database that
cannot be written, a server where the bot cannot post in any channel...), else 0; warnings
(a missing optional permission, the Message Content intent off) leave it 0.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import logging
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from sqlalchemy import text

from vahalite_bot.cli import logs, paths
from vahalite_bot.cli.common import Common
from vahalite_bot.cli.start import Settings, discord_options, load
from vahalite_bot.discord.intents import gateway_intents

OK, WARN, FAIL = "ok", "warn", "FAIL"
GATEWAY_TIMEOUT = 30.0

# docs/discord.md, Permissions: those without which no game can be played in a channel, and
# those whose absence the bot works around (and says so in the game).
REQUIRED = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "create_public_threads": "Create Public Threads",
}
WANTED = {
    "manage_threads": "Manage Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
    "manage_messages": "Manage Messages",
    "pin_messages": "Pin Messages",
    "manage_channels": "Manage Channels",
}
PERMISSIONS_FIX = (
    "give the bot's role these permissions in Server Settings -> Roles (or in the channels' "
    "permissions), or invite it again with the link of docs/discord.md"
)


@dataclass
class Report:
    lines: list[tuple[str, str, str, str]] = field(default_factory=list)

    def add(self, status: str, what: str, detail: str = "", fix: str = "") -> None:
        self.lines.append((status, what, detail, fix))
        mark = {OK: "[ok]  ", WARN: "[warn]", FAIL: "[FAIL]"}[status]
        print(f"{mark} {what}" + (f": {detail}" if detail else ""), flush=True)
        if fix and status != OK:
            print(f"       -> {fix}", flush=True)

    @property
    def blocked(self) -> bool:
        return any(status == FAIL for status, *_ in self.lines)


def main(common: Common) -> int:
    report = Report()
    try:
        args, chosen = load([], common, prog="vahalite doctor")
    except SystemExit as refused:
        report.add(FAIL, "config", str(refused.code), "fix the config file and run again")
        return 1
    logs.configure(chosen.log, secrets=(chosen.token,), quiet=True)
    # The checklist is the output: discord.py's notes (no voice support...) are not for it.
    logging.getLogger("discord").setLevel(logging.ERROR)
    _config(report, chosen)
    _data_dir(report, chosen.data_dir)
    asyncio.run(_database(report, chosen.database_url))
    asyncio.run(_workers(report))
    if _token_shape(report, chosen.token):
        options = discord_options(chosen, args)
        from vahalite_bot.discord.client import point_at

        point_at(options)
        asyncio.run(_discord(report, chosen.token, options.message_content))
    print("blocked: fix the FAIL lines above" if report.blocked else "nothing blocks play")
    return 1 if report.blocked else 0


def _config(report: Report, chosen: Settings) -> None:
    where = chosen.config_file
    if where.is_file():
        report.add(OK, "config", f"{where}")
    else:
        report.add(
            OK if chosen.token else WARN,
            "config",
            f"no file at {where} (defaults and the environment)",
            "copy config.example.toml there (or set VAHALITE_CONFIG)",
        )


def _data_dir(report: Report, folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-"):
            pass
    except OSError as error:
        report.add(
            FAIL,
            "data directory",
            f"{folder}: {error.strerror or error}",
            "let the bot's user write there (chown), or choose another with --data-dir / "
            f"{paths.DATA_ENV} / [paths] data_dir",
        )
        return
    report.add(OK, "data directory", f"{folder} (writable)")


async def _database(report: Report, url: str) -> None:
    from vahalite_bot.store import migrate
    from vahalite_bot.store.database import open_database

    shown = _hide_password(url)
    try:
        db = await open_database(url, upgrade=False)
    except Exception as error:
        report.add(FAIL, "database", f"{shown}: {error}", "check [database] url")
        return
    try:
        revision = await migrate.current_revision(db.engine)
        head = migrate.head_revision()
        report.add(OK, "database reachable", shown)
        if revision == head:
            report.add(OK, "database schema", f"at {head}")
        else:
            report.add(
                WARN,
                "database schema",
                f"at {revision or 'nothing (new database)'}, this version needs {head}",
                "the bot migrates at start; or run `vahalite db upgrade` now",
            )
            return
        async with db.write() as session:
            # A write that proves the file (or the role) may be written; rolled back.
            await session.execute(text("UPDATE alembic_version SET version_num = version_num"))
            await session.rollback()
        report.add(OK, "database writable")
    except Exception as error:
        report.add(
            FAIL,
            "database",
            f"{shown}: {str(error).splitlines()[0]}",
            "make the database file and its folder writable by the bot's user "
            "(PostgreSQL: the role needs INSERT/UPDATE)",
        )
    finally:
        await db.close()


async def _workers(report: Report) -> None:
    from vahalite_bot.discord import work
    from vahalite_bot.discord.workers import Workers

    started = time.perf_counter()
    pool = Workers(1)
    try:
        await asyncio.wait_for(pool.run(work.warm), 60)
    except Exception as error:
        report.add(
            FAIL,
            "worker pool",
            repr(error),
            "the bot renders boards in worker processes: check memory and process limits",
        )
        return
    finally:
        await pool.close(timeout=5)
    report.add(OK, "worker pool", f"a worker started in {time.perf_counter() - started:.1f} s")


def _token_shape(report: Report, token: str) -> bool:
    fix = (
        "put the bot token (developer portal -> your application -> Bot -> Reset Token) in "
        "[discord] token or VAHALITE_DISCORD_TOKEN"
    )
    if not token:
        report.add(FAIL, "token", "none configured", fix)
        return False
    parts = token.split(".")
    try:
        ident = base64.urlsafe_b64decode(parts[0] + "=" * (-len(parts[0]) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError):
        ident = ""
    if len(parts) != 3 or not ident.isdigit():
        report.add(
            FAIL, "token", "not shaped like a bot token (three parts, the bot's id first)", fix
        )
        return False
    report.add(OK, "token", f"shaped like a bot token, of application user {ident}")
    return True


async def _discord(report: Report, token: str, message_content: bool) -> None:
    intents = gateway_intents(message_content)
    refused_intent = False
    try:
        seen = await _connect(token, intents)
    except discord.LoginFailure:
        report.add(FAIL, "login", "Discord refused the token", "reset the token and set it again")
        return
    except discord.PrivilegedIntentsRequired:
        report.add(
            WARN,
            "Message Content intent",
            "not enabled: text orders are off, slash commands work",
            "enable it in the developer portal (Bot -> Privileged Gateway Intents)",
        )
        refused_intent = True
        intents.message_content = False
        seen = await _connect(token, intents)
    except (discord.HTTPException, OSError, TimeoutError) as error:
        report.add(FAIL, "login", f"could not reach Discord: {error!r}", "check the network")
        return
    report.add(OK, "login", f"logged in as {seen.user}")
    if not message_content:
        report.add(OK, "Message Content intent", "not asked for ([discord] message_content)")
    elif not refused_intent:
        report.add(OK, "Message Content intent", "granted: players may type orders")
    _servers(report, seen)


@dataclass
class Seen:
    user: str
    # Per server: its name, then per needed permission the channels lacking it, of how many.
    servers: list[tuple[str, dict[str, list[str]], int]]


async def _connect(token: str, intents: discord.Intents) -> Seen:
    """Log in, open the gateway, read what it says about the servers, and leave."""
    client = _Probe(intents=intents, guild_ready_timeout=0.5)
    ready = client.ready
    async with client:
        runner = asyncio.create_task(client.start(token))
        waiter = asyncio.create_task(ready.wait())
        done, _ = await asyncio.wait(
            {runner, waiter}, timeout=GATEWAY_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
        )
        if runner in done:
            runner.result()  # raises why it stopped
        if waiter not in done:
            waiter.cancel()
            runner.cancel()
            raise TimeoutError("no READY from the gateway")
        seen = Seen(user=str(client.user), servers=[_permissions(guild) for guild in client.guilds])
        await client.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await runner
    return seen


class _Probe(discord.Client):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.ready = asyncio.Event()

    async def on_ready(self) -> None:
        self.ready.set()


def _permissions(guild: discord.Guild) -> tuple[str, dict[str, list[str]], int]:
    channels = [
        c for c in guild.channels if isinstance(c, discord.TextChannel | discord.ForumChannel)
    ]
    lacking: dict[str, list[str]] = {}
    for channel in channels:
        have = channel.permissions_for(guild.me)
        for name in (*REQUIRED, *WANTED):
            if not getattr(have, name, True):
                lacking.setdefault(name, []).append(f"#{channel.name}")
    return f"{guild.name} ({guild.id})", lacking, len(channels)


def _servers(report: Report, seen: Seen) -> None:
    if not seen.servers:
        report.add(
            WARN, "servers", "the bot is in no server", "invite it with the link of docs/discord.md"
        )
    for name, lacking, channels in seen.servers:
        if not lacking:
            report.add(OK, f"server {name}", f"every permission in all {channels} channels")
            continue
        blocking = [p for p in REQUIRED if len(lacking.get(p, ())) >= channels > 0]
        status = FAIL if blocking or channels == 0 else WARN
        detail = "; ".join(
            f"no {(REQUIRED | WANTED)[p]} in {_few(where, channels)}"
            for p, where in lacking.items()
        )
        report.add(status, f"server {name}", detail, PERMISSIONS_FIX)


def _few(channels: list[str], of: int) -> str:
    if len(channels) >= of:
        return "any channel"
    return ", ".join(channels[:5]) + (f" and {len(channels) - 5} more" if len(channels) > 5 else "")


def _hide_password(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
