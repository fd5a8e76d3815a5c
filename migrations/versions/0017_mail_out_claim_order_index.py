"""the sender's claim walks the outbox in its own order (issue 28).

The claim takes the oldest pending mails due, ``ORDER BY next_attempt_at, id``, a batch at a
time. The index on ``(state, next_attempt_at)`` gave no order among mails due at the same time,
and a round of processing queues all its mails at one time: each claim read every mail due (its
whole message) and sorted them to take twenty, so the claim's cost grew with the outbox's
backlog (a deadline storm: thousands). With ``id`` in the index the claim walks the pending
range in its order and stops at the batch; every query the former index served it serves.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = '0017'
down_revision: str | None = '0016'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index('ix_mail_out_state_next_attempt_at', table_name='mail_out')
    op.create_index('ix_mail_out_state_next_attempt_at_id', 'mail_out', ['state', 'next_attempt_at', 'id'])


def downgrade() -> None:
    op.drop_index('ix_mail_out_state_next_attempt_at_id', table_name='mail_out')
    op.create_index('ix_mail_out_state_next_attempt_at', 'mail_out', ['state', 'next_attempt_at'])
