"""Data functions: each takes the session of the caller's transaction (which it never ends)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Executable,
    Integer,
    Select,
    Table,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from vahalite_bot.store.gamerow import FIELDS, GameRow
from vahalite_bot.store.later import LaterInsert
from vahalite_bot.store.models import (
    Announcement,
    Base,
    CommandKey,
    Deadline,
    Game,
    GameSetup,
    LogEntry,
    Player,
    ServerSettings,
    Snapshot,
    UserSettings,
)


def _table(model: type[Base]) -> Table:
    return model.metadata.tables[model.__tablename__]


# -- games ------------------------------------------------------------------------------------
_GAMES = _table(Game)
# Core, built once: every command reads the row, and the ORM's identity map, attribute
# instrumentation and per-call statement building cost more than the query itself.
_GAME_ROW = select(*(_GAMES.c[name] for name in FIELDS))
_GAME_BY_ID = _GAME_ROW.where(_GAMES.c.id == bindparam("game"))
_GAME_VERSION = select(_GAMES.c.version).where(_GAMES.c.id == bindparam("game"))
_BUMP = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game"), _GAMES.c.version == bindparam("read_version"))
    .returning(
        select(_table(Deadline).c.due_at)
        .where(_table(Deadline).c.game_id == bindparam("game"))
        .scalar_subquery()
    )
)


async def _one_game(
    session: AsyncSession, stmt: Select[Any], params: Mapping[str, Any]
) -> GameRow | None:
    row = (await session.execute(stmt, params)).mappings().one_or_none()
    return None if row is None else GameRow.of(row)


async def get_game(session: AsyncSession, game_id: int) -> GameRow | None:
    return await _one_game(session, _GAME_BY_ID, {"game": game_id})


async def game_version(session: AsyncSession, game_id: int) -> int | None:
    """Only the version: enough to tell whether a row read earlier is still the latest."""
    version = (await session.execute(_GAME_VERSION, {"game": game_id})).scalar_one_or_none()
    return None if version is None else int(version)


async def lock_game(session: AsyncSession, game_id: int, skip_locked: bool) -> GameRow | None:
    """The game row, locked for this transaction (PostgreSQL; SQLite's lock is the file's).

    With ``skip_locked`` a row another transaction holds is passed over (None), so that two
    processes firing deadlines never work on one game at once.
    """
    stmt = _GAME_BY_ID.with_for_update(skip_locked=skip_locked)
    return await _one_game(session, stmt, {"game": game_id})


async def active_game_in(session: AsyncSession, channel: str) -> GameRow | None:
    stmt = _GAME_ROW.where(_GAMES.c.channel_id == channel, _GAMES.c.status != "ended")
    return await _one_game(session, stmt, {})


async def games_of_player(session: AsyncSession, user: str, guild: str | None) -> list[int]:
    """The unfinished games ``user`` plays on ``guild`` (None: games without a server)."""
    on_guild = Game.guild_id.is_(None) if guild is None else Game.guild_id == guild
    stmt = (
        select(Game.id)
        .join(Player, Player.game_id == Game.id)
        .where(Player.user_id == user, Game.status != "ended", on_guild)
        .order_by(Game.id)
    )
    return [int(g) for g in (await session.execute(stmt)).scalars()]


async def add_game(session: AsyncSession, values: Mapping[str, Any]) -> int:
    result = await session.execute(insert(Game).values(**values).returning(Game.id))
    return int(result.scalar_one())


@dataclass(frozen=True, slots=True)
class Bumped:
    """The game row was written; ``due_at`` is its deadline's as it stood then."""

    due_at: datetime | None


@dataclass(frozen=True, slots=True)
class GameWrite:
    """The rows a command writes with the game's row: its idempotency key's (or None), its
    log entries and snapshots, all before the game's update (on SQLite they ride in its
    trip, ``sqlite_driver.LATER``, and a key already stored fails it there); and after it,
    the fresh deadline of a turn that began (or None)."""

    key: Mapping[str, Any] | None = None
    entries: Sequence[Mapping[str, Any]] = ()
    snapshots: Sequence[Mapping[str, Any]] = ()
    deadline: Mapping[str, Any] | None = None


