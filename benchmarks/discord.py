"""Many games at once through the real bot and the local stand-in of Discord.

    python -m benchmarks.discord --games 50 [--think-ms 1000] [--kind slash|text] [--db URL]
    python -m benchmarks.discord --games 200 --processes 2 --db postgresql+asyncpg://…
    python -m benchmarks.discord --games 0 --deadlines 1000 [--processes 2 --db URL]

The bot runs as in production, in its own process (``python bot.py``), pointed at the
stand-in; this process plays both sides of every game as people would: each game is
created, joined and given its armies by slash commands, then played with random legal
actions, as slash commands (``--kind slash``) or as text orders in Russian (``--kind
text``; the setup stays slash commands). Games start spread over the first seconds
(``--spread``) and each player pauses between commands (exponential, mean ``--think-ms``),
so the figure is latency, not a start-up queue; ``--think-ms 0`` measures capacity. Every
game is set up first (lobby, armies, the setup steps, unmeasured and without pauses), and the
measured play of all of them begins together, spread over ``--spread`` seconds.

Measured: for every command of the play (after the setup) whose post carries the board
image, the time from the interaction's dispatch on the gateway (for a text order, the
message's) to the arrival at the stand-in of the bot's post with the image. The bot's own
loop-stall watch reports the longest event-loop stall of the measured seconds. Then
``p50_ms=X p99_ms=Y commands=N commands_per_s=Z longest_stall_ms=S``, and last the bot's
requests to Discord per measured command, by route (``http_per_command=H (...)``).

``--processes N`` runs N bot processes, each serving one of N shards (a guild per shard, the
games spread over them; several processes need ``--db`` PostgreSQL). ``--deadlines N`` then
makes N games whose turn deadline falls due at the same moment (copies of one game played to
its first turn, in channels of their own) and times the bots' deadline loops until every one
has been fired: ``deadlines=N fired_per_s=F`` (their posts go to channels the stand-in does
not have, so posting them costs only a refused request).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.cpu import tree_cpu_seconds
from tests.botproc import BotProcess, write_config
from tests.conftest import clone_game
from tests.discord_moves import russian_of, slash_of
from tests.standin import Message, StandIn
from vahalite_bot.app import Actor, GameService, autoplay, records
from vahalite_bot.app.results import ENDED, LOBBY
from vahalite_bot.codex.loader import all_sheets, codex_factions
from vahalite_bot.discord.health import longest_between
from vahalite_bot.rules.actions import Action
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.selfplay.players import RandomPlayer
from vahalite_bot.store import repository as repo
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
        self.set_up = 0  # games whose setup is done
        self.all_set_up = asyncio.Event()
        self.played = 0  # measured commands sent
        self.places: list[tuple[int, int]] = []  # (guild, channel) per shard

    # -- one game, both sides ---------------------------------------------------------------
    async def game(self, number: int) -> None:
        """Set the game up (not measured), wait until every game is set up, then play it:
        its start spread over ``--spread`` seconds, each command after a think time."""
        args = self.args
        guild, channel = self.places[number % len(self.places)]
        south = self.standin.add_user(f"s{number}")
        north = self.standin.add_user(f"n{number}")
        for user in (south, north):
            self.standin.add_member(guild, user)
        await self._slash(south, channel, "vl new", {"points": 500}, timed=False)
        thread = next(
            int(t["id"])
            for t in self.standin.threads_of(channel)
            if t["name"].endswith(f": s{number}")
        )
        game = await self.service.game_in_channel(str(thread))
        users = {"south": south, "north": north}
        await self._slash(north, thread, "vl join", {}, timed=False)
        await self._slash(south, thread, "vl army", {"faction": ARMIES[0]}, timed=False)
        await self._slash(north, thread, "vl army", {"faction": ARMIES[1]}, timed=False)
        rng = random.Random(number)
        await self._play(game, thread, users, rng, measured=False)  # the setup
        self.set_up += 1
        if self.set_up == args.games:
            self.all_set_up.set()
            self.deadline = time.monotonic() + args.spread + args.seconds
        await self.all_set_up.wait()
        await asyncio.sleep(args.spread * number / max(1, args.games))
        await self._play(game, thread, users, rng, measured=True)

    async def _play(
        self, game: int, thread: int, users: dict[str, int], rng: random.Random, *, measured: bool
    ) -> None:
        """Random legal actions: the setup (``measured`` False, until the play begins, no
        pause), or the play until the game ends or time is up."""
        while not measured or time.monotonic() < self.deadline:
            status = await self.service.status(game)
            if status.status in (ENDED, LOBBY) or status.state is None:
                return
            state = status.state
            if not measured and state.phase is Phase.PLAYING:
                return
            side = next(p.side for p in status.players if p.user == status.acting_user)
            action = RandomPlayer().choose(state, rng)
            if measured and self.args.think_ms:
                await asyncio.sleep(rng.expovariate(1000 / self.args.think_ms))
            # The bot's post (awaited inside) comes after its change is committed, so the next
            # read sees it, as a player reading the post would.
            await self._act(users[side.value], thread, state, action, timed=measured)
            if measured:
                self.played += 1

    async def _act(
        self, user: int, thread: int, state: GameState, action: Action, *, timed: bool
    ) -> None:
        """One command; ``timed`` ones (the play itself, not the setup) are measured."""
        if self.args.kind == "text" and state.phase is Phase.PLAYING:
            before = len(self.standin.messages(thread))
            sent = await self.standin.post(user, thread, russian_of(action, state))
            self.figures.commands += 1
            await self._timed_post(thread, before, sent.created_at, timed)
            return
        command, options = slash_of(action, state)
        if timed:
            # As a player typing the command does: the unit option's suggestions first.
            started = time.perf_counter()
            await self.standin.autocomplete(user, thread, "vl move", {"unit": ""}, "unit")
            self.figures.autocomplete_ms.append((time.perf_counter() - started) * 1000)
        await self._slash(user, thread, command, options, timed=timed)

    async def _slash(
        self, user: int, channel: int, command: str, options: dict[str, object], *, timed: bool
    ) -> None:
        before = len(self.standin.messages(channel))
        interaction = await self.standin.slash(user, channel, command, options)
        self.figures.commands += 1
        if timed:
            await self._timed_post(channel, before, interaction.dispatched_at, timed)
        await interaction.wait_done(timeout=60)

    async def _timed_post(self, channel: int, before: int, started: float, timed: bool) -> None:
        """Wait for the bot's public post with the board; record its latency if ``timed``."""
        bot = self.standin.bot_user_id
        found: list[Message] = []

        def posted() -> bool:
            # A slash command's answer is its post, which may come before the last command's
            # turn recap: a recap (its turn.png) is never this command's post.
            found[:] = [
                m
                for m in self.standin.messages(channel)[before:]
                if m.author_id == bot
                and not m.flags & EPHEMERAL
                and not any(a.filename == "turn.png" for a in m.attachments)
            ]
            return bool(found)

        try:
            await self.standin.wait_for(posted, 60)
        except (TimeoutError, AssertionError):
            self.figures.failures += 1
            return
        with_image = next((m for m in found if m.attachments), None)
        if with_image is not None and timed:
            self.figures.latencies_ms.append((with_image.created_at - started) * 1000)


