"""a category's order: its position, then the newest first (issue 33): ix_content_categories_order becomes
(category_id, position, content_id DESC), so that a main-mart row and its category's page, which now order equal
positions alike, are both read in order from it

Revision ID: 98d40bce031b
Revises: 748324f3daf4
Create Date: 2026-12-01 12:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '98d40bce031b'
down_revision = '748324f3daf4'
branch_labels = None
depends_on = None


def upgrade():
    op.drop_index('ix_content_categories_order', table_name='content_categories')
    # a descending column, which SQLite does not reflect (app/models/unmodelled.py)
    op.create_index('ix_content_categories_order', 'content_categories',
                    ['category_id', 'position', sa.text('content_id DESC')])


def downgrade():
    op.drop_index('ix_content_categories_order', table_name='content_categories')
    op.create_index('ix_content_categories_order', 'content_categories', ['category_id', 'position', 'content_id'])
