"""press: the council seat of the member who wrote (issue: HISTORY named a council member's address).

A council member's press is headed "Broadcast from the Ambassador 1 of Turkey..." in every
reader's mail; HISTORY rebuilds that header from the stored message, so the message keeps the
member's role and rank. Rows stored before have neither: HISTORY names the power alone for them.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0015'
down_revision: str | None = '0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.add_column(sa.Column('sender_member_role', sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column('sender_member_rank', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.drop_column('sender_member_rank')
        batch_op.drop_column('sender_member_role')
