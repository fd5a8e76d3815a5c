"""partial indexes of the mail still to process (issue 14).

The worker claims the oldest pending mail of a sender whose earlier mail is done. On
PostgreSQL, every update of a pending row (the attempt counted, the lease, the mail processed)
left a dead entry in the full indexes on ``(state, id)`` and ``(sender_key, state, id)``; the
claim read the pending range with a bitmap scan, which never marks dead entries, so each claim
visited every version of every mail processed since the last vacuum: PostgreSQL's CPU per mail
grew with the mail processed (6 ms a mail after 600 mails, 20 ms after 1,000). These indexes
hold only pending rows, in id order: the claim walks them in order, and the entries of rows
no longer pending are marked dead on the way and skipped after. On SQLite they are smaller
versions of the same indexes.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PENDING = sa.text("state IN ('received', 'failed')")


def upgrade() -> None:
    op.drop_index('ix_mail_in_state_id', table_name='mail_in')
    op.drop_index('ix_mail_in_sender_key_state_id', table_name='mail_in')
    op.create_index('ix_mail_in_pending', 'mail_in', ['id'], sqlite_where=PENDING, postgresql_where=PENDING)
    op.create_index(
        'ix_mail_in_pending_sender', 'mail_in', ['sender_key', 'id'], sqlite_where=PENDING, postgresql_where=PENDING
    )


def downgrade() -> None:
    op.drop_index('ix_mail_in_pending_sender', table_name='mail_in')
    op.drop_index('ix_mail_in_pending', table_name='mail_in')
    op.create_index('ix_mail_in_sender_key_state_id', 'mail_in', ['sender_key', 'state', 'id'])
    op.create_index('ix_mail_in_state_id', 'mail_in', ['state', 'id'])
