"""Rebuilding the whole search index, a job (``flask search reindex``, the demo seeders): the documents and the word
list in one transaction, then, once that is committed, the tidying a rebuild needs (app/services/search/index.py)."""

from __future__ import annotations

from app.services.search.index import reindex, tidy
from app.transaction import transaction


def rebuild_index() -> int:
    """Rewrites every published content's document; how many."""
    with transaction():
        written = reindex()
    with transaction():
        tidy()
    return written