async def write_game(
    session: AsyncSession,
    game_id: int,
    version: int,
    values: Mapping[str, Any],
    rows: GameWrite = GameWrite(),
) -> Bumped | None:
    """Write ``rows`` and the game row, if it is still at ``version``: None means another
    writer won (and nothing after the game's update was written).

    The update returns the game's deadline, for the command's answer to show it (the status
    at the new version) without a statement more. A deadline's ``due_at`` is written only
    by a command that bumps the game (so this statement, had it raced one, would have been
    refused), and by the deadline loop's repair of a deadline left from an ended game or
    turn (game row held, version unchanged): a command racing that repair on PostgreSQL may
    show the old deadline until the next version.

    The statements are built once and run on the session's connection in one greenlet:
    through the ORM session and a greenlet each, SQLAlchemy's own work cost a keyed move
    more than its SQL. The same statements, parameters and order as one call each.
    """
    # The values go as parameters of one prebuilt statement (they name the columns to set),
    # not into a new statement per call whose cache key SQLAlchemy must work out each time.
    params = {"game": game_id, "read_version": version, **values}

    def write(sync: Session) -> Bumped | None:
        connection = sync.connection()
        # Queued on SQLite's driver for the update's trip, past SQLAlchemy (``later.py``).
        if rows.key is not None:
            _ADD_KEY.run(connection, (rows.key,))
        _ADD_ENTRIES.run(connection, rows.entries)
        _ADD_SNAPSHOTS.run(connection, rows.snapshots)
        row = connection.execute(_BUMP, params).one_or_none()
        if row is None:
            return None
        if rows.deadline is not None:
            upsert = _deadline_upsert(connection.dialect.name)
            connection.execute(upsert, _deadline_row(game_id, rows.deadline))
        return Bumped(row[0])

    return await session.run_sync(write)


# -- players ----------------------------------------------------------------------------------
async def get_players(session: AsyncSession, game_id: int) -> list[Player]:
    stmt = select(Player).where(Player.game_id == game_id).execution_options(populate_existing=True)
    return list((await session.execute(stmt)).scalars())


async def add_player(session: AsyncSession, values: Mapping[str, Any]) -> None:
    await session.execute(insert(Player).values(**values))


