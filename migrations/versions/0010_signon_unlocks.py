"""one-time unlock codes of sign-on lockouts (issue 25).

A power's lockout now holds its own player too (a forger of his address guessed freely); the
player gets a one-time code by mail to pass it, kept here as its hash.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'signon_unlocks',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('power', sa.String(length=32), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('address', sa.String(length=320), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_signon_unlocks_game_id_games'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_signon_unlocks')),
    )
    op.create_index('ix_signon_unlocks_game_id_power', 'signon_unlocks', ['game_id', 'power'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_signon_unlocks_game_id_power', table_name='signon_unlocks')
    op.drop_table('signon_unlocks')
