"""councils, spies and elections (issue 17).

Four tables: ``council_members`` (who sits on which power's council, in
which role, secretly for which power, with their own password hash),
``council_elections`` and ``council_votes`` (the General's elections,
influence votes included), ``council_accusations`` (treason trials). The
game's council options live in ``games.extra_settings["councils"]``.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('council_members',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=32), nullable=False),
    sa.Column('person_id', sa.Integer(), nullable=True),
    sa.Column('role', sa.String(length=16), nullable=False),
    sa.Column('rank', sa.Integer(), nullable=False),
    sa.Column('true_power', sa.String(length=32), nullable=True),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('left_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('onr_count', sa.Integer(), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=True),
    sa.Column('extra', sa.JSON(none_as_null=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_council_members_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['person_id'], ['people.id'], name=op.f('fk_council_members_person_id_people'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_council_members'))
    )
    with op.batch_alter_table('council_members', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_council_members_game_id_power'), ['game_id', 'power'], unique=False)
        batch_op.create_index(batch_op.f('ix_council_members_person_id'), ['person_id'], unique=False)

    op.create_table('council_accusations',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=32), nullable=False),
    sa.Column('accused_member_id', sa.Integer(), nullable=False),
    sa.Column('accuser_member_ids', sa.JSON(none_as_null=True), nullable=False),
    sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('extra', sa.JSON(none_as_null=True), nullable=False),
    sa.ForeignKeyConstraint(['accused_member_id'], ['council_members.id'], name=op.f('fk_council_accusations_accused_member_id_council_members'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_council_accusations_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_council_accusations'))
    )
    with op.batch_alter_table('council_accusations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_council_accusations_accused_member_id'), ['accused_member_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_council_accusations_game_id_power'), ['game_id', 'power'], unique=False)

    op.create_table('council_elections',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=32), nullable=False),
    sa.Column('year', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('deadline_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('winner_member_id', sa.Integer(), nullable=True),
    sa.Column('outcome', sa.String(length=32), nullable=True),
    sa.Column('extra', sa.JSON(none_as_null=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_council_elections_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['winner_member_id'], ['council_members.id'], name=op.f('fk_council_elections_winner_member_id_council_members'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_council_elections'))
    )
    with op.batch_alter_table('council_elections', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_council_elections_game_id_power_year'), ['game_id', 'power', 'year'], unique=False)

    op.create_table('council_votes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('election_id', sa.Integer(), nullable=False),
    sa.Column('voter_member_id', sa.Integer(), nullable=False),
    sa.Column('candidate_member_id', sa.Integer(), nullable=True),
    sa.Column('influence_election_id', sa.Integer(), nullable=True),
    sa.Column('cast_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('extra', sa.JSON(none_as_null=True), nullable=False),
    sa.ForeignKeyConstraint(['candidate_member_id'], ['council_members.id'], name=op.f('fk_council_votes_candidate_member_id_council_members'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['election_id'], ['council_elections.id'], name=op.f('fk_council_votes_election_id_council_elections'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['influence_election_id'], ['council_elections.id'], name=op.f('fk_council_votes_influence_election_id_council_elections'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['voter_member_id'], ['council_members.id'], name=op.f('fk_council_votes_voter_member_id_council_members'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_council_votes')),
    sa.UniqueConstraint('election_id', 'voter_member_id', name=op.f('uq_council_votes_election_id_voter_member_id'))
    )
    with op.batch_alter_table('council_votes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_council_votes_influence_election_id'), ['influence_election_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('council_votes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_council_votes_influence_election_id'))

    op.drop_table('council_votes')
    with op.batch_alter_table('council_elections', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_council_elections_game_id_power_year'))

    op.drop_table('council_elections')
    with op.batch_alter_table('council_accusations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_council_accusations_game_id_power'))
        batch_op.drop_index(batch_op.f('ix_council_accusations_accused_member_id'))

    op.drop_table('council_accusations')
    with op.batch_alter_table('council_members', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_council_members_person_id'))
        batch_op.drop_index(batch_op.f('ix_council_members_game_id_power'))

    op.drop_table('council_members')
