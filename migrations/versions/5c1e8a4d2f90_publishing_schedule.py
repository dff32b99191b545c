"""publishing at a time: contents.publish_at and unpublish_at (issue 31)

A content is shown when published and within its schedule (either end open: both NULL, as every existing row gets,
keeps it exactly as it was). Each time is indexed: the catalogue's generation reads the latest passed and the next
to come (app/services/catalogue/publishing.py).

Revision ID: 5c1e8a4d2f90
Revises: c5a8e1f3d2b7
Create Date: 2026-11-28 09:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5c1e8a4d2f90'
down_revision = 'c5a8e1f3d2b7'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('contents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('publish_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('unpublish_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f('ix_contents_publish_at'), ['publish_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_contents_unpublish_at'), ['unpublish_at'], unique=False)


def downgrade():
    with op.batch_alter_table('contents', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_contents_unpublish_at'))
        batch_op.drop_index(batch_op.f('ix_contents_publish_at'))
        batch_op.drop_column('unpublish_at')
        batch_op.drop_column('publish_at')
