"""bounds on confirmation codes and on WHOIS answers (issue 25).

The judge counts the confirmation codes it mailed in the last hour and day (per requesting
address, per domain, in all) from ``address_claims.created_at``, now indexed; and the
registrations WHOIS showed each sender in the last day, in the new ``whois_lookups``.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('address_claims', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_address_claims_created_at'), ['created_at'], unique=False)
    op.create_table('whois_lookups',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('sender', sa.String(length=320), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('shown', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_whois_lookups'))
    )
    with op.batch_alter_table('whois_lookups', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_whois_lookups_at'), ['at'], unique=False)
        batch_op.create_index(batch_op.f('ix_whois_lookups_sender_at'), ['sender', 'at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('whois_lookups', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_whois_lookups_sender_at'))
        batch_op.drop_index(batch_op.f('ix_whois_lookups_at'))
    op.drop_table('whois_lookups')
    with op.batch_alter_table('address_claims', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_address_claims_created_at'))
