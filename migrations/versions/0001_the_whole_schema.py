"""The whole schema: people, games, seats, phases, orders, press, mail in and out, audit.

Revision ID: 0001
Revises: 
Create Date: 2026-11-22 23:07:39.163128
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table('games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=32), nullable=False),
    sa.Column('variant', sa.String(length=64), nullable=False),
    sa.Column('rule_options', sa.JSON(none_as_null=True), nullable=False),
    sa.Column('state', sa.String(length=24), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('current_phase', sa.String(length=8), nullable=True),
    sa.Column('epoch', sa.Integer(), nullable=False),
    sa.Column('deadline_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('grace_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('earliest_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('next_due_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('paused_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_processed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('failed_attempts', sa.Integer(), nullable=False),
    sa.Column('press_mode', sa.String(length=16), nullable=False),
    sa.Column('partial_press', sa.Boolean(), nullable=False),
    sa.Column('fake_press', sa.String(length=24), nullable=False),
    sa.Column('observer_press', sa.String(length=8), nullable=False),
    sa.Column('watch_all_press', sa.Boolean(), nullable=False),
    sa.Column('blank_press', sa.Boolean(), nullable=False),
    sa.Column('minor_press', sa.Boolean(), nullable=False),
    sa.Column('postal_press', sa.Boolean(), nullable=False),
    sa.Column('touch_press', sa.Boolean(), nullable=False),
    sa.Column('late_press', sa.Boolean(), nullable=False),
    sa.Column('grace_press', sa.Boolean(), nullable=False),
    sa.Column('must_order', sa.Boolean(), nullable=False),
    sa.Column('nmr', sa.Boolean(), nullable=False),
    sa.Column('dias', sa.Boolean(), nullable=False),
    sa.Column('concessions', sa.Boolean(), nullable=False),
    sa.Column('strict_grace', sa.Boolean(), nullable=False),
    sa.Column('strict_wait', sa.Boolean(), nullable=False),
    sa.Column('late_count', sa.Boolean(), nullable=False),
    sa.Column('max_absence_days', sa.Integer(), nullable=False),
    sa.Column('manual_process', sa.Boolean(), nullable=False),
    sa.Column('manual_start', sa.Boolean(), nullable=False),
    sa.Column('players_may_resume', sa.Boolean(), nullable=False),
    sa.Column('access', sa.String(length=16), nullable=False),
    sa.Column('level', sa.String(length=16), nullable=False),
    sa.Column('min_dedication', sa.Integer(), nullable=False),
    sa.Column('min_ontime_ratio', sa.Float(), nullable=False),
    sa.Column('max_resignation_ratio', sa.Float(), nullable=False),
    sa.Column('approval', sa.Boolean(), nullable=False),
    sa.Column('allowed_players', sa.JSON(none_as_null=True), nullable=False),
    sa.Column('denied_players', sa.JSON(none_as_null=True), nullable=False),
    sa.Column('moderated', sa.Boolean(), nullable=False),
    sa.Column('rated', sa.Boolean(), nullable=False),
    sa.Column('listed', sa.Boolean(), nullable=False),
    sa.Column('quiet', sa.Boolean(), nullable=False),
    sa.Column('show_setter', sa.Boolean(), nullable=False),
    sa.Column('reveal', sa.Boolean(), nullable=False),
    sa.Column('secret', sa.Boolean(), nullable=False),
    sa.Column('players_count', sa.Integer(), nullable=True),
    sa.Column('assignment', sa.String(length=16), nullable=False),
    sa.Column('winning_centers', sa.Integer(), nullable=False),
    sa.Column('proxy', sa.Boolean(), nullable=False),
    sa.Column('build_centres', sa.String(length=8), nullable=False),
    sa.Column('any_disband', sa.Boolean(), nullable=False),
    sa.Column('auto_disband', sa.Boolean(), nullable=False),
    sa.Column('comment', sa.String(length=80), nullable=False),
    sa.Column('comment_full', sa.Text(), nullable=False),
    sa.Column('extra_settings', sa.JSON(none_as_null=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_games')),
    sa.UniqueConstraint('name', name=op.f('uq_games_name'))
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_games_next_due_at'), ['next_due_at'], unique=False)

    op.create_table('mail_in',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('mail_from', sa.String(length=1000), nullable=False),
    sa.Column('rcpt_tos', sa.JSON(none_as_null=True), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('peer', sa.String(length=255), nullable=False),
    sa.Column('sender_key', sa.String(length=1000), nullable=False),
    sa.Column('state', sa.String(length=24), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('error', sa.Text(), nullable=True),
    sa.Column('processed_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_mail_in'))
    )
    with op.batch_alter_table('mail_in', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_mail_in_sender_key_state_id'), ['sender_key', 'state', 'id'], unique=False)
        batch_op.create_index(batch_op.f('ix_mail_in_state_id'), ['state', 'id'], unique=False)

    op.create_table('people',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('phone', sa.String(length=64), nullable=False),
    sa.Column('site', sa.String(length=200), nullable=False),
    sa.Column('site_id', sa.Integer(), nullable=True),
    sa.Column('postal_address', sa.String(length=500), nullable=False),
    sa.Column('country', sa.String(length=100), nullable=False),
    sa.Column('level', sa.String(length=16), nullable=False),
    sa.Column('birth_date', sa.Date(), nullable=True),
    sa.Column('sex', sa.String(length=16), nullable=False),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('language', sa.String(length=16), nullable=False),
    sa.Column('wants_package', sa.Boolean(), nullable=False),
    sa.Column('extra', sa.JSON(none_as_null=True), nullable=False),
    sa.Column('registered_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('dedication', sa.Integer(), nullable=False),
    sa.Column('turns_due', sa.Integer(), nullable=False),
    sa.Column('turns_on_time', sa.Integer(), nullable=False),
    sa.Column('turns_late', sa.Integer(), nullable=False),
    sa.Column('games_started', sa.Integer(), nullable=False),
    sa.Column('takeovers', sa.Integer(), nullable=False),
    sa.Column('abandonments', sa.Integer(), nullable=False),
    sa.Column('civil_disorders', sa.Integer(), nullable=False),
    sa.Column('resignations', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_people'))
    )
    op.create_table('absences',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('person_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('set_by_master', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_absences_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['person_id'], ['people.id'], name=op.f('fk_absences_person_id_people'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_absences'))
    )
    with op.batch_alter_table('absences', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_absences_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_absences_person_id_ends_at'), ['person_id', 'ends_at'], unique=False)

    op.create_table('audit_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('kind', sa.String(length=24), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('person_id', sa.Integer(), nullable=True),
    sa.Column('actor', sa.String(length=320), nullable=False),
    sa.Column('setting', sa.String(length=64), nullable=True),
    sa.Column('old_value', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('new_value', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('detail', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_audit_events_game_id_games'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['person_id'], ['people.id'], name=op.f('fk_audit_events_person_id_people'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_events'))
    )
    with op.batch_alter_table('audit_events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_audit_events_game_id_at'), ['game_id', 'at'], unique=False)
        batch_op.create_index(batch_op.f('ix_audit_events_person_id_at'), ['person_id', 'at'], unique=False)

    op.create_table('deadline_schedules',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('phase_type', sa.String(length=24), nullable=False),
    sa.Column('clock_minutes', sa.Integer(), nullable=True),
    sa.Column('min_hours', sa.Float(), nullable=False),
    sa.Column('next_hours', sa.Float(), nullable=False),
    sa.Column('grace_hours', sa.Float(), nullable=False),
    sa.Column('delay_hours', sa.Float(), nullable=False),
    sa.Column('days', sa.String(length=7), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_deadline_schedules_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'phase_type', name=op.f('pk_deadline_schedules'))
    )
    op.create_table('game_masters',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('person_id', sa.Integer(), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('since', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_game_masters_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['person_id'], ['people.id'], name=op.f('fk_game_masters_person_id_people'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_masters')),
    sa.UniqueConstraint('game_id', 'person_id', name=op.f('uq_game_masters_game_id_person_id'))
    )
    with op.batch_alter_table('game_masters', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_masters_person_id'), ['person_id'], unique=False)

    op.create_table('game_observers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('address', sa.String(length=320), nullable=False),
    sa.Column('person_id', sa.Integer(), nullable=True),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('receives_broadcasts', sa.Boolean(), nullable=False),
    sa.Column('since', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_game_observers_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['person_id'], ['people.id'], name=op.f('fk_game_observers_person_id_people'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_observers'))
    )
    with op.batch_alter_table('game_observers', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_observers_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_observers_person_id'), ['person_id'], unique=False)

    op.create_table('mail_out',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('mail_from', sa.String(length=320), nullable=False),
    sa.Column('recipients', sa.JSON(none_as_null=True), nullable=False),
    sa.Column('message', sa.LargeBinary(), nullable=False),
    sa.Column('state', sa.String(length=24), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('in_reply_to_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_mail_out_game_id_games'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['in_reply_to_id'], ['mail_in.id'], name=op.f('fk_mail_out_in_reply_to_id_mail_in'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_mail_out'))
    )
    with op.batch_alter_table('mail_out', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_mail_out_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_mail_out_in_reply_to_id'), ['in_reply_to_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_mail_out_state_next_attempt_at'), ['state', 'next_attempt_at'], unique=False)

    op.create_table('person_addresses',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('person_id', sa.Integer(), nullable=False),
    sa.Column('address', sa.String(length=320), nullable=False),
    sa.Column('is_primary', sa.Boolean(), nullable=False),
    sa.Column('added_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['person_id'], ['people.id'], name=op.f('fk_person_addresses_person_id_people'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_person_addresses')),
    sa.UniqueConstraint('address', name=op.f('uq_person_addresses_address'))
    )
    with op.batch_alter_table('person_addresses', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_person_addresses_person_id'), ['person_id'], unique=False)

    op.create_table('phases',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('epoch', sa.Integer(), nullable=False),
    sa.Column('turn', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=8), nullable=False),
    sa.Column('state', sa.String(length=24), nullable=False),
    sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('deadline_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('position_before', sa.JSON(none_as_null=True), nullable=False),
    sa.Column('orders_received', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('orders_adjudicated', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('results', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('position_after', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('processed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('processing_ms', sa.Integer(), nullable=True),
    sa.Column('rolled_back_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_phases_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_phases')),
    sa.UniqueConstraint('game_id', 'epoch', 'turn', name=op.f('uq_phases_game_id_epoch_turn'))
    )
    with op.batch_alter_table('phases', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_phases_game_id'), ['game_id'], unique=False)

    op.create_table('seats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=32), nullable=True),
    sa.Column('person_id', sa.Integer(), nullable=True),
    sa.Column('password_hash', sa.String(length=255), nullable=True),
    sa.Column('status', sa.String(length=24), nullable=False),
    sa.Column('wait', sa.Boolean(), nullable=False),
    sa.Column('preferences', sa.String(length=64), nullable=False),
    sa.Column('report_address', sa.String(length=641), nullable=False),
    sa.Column('late_count', sa.Integer(), nullable=False),
    sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_seats_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['person_id'], ['people.id'], name=op.f('fk_seats_person_id_people'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seats')),
    sa.UniqueConstraint('game_id', 'power', name=op.f('uq_seats_game_id_power'))
    )
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seats_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_seats_person_id'), ['person_id'], unique=False)

    op.create_table('diary_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat_id', sa.Integer(), nullable=True),
    sa.Column('person_id', sa.Integer(), nullable=True),
    sa.Column('phase', sa.String(length=8), nullable=True),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_diary_entries_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['person_id'], ['people.id'], name=op.f('fk_diary_entries_person_id_people'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['seat_id'], ['seats.id'], name=op.f('fk_diary_entries_seat_id_seats'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_diary_entries'))
    )
    with op.batch_alter_table('diary_entries', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_diary_entries_game_id_seat_id'), ['game_id', 'seat_id'], unique=False)

    op.create_table('draw_votes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat_id', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=8), nullable=False),
    sa.Column('kind', sa.String(length=24), nullable=False),
    sa.Column('powers', sa.String(length=64), nullable=False),
    sa.Column('cast_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_draw_votes_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['seat_id'], ['seats.id'], name=op.f('fk_draw_votes_seat_id_seats'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_draw_votes')),
    sa.UniqueConstraint('game_id', 'seat_id', name=op.f('uq_draw_votes_game_id_seat_id'))
    )
    with op.batch_alter_table('draw_votes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_draw_votes_seat_id'), ['seat_id'], unique=False)

    op.create_table('orders',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=32), nullable=False),
    sa.Column('phase', sa.String(length=8), nullable=False),
    sa.Column('epoch', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=24), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('canonical', sa.JSON(none_as_null=True), nullable=False),
    sa.Column('submitted_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('submitted_by_id', sa.Integer(), nullable=True),
    sa.Column('mail_in_id', sa.Integer(), nullable=True),
    sa.Column('superseded_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_orders_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['mail_in_id'], ['mail_in.id'], name=op.f('fk_orders_mail_in_id_mail_in'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['seat_id'], ['seats.id'], name=op.f('fk_orders_seat_id_seats'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['submitted_by_id'], ['people.id'], name=op.f('fk_orders_submitted_by_id_people'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_orders')),
    sa.UniqueConstraint('game_id', 'epoch', 'phase', 'power', 'version', name=op.f('uq_orders_game_id_epoch_phase_power_version'))
    )
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_orders_game_id_phase_superseded_at'), ['game_id', 'phase', 'superseded_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_orders_seat_id'), ['seat_id'], unique=False)

    op.create_table('press',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=8), nullable=True),
    sa.Column('kind', sa.String(length=24), nullable=False),
    sa.Column('sender_seat_id', sa.Integer(), nullable=True),
    sa.Column('sender_role', sa.String(length=16), nullable=False),
    sa.Column('sender_power', sa.String(length=32), nullable=True),
    sa.Column('sender_address', sa.String(length=320), nullable=True),
    sa.Column('recipients', sa.JSON(none_as_null=True), nullable=False),
    sa.Column('shown_recipients', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('grey', sa.Boolean(), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('mail_in_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_press_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['mail_in_id'], ['mail_in.id'], name=op.f('fk_press_mail_in_id_mail_in'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['sender_seat_id'], ['seats.id'], name=op.f('fk_press_sender_seat_id_seats'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_press'))
    )
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_press_game_id_sent_at'), ['game_id', 'sent_at'], unique=False)

    op.create_table('seat_tenures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('seat_id', sa.Integer(), nullable=False),
    sa.Column('person_id', sa.Integer(), nullable=True),
    sa.Column('how', sa.String(length=16), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('started_phase', sa.String(length=8), nullable=True),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('ended_phase', sa.String(length=8), nullable=True),
    sa.ForeignKeyConstraint(['person_id'], ['people.id'], name=op.f('fk_seat_tenures_person_id_people'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['seat_id'], ['seats.id'], name=op.f('fk_seat_tenures_seat_id_seats'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seat_tenures'))
    )
    with op.batch_alter_table('seat_tenures', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seat_tenures_person_id'), ['person_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_seat_tenures_seat_id'), ['seat_id'], unique=False)




def downgrade() -> None:

    with op.batch_alter_table('seat_tenures', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_tenures_seat_id'))
        batch_op.drop_index(batch_op.f('ix_seat_tenures_person_id'))

    op.drop_table('seat_tenures')
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_press_game_id_sent_at'))

    op.drop_table('press')
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_orders_seat_id'))
        batch_op.drop_index(batch_op.f('ix_orders_game_id_phase_superseded_at'))

    op.drop_table('orders')
    with op.batch_alter_table('draw_votes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_draw_votes_seat_id'))

    op.drop_table('draw_votes')
    with op.batch_alter_table('diary_entries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_diary_entries_game_id_seat_id'))

    op.drop_table('diary_entries')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seats_person_id'))
        batch_op.drop_index(batch_op.f('ix_seats_game_id'))

    op.drop_table('seats')
    with op.batch_alter_table('phases', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_phases_game_id'))

    op.drop_table('phases')
    with op.batch_alter_table('person_addresses', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_person_addresses_person_id'))

    op.drop_table('person_addresses')
    with op.batch_alter_table('mail_out', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_mail_out_state_next_attempt_at'))
        batch_op.drop_index(batch_op.f('ix_mail_out_in_reply_to_id'))
        batch_op.drop_index(batch_op.f('ix_mail_out_game_id'))

    op.drop_table('mail_out')
    with op.batch_alter_table('game_observers', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_observers_person_id'))
        batch_op.drop_index(batch_op.f('ix_game_observers_game_id'))

    op.drop_table('game_observers')
    with op.batch_alter_table('game_masters', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_masters_person_id'))

    op.drop_table('game_masters')
    op.drop_table('deadline_schedules')
    with op.batch_alter_table('audit_events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_events_person_id_at'))
        batch_op.drop_index(batch_op.f('ix_audit_events_game_id_at'))

    op.drop_table('audit_events')
    with op.batch_alter_table('absences', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_absences_person_id_ends_at'))
        batch_op.drop_index(batch_op.f('ix_absences_game_id'))

    op.drop_table('absences')
    op.drop_table('people')
    with op.batch_alter_table('mail_in', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_mail_in_state_id'))
        batch_op.drop_index(batch_op.f('ix_mail_in_sender_key_state_id'))

    op.drop_table('mail_in')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_next_due_at'))

    op.drop_table('games')

