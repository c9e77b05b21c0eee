"""A Discord server for the end-to-end tests: the stand-in, a guild with two players and a
spectator, the real bot as its own process, and the bot's own SQLite file read through a
second GameService as the oracle of what the game is."""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from tests.botproc import BotProcess, write_config
from tests.discord_moves import slash_of
from tests.standin import Interaction, Message, StandIn
from vahalite_bot.app import GameService, GameStatus
from vahalite_bot.codex.loader import all_sheets, codex_factions
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.store.database import Database, open_database

EPHEMERAL = 1 << 6


@dataclass
class World:
    standin: StandIn
    folder: Path
    guild: int
    owner: int
    alice: int  # South, the creator
    bob: int  # North
    carol: int  # a spectator
    text: int  # a text channel
    forum: int  # a forum channel
    bot: BotProcess
    db: Database | None = None
    service: GameService | None = None
    # What errors this test provokes on purpose: a logged ERROR or traceback containing none
    # of these fails the test (see ``close``).
    expected_errors: list[str] = field(default_factory=list)

    def expect_error(self, fragment: str) -> None:
        """Declare that the bot will log an error containing ``fragment``, on purpose."""
        self.expected_errors.append(fragment)

    # -- the bot's process -------------------------------------------------------------------
    async def start_bot(self, **config: Any) -> None:
        self.bot = BotProcess(write_config(self.folder, self.standin, **config))
        connected = self.standin.connected
        await self.bot.start()
        try:
            await self.standin.wait_for(lambda: self.standin.connected > connected, 60)
            await self.standin.wait_for(lambda: bool(self.standin.commands), 30)
        except BaseException:
            print(self.bot.output())
            raise
        await asyncio.sleep(0.8)  # the client's guild_ready_timeout, then on_ready

    async def restart_bot(self) -> None:
        """SIGKILL, then the same command again: a crash and a restart."""
        self.bot.kill()
        await self.bot.wait()
        await self.start_bot()

    # -- the oracle: the bot's own database ----------------------------------------------------
    async def oracle(self) -> GameService:
        if self.service is None:
            self.db = await open_database(f"sqlite+aiosqlite:///{self.folder / 'vahalite.db'}")
            self.service = GameService(self.db, sheets=all_sheets(codex_factions()))
        return self.service

    async def status(self, game: int) -> GameStatus:
        service = await self.oracle()
        service.cache.drop(game)  # the bot writes behind this service's back
        return await service.status(game)

    async def close(self) -> None:
        """Stop everything; then any error the bot logged that the test did not declare
        fails the test (a test listens to the logs)."""
        await self.bot.stop()
        if self.db is not None:
            await self.db.close()
        await self.standin.close()
        errors = self.bot.errors(self.expected_errors)
        assert not errors, "the bot logged errors:\n" + "\n---\n".join(errors)

    # -- acting and reading ---------------------------------------------------------------------
    async def slash(
        self,
        user: int,
        channel: int,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        locale: str = "en-US",
    ) -> Interaction:
        interaction = await self.standin.slash(user, channel, command, options or {}, locale=locale)
        await interaction.wait_done(timeout=30)
        return interaction

    def public(self, channel: int) -> list[Message]:
        return [m for m in self.standin.messages(channel) if not m.flags & EPHEMERAL]

    async def next_public(
        self, channel: int, after: int, predicate: Callable[[Message], bool] = lambda m: True
    ) -> Message:
        """The first public message after the first ``after`` that matches."""
        found: list[Message] = []

        def seen() -> bool:
            found[:] = [m for m in self.public(channel)[after:] if predicate(m)]
            return bool(found)

        await self.standin.wait_for(seen, 30)
        return found[0]


async def make_world(tmp: Path, **config: Any) -> World:
    standin = StandIn(**config.pop("standin", {}))
    await standin.start()
    owner = standin.add_user("owner")
    alice, bob, carol = (standin.add_user(n) for n in ("alice", "bob", "carol"))
    guild = standin.add_guild("Vaha club", owner=owner)
    for user in (alice, bob, carol):
        standin.add_member(guild, user)
    text = standin.add_text_channel(guild, "games")
    forum = standin.add_forum_channel(guild, "battles")
    world = World(
        standin, tmp, guild, owner, alice, bob, carol, text, forum, BotProcess(tmp / "none")
    )
    await world.start_bot(**config)
    return world


def png_size(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.size


async def game_of(world: World, thread: int) -> int:
    service = await world.oracle()
    return await service.game_in_channel(str(thread))


async def play_until(world: World, thread: int, game: int, phase: Phase) -> None:
    """Greedy moves by slash command until the game reaches ``phase``."""
    rng = random.Random(3)
    users = {Side.SOUTH: world.alice, Side.NORTH: world.bob}
    for _ in range(200):
        state = (await world.status(game)).state
        assert state is not None
        if state.phase is phase:
            return
        side = acting_side(state)
        assert side is not None
        command, options = slash_of(GreedyPlayer().choose(state, rng), state)
        await world.slash(users[side], thread, command, options)
    raise AssertionError(f"never reached {phase}")


def reply_text(interaction: Interaction) -> str:
    """What the bot answered to one interaction (its messages' text)."""
    messages = interaction.answered() or []
    return "\n".join(m.content for m in messages)


async def ready_game(world: World, channel: int) -> tuple[int, int]:
    """A game in a text channel's thread, both armies in (slash commands only)."""
    before = len(world.standin.threads_of(channel))
    await world.slash(world.alice, channel, "vl new", {"points": 500})
    thread = int(world.standin.threads_of(channel)[before]["id"])
    game = await game_of(world, thread)
    await world.slash(world.bob, thread, "vl join")
    await world.slash(world.alice, thread, "vl army", {"faction": "space_marines"})
    await world.slash(world.bob, thread, "vl army", {"faction": "orks"})
    return thread, game
