"""proof of ownership, sign-on throttling and takeover approvals.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('address_claims',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('confirm_address', sa.String(length=320), nullable=False),
    sa.Column('requester', sa.String(length=320), nullable=False),
    sa.Column('person_id', sa.Integer(), nullable=False),
    sa.Column('payload', sa.JSON(none_as_null=True), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['person_id'], ['people.id'], name=op.f('fk_address_claims_person_id_people'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_address_claims')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_address_claims_token_hash'))
    )
    with op.batch_alter_table('address_claims', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_address_claims_confirm_address'), ['confirm_address'], unique=False)
        batch_op.create_index(batch_op.f('ix_address_claims_person_id'), ['person_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_address_claims_requester'), ['requester'], unique=False)

    op.create_table('signon_failures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sender', sa.String(length=320), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('power', sa.String(length=32), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_signon_failures_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_signon_failures'))
    )
    with op.batch_alter_table('signon_failures', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_signon_failures_game_id_power_at'), ['game_id', 'power', 'at'], unique=False)
        batch_op.create_index(batch_op.f('ix_signon_failures_sender_at'), ['sender', 'at'], unique=False)

    op.create_table('signon_lockouts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=32), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('until', sa.DateTime(timezone=True), nullable=False),
    sa.Column('strikes', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_signon_lockouts_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_signon_lockouts'))
    )
    with op.batch_alter_table('signon_lockouts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_signon_lockouts_game_id_power'), ['game_id', 'power'], unique=True)

    op.create_table('takeover_requests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=32), nullable=False),
    sa.Column('person_id', sa.Integer(), nullable=False),
    sa.Column('requester', sa.String(length=320), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('requested_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('decision', sa.String(length=16), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_takeover_requests_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['person_id'], ['people.id'], name=op.f('fk_takeover_requests_person_id_people'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_takeover_requests'))
    )
    with op.batch_alter_table('takeover_requests', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_takeover_requests_game_id_power'), ['game_id', 'power'], unique=False)
        batch_op.create_index(batch_op.f('ix_takeover_requests_person_id'), ['person_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('takeover_requests', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_takeover_requests_person_id'))
        batch_op.drop_index(batch_op.f('ix_takeover_requests_game_id_power'))

    op.drop_table('takeover_requests')
    with op.batch_alter_table('signon_lockouts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_signon_lockouts_game_id_power'))

    op.drop_table('signon_lockouts')
    with op.batch_alter_table('signon_failures', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_signon_failures_sender_at'))
        batch_op.drop_index(batch_op.f('ix_signon_failures_game_id_power_at'))

    op.drop_table('signon_failures')
    with op.batch_alter_table('address_claims', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_address_claims_requester'))
        batch_op.drop_index(batch_op.f('ix_address_claims_person_id'))
        batch_op.drop_index(batch_op.f('ix_address_claims_confirm_address'))

    op.drop_table('address_claims')
