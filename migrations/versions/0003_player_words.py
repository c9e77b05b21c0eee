"""player words: each player's entropy for the dice seed (K2, docs/dice.md)

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 18:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Nullable: games created before words existed have none, and keep their dice.
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("word", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("word")
