"""playlists: a viewer's own and the editors', with their contents in order

Revision ID: c5a8e1f3d2b7
Revises: c4e8a1f27b90
Create Date: 2026-12-01 10:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c5a8e1f3d2b7'
down_revision = 'c4e8a1f27b90'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('playlists',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('description', sa.String(length=2000), server_default='', nullable=False),
    sa.Column('visibility', sa.Enum('private', 'public', name='playlist_visibility', native_enum=False, length=16, create_constraint=True), nullable=False),
    sa.Column('slug', sa.String(length=128), nullable=True),
    sa.Column('published', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('CURRENT_TIMESTAMP'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('CURRENT_TIMESTAMP'), nullable=False),
    sa.CheckConstraint('account_id IS NOT NULL OR slug IS NOT NULL', name=op.f('ck_playlists_owner_or_slug')),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_playlists_account_id_accounts'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_playlists')),
    sa.UniqueConstraint('slug', name=op.f('uq_playlists_slug'))
    )
    with op.batch_alter_table('playlists', schema=None) as batch_op:
        batch_op.create_index('ix_playlists_account_id_updated_at', ['account_id', 'updated_at'], unique=False)

    op.create_table('playlist_items',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('playlist_id', sa.Integer(), nullable=False),
    sa.Column('content_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('added_at', sa.DateTime(timezone=True), server_default=sa.text('CURRENT_TIMESTAMP'), nullable=False),
    sa.ForeignKeyConstraint(['content_id'], ['contents.id'], name=op.f('fk_playlist_items_content_id_contents'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['playlist_id'], ['playlists.id'], name=op.f('fk_playlist_items_playlist_id_playlists'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_playlist_items')),
    sa.UniqueConstraint('playlist_id', 'content_id', name=op.f('uq_playlist_items_playlist_id_content_id'))
    )
    with op.batch_alter_table('playlist_items', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_playlist_items_content_id'), ['content_id'], unique=False)
        batch_op.create_index('ix_playlist_items_playlist_id_position', ['playlist_id', 'position'], unique=False)


def downgrade():
    with op.batch_alter_table('playlist_items', schema=None) as batch_op:
        batch_op.drop_index('ix_playlist_items_playlist_id_position')
        batch_op.drop_index(batch_op.f('ix_playlist_items_content_id'))

    op.drop_table('playlist_items')
    with op.batch_alter_table('playlists', schema=None) as batch_op:
        batch_op.drop_index('ix_playlists_account_id_updated_at')

    op.drop_table('playlists')
