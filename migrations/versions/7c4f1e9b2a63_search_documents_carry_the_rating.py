"""search documents carry the content's rating: search ranks on them alone, without joining contents

Revision ID: 7c4f1e9b2a63
Revises: 00934d535a59
Create Date: 2026-11-25 17:50:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7c4f1e9b2a63'
down_revision = '00934d535a59'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('search_documents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rating', sa.Numeric(precision=3, scale=1, asdecimal=False), nullable=True))
    op.execute('UPDATE search_documents SET rating = '
               '(SELECT contents.kinopoisk_rating FROM contents WHERE contents.id = search_documents.content_id)')


def downgrade():
    with op.batch_alter_table('search_documents', schema=None) as batch_op:
        batch_op.drop_column('rating')
