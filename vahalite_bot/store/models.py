"""The schema, as SQLAlchemy 2 declarative models (Alembic migrations in ``migrations/``).

A game is its row (with a version number that every command bumps), its two players, its
append-only log, and snapshots of the state at the start of every turn. The log is the
truth; snapshots are a cache of it that loading starts from.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

# Stable constraint names, so that migrations can name what they drop.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ID = 64  # Discord snowflakes and role ids, stored as text


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware time: SQLite keeps no zone, so times are stored in UTC and read back
    as UTC; a naive time is refused rather than guessed."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: pass a timezone-aware time")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {datetime: UTCDateTime, dict[str, Any]: JSON}


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    guild_id: Mapped[str | None] = mapped_column(String(ID))
    channel_id: Mapped[str] = mapped_column(String(ID))
    creator_id: Mapped[str] = mapped_column(String(ID))
    # lobby (waiting for players and armies), setup, playing, ended
    status: Mapped[str] = mapped_column(String(16))
    scenario_id: Mapped[str] = mapped_column(String(64))
    points_limit: Mapped[int] = mapped_column(Integer)
    language: Mapped[str] = mapped_column(String(8))
    deadline_seconds: Mapped[int] = mapped_column(Integer)
    remind_seconds: Mapped[int | None] = mapped_column(Integer)  # None: book.remind_before
    # M1-M9 switched on, "M2,M7" ("" for none): chosen in the lobby, copied into the setup
    # at B1, which is what replay reads.
    house_rules: Mapped[str] = mapped_column(String(64), server_default=text("''"))
    # Bumped by every command; equals the number of log entries (the last seq).
    version: Mapped[int] = mapped_column(Integer)
    seed: Mapped[bytes] = mapped_column(LargeBinary(32))  # K2: secret until the game ends
    commitment: Mapped[str] = mapped_column(String(64))  # K2: published at creation
    seed_revealed: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    paused: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    # Who paused: "referee" (None: a game paused before this was kept counts as the
    # referee's) or "players" (by both players' consent); only they lift it (rulebook N1, N2).
    paused_by: Mapped[str | None] = mapped_column(String(16))
    # N1: missed turns in a row that forfeit, as the server said at creation (None: a game
    # from before this was kept, without a server's setting: the config file's).
    missed_turns_forfeit: Mapped[int | None] = mapped_column(Integer)
    # An open request to undo with the opponent's consent: who asked, which entries.
    undo_request: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    winner: Mapped[str | None] = mapped_column(String(8))
    created_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]

    __table_args__ = (
        # One game at a time per channel (DESIGN.md), enforced where two processes meet.
        Index(
            "uq_games_channel_active",
            "channel_id",
            unique=True,
            sqlite_where=text("status <> 'ended'"),
            postgresql_where=text("status <> 'ended'"),
        ),
    )


class Player(Base):
    __tablename__ = "players"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    side: Mapped[str] = mapped_column(String(8), primary_key=True)  # south (creator), north
    user_id: Mapped[str] = mapped_column(String(ID))
    joined_at: Mapped[datetime]
    roster: Mapped[dict[str, Any] | None] = mapped_column(
        JSON(none_as_null=True)
    )  # hidden until both are in
    missed_turns: Mapped[int] = mapped_column(Integer, server_default=text("0"))  # N1, in a row
    # K2: the word the player mixed into the dice seed at joining (docs/dice.md), if any.
    word: Mapped[str | None] = mapped_column(String(ID))

    __table_args__ = (UniqueConstraint("game_id", "user_id"),)


class LogEntry(Base):
    """One line of a game's log (K1, N2): what was done, by whom, with which dice, when.

    Never updated nor deleted: an undo is a later entry naming the entries it takes back.
    """

    __tablename__ = "log_entries"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1, 2, 3, ... per game
    kind: Mapped[str] = mapped_column(String(16))  # action, override, undo, lobby, start, note
    actor: Mapped[str | None] = mapped_column(String(ID))  # None: the bot itself
    role: Mapped[str] = mapped_column(String(16))  # player, referee, system
    side: Mapped[str | None] = mapped_column(String(8))
    record: Mapped[dict[str, Any]] = mapped_column(JSON)  # the action or service record
    dice: Mapped[list[Any]] = mapped_column(JSON)  # [[position, purpose, value], ...]
    events: Mapped[list[Any]] = mapped_column(JSON)  # what it produced, for the log view
    created_at: Mapped[datetime]


# A log row's columns as its readers take them (``replay.entry_of``), and those stored as JSON.
ENTRY_COLUMNS = ("seq", "kind", "actor", "role", "side", "record", "dice", "events", "created_at")
ENTRY_JSON = ("record", "dice", "events")


class Snapshot(Base):
    """The state after entry ``seq``, taken when a turn (or setup step) begins."""

    __tablename__ = "snapshots"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    turn: Mapped[str] = mapped_column(String(64))
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime]


class GameSetup(Base):
    """The fielded armies and board, kept apart from the game row that every command reads.

    The same setup is in the log's start entry; this copy spares loading a scan for it.
    """

    __tablename__ = "game_setups"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)


class Deadline(Base):
    """The running turn's deadline (N1); ``due_at`` is empty while the game is paused."""

    __tablename__ = "deadlines"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    turn_seq: Mapped[int] = mapped_column(Integer)  # the snapshot seq of the turn it ends
    side: Mapped[str] = mapped_column(String(8))
    due_at: Mapped[datetime | None] = mapped_column(index=True)
    remind_at: Mapped[datetime | None] = mapped_column(index=True)
    paused_left: Mapped[int | None] = mapped_column(Integer)  # seconds left when paused


