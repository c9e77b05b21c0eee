"""reminder hours: per server, and kept by each game from its creation (N1)

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 19:25:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Nullable both: a server that set nothing, and every game before, keep the default rule.
    with op.batch_alter_table("server_settings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("remind_hours", sa.Integer(), nullable=True))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("remind_seconds", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("remind_seconds")
    with op.batch_alter_table("server_settings", schema=None) as batch_op:
        batch_op.drop_column("remind_hours")
