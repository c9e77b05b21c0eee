"""Crash safety: a child process playing against a SQLite file, or a PostgreSQL database,
is killed with SIGKILL at random moments, over and over. After each kill every command
whose reply the child printed is in the log with the content the reply told (the state
after it, and its events), every game loads, and its state equals a replay of its log.

The child is forked from this (already warmed-up) process rather than started afresh, so
that 200 kills take seconds rather than minutes of interpreter start-up; it opens its own
database connections and plays through ``tests/crashplay.py``. The next child opens the
database while the last one's remains are checked, and starts playing when told.
"""

from __future__ import annotations

import asyncio
import os
import random
import select
import signal
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from sqlalchemy import select as sql_select

from tests import crashplay
from tests.conftest import BACKENDS, Games, drop_pg_database, new_pg_database
from vahalite_bot.app import GameService, Outcome, autoplay
from vahalite_bot.app.replay import Entry, entry_of, fold
from vahalite_bot.rules.dice import FairDice
from vahalite_bot.store import repository as repo
from vahalite_bot.store.database import open_database
from vahalite_bot.store.models import Game

KILLS = 200
READY = crashplay.READY.decode().strip()

# One acknowledged reply: (game, version, state digest, events digest).
Ack = tuple[int, int, str, str]


@pytest.fixture(params=BACKENDS)
def crash_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database of the test's own on each backend: the children play only there."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'crash.db'}"
        return
    name, url = new_pg_database()
    try:
        yield url
    finally:
        drop_pg_database(name)


@pytest.mark.soak
def test_killed_at_random_moments_nothing_printed_is_lost(crash_url: str) -> None:
    url = crash_url
    asyncio.run(_migrate(url))
    rng = random.Random(20250301)
    # Mostly while playing; now and then while starting up (opening, recovering).
    plan = [rng.random() < 0.85 for _ in range(KILLS)]
    printed: dict[int, int] = {}  # game -> highest version the child said it committed
    acks: list[Ack] = []
    replies = 0
    waiting = _Child.fork(url, 0, wait=True) if plan[0] else None
    try:
        for kill, playing in enumerate(plan):
            if playing:
                assert waiting is not None
                child, waiting = waiting, None
                child.wait_ready()
                child.go()
                lines = child.kill_after(rng.uniform(0.0, 0.15))
            else:
                child = _Child.fork(url, kill, wait=False)
                lines = child.kill_after(rng.uniform(0.0, 0.2))
            if kill + 1 < KILLS and plan[kill + 1]:
                waiting = _Child.fork(url, kill + 1, wait=True)  # opens while we check
            for game_id, version, _, _ in lines:
                assert version >= printed.get(game_id, 0), "a reply went back in time"
                printed[game_id] = version
            replies += len(lines)
            acks.extend(lines)
            _check_settled(url, {ack[0] for ack in lines} | _latest(printed), printed, lines)
    finally:
        if waiting is not None:  # a failed check must not leave the next child waiting
            waiting.kill_after(0)
    assert replies > KILLS // 2  # the kills hit processes at work, not only starting ones
    # Every reply ever printed, once more at the end: nothing acknowledged changed since.
    asyncio.run(_check(url, set(printed), printed, acks, fair_dice=True))


def _latest(printed: dict[int, int]) -> set[int]:
    return {max(printed)} if printed else set()


async def _migrate(url: str) -> None:
    db = await open_database(url)
    await db.close()


@dataclass
class _Child:
    pid: int
    out: int  # what the child prints
    go_end: int | None  # write a byte here to let it play
    data: bytes = field(default=b"")

    @classmethod
    def fork(cls, url: str, seed: int, wait: bool) -> _Child:
        """A child that plays from where the last one died (after ``go()`` if ``wait``)."""
        out_read, out_write = os.pipe()
        go_read, go_write = os.pipe() if wait else (None, None)
        pid = os.fork()
        if pid == 0:  # the child: play until killed, never return into pytest
            os.close(out_read)
            if go_write is not None:
                os.close(go_write)  # or reading ``go`` would never see the parent go away
            code = 0
            try:
                asyncio.run(crashplay.run(url, seed, out_write, go=go_read))
            except BaseException:
                traceback.print_exc()
                code = 1
            os._exit(code)
        os.close(out_write)
        if go_read is not None:
            os.close(go_read)
        return cls(pid, out_read, go_write)

    def read_until(self, deadline: float, stop: bytes | None = None) -> None:
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.out], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.out, 65536)
            if not chunk:
                return  # the child ended by itself: kill_after says so
            self.data += chunk
            if stop is not None and stop in self.data:
                return

    def wait_ready(self) -> None:
        self.read_until(time.monotonic() + 30, crashplay.READY)
        assert crashplay.READY in self.data, "the child never opened the database"

    def go(self) -> None:
        assert self.go_end is not None
        os.write(self.go_end, b"!")

    def kill_after(self, seconds: float) -> list[Ack]:
        """SIGKILL it ``seconds`` from now; the replies it printed completely."""
        self.read_until(time.monotonic() + seconds)
        os.kill(self.pid, signal.SIGKILL)
        _, status = os.waitpid(self.pid, 0)
        while chunk := os.read(self.out, 65536):
            self.data += chunk
        os.close(self.out)
        if self.go_end is not None:
            os.close(self.go_end)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (
            f"the child stopped by itself (status {status}) before it was killed"
        )
        complete = self.data.decode().split("\n")[:-1]  # a line cut short was never printed
        replies = [line.split() for line in complete if line != READY]
        return [
            (int(game), int(version), state, events) for game, version, state, events in replies
        ]


