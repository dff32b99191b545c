"""jobs: the job queue's rows (issues 34, 35): kind, state, progress, message, result, heartbeat, attempts

Revision ID: e6b1d4a9c3f2
Revises: 6e0b3c9d41a7
Create Date: 2026-11-27 16:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e6b1d4a9c3f2'
down_revision = '6e0b3c9d41a7'
branch_labels = None
depends_on = None

UNFINISHED = sa.text("state IN ('queued', 'running')")


def upgrade():
    op.create_table('jobs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('state', sa.Enum('queued', 'running', 'done', 'failed', 'cancelled', name='job_state', native_enum=False, create_constraint=True, length=16), nullable=False),
    sa.Column('subject', sa.String(length=64), nullable=True),
    sa.Column('params', sa.JSON(), nullable=False),
    sa.Column('done', sa.Integer(), nullable=False),
    sa.Column('total', sa.Integer(), nullable=True),
    sa.Column('message', sa.Text(), nullable=True),
    sa.Column('result', sa.JSON(), nullable=True),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('heartbeat_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('cancel_requested', sa.Boolean(), nullable=False),
    sa.Column('run_token', sa.String(length=32), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_jobs_account_id_accounts'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_jobs'))
    )
    with op.batch_alter_table('jobs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_jobs_account_id'), ['account_id'], unique=False)
        batch_op.create_index('ix_jobs_kind_created', ['kind', 'created_at'], unique=False)
        batch_op.create_index('ix_jobs_state_heartbeat', ['state', 'heartbeat_at'], unique=False)
        batch_op.create_index('ux_jobs_unfinished_subject', ['subject'], unique=True,
                              sqlite_where=UNFINISHED, postgresql_where=UNFINISHED)


def downgrade():
    with op.batch_alter_table('jobs', schema=None) as batch_op:
        batch_op.drop_index('ux_jobs_unfinished_subject')
        batch_op.drop_index('ix_jobs_state_heartbeat')
        batch_op.drop_index('ix_jobs_kind_created')
        batch_op.drop_index(batch_op.f('ix_jobs_account_id'))
    op.drop_table('jobs')
