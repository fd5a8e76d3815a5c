"""the map a mail carries is drawn in its reader's language (issue 28).

A mail that asks the sender for a map (a results mail, the Game Starting mail) records the language
its text was written in, so the picture's title, legend and labels agree with it. Mail queued
before has none and gets the English picture, as before.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0013'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('mail_out', schema=None) as batch_op:
        batch_op.add_column(sa.Column('map_language', sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('mail_out', schema=None) as batch_op:
        batch_op.drop_column('map_language')
