"""mail that arrives: bounces to the VERP addresses recorded and scored (issue 30).

Each outgoing mail keeps the first bounce that came back for it; each address that bounced has a
score (address_bounces); an observer whose address bounces gets no mail until it writes again.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0014'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'address_bounces',
        sa.Column('address', sa.String(length=320), nullable=False),
        sa.Column('score', sa.Float(), nullable=False),
        sa.Column('scored_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('last_bounce_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('last_mail_id', sa.Integer(), nullable=True),
        sa.Column('last_reason', sa.Text(), nullable=False),
        sa.Column('bounces', sa.Integer(), nullable=False),
        sa.Column('bouncing_since', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('address', name=op.f('pk_address_bounces')),
    )
    with op.batch_alter_table('mail_out', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bounced_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('bounce', sa.Text(), nullable=True))
    with op.batch_alter_table('game_observers', schema=None) as batch_op:
        batch_op.add_column(sa.Column('held_for_bounces', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('game_observers', schema=None) as batch_op:
        batch_op.drop_column('held_for_bounces')
    with op.batch_alter_table('mail_out', schema=None) as batch_op:
        batch_op.drop_column('bounce')
        batch_op.drop_column('bounced_at')
    op.drop_table('address_bounces')
