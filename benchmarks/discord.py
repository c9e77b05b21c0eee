"""Many games at once through the real bot and the local stand-in of Discord.

    python -m benchmarks.discord --games 50 [--think-ms 1000] [--kind slash|text] [--db URL]

The bot runs as in production, in its own process (``python bot.py``), pointed at the
stand-in; this process plays both sides of every game as people would: each game is
created, joined and given its armies by slash commands, then played with random legal
actions, as slash commands (``--kind slash``) or as text orders in Russian (``--kind
text``; the setup stays slash commands). Games start spread over the first seconds
(``--spread``) and each player pauses between commands (exponential, mean ``--think-ms``),
so the figure is latency, not a start-up queue; ``--think-ms 0`` measures capacity.

Measured: for every command whose post carries the board image, the time from the
interaction's dispatch on the gateway (for a text order, the message's) to the arrival at
the stand-in of the bot's post with the image. The bot's own loop-stall watch reports the
longest event-loop stall of the measured seconds. The last line printed is
``p50_ms=X p99_ms=Y commands=N commands_per_s=Z longest_stall_ms=S``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.botproc import BotProcess, write_config
from tests.discord_moves import russian_of, slash_of
from tests.standin import Message, StandIn
from vahalite_bot.app import GameService
from vahalite_bot.app.results import ENDED, LOBBY
from vahalite_bot.codex.loader import all_sheets, codex_factions
from vahalite_bot.discord.health import longest_between
from vahalite_bot.rules.actions import Action
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.selfplay.players import RandomPlayer
from vahalite_bot.store.database import open_database

EPHEMERAL = 1 << 6
ARMIES = ("space_marines", "orks")


@dataclass
class Figures:
    latencies_ms: list[float] = field(default_factory=list)
    autocomplete_ms: list[float] = field(default_factory=list)
    commands: int = 0
    failures: int = 0


class Bench:
    def __init__(self, args: argparse.Namespace, standin: StandIn, service: GameService) -> None:
        self.args = args
        self.standin = standin
        self.service = service
        self.figures = Figures()
        self.deadline = 0.0
        self.guild = 0
        self.channel = 0

    # -- one game, both sides ---------------------------------------------------------------
    async def game(self, number: int) -> None:
        args = self.args
        await asyncio.sleep(args.spread * number / max(1, args.games))
        south = self.standin.add_user(f"s{number}")
        north = self.standin.add_user(f"n{number}")
        for user in (south, north):
            self.standin.add_member(self.guild, user)
        await self._slash(south, self.channel, "vl new", {"points": 500}, timed=False)
        thread = next(
            int(t["id"])
            for t in self.standin.threads_of(self.channel)
            if t["name"].endswith(f": s{number}")
        )
        game = await self.service.game_in_channel(str(thread))
        users = {"south": south, "north": north}
        await self._slash(north, thread, "vl join", {}, timed=False)
        await self._slash(south, thread, "vl army", {"faction": ARMIES[0]}, timed=False)
        await self._slash(north, thread, "vl army", {"faction": ARMIES[1]}, timed=False)
        rng = random.Random(number)
        while time.monotonic() < self.deadline:
            status = await self.service.status(game)
            if status.status in (ENDED, LOBBY) or status.state is None:
                return
            state = status.state
            side = next(p.side for p in status.players if p.user == status.acting_user)
            action = RandomPlayer().choose(state, rng)
            if args.think_ms:
                await asyncio.sleep(rng.expovariate(1000 / args.think_ms))
            # The bot's post (awaited inside) comes after its change is committed, so the next
            # read sees it, as a player reading the post would.
            await self._act(users[side.value], thread, state, action)

    async def _act(self, user: int, thread: int, state: GameState, action: Action) -> None:
        if self.args.kind == "text" and state.phase is Phase.PLAYING:
            before = len(self.standin.messages(thread))
            sent = await self.standin.post(user, thread, russian_of(action, state))
            self.figures.commands += 1
            await self._timed_post(thread, before, sent.created_at)
            return
        command, options = slash_of(action, state)
        if state.phase is Phase.PLAYING:
            # As a player typing the command does: the unit option's suggestions first.
            started = time.perf_counter()
            await self.standin.autocomplete(user, thread, "vl move", {"unit": ""}, "unit")
            self.figures.autocomplete_ms.append((time.perf_counter() - started) * 1000)
        await self._slash(user, thread, command, options, timed=True)

    async def _slash(
        self, user: int, channel: int, command: str, options: dict[str, object], *, timed: bool
    ) -> None:
        before = len(self.standin.messages(channel))
        interaction = await self.standin.slash(user, channel, command, options)
        self.figures.commands += 1
        if timed:
            await self._timed_post(channel, before, interaction.dispatched_at)
        await interaction.wait_done(timeout=60)

    async def _timed_post(self, channel: int, before: int, started: float) -> None:
        """Wait for the bot's public post with the board; record its latency."""
        bot = self.standin.bot_user_id
        found: list[Message] = []

        def posted() -> bool:
            found[:] = [
                m
                for m in self.standin.messages(channel)[before:]
                if m.author_id == bot and not m.flags & EPHEMERAL
            ]
            return bool(found)

        try:
            await self.standin.wait_for(posted, 60)
        except (TimeoutError, AssertionError):
            self.figures.failures += 1
            return
        with_image = next((m for m in found if m.attachments), None)
        if with_image is not None:
            self.figures.latencies_ms.append((with_image.created_at - started) * 1000)


