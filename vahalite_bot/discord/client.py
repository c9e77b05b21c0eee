"""The bot: intents, the ``/vl`` command tree with its translator and error handler, the
worker pool, the cogs and the persistent buttons; and ``run``, which starts it.

The same code runs in production and in the end-to-end tests: only the API base URL and the
gateway (from the config) differ.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import signal
import sys
from collections.abc import Mapping
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from vahalite_bot.app import GameService
from vahalite_bot.codex.loader import Faction, all_sheets, codex_factions
from vahalite_bot.discord import collector, lockfile
from vahalite_bot.discord.buttons import GameButton
from vahalite_bot.discord.cogs.info import InfoCog
from vahalite_bot.discord.cogs.lobby import LobbyCog
from vahalite_bot.discord.cogs.play import PlayCog
from vahalite_bot.discord.cogs.referee import RefereeCog
from vahalite_bot.discord.deadlines import DeadlineLoop
from vahalite_bot.discord.echoes import EchoFreeState
from vahalite_bot.discord.eventloop import loop_factory
from vahalite_bot.discord.games import Games
from vahalite_bot.discord.health import LoopWatch
from vahalite_bot.discord.intents import gateway_intents
from vahalite_bot.discord.opponent import Opponent
from vahalite_bot.discord.options import DiscordOptions
from vahalite_bot.discord.presses import Presses
from vahalite_bot.discord.room import Room
from vahalite_bot.discord.seen import Seen
from vahalite_bot.discord.translator import FluentTranslator
from vahalite_bot.discord.tree import VahaTree
from vahalite_bot.discord.words import text
from vahalite_bot.discord.workers import Workers
from vahalite_bot.rules.sheets import UnitSheet
from vahalite_bot.store.database import open_database

log = logging.getLogger("vahalite_bot.discord")

# Exit codes: a bad token or settings are the operator's to fix, not a crash.
EXIT_CONFIG = 2
# At a stop, how long the commands in flight may take to finish (systemd's TimeoutStopSec
# in deploy/vahalite.service is longer), and the names of the tasks that run them.
DRAIN_SECONDS = 20.0
HANDLER_TASKS = ("CommandTree-invoker", "discord.py: on_", "discord-ui-")


class VahaBot(commands.AutoShardedBot):
    def __init__(
        self,
        options: DiscordOptions,
        service: GameService,
        factions: Mapping[str, Faction],
        *,
        message_content: bool,
        serving: bool = True,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=gateway_intents(message_content),
            tree_cls=VahaTree,
            allowed_mentions=discord.AllowedMentions.none(),
            **_shards(options),
            guild_ready_timeout=0.5,
            # The bot reads no edited or deleted message: no cache of every message seen,
            # which the garbage collector would otherwise walk through again and again.
            max_messages=None,
        )
        self.options = options
        self.service = service
        self.factions = dict(factions)
        self.sheets: dict[str, UnitSheet] = all_sheets(factions)
        self.reads_messages = message_content
        # False: only log in to manage the slash commands (``vahalite commands``).
        self.serving = serving
        self.vl = app_commands.Group(
            name=text("cmd-vl"), description=text("cmd-vl-desc"), guild_only=True
        )
        self.workers = Workers(options.workers, warm=serving)
        self.seen = Seen(service)
        self.room = Room(self, service, self.workers, self.seen)
        self.games = Games(self)
        self.presses = Presses(self)
        self.opponent = Opponent(self)
        self.watch = LoopWatch(options.stall_file)
        self.deadlines = DeadlineLoop(self, options.deadline_tick)
        self.lobby: LobbyCog

    def _get_state(self, **options: Any) -> EchoFreeState:
        # discord.py's own hook for its connection state: one that skips the gateway's
        # echo of the bot's own posts and edits (``echoes``).
        return EchoFreeState(
            dispatch=self.dispatch,
            handlers=self._handlers,
            hooks=self._hooks,
            http=self.http,
            **options,
        )

    async def setup_hook(self) -> None:
        await self.tree.set_translator(FluentTranslator())
        self.lobby = LobbyCog(self)
        for cog in (self.lobby, PlayCog(self), InfoCog(self), RefereeCog(self)):
            await self.add_cog(cog)
        self.tree.add_command(self.vl)
        if not self.serving:
            return
        self.watch.start()
        self.add_dynamic_items(GameButton)
        await self.workers.warm()
        await self.sync_commands()
        self.deadlines.start()

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Send the commands to Discord (globally) only when they changed since the last sync
        (its payload's hash is kept in the data directory), as Discord asks of bots; True if
        they were sent."""
        payload = [c.to_dict(self.tree) for c in self.tree.get_commands()]
        translator = self.tree.translator
        assert translator is not None
        digest = hashlib.sha256(
            json.dumps([payload, await _localised(self, translator)], sort_keys=True).encode()
        ).hexdigest()
        marker = self.options.sync_file
        if not force and marker is not None and marker.is_file() and marker.read_text() == digest:
            log.info("slash commands unchanged since the last sync: not sent")
            return False
        await self.tree.sync()
        log.info("slash commands sent to Discord (global: clients may take up to an hour)")
        if marker is not None:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.write_text(digest)
        return True

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))
        # Everything loaded so far lives as long as the process: out of the collector's way
        # (its full passes stay short), and the young passes made rarer (``collector``).
        collector.settle(young=collector.YOUNG_PASS_EVERY)

    async def close(self) -> None:
        self.watch.stop()
        await self.deadlines.stop()
        await self.opponent.wait()
        await self.workers.close()
        await super().close()