class Announcement(Base):
    """The outbox: what the deadline loop committed and must post in the game's channel (a
    reminder, an expired turn, a forfeit), written in the transaction that decided it.

    A process claims a row for ``claimed_until`` (passed over by the others meanwhile),
    posts it with a nonce Discord deduplicates, and marks it posted; a row whose claimer
    died is claimed again once its claim runs out.
    """

    __tablename__ = "announcements"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))  # reminder, expired
    version_from: Mapped[int] = mapped_column(Integer)  # the log entries it tells: after this
    version: Mapped[int] = mapped_column(Integer)  # ... up to this one
    data: Mapped[dict[str, Any]] = mapped_column(JSON)  # who, which side, how many, when
    created_at: Mapped[datetime]
    claimed_until: Mapped[datetime | None]
    posted_at: Mapped[datetime | None]

    __table_args__ = (
        Index(
            "ix_announcements_unposted",
            "id",
            sqlite_where=text("posted_at IS NULL"),
            postgresql_where=text("posted_at IS NULL"),
        ),
    )


class UserSettings(Base):
    """Per user, on every server: whether deadline reminders also come by direct message."""

    __tablename__ = "user_settings"

    user_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    dm_reminders: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    updated_at: Mapped[datetime]


class ServerSettings(Base):
    """Per Discord server (guild): who referees, the language and the default deadline."""

    __tablename__ = "server_settings"

    guild_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    referee_role: Mapped[str | None] = mapped_column(String(ID))
    # None: never chosen, so a new game takes its creator's locale (docs/discord.md).
    language: Mapped[str | None] = mapped_column(String(8))
    deadline_hours: Mapped[int] = mapped_column(Integer)
    missed_turns_forfeit: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime]
    # May a referee who plays in a game override it (their own game)? Off unless allowed.
    referee_may_play: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    remind_hours: Mapped[int | None] = mapped_column(Integer)  # None: the default rule


class CommandKey(Base):
    """A command applied under an idempotency key, and what it answered (issue 10).

    The same key again (a double click, a gateway replay, a network retry, from any process
    and after a restart) gets this answer back and changes nothing. ``scope`` is what the key
    is unique within: ``game:<id>`` for a game's commands, ``channel:<id>`` for creating a
    game there, ``guild:<id>`` for a server's settings.
    """

    __tablename__ = "command_keys"

    scope: Mapped[str] = mapped_column(String(80), primary_key=True)
    key: Mapped[str] = mapped_column(String(ID), primary_key=True)
    command: Mapped[str] = mapped_column(String(32))  # the method: a key is not for another
    # SHA-256 (hex) of the command's arguments: the same key with others is refused. None:
    # stored before digests (migration 0007), taken for a retry as it was then.
    digest: Mapped[str | None] = mapped_column(String(64))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    # The answer, as little as rebuilds it: the log and its snapshots hold the rest.
    answer: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime]