async def run(args: argparse.Namespace) -> None:
    standin = StandIn()
    await standin.start()
    folder = Path(tempfile.mkdtemp(prefix="vahalite-bench-discord-"))
    url = args.db or f"sqlite+aiosqlite:///{folder / 'vahalite.db'}"
    bot = BotProcess(write_config(folder, standin, database_url=url, workers=args.workers))
    db = None
    try:
        owner = standin.add_user("owner")
        guild = standin.add_guild("bench", owner=owner)
        channel = standin.add_text_channel(guild, "games")
        await bot.start()
        await standin.wait_for(lambda: standin.connected >= 1 and bool(standin.commands), 90)
        await asyncio.sleep(1.0)
        db = await open_database(url, upgrade=False)
        service = GameService(db, sheets=all_sheets(codex_factions()))
        bench = Bench(args, standin, service)
        bench.guild, bench.channel = guild, channel
        started = time.time()
        clock = time.monotonic()
        bench.deadline = clock + args.seconds
        await asyncio.gather(*(bench.game(n) for n in range(args.games)))
        elapsed = time.monotonic() - clock
        ended = time.time()
        await asyncio.sleep(1.2)  # the watch writes each second
        stall = longest_between(folder / "stall.json", started, ended)
        report(bench.figures, elapsed, stall)
    finally:
        await bot.stop()
        if db is not None:
            await db.close()
        await standin.close()


def report(figures: Figures, elapsed: float, stall: float) -> None:
    times = sorted(figures.latencies_ms)
    if not times:
        print("no command was measured", file=sys.stderr)
        raise SystemExit(1)
    p50 = statistics.median(times)
    p99 = _p99(times)
    print(f"measured={len(times)} failures={figures.failures} elapsed_s={elapsed:.1f}")
    suggested = sorted(figures.autocomplete_ms)
    if suggested:
        print(
            f"autocomplete_p50_ms={statistics.median(suggested):.1f} "
            f"autocomplete_p99_ms={_p99(suggested):.1f}"
        )
    print(
        f"p50_ms={p50:.1f} p99_ms={p99:.1f} commands={figures.commands} "
        f"commands_per_s={figures.commands / elapsed:.1f} longest_stall_ms={stall:.1f}"
    )


def _p99(ordered: list[float]) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--think-ms", type=float, default=1000.0, help="mean pause per command")
    parser.add_argument("--kind", choices=("slash", "text"), default="slash")
    parser.add_argument("--spread", type=float, default=5.0, help="seconds over which games start")
    parser.add_argument("--seconds", type=float, default=60.0, help="stop playing after this")
    parser.add_argument("--workers", type=int, default=2, help="the bot's worker processes")
    parser.add_argument("--db", default=None, metavar="URL", help="database (default: SQLite)")
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
