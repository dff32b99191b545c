"""search_documents: ``latin`` (the original title and transliteration, folded: every scheme spelled alike) and
``names`` (each name whole, for the exact and starts-with ranking); PostgreSQL's original_tsv made of ``latin``; an
index on search_words.latin (a Latin word's key, looked up by the typo check)

Until ``flask search reindex`` runs, ``latin`` is a copy of ``original`` (matched as before) and ``names`` is empty
(no boost): nothing that was found is lost by the upgrade.

Revision ID: 5e1c0a7d2b34
Revises: e2b6d9a4c7f1
Create Date: 2026-11-27 16:05:00

"""
from alembic import op
import sqlalchemy as sa


revision = '5e1c0a7d2b34'
down_revision = 'e2b6d9a4c7f1'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('search_documents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('latin', sa.Text(), server_default='', nullable=False))
        batch_op.add_column(sa.Column('names', sa.Text(), server_default='', nullable=False))
    op.execute("UPDATE search_documents SET latin = original")
    with op.batch_alter_table('search_words', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_search_words_latin'), ['latin'], unique=False)
    if op.get_bind().dialect.name == 'postgresql':
        op.execute("DROP INDEX ix_search_documents_original_tsv")
        op.execute("ALTER TABLE search_documents DROP COLUMN original_tsv")
        op.execute("ALTER TABLE search_documents ADD COLUMN original_tsv tsvector "
                   "GENERATED ALWAYS AS (to_tsvector('simple', latin)) STORED")
        op.execute("CREATE INDEX ix_search_documents_original_tsv ON search_documents USING gin (original_tsv)")


def downgrade():
    if op.get_bind().dialect.name == 'postgresql':
        op.execute("DROP INDEX ix_search_documents_original_tsv")
        op.execute("ALTER TABLE search_documents DROP COLUMN original_tsv")
        op.execute("ALTER TABLE search_documents ADD COLUMN original_tsv tsvector "
                   "GENERATED ALWAYS AS (to_tsvector('simple', original)) STORED")
        op.execute("CREATE INDEX ix_search_documents_original_tsv ON search_documents USING gin (original_tsv)")
    with op.batch_alter_table('search_words', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_search_words_latin'))
    with op.batch_alter_table('search_documents', schema=None) as batch_op:
        batch_op.drop_column('names')
        batch_op.drop_column('latin')
