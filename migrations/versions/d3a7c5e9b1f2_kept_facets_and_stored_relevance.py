"""kept facets and stored relevance (issue 30, hole 13; issue 36): type_facets keeps each type's facets under the
catalogue's generation; contents.relevance keeps most-relevant's score in the year cache_counters notes, computed
here for every content, with the indexes that give a page of most-relevant in order

Revision ID: d3a7c5e9b1f2
Revises: 049820b4b44d
Create Date: 2026-11-27 09:50:00.000000

"""
from datetime import UTC, datetime

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd3a7c5e9b1f2'
down_revision = '049820b4b44d'
branch_labels = None
depends_on = None

YEAR_COUNTER = 'relevance:year'


def _relevance(contents, year):
    """app/services/catalogue/relevance.py ``relevance`` as it is at this revision."""
    kinopoisk, imdb = sa.cast(contents.c.kinopoisk_rating, sa.Float), sa.cast(contents.c.imdb_rating, sa.Float)
    rating = sa.case((sa.and_(kinopoisk.is_not(None), imdb.is_not(None)), (kinopoisk + imdb) / 2.0),
                     else_=sa.func.coalesce(kinopoisk, imdb, 5.0))
    age = sa.cast(year - sa.func.coalesce(contents.c.year, sa.extract('year', contents.c.created_at)), sa.Float)
    return rating * 10.0 / (10.0 + sa.case((age < 0, 0.0), else_=age))


def upgrade():
    op.create_table('type_facets',
    sa.Column('content_type_id', sa.Integer(), nullable=False),
    sa.Column('generation', sa.BigInteger(), nullable=False),
    sa.Column('facets', sa.JSON(), nullable=False),
    sa.Column('published', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['content_type_id'], ['content_types.id'], name=op.f('fk_type_facets_content_type_id_content_types'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('content_type_id', name=op.f('pk_type_facets'))
    )
    with op.batch_alter_table('contents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('relevance', sa.Float(), server_default='0', nullable=False))

    contents = sa.table('contents', sa.column('kinopoisk_rating', sa.Numeric(3, 1)),
                        sa.column('imdb_rating', sa.Numeric(3, 1)), sa.column('year', sa.Integer),
                        sa.column('created_at', sa.DateTime(timezone=True)), sa.column('relevance', sa.Float))
    counters = sa.table('cache_counters', sa.column('name', sa.String), sa.column('value', sa.BigInteger))
    year = datetime.now(UTC).year
    op.execute(contents.update().values(relevance=_relevance(contents, year)))
    op.execute(counters.delete().where(counters.c.name == YEAR_COUNTER))
    op.execute(counters.insert().values(name=YEAR_COUNTER, value=year))
    # descending columns, which Alembic's autogenerate leaves out and SQLite does not reflect (app/models/unmodelled.py)
    op.create_index('ix_contents_relevance', 'contents',
                    ['published', 'position', sa.text('relevance DESC'), sa.text('id DESC')])
    op.create_index('ix_contents_relevance_of_type', 'contents',
                    ['published', 'content_type_id', 'position', sa.text('relevance DESC'), sa.text('id DESC')])


def downgrade():
    op.drop_index('ix_contents_relevance_of_type', table_name='contents')
    op.drop_index('ix_contents_relevance', table_name='contents')
    op.execute("DELETE FROM cache_counters WHERE name = 'relevance:year'")
    with op.batch_alter_table('contents', schema=None) as batch_op:
        batch_op.drop_column('relevance')
    op.drop_table('type_facets')
