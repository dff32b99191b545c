"""alternative titles (issue 34): a content's other names (international, original, former, misspelling, other),
searched as its original title is and shown as «Также известен как»

Revision ID: e2b6d9a4c7f1
Revises: 52224a595bfe
Create Date: 2026-11-27 16:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e2b6d9a4c7f1'
down_revision = '52224a595bfe'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('alternative_titles',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('content_id', sa.Integer(), nullable=False),
    sa.Column('title', sa.String(length=255), nullable=False),
    sa.Column('language', sa.String(length=16), nullable=True),
    sa.Column('kind', sa.Enum('international', 'original', 'former', 'misspelling', 'other', name='alternative_title_kind', native_enum=False, create_constraint=True, length=16), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.CheckConstraint("title <> ''", name=op.f('ck_alternative_titles_title_not_empty')),
    sa.ForeignKeyConstraint(['content_id'], ['contents.id'], name=op.f('fk_alternative_titles_content_id_contents'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_alternative_titles')),
    sa.UniqueConstraint('content_id', 'title', name=op.f('uq_alternative_titles_content_id_title'))
    )
    with op.batch_alter_table('alternative_titles', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_alternative_titles_content_id'), ['content_id'], unique=False)


def downgrade():
    with op.batch_alter_table('alternative_titles', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_alternative_titles_content_id'))

    op.drop_table('alternative_titles')