async def run(args: argparse.Namespace) -> None:
    if args.processes > 1 and not args.db:
        raise SystemExit("several processes need a shared database: --db postgresql+asyncpg://…")
    # SIGTERM (``timeout``, a supervisor) ended the process at once, past the ``finally``
    # that stops the bots; now it cancels the run like Ctrl-C, and the bots are stopped.
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(number, task.cancel)
    standin = StandIn()
    await standin.start()
    folder = Path(tempfile.mkdtemp(prefix="vahalite-bench-discord-"))
    url = args.db or f"sqlite+aiosqlite:///{folder / 'vahalite.db'}"
    bots = [_bot(args, standin, folder, url, shard) for shard in range(args.processes)]
    db = None
    finished = False
    try:
        owner = standin.add_user("owner")
        places = _places(standin, owner, args.processes)
        for bot in bots:
            await bot.start()
        await standin.wait_for(
            lambda: standin.connected >= args.processes and bool(standin.commands), 90
        )
        await asyncio.sleep(1.0)
        db = await open_database(url, upgrade=False)
        service = GameService(db, sheets=all_sheets(codex_factions()))
        bench = Bench(args, standin, service)
        bench.places = places
        if args.games:
            playing = asyncio.gather(*(bench.game(n) for n in range(args.games)))
            await bench.all_set_up.wait()
            started = time.time()
            clock = time.monotonic()
            main, workers = bots_cpu_seconds(bots)
            neighbours = time.process_time()
            requests = len(standin.requests)
            await playing
            now_main, now_workers = bots_cpu_seconds(bots)
            neighbours = time.process_time() - neighbours
            calls = standin.requests[requests:]
            cpu = (now_main - main, now_workers - workers)
            elapsed = time.monotonic() - clock
            ended = time.time()
            await asyncio.sleep(1.2)  # the watch writes each second
            stall = max(
                longest_between(folder / f"bot{n}" / "stall.json", started, ended)
                for n in range(args.processes)
            )
            report(bench.figures, elapsed, stall, cpu, bench.played, neighbours)
            report_calls(calls, bench.played)
        if args.deadlines:
            await deadlines(service, args.deadlines, places[0][0])
        finished = True
    finally:
        for bot in bots:
            await bot.stop()
        if db is not None:
            await db.close()
        await standin.close()
        # The database and the bots' logs stay for a run that failed or was stopped, to
        # read; a run that finished leaves nothing behind.
        if finished:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            print(f"the bots' logs and database: {folder}", file=sys.stderr)


def _bot(
    args: argparse.Namespace, standin: StandIn, folder: Path, url: str, shard: int
) -> BotProcess:
    extra = {"deadline_tick": args.tick}
    config = write_config(
        folder / f"bot{shard}", standin, database_url=url, workers=args.workers, extra=extra
    )
    shards = ["--shard-ids", str(shard), "--shard-count", str(args.processes)]
    return BotProcess(config, shards if args.processes > 1 else [])


