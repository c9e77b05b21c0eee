"""announcements outbox, a forfeit count and who paused kept per game, a server's language
only when chosen (issue 18)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 21:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "announcements",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("version_from", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("posted_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_announcements_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_announcements")),
    )
    op.create_index(
        "ix_announcements_unposted",
        "announcements",
        ["id"],
        unique=False,
        sqlite_where=sa.text("posted_at IS NULL"),
        postgresql_where=sa.text("posted_at IS NULL"),
    )
    # Every running game keeps the count its server says now (the games without a server's
    # settings keep the config file's, read when a deadline fires, as before).
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("missed_turns_forfeit", sa.Integer(), nullable=True))
        # Who paused: "referee" or "players"; a game paused before counts as the referee's.
        batch_op.add_column(sa.Column("paused_by", sa.String(length=16), nullable=True))
    op.execute(
        "UPDATE games SET missed_turns_forfeit = (SELECT s.missed_turns_forfeit"
        " FROM server_settings AS s WHERE s.guild_id = games.guild_id)"
    )
    # Empty: the server never chose a language, and the creator's locale decides.
    with op.batch_alter_table("server_settings", schema=None) as batch_op:
        batch_op.alter_column("language", existing_type=sa.String(length=8), nullable=True)


def downgrade() -> None:
    op.execute("UPDATE server_settings SET language = 'ru' WHERE language IS NULL")
    with op.batch_alter_table("server_settings", schema=None) as batch_op:
        batch_op.alter_column("language", existing_type=sa.String(length=8), nullable=False)
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("paused_by")
        batch_op.drop_column("missed_turns_forfeit")
    op.drop_index("ix_announcements_unposted", table_name="announcements")
    op.drop_table("announcements")
