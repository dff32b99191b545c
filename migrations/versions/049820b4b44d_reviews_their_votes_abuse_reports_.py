"""reviews, their votes, abuse reports; contents count their reviews (issue 32)

New tables only, and two counters on contents that start at 0 (there is no review yet): no data moves.

Revision ID: 049820b4b44d
Revises: 5c1e8a4d2f90
Create Date: 2026-11-27 08:33:31.775660

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '049820b4b44d'
down_revision = '5c1e8a4d2f90'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('reviews',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('content_id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('rating', sa.SmallInteger(), nullable=False),
    sa.Column('votes_up', sa.Integer(), server_default='0', nullable=False),
    sa.Column('votes_down', sa.Integer(), server_default='0', nullable=False),
    sa.Column('score', sa.Integer(), server_default='0', nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('edited_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('hidden_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint('rating BETWEEN 1 AND 10', name=op.f('ck_reviews_rating_in_range')),
    sa.CheckConstraint('votes_up >= 0 AND votes_down >= 0', name=op.f('ck_reviews_votes_not_negative')),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_reviews_account_id_accounts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['content_id'], ['contents.id'], name=op.f('fk_reviews_content_id_contents'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_reviews')),
    sa.UniqueConstraint('content_id', 'account_id', name=op.f('uq_reviews_content_id_account_id'))
    )
    with op.batch_alter_table('reviews', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_reviews_account_id'), ['account_id'], unique=False)
        batch_op.create_index('ix_reviews_content_helpful', ['content_id', 'score', 'created_at', 'id'], unique=False)
        batch_op.create_index('ix_reviews_content_newest', ['content_id', 'created_at', 'id'], unique=False)

    op.create_table('abuse_reports',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('reporter_key', sa.String(length=160), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('target', sa.Enum('review', 'content', name='abuse_target', native_enum=False, create_constraint=True, length=16), nullable=False),
    sa.Column('target_id', sa.Integer(), nullable=False),
    sa.Column('content_id', sa.Integer(), nullable=False),
    sa.Column('review_id', sa.Integer(), nullable=True),
    sa.Column('review_text', sa.Text(), nullable=True),
    sa.Column('reason', sa.Enum('spam', 'insult', 'spoiler', 'illegal', 'wrong_info', 'broken', 'other', name='abuse_reason', native_enum=False, create_constraint=True, length=16), nullable=False),
    sa.Column('comment', sa.Text(), nullable=True),
    sa.Column('status', sa.Enum('open', 'review_hidden', 'dismissed', name='abuse_status', native_enum=False, create_constraint=True, length=16), nullable=False),
    sa.Column('note', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('handled_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('handled_by_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_abuse_reports_account_id_accounts'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['content_id'], ['contents.id'], name=op.f('fk_abuse_reports_content_id_contents'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['handled_by_id'], ['accounts.id'], name=op.f('fk_abuse_reports_handled_by_id_accounts'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['review_id'], ['reviews.id'], name=op.f('fk_abuse_reports_review_id_reviews'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_abuse_reports')),
    sa.UniqueConstraint('reporter_key', 'target', 'target_id', name=op.f('uq_abuse_reports_reporter_key_target_target_id'))
    )
    with op.batch_alter_table('abuse_reports', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_abuse_reports_account_id'), ['account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_abuse_reports_content_id'), ['content_id'], unique=False)
        batch_op.create_index('ix_abuse_reports_queue', ['status', 'created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_abuse_reports_review_id'), ['review_id'], unique=False)

    op.create_table('review_votes',
    sa.Column('review_id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('value', sa.SmallInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('value IN (-1, 1)', name=op.f('ck_review_votes_value_is_one')),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_review_votes_account_id_accounts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['review_id'], ['reviews.id'], name=op.f('fk_review_votes_review_id_reviews'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('review_id', 'account_id', name=op.f('pk_review_votes'))
    )
    with op.batch_alter_table('review_votes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_review_votes_account_id'), ['account_id'], unique=False)

    with op.batch_alter_table('contents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('review_count', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('review_rating_sum', sa.Integer(), server_default='0', nullable=False))



def downgrade():
    with op.batch_alter_table('contents', schema=None) as batch_op:
        batch_op.drop_column('review_rating_sum')
        batch_op.drop_column('review_count')

    with op.batch_alter_table('review_votes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_review_votes_account_id'))

    op.drop_table('review_votes')
    with op.batch_alter_table('abuse_reports', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_abuse_reports_review_id'))
        batch_op.drop_index('ix_abuse_reports_queue')
        batch_op.drop_index(batch_op.f('ix_abuse_reports_content_id'))
        batch_op.drop_index(batch_op.f('ix_abuse_reports_account_id'))

    op.drop_table('abuse_reports')
    with op.batch_alter_table('reviews', schema=None) as batch_op:
        batch_op.drop_index('ix_reviews_content_newest')
        batch_op.drop_index('ix_reviews_content_helpful')
        batch_op.drop_index(batch_op.f('ix_reviews_account_id'))

    op.drop_table('reviews')