def _places(standin: StandIn, owner: int, shards: int) -> list[tuple[int, int]]:
    """A guild (with a text channel) on each shard: the stand-in routes by guild id."""
    guilds: dict[int, int] = {}
    while len(guilds) < shards:
        guild = standin.add_guild(f"bench{len(guilds)}", owner=owner)
        guilds.setdefault((guild >> 22) % shards, guild)
    return [(g, standin.add_text_channel(g, "games")) for _, g in sorted(guilds.items())]


async def deadlines(service: GameService, count: int, guild: int) -> None:
    """``count`` turns expire at once; how fast do the running bots fire them all?"""
    factions = codex_factions()
    armies = {side: factions[name].lists["500"] for side, name in zip(Side, ARMIES, strict=True)}
    template = await autoplay.new_game(service, "bench-template", guild=str(guild), armies=armies)
    played = await autoplay.play(service, template, random.Random(1), until=autoplay.playing)
    games = [
        await clone_game(service.db, played.game_id, f"bench-deadline-{n}", str(guild))
        for n in range(count)
    ]
    await service.ref_decide(played.game_id, Actor("bench", admin=True, guild=str(guild)), None)
    clock = time.monotonic()
    async with service.db.write() as session:
        for game in games:
            await repo.update_deadline(session, game, {"due_at": datetime.now(UTC)})
    fired = 0
    while time.monotonic() - clock < 600:
        fired = await _fired(service, games)
        if fired >= count:
            break
        await asyncio.sleep(0.2)
    elapsed = time.monotonic() - clock
    print(
        f"deadlines={count} fired={fired} elapsed_s={elapsed:.1f} fired_per_s={fired / elapsed:.1f}"
    )


async def _fired(service: GameService, games: list[int]) -> int:
    fired = 0
    for game in games:
        log = await service.game_log(game, since=max(0, (await service.status(game)).version - 3))
        fired += any(isinstance(line.record, records.TurnMissed) for line in log)
    return fired


def bots_cpu_seconds(bots: list[BotProcess]) -> tuple[float, float]:
    """CPU time used so far by the bot processes, and by their workers: the figure the
    players and the stand-in, on the same cores, cannot blur (Linux: 0 elsewhere)."""
    return tree_cpu_seconds({bot.process.pid for bot in bots if bot.process is not None})


def report(
    figures: Figures,
    elapsed: float,
    stall: float,
    cpu: tuple[float, float] = (0.0, 0.0),
    played: int = 0,
    neighbours: float = 0.0,
) -> None:
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
    if sum(cpu) and played:  # a command's autocomplete request included
        main, workers = (seconds * 1000 / played for seconds in cpu)
        print(
            f"bot_cpu_ms_per_command={main + workers:.2f} (the bot processes "
            f"{main:.2f}, their workers {workers:.2f})"
        )
        # The stand-in and the players run in this process, on the bot's cores: what they
        # take a command bounds the commands a second this machine can measure at all.
        print(f"neighbours_cpu_ms_per_command={neighbours * 1000 / played:.2f}")
    print(
        f"p50_ms={p50:.1f} p99_ms={p99:.1f} commands={len(times)} "
        f"commands_per_s={len(times) / elapsed:.1f} longest_stall_ms={stall:.1f}"
    )


def report_calls(calls: list[tuple[str, str]], played: int) -> None:
    """The bot's requests to Discord per measured command (its autocomplete included), by
    route: what each command costs in HTTP calls."""
    if not played:
        return
    routes = Counter(f"{method} {_route(path)}" for method, path in calls)
    each = " ".join(f"{route}={count / played:.2f}" for route, count in routes.most_common())
    print(f"http_per_command={len(calls) / played:.2f} ({each})")


def _route(path: str) -> str:
    """``/api/v10/channels/123/messages/456`` as ``/channels/{id}/messages/{id}``."""
    path = re.sub(r"^/api/v\d+", "", path)
    path = re.sub(r"/webhooks/\d+/[^/]+", "/webhooks/{app}/{token}", path)
    path = re.sub(r"/interactions/\d+/[^/]+", "/interactions/{id}/{token}", path)
    return re.sub(r"/\d+", "/{id}", path)


def _p99(ordered: list[float]) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--think-ms", type=float, default=1000.0, help="mean pause per command")
    parser.add_argument("--kind", choices=("slash", "text"), default="slash")
    parser.add_argument("--spread", type=float, default=10.0, help="seconds over which games start")
    parser.add_argument("--seconds", type=float, default=60.0, help="stop playing after this")
    parser.add_argument("--workers", type=int, default=2, help="the bot's worker processes")
    parser.add_argument("--db", default=None, metavar="URL", help="database (default: SQLite)")
    parser.add_argument("--processes", type=int, default=1, help="bot processes (shards)")
    parser.add_argument("--deadlines", type=int, default=0, help="then N deadlines at once")
    parser.add_argument("--tick", type=float, default=1.0, help="the bots' deadline tick (s)")
    try:
        asyncio.run(run(parser.parse_args(argv)))
    except (KeyboardInterrupt, asyncio.CancelledError):
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
