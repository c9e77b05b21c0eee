"""What the Discord bot is started with (``bot.py`` reads it from the config and environment)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DISCORD_API = "https://discord.com/api/v10"


@dataclass(frozen=True)
class DiscordOptions:
    token: str
    database_url: str
    language: str = "ru"  # the default of servers that set none
    deadline_hours: int = 48
    missed_turns_forfeit: int = 3
    homebrew: Path | None = None
    api_base: str = DISCORD_API  # a stand-in's URL in tests; Discord's otherwise
    gateway: str | None = None  # None: the one Discord names
    message_content: bool = True  # ask for the privileged intent (text orders)
    workers: int = 2  # processes for images and the automatic player
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None
    stall_file: Path | None = None  # where the loop watch writes its figures (benchmarks)
    deadline_tick: float = 30.0  # seconds between the deadline loop's rounds
    sync_file: Path | None = None  # the hash of the last command sync (None: sync at start)
    think_ms: float = 1000.0  # the hard practice bot's time per decision ([game] bot_think_ms)
    event_loop: str = "uvloop"  # "asyncio": the standard library's own loop (eventloop.py)