def _shards(options: DiscordOptions) -> dict[str, Any]:
    """discord.py wants the shard keywords absent, not None, when Discord is to choose."""
    shards: dict[str, Any] = {}
    if options.shard_ids is not None:
        shards["shard_ids"] = list(options.shard_ids)
    if options.shard_count is not None:
        shards["shard_count"] = options.shard_count
    return shards


async def _localised(bot: VahaBot, translator: app_commands.Translator) -> list[Any]:
    """What the translator gives each command, so a changed catalogue re-syncs too."""
    payloads = []
    for command in bot.tree.get_commands():
        payloads.append(await command.get_translated_payload(bot.tree, translator))
    return payloads


def run(options: DiscordOptions) -> int:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    point_at(options)
    name, factory = loop_factory(options.event_loop)
    log.info("event loop: %s", name)
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(_main(options))


def point_at(options: DiscordOptions) -> None:
    """Discord's API, or the stand-in the config names (tests, benchmarks)."""
    discord.http.Route.BASE = options.api_base.rstrip("/")
    if options.gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(options.gateway)


async def _main(options: DiscordOptions) -> int:
    try:
        lockfile.hold(options.database_url)
    except lockfile.AlreadyRunning as running:
        print(
            f"Another bot process is already using the SQLite file {running}: one process "
            "per SQLite file. For several processes use PostgreSQL ([database] url).",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    factions = codex_factions(options.homebrew)
    db = await open_database(options.database_url)
    try:
        service = GameService(
            db,
            sheets=all_sheets(factions),
            language=options.language,
            deadline_hours=options.deadline_hours,
            missed_turns_forfeit=options.missed_turns_forfeit,
        )
        message_content = options.message_content
        while True:
            bot = VahaBot(options, service, factions, message_content=message_content)
            try:
                return await _serve(bot, options.token)
            except discord.LoginFailure:
                print(
                    "Discord refused the bot token: check [discord] token in config.toml "
                    "or VAHALITE_DISCORD_TOKEN.",
                    file=sys.stderr,
                )
                return EXIT_CONFIG
            except discord.PrivilegedIntentsRequired:
                if not message_content:
                    raise
                # Text orders need the message-content intent; without it the bot still
                # serves every slash command, and /vl help says orders are off.
                log.warning(
                    "the message-content intent is not enabled for this application: "
                    "text orders are off, slash commands work (enable it in the developer "
                    "portal to read orders)"
                )
                message_content = False
    finally:
        await db.close()


async def _finish_in_flight(timeout: float) -> None:
    """SIGTERM (systemctl stop): let the commands being handled finish, their transaction
    and their reply, before the connection closes. discord.py runs each in a task of its
    own, named for what it handles."""
    current = asyncio.current_task()
    busy = [
        task
        for task in asyncio.all_tasks()
        if task is not current and task.get_name().startswith(HANDLER_TASKS)
    ]
    if busy:
        log.info("stopping: finishing %d command(s) in flight", len(busy))
        await asyncio.wait(busy, timeout=timeout)
    log.info("stopped")


async def _serve(bot: VahaBot, token: str) -> int:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(token))
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            runner.result()  # the bot stopped by itself: raise what stopped it
            return 0
        stopper.cancel()
        await _finish_in_flight(DRAIN_SECONDS)
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await runner
    return 0
