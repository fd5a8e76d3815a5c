"""orders: each stored sheet's orders as values beside their text (issue 27: orders as values).

A sheet of plain orders is read back from ``order_values`` (:mod:`judge.core.order_json`), not by
reading its text again. Versions stored before have none (NULL) and are read from their text,
as IF blocks, preference lists and PHASE blocks still are.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0016'
down_revision: str | None = '0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.add_column(sa.Column('order_values', sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_column('order_values')
