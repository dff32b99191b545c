"""viewers' history and their sessions' list (issue 32): view_history; watch_progress.watched_at; auth_sessions'
user_agent and last_seen_at

watched_at is when a position was last saved in an episode (a mark is not one): the rows that hold a position get
their updated_at, the ones that only hold a finished mark stay null. A session's last_seen_at starts at its sign-in.

Revision ID: c4e8a1f27b90
Revises: 9e3b5f0a7c21
Create Date: 2026-11-27 09:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c4e8a1f27b90'
down_revision = '9e3b5f0a7c21'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('view_history',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('viewer_key', sa.String(length=160), nullable=False),
    sa.Column('content_id', sa.Integer(), nullable=False),
    sa.Column('episode_id', sa.Integer(), nullable=True),
    sa.Column('viewed_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['content_id'], ['contents.id'], name=op.f('fk_view_history_content_id_contents'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['episode_id'], ['episodes.id'], name=op.f('fk_view_history_episode_id_episodes'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_view_history')),
    sa.UniqueConstraint('viewer_key', 'content_id', name=op.f('uq_view_history_viewer_key_content_id'))
    )
    with op.batch_alter_table('view_history', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_view_history_content_id'), ['content_id'], unique=False)
        batch_op.create_index('ix_view_history_viewer_key_viewed_at', ['viewer_key', 'viewed_at'], unique=False)

    with op.batch_alter_table('watch_progress', schema=None) as batch_op:
        batch_op.add_column(sa.Column('watched_at', sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE watch_progress SET watched_at = updated_at WHERE time > 0 OR completed = false")

    with op.batch_alter_table('auth_sessions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('user_agent', sa.String(length=300), nullable=True))
        batch_op.add_column(sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE auth_sessions SET last_seen_at = created_at")


def downgrade():
    with op.batch_alter_table('auth_sessions', schema=None) as batch_op:
        batch_op.drop_column('last_seen_at')
        batch_op.drop_column('user_agent')

    with op.batch_alter_table('watch_progress', schema=None) as batch_op:
        batch_op.drop_column('watched_at')

    with op.batch_alter_table('view_history', schema=None) as batch_op:
        batch_op.drop_index('ix_view_history_viewer_key_viewed_at')
        batch_op.drop_index(batch_op.f('ix_view_history_content_id'))

    op.drop_table('view_history')
