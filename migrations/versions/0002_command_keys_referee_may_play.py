"""idempotency keys; whether a referee who plays may override their own game

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 18:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "command_keys",
        sa.Column("scope", sa.String(length=80), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("command", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("answer", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_command_keys_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("scope", "key", name=op.f("pk_command_keys")),
    )
    with op.batch_alter_table("server_settings", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "referee_may_play", sa.Boolean(), server_default=sa.text("false"), nullable=False
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("server_settings", schema=None) as batch_op:
        batch_op.drop_column("referee_may_play")
    op.drop_table("command_keys")
