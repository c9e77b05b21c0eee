"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-30 07:49:15.238801
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("guild_id", sa.String(length=64), nullable=True),
        sa.Column("channel_id", sa.String(length=64), nullable=False),
        sa.Column("creator_id", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("scenario_id", sa.String(length=64), nullable=False),
        sa.Column("points_limit", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("deadline_seconds", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seed", sa.LargeBinary(length=32), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("seed_revealed", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("paused", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("undo_request", sa.JSON(), nullable=True),
        sa.Column("winner", sa.String(length=8), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(
            "uq_games_channel_active",
            ["channel_id"],
            unique=True,
            sqlite_where=sa.text("status <> 'ended'"),
            postgresql_where=sa.text("status <> 'ended'"),
        )

    op.create_table(
        "server_settings",
        sa.Column("guild_id", sa.String(length=64), nullable=False),
        sa.Column("referee_role", sa.String(length=64), nullable=True),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("deadline_hours", sa.Integer(), nullable=False),
        sa.Column("missed_turns_forfeit", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", name=op.f("pk_server_settings")),
    )
    op.create_table(
        "deadlines",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn_seq", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=8), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("remind_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("paused_left", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_deadlines_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_deadlines")),
    )
    with op.batch_alter_table("deadlines", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_deadlines_due_at"), ["due_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_deadlines_remind_at"), ["remind_at"], unique=False)

    op.create_table(
        "game_setups",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_setups_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_setups")),
    )
    op.create_table(
        "log_entries",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("actor", sa.String(length=64), nullable=True),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("side", sa.String(length=8), nullable=True),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("dice", sa.JSON(), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_log_entries_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_log_entries")),
    )
    op.create_table(
        "players",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=8), nullable=False),
        sa.Column("user_id", sa.String(length=64), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("roster", sa.JSON(), nullable=True),
        sa.Column("missed_turns", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_players_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "side", name=op.f("pk_players")),
        sa.UniqueConstraint("game_id", "user_id", name=op.f("uq_players_game_id_user_id")),
    )
    op.create_table(
        "snapshots",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("turn", sa.String(length=64), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_snapshots_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_snapshots")),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
    op.drop_table("players")
    op.drop_table("log_entries")
    op.drop_table("game_setups")
    with op.batch_alter_table("deadlines", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_deadlines_remind_at"))
        batch_op.drop_index(batch_op.f("ix_deadlines_due_at"))

    op.drop_table("deadlines")
    op.drop_table("server_settings")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_games_channel_active",
            sqlite_where=sa.text("status <> 'ended'"),
            postgresql_where=sa.text("status <> 'ended'"),
        )

    op.drop_table("games")
