"""the per-mail guard: failed/quarantined inbound mail, durable flood and alarm counters.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('mail_in', schema=None) as batch_op:
        batch_op.add_column(sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=True))

    op.create_table('sender_floods',
    sa.Column('key', sa.String(length=1000), nullable=False),
    sa.Column('arrivals', sa.JSON(none_as_null=True), nullable=False),
    sa.Column('warned', sa.Boolean(), nullable=False),
    sa.Column('last_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('key', name=op.f('pk_sender_floods'))
    )
    with op.batch_alter_table('sender_floods', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sender_floods_last_at'), ['last_at'], unique=False)

    op.create_table('throttles',
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('last_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('suppressed', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('key', name=op.f('pk_throttles'))
    )


def downgrade() -> None:
    op.drop_table('throttles')
    with op.batch_alter_table('sender_floods', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sender_floods_last_at'))
    op.drop_table('sender_floods')
    with op.batch_alter_table('mail_in', schema=None) as batch_op:
        batch_op.drop_column('next_attempt_at')
