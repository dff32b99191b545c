"""search documents carry what the lists' filters read (PostgreSQL): the content's label ids, year, age rating, type
and kind, kept by triggers, so that a filtered search filters the rows it ranks instead of probing contents per match

Revision ID: 9d4b2e7a1c53
Revises: a35c7e2d9f41
Create Date: 2026-11-28 05:40:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '9d4b2e7a1c53'
down_revision = 'a35c7e2d9f41'
branch_labels = None
depends_on = None

# search_documents' column: its type (contents' column of the same name; app/services/catalogue/filters.py DOCUMENTS)
COLUMNS = {
    'genre_ids': "integer[] NOT NULL DEFAULT '{}'",
    'country_ids': "integer[] NOT NULL DEFAULT '{}'",
    'tag_ids': "integer[] NOT NULL DEFAULT '{}'",
    'voice_author_ids': "integer[] NOT NULL DEFAULT '{}'",
    'year': 'integer',
    'age_rating': 'integer',
    'content_type_id': 'integer',
    'has_multiple_episodes': 'boolean',
}
NAMES = ', '.join(COLUMNS)
# and the rating the rank and the rating filter read, kept the same way (it was written by the index's writer only)
KEPT = {**{name: name for name in COLUMNS}, 'rating': 'kinopoisk_rating'}  # document's column: content's
# A document written (app/services/search/index.py) takes its content's values as it is inserted: the index's writer
# need not know them.
FROM_CONTENT = f"""
CREATE FUNCTION search_document_filters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT {', '.join(KEPT.values())} INTO {', '.join(f'NEW.{name}' for name in KEPT)} FROM contents
    WHERE id = NEW.content_id;
    RETURN NEW;
END $$
"""  # noqa: S608 (KEPT's names)
# A content's values changed (an editor's save, the link tables' triggers updating its label arrays): its document
# follows in the same transaction, whoever changed them.
TO_DOCUMENT = f"""
CREATE FUNCTION search_document_follows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE search_documents SET {', '.join(f'{name} = NEW.{source}' for name, source in KEPT.items())}
    WHERE content_id = NEW.id;
    RETURN NULL;
END $$
"""  # noqa: S608 (KEPT's names)
CHANGED = ' OR '.join(f'OLD.{name} IS DISTINCT FROM NEW.{name}' for name in KEPT.values())


def upgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return  # SQLite filters a search through contents and the link tables (app/services/search/query.py)
    for name, kind in COLUMNS.items():
        op.execute(f"ALTER TABLE search_documents ADD COLUMN {name} {kind}")
    op.execute(f"UPDATE search_documents d SET ({NAMES}) = (SELECT {NAMES} FROM contents c "  # noqa: S608 (COLUMNS)
               "WHERE c.id = d.content_id)")
    op.execute(FROM_CONTENT)
    op.execute("CREATE TRIGGER search_documents_filters BEFORE INSERT ON search_documents FOR EACH ROW "
               "EXECUTE FUNCTION search_document_filters()")
    op.execute(TO_DOCUMENT)
    op.execute(f"CREATE TRIGGER contents_search_filters AFTER UPDATE OF {', '.join(KEPT.values())} ON contents FOR EACH ROW "
               f"WHEN ({CHANGED}) EXECUTE FUNCTION search_document_follows()")


def downgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return
    op.execute("DROP TRIGGER contents_search_filters ON contents")
    op.execute("DROP FUNCTION search_document_follows()")
    op.execute("DROP TRIGGER search_documents_filters ON search_documents")
    op.execute("DROP FUNCTION search_document_filters()")
    for name in COLUMNS:
        op.execute(f"ALTER TABLE search_documents DROP COLUMN {name}")
