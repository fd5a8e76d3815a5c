"""a mail delivered twice is carried out once (issue 25).

Each stored mail gets the key of what makes two deliveries the same mail (judge.mail.once), with
an index for the lookup of an earlier delivery when a mail is taken. Mail stored before has no
key and is never taken for a duplicate.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0012'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('mail_in', schema=None) as batch_op:
        batch_op.add_column(sa.Column('once_key', sa.String(length=64), nullable=True))
        batch_op.create_index('ix_mail_in_once_key', ['once_key'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('mail_in', schema=None) as batch_op:
        batch_op.drop_index('ix_mail_in_once_key')
        batch_op.drop_column('once_key')
