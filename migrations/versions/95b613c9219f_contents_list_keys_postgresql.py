"""contents carry their list keys (PostgreSQL): each category with each genre, with each genre and the year, and with
the year, as numbers in one GIN-indexed array generated from the label arrays and the year, so that a category's list
filtered by genre and years is one index lookup

Revision ID: 95b613c9219f
Revises: 9d4b2e7a1c53
Create Date: 2026-11-28 15:10:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '95b613c9219f'
down_revision = '9d4b2e7a1c53'
branch_labels = None
depends_on = None

# A key: category × 2^36 + genre × 2^12 + year − 1799, 0 for any genre or any year; category ids under 2^27, genre
# ids under 2^24, years 1800–5894 (app/services/catalogue/list_keys.py says the same and builds the lookups).
FUNCTION = """
CREATE FUNCTION content_list_keys(category_ids integer[], genre_ids integer[], year integer) RETURNS bigint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT ARRAY(
        SELECT c::bigint * 68719476736 + g::bigint * 4096 + y
        FROM unnest(category_ids) c, unnest(genre_ids || 0) g,
             unnest(CASE WHEN year BETWEEN 1800 AND 5894 THEN ARRAY[0, year - 1799] ELSE ARRAY[0] END) y
        WHERE c < 134217728 AND g < 16777216 AND g + y > 0 ORDER BY 1)
$$
"""


def upgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return  # SQLite lists a category through its links (app/services/catalogue/lists.py)
    op.execute(FUNCTION)
    # kept by PostgreSQL whenever the arrays (the link tables' triggers) or the year change
    op.execute("ALTER TABLE contents ADD COLUMN list_keys bigint[] NOT NULL "
               "GENERATED ALWAYS AS (content_list_keys(category_ids, genre_ids, year)) STORED")
    op.execute("CREATE INDEX ix_contents_list_keys ON contents USING gin (list_keys)")


def downgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return
    op.execute("DROP INDEX ix_contents_list_keys")
    op.execute("ALTER TABLE contents DROP COLUMN list_keys")
    op.execute("DROP FUNCTION content_list_keys(integer[], integer[], integer)")
