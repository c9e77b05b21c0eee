"""idempotency keys keep a digest of their command's arguments (issue 17)

The same key with other arguments is refused instead of answered with the first reply.
Keys stored before have no digest (NULL): "unknown", so a retry under one is accepted as it
was before this revision; they are only as old as a retry window anyway.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 21:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("command_keys", schema=None) as batch_op:
        batch_op.add_column(sa.Column("digest", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("command_keys", schema=None) as batch_op:
        batch_op.drop_column("digest")
