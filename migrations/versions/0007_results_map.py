"""the results mail's map is drawn when the mail is sent (issue 14, for issue 16's maps).

``mail_out.map_phase_id`` names the processed phase whose picture the sender
attaches to that mail at delivery time, so drawing the board (tens of
milliseconds of CPU) no longer happens inside the transaction that processes
the phase and holds its game's row lock. Null for every other mail, and when
the phase record is gone (a rollback): the text is complete without it.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('mail_out', schema=None) as batch_op:
        batch_op.add_column(sa.Column('map_phase_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f('fk_mail_out_map_phase_id_phases'), 'phases', ['map_phase_id'], ['id'], ondelete='SET NULL'
        )


def downgrade() -> None:
    with op.batch_alter_table('mail_out', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_mail_out_map_phase_id_phases'), type_='foreignkey')
        batch_op.drop_column('map_phase_id')
