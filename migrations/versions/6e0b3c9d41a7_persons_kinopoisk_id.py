"""persons.kinopoisk_id (issue 34): a person's Kinopoisk id, by which a catalogue import finds the person again
(docs/import.md); at most one person per id. And an index on contents.imdb_id, by which an import finds a content
(each batch of lines asks for its IMDb ids: without it, a scan of every content per batch)

Revision ID: 6e0b3c9d41a7
Revises: 5e1c0a7d2b34
Create Date: 2026-11-27 16:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '6e0b3c9d41a7'
down_revision = '5e1c0a7d2b34'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('persons', schema=None) as batch_op:
        batch_op.add_column(sa.Column('kinopoisk_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_persons_kinopoisk_id'), ['kinopoisk_id'], unique=True)
    with op.batch_alter_table('contents', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_contents_imdb_id'), ['imdb_id'], unique=False)


def downgrade():
    with op.batch_alter_table('contents', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_contents_imdb_id'))
    with op.batch_alter_table('persons', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_persons_kinopoisk_id'))
        batch_op.drop_column('kinopoisk_id')
