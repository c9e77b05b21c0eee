"""Shared fixtures: real databases (a SQLite file, a PostgreSQL server) and the game service.

PostgreSQL: the admin URL comes from ``VAHALITE_TEST_PG`` (default: the local server, user
postgres). Tests get a database of their own, created and dropped here. Without a server the
PostgreSQL tests skip with the reason, except in CI (``CI=true``), where they fail instead:
CI must run them.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import insert, select

from vahalite_bot.app import Actor, GameService, Outcome, autoplay
from vahalite_bot.app.book import remind_before
from vahalite_bot.app.replay import Entry, fold
from vahalite_bot.codex.loader import all_sheets, demo_factions
from vahalite_bot.rules.dice import DiceStream
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.rules.sheets import UnitSheet
from vahalite_bot.rules.state import GameState, PendingPlacement
from vahalite_bot.store import repository as repo
from vahalite_bot.store.database import Database, open_database
from vahalite_bot.store.models import Deadline, Game, GameSetup, LogEntry, Player, Snapshot

PG_ADMIN_URL = os.environ.get(
    "VAHALITE_TEST_PG", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
)
BACKENDS = ("sqlite", "postgresql")


# -- PostgreSQL -----------------------------------------------------------------------------
def _asyncpg_dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def _database_url(name: str) -> str:
    base, _, _ = PG_ADMIN_URL.rpartition("/")
    return f"{base}/{name}"


async def _pg_admin(statement: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(_asyncpg_dsn(PG_ADMIN_URL), timeout=5)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


_pg_problem: list[str | None] = []


def pg_unavailable() -> str | None:
    """Why PostgreSQL tests cannot run here (None: a server answers). Asked once."""
    if not _pg_problem:
        try:
            asyncio.run(_pg_admin("SELECT 1"))
            _pg_problem.append(None)
        except Exception as error:
            _pg_problem.append(f"no PostgreSQL at {PG_ADMIN_URL}: {error!r}")
    return _pg_problem[0]


def require_pg() -> None:
    reason = pg_unavailable()
    if reason is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must run the PostgreSQL tests: {reason}")
        pytest.skip(reason)


def new_pg_database() -> tuple[str, str]:
    """A fresh, empty database: (its name, its URL)."""
    require_pg()
    name = f"vahalite_test_{secrets.token_hex(6)}"
    asyncio.run(_pg_admin(f'CREATE DATABASE "{name}"'))
    return name, _database_url(name)


def drop_pg_database(name: str) -> None:
    asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


# -- URLs of migrated databases, one per backend for the session -----------------------------
async def _migrate(url: str) -> None:
    db = await open_database(url)
    await db.close()


@pytest.fixture(scope="session")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("db") / "vahalite.db"
    url = f"sqlite+aiosqlite:///{path}"
    asyncio.run(_migrate(url))
    return url


@pytest.fixture(scope="session")
def postgresql_url() -> Iterator[str]:
    name, url = new_pg_database()
    try:
        asyncio.run(_migrate(url))
        yield url
    finally:
        drop_pg_database(name)


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest) -> str:
    """A migrated database on each backend; tests keep apart by their own games and guilds."""
    url: str = request.getfixturevalue(f"{request.param}_url")
    return url


@pytest.fixture(params=BACKENDS)
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A brand-new database with no schema yet, on each backend."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'fresh' / 'vahalite.db'}"
        return
    name, url = new_pg_database()
    try:
        yield url
    finally:
        drop_pg_database(name)


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    database = await open_database(db_url, upgrade=False)  # migrated once per session
    try:
        yield database
    finally:
        await database.close()


# -- time ----------------------------------------------------------------------------------
class Clock:
    """The service's clock in tests: it moves only when told.

    Each test's clock starts 100 days before the previous one's: the databases are shared,
    and firing deadlines must not reach the games earlier tests left behind.
    """

    started = 0

    def __init__(self) -> None:
        Clock.started += 1
        self.now = datetime(2200, 1, 1, 12, 0, tzinfo=UTC) - timedelta(days=100 * Clock.started)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def channel() -> str:
    """A channel (and guild) id no other test uses: the databases are shared per session."""
    return f"chan-{secrets.token_hex(6)}"


# -- the service ---------------------------------------------------------------------------
_SHEETS: dict[str, UnitSheet] = {}


@pytest.fixture
def service(db: Database, clock: Clock) -> GameService:
    """The service on each backend, with the quick test scenario beside the standard one."""
    if not _SHEETS:
        _SHEETS.update(all_sheets(demo_factions()))
    return GameService(
        db,
        clock=clock,
        sheets=_SHEETS,
        scenarios={"standard": STANDARD, "skirmish": autoplay.SKIRMISH},
    )


# The server the Games helper makes its games on. Roles and the administrator flag count only
# on the server the caller speaks for, so the test referee and administrator speak for it.
TEST_GUILD = "test-guild"
REFEREE = Actor("referee-user", roles=frozenset({"referee-role"}), guild=TEST_GUILD)
ADMIN = Actor("admin-user", admin=True, guild=TEST_GUILD)
OUTSIDER = Actor("someone-else", roles=frozenset({"other-role"}), guild=TEST_GUILD)


class Games:
    """Makes games for a test, on TEST_GUILD (whose referee role is REFEREE's), in channels
    of its own; a test that changes the server's settings sets ``guild`` to one of its own.

    A position many tests need (a game in setup, at the start of round 1, with a decision
    pending) is played out once per database through the service, then copied for each
    test that asks: replaying the setup every time would be most of the suite's run time.
    """

    def __init__(self, service: GameService, channel: str, clock: Clock) -> None:
        self.service = service
        self.channel = channel
        self.clock = clock
        self.guild = TEST_GUILD
        self.made = 0
        self.configured = False

    @property
    def admin(self) -> Actor:
        """The administrator of this helper's server."""
        return Actor(ADMIN.user, admin=True, guild=self.guild)

    def next_channel(self) -> str:
        self.made += 1
        return f"{self.channel}-{self.made}"

    async def configure(self) -> None:
        if not self.configured:
            await self.service.configure_server(self.admin, self.guild, referee_role="referee-role")
            self.configured = True

    async def lobby(self) -> Outcome:
        await self.configure()
        return await self.service.create_game(
            self.on_server(autoplay.SOUTH),
            self.next_channel(),
            guild=self.guild,
            scenario="skirmish",
        )

    def on_server(self, actor: Actor) -> Actor:
        """``actor`` speaking from this helper's server (as creating and joining need)."""
        return autoplay.on_server(actor, self.guild)

    async def setup(self, scenario: str = "skirmish") -> Outcome:
        """Both players in, both armies in: the roll-off made, setup begins."""
        return await self.cloned(f"setup-{scenario}", lambda g: g.new_setup(scenario))

    async def new_setup(self, scenario: str = "skirmish") -> Outcome:
        await self.configure()
        armies = autoplay.SKIRMISH_ARMIES if scenario == "skirmish" else None
        return await autoplay.new_game(
            self.service, self.next_channel(), scenario=scenario, armies=armies, guild=self.guild
        )

    async def playing(self, seed: int = 1, scenario: str = "skirmish") -> Outcome:
        """A game at the start of round 1 (every setup step made by random legal choices)."""

        async def build(games: Games) -> Outcome:
            outcome = await games.new_setup(scenario)
            return await autoplay.play(
                games.service, outcome, random.Random(seed), until=autoplay.playing
            )

        return await self.cloned(f"playing-{seed}-{scenario}", build)

    async def made_afresh(self, seed: int = 3) -> Outcome:
        """A game at the start of round 1 made now in this test's guild (not a copy): what
        a server's settings give a new game."""
        made = await autoplay.new_game(
            self.service,
            self.next_channel(),
            scenario="skirmish",
            guild=self.guild,
            armies=autoplay.SKIRMISH_ARMIES,
        )
        return await autoplay.play(self.service, made, random.Random(seed), until=autoplay.playing)

    async def south_on_turn(self, seed: int = 1) -> Outcome:
        """A game in round 1 with south (the imperials) on turn."""

        async def build(games: Games) -> Outcome:
            outcome = await games.playing(seed)
            while outcome.turn_side is not Side.SOUTH:
                outcome = await games.service.ref_end_turn(outcome.game_id, REFEREE)
            return outcome

        return await self.cloned(f"south-{seed}", build)

    async def place(self, game_id: int, **cells: str) -> Outcome:
        """The referee puts units where a test needs them: ``place(id, cap1="C3")``."""
        outcome = None
        for unit, cell in cells.items():
            outcome = await self.service.ref_move_unit(game_id, REFEREE, unit, Cell.parse(cell))
        assert outcome is not None
        return outcome

    async def attack_until(
        self,
        game_id: int,
        actor: Actor,
        unit: str,
        target: str,
        wanted: Callable[[GameState], bool],
    ) -> Outcome:
        """Attack; while the dice give something else, the referee takes it back (burning
        those dice) and the attack is made again."""
        for _ in range(40):
            outcome = await self.service.attack(game_id, actor, unit, target)
            assert outcome.state is not None
            if wanted(outcome.state):
                return outcome
            await self.service.ref_undo(game_id, REFEREE, 1)
        raise AssertionError(f"{unit} never got the wanted result against {target}")

    async def advance_pending(self) -> Outcome:
        """South's captain has killed the archon in melee: E10, south decides."""

        async def build(games: Games) -> Outcome:
            game = await games.south_on_turn()
            await games.place(game.game_id, cap1="C3", arc1="C4")
            await games.service.ref_set_hp(game.game_id, REFEREE, "arc1", 1)
            return await games.attack_until(
                game.game_id, autoplay.SOUTH, "cap1", "arc1", lambda s: bool(s.pending)
            )

        return await self.cloned("advance", build)

    async def placement_pending(self) -> Outcome:
        """North has wrecked the rhino with the tactical squad inside: H5, south places it
        (in north's turn), then north decides on E10."""

        async def build(games: Games) -> Outcome:
            service = games.service
            game_id = (await games.south_on_turn()).game_id
            await games.place(game_id, rhi1="C3", tac1="B3")
            await service.embark(game_id, autoplay.SOUTH, "tac1", "rhi1")
            outcome = await service.end_turn(game_id, autoplay.SOUTH)
            while outcome.turn_side is not Side.NORTH:
                outcome = await service.ref_end_turn(game_id, REFEREE)
            await games.place(game_id, arc1="C4")
            await service.ref_set_hp(game_id, REFEREE, "rhi1", 1)
            return await games.attack_until(
                game_id,
                autoplay.NORTH,
                "arc1",
                "rhi1",
                lambda s: bool(s.pending) and isinstance(s.pending[0], PendingPlacement),
            )

        return await self.cloned("placement", build)

    async def cloned(self, key: str, build: Callable[[Games], Awaitable[Outcome]]) -> Outcome:
        """A copy of the game ``build`` made (once per database), in this test's guild and
        a channel of its own, its turn begun now."""
        await self.configure()
        db = self.service.db
        template = _TEMPLATES.get((str(db.url), key))
        if template is None:
            template = (await build(self)).game_id
            _TEMPLATES[(str(db.url), key)] = template
            await _freeze(db, template)
        game_id = await clone_game(db, template, self.next_channel(), self.guild, self.clock.now)
        return (await self.service.status(game_id)).outcome()

    async def replay(self, game_id: int, dice: DiceStream | None = None) -> GameState | None:
        """The state by a full replay of the game's log from its first entry."""
        entries = [
            Entry(
                line.seq,
                line.kind,
                line.actor,
                line.role,
                line.side,
                line.record,
                line.dice,
                (),
                line.created_at,
            )
            for line in await self.service.game_log(game_id)
        ]
        return fold(None, entries, dice)


_TEMPLATES: dict[tuple[str, str], int] = {}
_NEVER = datetime(9999, 1, 1, tzinfo=UTC)


async def _freeze(db: Database, game_id: int) -> None:
    """A template's deadline never comes: firing deadlines must not play on in it."""
    async with db.write() as session:
        deadline = await repo.get_deadline(session, game_id)
        if deadline is not None and deadline.due_at is not None:
            await repo.update_deadline(session, game_id, {"due_at": _NEVER, "remind_at": _NEVER})


async def clone_game(
    db: Database, game_id: int, channel: str, guild: str | None = None, now: datetime | None = None
) -> int:
    """Copy a game, rows and all, as another game in ``channel`` (and ``guild``); with
    ``now``, its running turn's deadline starts afresh then."""
    async with db.write() as session:
        row = await session.get(Game, game_id)
        assert row is not None
        values = {c.key: getattr(row, c.key) for c in Game.__table__.columns if c.key != "id"}
        values["channel_id"] = channel
        if guild is not None:
            values["guild_id"] = guild
            # N1: a game keeps the forfeit count of the server it was created on.
            settings = await repo.get_settings(session, guild)
            if settings is not None:
                values["missed_turns_forfeit"] = settings.missed_turns_forfeit
        new_id = await repo.add_game(session, values)
        for model in (Player, LogEntry, Snapshot, GameSetup, Deadline):
            table = model.metadata.tables[model.__tablename__]
            rows = (await session.execute(select(table).where(table.c.game_id == game_id))).all()
            if rows:
                await session.execute(
                    insert(table), [{**r._mapping, "game_id": new_id} for r in rows]
                )
        deadline = await repo.get_deadline(session, new_id)
        if now is not None and deadline is not None and deadline.due_at is not None:
            due = now + timedelta(seconds=row.deadline_seconds)
            await repo.update_deadline(
                session,
                new_id,
                {"due_at": due, "remind_at": due - remind_before(row.deadline_seconds)},
            )
    return new_id


@pytest.fixture
def games(service: GameService, channel: str, clock: Clock) -> Games:
    return Games(service, channel, clock)


class _ErrorsLogged(logging.Handler):
    """The product's ERROR records (and worse) during one test."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.split(".")[0] in ("vahalite_bot", "discord"):
            self.records.append(record)


@pytest.fixture(autouse=True)
def _no_error_logged(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test listens to the logs: an error the product (or discord.py inside it) logs in
    this process fails the test unless it is marked ``logs_error`` with a fragment of it.
    The bot run as a process is watched by ``World.close`` the same way."""
    handler = _ErrorsLogged()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
    marker = request.node.get_closest_marker("logs_error")
    expected = list(marker.args) if marker else []
    unexpected = [r for r in handler.records if not any(f in r.getMessage() for f in expected)]
    assert not unexpected, [f"{r.name}: {r.getMessage()}" for r in unexpected]
