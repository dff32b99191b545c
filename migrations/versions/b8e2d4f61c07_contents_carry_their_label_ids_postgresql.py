"""contents carry their labels' ids (PostgreSQL): genre, country, tag, voice author and category ids as arrays,
kept by triggers on the link tables, so that a filtered list reads each content once

Revision ID: b8e2d4f61c07
Revises: 7c4f1e9b2a63
Create Date: 2026-11-25 18:10:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'b8e2d4f61c07'
down_revision = '7c4f1e9b2a63'
branch_labels = None
depends_on = None

# contents' column: (the link table, its label column); app/services/catalogue/filters.py LABEL_ARRAYS says the same.
ARRAYS = {
    'genre_ids': ('content_genres', 'genre_id'),
    'country_ids': ('content_countries', 'country_id'),
    'tag_ids': ('content_tags', 'tag_id'),
    'voice_author_ids': ('content_voice_authors', 'voice_author_id'),
    'category_ids': ('content_categories', 'category_id'),
}
INDEXED = ('genre_ids', 'category_ids')  # GIN: a category's list, a genre's list of every content
# One function for every link table: the contents its statement touched get their column again from the table
# (TG_ARGV: the column, the label column; "changed": the statement's transition table, old or new rows).
FUNCTION = """
CREATE FUNCTION contents_label_ids() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('UPDATE contents SET %1$I = coalesce((SELECT array_agg(l.%2$I ORDER BY l.%2$I) FROM %3$I l '
                   'WHERE l.content_id = contents.id), ''{}'') WHERE contents.id IN (SELECT content_id FROM changed)',
                   TG_ARGV[0], TG_ARGV[1], TG_TABLE_NAME);
    RETURN NULL;
END $$
"""
# (the trigger's suffix, its event, the transition table it reads as "changed")
TRIGGERS = (('insert', 'INSERT', 'NEW'), ('delete', 'DELETE', 'OLD'), ('update_old', 'UPDATE', 'OLD'),
            ('update_new', 'UPDATE', 'NEW'))


def upgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return  # SQLite filters through the link tables (app/services/catalogue/filters.py)
    for column, (table, label) in ARRAYS.items():
        op.execute(f"ALTER TABLE contents ADD COLUMN {column} integer[] NOT NULL DEFAULT '{{}}'")
        op.execute(f"UPDATE contents SET {column} = coalesce((SELECT array_agg(l.{label} ORDER BY l.{label}) "  # noqa: S608 (ARRAYS' names)
                   f"FROM {table} l WHERE l.content_id = contents.id), '{{}}')")
    for column in INDEXED:
        op.execute(f"CREATE INDEX ix_contents_{column} ON contents USING gin ({column})")
    op.execute(FUNCTION)
    for column, (table, label) in ARRAYS.items():
        for suffix, event, rows in TRIGGERS:
            op.execute(f"CREATE TRIGGER {table}_ids_{suffix} AFTER {event} ON {table} REFERENCING {rows} TABLE AS "
                       f"changed FOR EACH STATEMENT EXECUTE FUNCTION contents_label_ids('{column}', '{label}')")


def downgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return
    for table, _label in ARRAYS.values():
        for suffix, _event, _rows in TRIGGERS:
            op.execute(f"DROP TRIGGER {table}_ids_{suffix} ON {table}")
    op.execute("DROP FUNCTION contents_label_ids()")
    for column in INDEXED:
        op.execute(f"DROP INDEX ix_contents_{column}")
    for column in ARRAYS:
        op.execute(f"ALTER TABLE contents DROP COLUMN {column}")