async def update_player(
    session: AsyncSession, game_id: int, side: str, values: Mapping[str, Any]
) -> None:
    stmt = (
        update(Player)
        .where(Player.game_id == game_id, Player.side == side)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    await session.execute(stmt)


# -- the log and its snapshots ----------------------------------------------------------------
# Written with the next statement's trip on SQLite (``sqlite_driver.LATER``): nothing is
# read back from them. (A comment to PostgreSQL.)
_ADD_ENTRIES = LaterInsert(_table(LogEntry))
_ADD_SNAPSHOTS = LaterInsert(_table(Snapshot))


async def entries_after(session: AsyncSession, game_id: int, seq: int) -> list[LogEntry]:
    stmt = (
        select(LogEntry)
        .where(LogEntry.game_id == game_id, LogEntry.seq > seq)
        .order_by(LogEntry.seq)
    )
    return list((await session.execute(stmt)).scalars())


async def last_seq(session: AsyncSession, game_id: int) -> int:
    stmt = select(func.coalesce(func.max(LogEntry.seq), 0)).where(LogEntry.game_id == game_id)
    return int((await session.execute(stmt)).scalar_one())


async def latest_snapshot(
    session: AsyncSession, game_id: int, before: int | None = None
) -> Snapshot | None:
    """The newest snapshot (taken after an entry with seq below ``before``, if given)."""
    stmt = select(Snapshot).where(Snapshot.game_id == game_id)
    if before is not None:
        stmt = stmt.where(Snapshot.seq < before)
    stmt = stmt.order_by(Snapshot.seq.desc()).limit(1)
    return (await session.execute(stmt)).scalar_one_or_none()


_RECENT_TURNS = (
    select(Snapshot.seq, Snapshot.turn)
    .where(Snapshot.game_id == bindparam("game"))
    .order_by(Snapshot.seq.desc())
    .limit(bindparam("count", type_=Integer))
)


async def recent_turns(session: AsyncSession, game_id: int, count: int) -> list[tuple[int, str]]:
    """The newest ``count`` snapshots' (seq, turn key), newest first, without their states.
    (Built once: every turn start's recap asks.)"""
    result = await session.execute(_RECENT_TURNS, {"game": game_id, "count": count})
    return [(seq, turn) for seq, turn in result.all()]


async def drop_snapshots_from(session: AsyncSession, game_id: int, seq: int) -> None:
    """Snapshots are a cache of the log: an undo reaching back to ``seq`` voids those after."""
    stmt = delete(Snapshot).where(Snapshot.game_id == game_id, Snapshot.seq >= seq)
    await session.execute(stmt.execution_options(synchronize_session=False))


async def get_setup(session: AsyncSession, game_id: int) -> dict[str, Any] | None:
    row = await session.get(GameSetup, game_id)
    return None if row is None else row.setup


async def add_setup(session: AsyncSession, game_id: int, setup: dict[str, Any]) -> None:
    await session.execute(insert(GameSetup).values(game_id=game_id, setup=setup))


# -- deadlines --------------------------------------------------------------------------------
async def get_deadline(session: AsyncSession, game_id: int) -> Deadline | None:
    stmt = (
        select(Deadline)
        .where(Deadline.game_id == game_id)
        .execution_options(populate_existing=True)
    )
    return (await session.execute(stmt)).scalar_one_or_none()


async def put_deadline(
    session: AsyncSession, game_id: int, values: Mapping[str, Any] | None
) -> None:
    """Replace the game's deadline (or remove it, with None)."""
    if values is None:
        await session.execute(_DROP_DEADLINE, {"game": game_id})
        return
    upsert = _deadline_upsert(session.get_bind().dialect.name)
    await session.execute(upsert, _deadline_row(game_id, values))


_DEADLINES = _table(Deadline)
_DEADLINE_COLUMNS = tuple(c.name for c in _DEADLINES.columns if not c.primary_key)
_DROP_DEADLINE = delete(_DEADLINES).where(_DEADLINES.c.game_id == bindparam("game"))
_UPSERTS: dict[str, Executable] = {}


def _deadline_upsert(name: str) -> Executable:
    """INSERT … ON CONFLICT (game_id) DO UPDATE, in the database ``name``'s own dialect.

    One statement, not a delete and an insert: a new turn's deadline is written by a third
    of all commands."""
    stmt = _UPSERTS.get(name)
    if stmt is None:
        dialect_insert = postgresql.insert if name == "postgresql" else sqlite.insert
        upsert = dialect_insert(_DEADLINES)
        stmt = _UPSERTS[name] = upsert.on_conflict_do_update(
            index_elements=[_DEADLINES.c.game_id],
            set_={column: upsert.excluded[column] for column in _DEADLINE_COLUMNS},
        )
    return stmt


def _deadline_row(game_id: int, values: Mapping[str, Any]) -> dict[str, Any]:
    """Every column is set, so nothing of the old deadline is left."""
    row = {name: values.get(name) for name in _DEADLINE_COLUMNS}
    row["game_id"] = game_id
    return row


async def update_deadline(session: AsyncSession, game_id: int, values: Mapping[str, Any]) -> None:
    stmt = (
        update(Deadline)
        .where(Deadline.game_id == game_id)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    await session.execute(stmt)


async def games_due(session: AsyncSession, now: datetime, limit: int) -> list[int]:
    """Games whose turn deadline has passed, oldest first (unlocked: a claim comes next)."""
    stmt = (
        select(Deadline.game_id)
        .where(Deadline.due_at <= now)
        .order_by(Deadline.due_at, Deadline.game_id)
        .limit(limit)
    )
    return [int(g) for g in (await session.execute(stmt)).scalars()]


async def claim_reminder(session: AsyncSession, now: datetime) -> Deadline | None:
    """One deadline whose reminder is due, locked (passed over if another process has it)."""
    stmt = (
        select(Deadline)
        .where(Deadline.remind_at <= now)
        .order_by(Deadline.remind_at, Deadline.game_id)
        .limit(1)
        .with_for_update(skip_locked=True)
        .execution_options(populate_existing=True)
    )
    return (await session.execute(stmt)).scalar_one_or_none()


# -- the outbox of announcements ------------------------------------------------------------
async def add_announcement(session: AsyncSession, values: Mapping[str, Any]) -> None:
    await session.execute(insert(Announcement).values(**values))


async def claim_announcements(
    session: AsyncSession, now: datetime, until: datetime, limit: int
) -> list[Announcement]:
    """Unposted announcements nobody holds (or whose holder's claim ran out), oldest first,
    now held until ``until``; rows another transaction is claiming are passed over."""
    stmt = (
        select(Announcement)
        .where(
            Announcement.posted_at.is_(None),
            (Announcement.claimed_until.is_(None)) | (Announcement.claimed_until <= now),
        )
        .order_by(Announcement.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
        .execution_options(populate_existing=True)
    )
    rows = list((await session.execute(stmt)).scalars())
    if rows:
        claim = (
            update(Announcement)
            .where(Announcement.id.in_([r.id for r in rows]))
            .values(claimed_until=until)
            .execution_options(synchronize_session=False)
        )
        await session.execute(claim)
    return rows


async def mark_announced(session: AsyncSession, ids: Sequence[int], now: datetime) -> None:
    stmt = (
        update(Announcement)
        .where(Announcement.id.in_(list(ids)))
        .values(posted_at=now)
        .execution_options(synchronize_session=False)
    )
    await session.execute(stmt)


async def prune_announcements(session: AsyncSession, posted_before: datetime) -> None:
    stmt = (
        delete(Announcement)
        .where(Announcement.posted_at < posted_before)
        .execution_options(synchronize_session=False)
    )
    await session.execute(stmt)


# -- server settings --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class StoredSettings:
    """A row of ``server_settings``, by the same names."""

    guild_id: str
    referee_role: str | None
    language: str | None
    deadline_hours: int
    missed_turns_forfeit: int
    updated_at: datetime
    referee_may_play: bool
    remind_hours: int | None


_SETTINGS = _table(ServerSettings)
# Core, built once: every lobby command and the bot's server settings read it (the ORM's
# get cost more than the query: the identity map, the instance and its instrumentation).
_SETTINGS_BY_GUILD = select(*(_SETTINGS.c[f.name] for f in fields(StoredSettings))).where(
    _SETTINGS.c.guild_id == bindparam("guild")
)


async def get_settings(session: AsyncSession, guild: str) -> StoredSettings | None:
    found = (await session.execute(_SETTINGS_BY_GUILD, {"guild": guild})).one_or_none()
    return None if found is None else StoredSettings(*found)


async def put_settings(session: AsyncSession, guild: str, values: Mapping[str, Any]) -> None:
    await session.execute(
        delete(ServerSettings)
        .where(ServerSettings.guild_id == guild)
        .execution_options(synchronize_session=False)
    )
    await session.execute(insert(ServerSettings).values(guild_id=guild, **values))


# -- user settings ----------------------------------------------------------------------------
async def get_user_settings(session: AsyncSession, user: str) -> UserSettings | None:
    return await session.get(UserSettings, user)


async def put_user_settings(session: AsyncSession, user: str, values: Mapping[str, Any]) -> None:
    await session.execute(
        delete(UserSettings)
        .where(UserSettings.user_id == user)
        .execution_options(synchronize_session=False)
    )
    await session.execute(insert(UserSettings).values(user_id=user, **values))


# -- idempotency keys -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class StoredKey:
    """A row of ``command_keys``: a command applied under a key, and what it answered."""

    scope: str
    key: str
    command: str
    digest: str | None
    game_id: int | None
    answer: dict[str, Any]
    created_at: datetime


_KEYS = _table(CommandKey)
_KEY_FIELDS = tuple(f.name for f in fields(StoredKey))
# Core, built once: every keyed command (all of the bot's) looks its key up and stores it.
_KEY_BY_ID = select(*(_KEYS.c[name] for name in _KEY_FIELDS)).where(
    _KEYS.c.scope == bindparam("scope"), _KEYS.c.key == bindparam("key")
)
_ADD_KEY = LaterInsert(_KEYS)


async def get_command_key(session: AsyncSession, scope: str, key: str) -> StoredKey | None:
    found = (await session.execute(_KEY_BY_ID, {"scope": scope, "key": key})).one_or_none()
    return None if found is None else StoredKey(*found)


async def add_command_key(session: AsyncSession, values: Mapping[str, Any]) -> None:
    """Two writers with one key: the second insert fails as a unique violation (a conflict),
    and its retry finds the first one's answer."""
    await session.execute(_ADD_KEY.statement, dict(values))
