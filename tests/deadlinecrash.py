"""The deadline loop killed at random points (issue 18, item 3): the real bot, against the
Discord stand-in, SIGKILLed over and over while deadlines and reminders keep falling due;
afterwards every announcement the service committed was posted, and none twice.

Half the kills come the moment a post of the loop reaches the stand-in (between the post and
its mark: the post is made again, under its nonce, and Discord keeps one); the others at a
random time (between an expiry's commit and its post, inside a post, during start-up...).

    python -m tests.deadlinecrash --kills 50

prints the figures (kills, committed, posted, lost, doubled) as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import func, select, update

from tests.discord_world import World, make_world
from vahalite_bot.app import Actor, GameService, autoplay, records
from vahalite_bot.app.results import EXPIRED
from vahalite_bot.codex.loader import codex_factions
from vahalite_bot.rules.scenario import Side
from vahalite_bot.store.models import Announcement, Deadline

TICK = 0.3  # the bot's deadline loop, seconds
FAST = {"extra": {"deadline_tick": TICK}}
NONCE = re.compile(r"vla(\d+)")
BACKLOG = 6  # deadlines fall due again only while fewer announcements wait than this


@dataclass(frozen=True)
class Figures:
    kills: int
    kills_after_a_post: int  # the moment a post reached the stand-in
    committed: int  # announcements in the outbox
    expiries: int  # of them, expired turns (each a missed turn in a game's log)
    missed_turns_logged: int  # TurnMissed entries in the games' logs
    posted: int  # announcements with a message in their channel
    lost: int
    doubled: int
    nonce_hits: int  # posts made again and kept once by their nonce
    errors_logged: int  # ERROR lines in the bot's log
    seconds: float


async def measure(folder: Path, kills: int, seed: int = 18) -> Figures:
    started = time.perf_counter()
    rng = random.Random(seed)
    world = await make_world(folder, **FAST)
    try:
        service = await world.oracle()
        await _games(world, service)
        stop = asyncio.Event()
        driver = asyncio.create_task(_drive(service, stop))
        after_post = 0
        try:
            for _ in range(kills):
                if rng.random() < 0.5:
                    await _at_next_post(world, rng.uniform(0.0, 2.0))
                    after_post += 1
                else:
                    await asyncio.sleep(rng.uniform(0.2, 4.0))
                world.bot.kill()
                await world.bot.wait()
                await world.start_bot(**FAST)
        finally:
            stop.set()
            await driver
        await _drained(service, timeout=180)
        await world.bot.stop()
        return await _count(world, service, kills, after_post, time.perf_counter() - started)
    finally:
        await world.close()


async def _games(world: World, service: GameService) -> None:
    """Games in their own channels: one playing, three in setup that never forfeit, one in
    setup that forfeits at its third missed step."""
    guild = str(world.guild)
    admin = Actor(str(world.owner), admin=True, guild=guild)
    players = {Side.SOUTH: Actor(str(world.alice)), Side.NORTH: Actor(str(world.bob))}
    factions = codex_factions()
    armies = {
        Side.SOUTH: factions["space_marines"].lists["500"],
        Side.NORTH: factions["orks"].lists["500"],
    }
    for index, forfeit in enumerate((1000, 1000, 1000, 1000, 3)):
        await service.configure_server(admin, guild, missed_turns_forfeit=forfeit)
        channel = str(world.standin.add_text_channel(world.guild, f"game-{index}"))
        made = await autoplay.new_game(
            service, channel, armies=armies, players=players, guild=guild
        )
        if index == 0:
            await autoplay.play(
                service, made, random.Random(index), players=players, until=autoplay.playing
            )


async def _drive(service: GameService, stop: asyncio.Event) -> None:
    """Time passes: by turns, the running deadlines' reminders, then the deadlines, fall due
    (while the bot keeps up)."""
    remind = True
    while not stop.is_set():
        if await _waiting(service) < BACKLOG:
            now = datetime.now(UTC)
            changes = {"remind_at": now - timedelta(seconds=1)}
            if not remind:
                changes["due_at"] = now - timedelta(seconds=1)
            async with service.db.write() as session:
                await session.execute(
                    update(Deadline).where(Deadline.due_at.is_not(None)).values(**changes)
                )
            remind = not remind
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)


async def _waiting(service: GameService) -> int:
    async with service.db.read() as session:
        stmt = select(func.count()).where(Announcement.posted_at.is_(None))
        return int((await session.execute(stmt)).scalar_one())


async def _at_next_post(world: World, delay: float) -> None:
    """Until the loop's next post reaches the stand-in (after ``delay``)."""
    await asyncio.sleep(delay)
    seen = _posts(world)
    await world.standin.wait_for(lambda: _posts(world) > seen, 60)


def _posts(world: World) -> int:
    return sum(len(_nonced(world, c)) for c in list(world.standin.world.messages))


def _nonced(world: World, channel: int) -> list[int]:
    """The announcements posted in ``channel``, one id per message."""
    ids = []
    for message in world.standin.messages(channel):
        match = NONCE.fullmatch(message.nonce or "")
        if match is not None and message.author_id == world.standin.bot_user_id:
            ids.append(int(match[1]))
    return ids


async def _drained(service: GameService, timeout: float) -> None:
    end = time.monotonic() + timeout
    while await _waiting(service) > 0:
        if time.monotonic() > end:
            return  # the count says what is lost
        await asyncio.sleep(0.5)


async def _count(
    world: World, service: GameService, kills: int, after_post: int, seconds: float
) -> Figures:
    async with service.db.read() as session:
        rows = list((await session.execute(select(Announcement))).scalars())
    missed = 0
    for game in {row.game_id for row in rows}:
        log = await service.game_log(game)
        missed += sum(isinstance(line.record, records.TurnMissed) for line in log)
    posted = Counter(i for c in list(world.standin.world.messages) for i in _nonced(world, c))
    committed = {row.id for row in rows}
    errors = sum(" ERROR " in line for line in world.bot.output().splitlines())
    return Figures(
        kills=kills,
        kills_after_a_post=after_post,
        committed=len(committed),
        expiries=sum(row.kind == EXPIRED for row in rows),
        missed_turns_logged=missed,
        posted=len(committed & set(posted)),
        lost=len(committed - set(posted)),
        doubled=sum(1 for n in posted.values() if n > 1),
        nonce_hits=world.standin.nonce_hits,
        errors_logged=errors,
        seconds=round(seconds, 1),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=18)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="deadlinecrash-") as folder:
        figures = asyncio.run(measure(Path(folder), args.kills, args.seed))
    print(json.dumps(asdict(figures), indent=2))
    return 0 if figures.lost == 0 and figures.doubled == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
