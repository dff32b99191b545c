"""episodes: the time each was added (POST /episodes/fresh), the episodes already there dated as their content

Revision ID: 5d0e7a2c4b91
Revises: 1055df4a8881
Create Date: 2026-11-25 17:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5d0e7a2c4b91'
down_revision = '1055df4a8881'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('episodes', sa.Column('created_at', sa.DateTime(timezone=True), nullable=True))
    op.execute('UPDATE episodes SET created_at = '
               '(SELECT contents.created_at FROM contents WHERE contents.id = episodes.content_id)')
    with op.batch_alter_table('episodes', schema=None) as batch_op:
        batch_op.alter_column('created_at', existing_type=sa.DateTime(timezone=True), nullable=False,
                              server_default=sa.func.now())
        batch_op.create_index('ix_episodes_fresh', ['created_at', 'id'], unique=False)


def downgrade():
    with op.batch_alter_table('episodes', schema=None) as batch_op:
        batch_op.drop_index('ix_episodes_fresh')
        batch_op.drop_column('created_at')
