"""partial indexes of the orders in force (issue 14).

Every order mail reads every power's orders in force for the open phase and the seat's blocks
for later phases. SQLite answered that condition (an OR of the two) by going through every
order of the game, superseded versions and past phases included, so an order mail cost more
as the game grew. These indexes hold only the rows that reading wants.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

IN_FORCE = sa.text("superseded_at IS NULL")
AHEAD = sa.text("superseded_at IS NULL AND kind <> 'current'")


def upgrade() -> None:
    op.create_index(
        'ix_orders_current', 'orders', ['game_id', 'epoch', 'phase'], sqlite_where=IN_FORCE, postgresql_where=IN_FORCE
    )
    op.create_index('ix_orders_ahead', 'orders', ['seat_id'], sqlite_where=AHEAD, postgresql_where=AHEAD)


def downgrade() -> None:
    op.drop_index('ix_orders_ahead', table_name='orders')
    op.drop_index('ix_orders_current', table_name='orders')