def _check_settled(url: str, game_ids: set[int], printed: dict[int, int], acks: list[Ack]) -> None:
    """``_check``, looked at again if it fails: PostgreSQL may still commit a killed child's
    last transaction after the child is gone (its COMMIT was already on the wire), between
    two of the check's reads. A state still settling passes on a second look; a torn one
    stays torn and fails every time."""
    for look in range(3):
        try:
            asyncio.run(_check(url, game_ids, printed, acks))
            return
        except AssertionError:
            if look == 2:
                raise
            time.sleep(0.5)


async def _check(
    url: str,
    game_ids: set[int],
    printed: dict[int, int],
    acks: list[Ack],
    fair_dice: bool = False,
) -> None:
    # A fresh view of the file, as the next process will have: no cache, recovery done.
    db = await open_database(url, upgrade=False)
    service = crashplay.service_for(db)
    try:
        for game_id in sorted({ack[0] for ack in acks}):
            async with db.read() as session:
                rows = await repo.entries_after(session, game_id, 0)
            for _, version, state, events in (ack for ack in acks if ack[0] == game_id):
                _check_reply(game_id, [entry_of(row) for row in rows], version, state, events)
        for game_id in sorted(game_ids):
            status = await service.status(game_id)  # loading: the turn's snapshot + entries
            async with db.read() as session:
                rows = await repo.entries_after(session, game_id, 0)
                seed = (
                    await session.execute(sql_select(Game.seed).where(Game.id == game_id))
                ).scalar_one()
            seqs = [row.seq for row in rows]
            assert seqs == list(range(1, len(seqs) + 1)), f"game {game_id}: a hole in the log"
            assert status.version == len(seqs) >= printed.get(game_id, 0), (
                f"game {game_id}: printed version {printed.get(game_id)} but the log has "
                f"{len(seqs)} entries"
            )
            entries = [entry_of(row) for row in rows]
            assert fold(None, entries) == status.state, f"game {game_id}: load != replay"
            if fair_dice:
                assert fold(None, entries, FairDice(seed)) == status.state
    finally:
        await db.close()


def _check_reply(game_id: int, entries: list[Entry], version: int, state: str, events: str) -> None:
    """The log holds what the reply at ``version`` told: the state after it is the replay of
    the log's first ``version`` entries, and its events are those of the log's last entries
    up to ``version`` (a command writes one entry or a few), with the same dice."""
    where = f"game {game_id}, the reply at version {version}"
    assert len(entries) >= version, f"{where}: the log has only {len(entries)} entries"
    assert crashplay.state_digest(fold(None, entries[:version])) == state, f"{where}: state"
    told = [
        crashplay.logged_digest(
            [e for entry in entries[first:version] for e in entry.events],
            [
                [d.position, d.purpose, d.value]
                for entry in entries[first:version]
                for d in entry.dice
            ],
        )
        for first in range(version - 1, -1, -1)
    ]
    assert events in told, f"{where}: its events or dice are not the log's"


async def test_the_reply_check_catches_a_changed_entry(games: Games, service: GameService) -> None:
    """The content check above can fail: an entry's events or dice changed after its reply
    was printed are caught (a log of the right length is not enough)."""
    acks: list[Ack] = []

    def acknowledge(outcome: Outcome) -> None:
        acks.append(
            (
                outcome.game_id,
                outcome.version,
                crashplay.state_digest(outcome.state),
                crashplay.events_digest(outcome.events),
            )
        )

    outcome = await games.setup()
    outcome = await autoplay.play(
        service, outcome, random.Random(4), max_commands=30, on_reply=acknowledge
    )
    async with service.db.read() as session:
        entries = [entry_of(r) for r in await repo.entries_after(session, outcome.game_id, 0)]
    for game_id, version, state, events in acks:
        _check_reply(game_id, entries, version, state, events)
    with_dice = next(i for i, e in enumerate(entries) if e.dice and i + 1 >= acks[0][1])
    _, version, state, events = next(a for a in acks if a[1] >= with_dice + 1)
    silent = [
        *entries[:with_dice],
        replace(entries[with_dice], events=()),
        *entries[with_dice + 1 :],
    ]
    die = entries[with_dice].dice[0]
    other = replace(die, value=die.value % 6 + 1)
    loaded = replace(entries[with_dice], dice=(other, *entries[with_dice].dice[1:]))
    rolled = [*entries[:with_dice], loaded, *entries[with_dice + 1 :]]
    for changed in (silent, rolled):
        with pytest.raises(AssertionError):
            for ack in acks:
                _check_reply(ack[0], changed, ack[1], ack[2], ack[3])
