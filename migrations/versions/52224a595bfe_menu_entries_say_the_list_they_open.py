"""menu entries say the list they open (issue 33): menu_items.content_type_id and category_id, both optional (an
entry that opens no list, as every existing one until an editor says which), cleared when the type or category goes

Revision ID: 52224a595bfe
Revises: b7d3f1a9c6e2
Create Date: 2026-11-27 13:27:27.499483

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '52224a595bfe'
down_revision = 'b7d3f1a9c6e2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('menu_items', schema=None) as batch_op:
        batch_op.add_column(sa.Column('content_type_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('category_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_menu_items_category_id_categories'), 'categories', ['category_id'], ['id'], ondelete='SET NULL')
        batch_op.create_foreign_key(batch_op.f('fk_menu_items_content_type_id_content_types'), 'content_types', ['content_type_id'], ['id'], ondelete='SET NULL')



def downgrade():
    with op.batch_alter_table('menu_items', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_menu_items_content_type_id_content_types'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('fk_menu_items_category_id_categories'), type_='foreignkey')
        batch_op.drop_column('category_id')
        batch_op.drop_column('content_type_id')

