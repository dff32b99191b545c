"""After a change to the catalogue, what is derived from it and kept in the database is made again (issue 30, hole 13;
issue 36): every type's facets under the new generation (app/services/catalogue/facets.py) and, when the year has
turned since they were scored, every content's stored relevance (app/services/catalogue/relevance.py). app/caching.py
``invalidate_catalogue`` runs it: after a request's change as a background job (app/http/background.py), in a command
or a test at once. Reads never wait for it: until it is done they count and rank for themselves, as before."""

from __future__ import annotations

from app.extensions import db
from app.services.catalogue.facets import store_facets
from app.services.catalogue.reach import refresh_reach
from app.services.catalogue.relevance import rescore_all, scores_current
from app.transaction import transaction


def refresh_derived(generation: int) -> None:
    """The facets counted as of ``generation`` (the catalogue's, read before counting), in one transaction; the scores
    of a year gone, in another."""
    with transaction():
        store_facets(generation)
    with transaction():
        if not scores_current(db.session):
            rescore_all(db.session)


def rescore() -> None:
    """Every content's stored relevance and reach again (``flask demo catalogue``, ``flask search reindex``: after
    contents were written outside the ORM, which keeps both for what it flushes)."""
    with transaction():
        rescore_all(db.session)
        refresh_reach(db.session)
