"""What the migrations make that no model can state, so that Alembic's comparison of models and database
(migrations/env.py, tests/test_migrations.py) does not take it for a difference: the search index's FTS5 table,
generated columns and expression indexes (app/models/search.py), indexes with a descending column, which SQLite
does not reflect (ix_contents_listing and ix_contents_relevance[_of_type], app/models/catalogue.py;
ix_content_categories_order, app/models/taxonomy.py), and
PostgreSQL's label arrays on contents with their indexes (kept by triggers; app/services/catalogue/filters.py) and the
list keys generated from them (app/services/catalogue/list_keys.py), and
the copies of what the filters read on its search documents (kept by triggers: ``DOCUMENT_FILTERS``)."""

from __future__ import annotations

from app.models.search import UNMODELLED as SEARCH

LABEL_ARRAYS = frozenset({"genre_ids", "country_ids", "tag_ids", "voice_author_ids", "category_ids",
                          "ix_contents_genre_ids", "ix_contents_category_ids",
                          "list_keys", "ix_contents_list_keys"})  # generated from them
# search_documents' copy of its content's filtered columns (PostgreSQL; migration 9d4b2e7a1c53): named by table, as
# each is a modelled column of contents
DOCUMENT_FILTERS = frozenset(f"search_documents.{name}" for name in (
    "genre_ids", "country_ids", "tag_ids", "voice_author_ids", "year", "age_rating", "content_type_id",
    "has_multiple_episodes"))
UNMODELLED = SEARCH | LABEL_ARRAYS | {"ix_contents_listing", "ix_contents_relevance", "ix_contents_relevance_of_type",
                                     "ix_content_categories_order"}


def include_object(item: object, name: str | None, kind: str, reflected: bool, compare_to: object) -> bool:
    """Alembic's filter: a database object no model has, named in UNMODELLED, is not a difference."""
    if not reflected or compare_to is not None:
        return True
    table = getattr(getattr(item, "table", None), "name", None)
    return name not in UNMODELLED and f"{table}.{name}" not in DOCUMENT_FILTERS
