"""The relevance of GET /contents/most-relevant (docs/api.md), and its stored copy: each content carries its score
(``contents.relevance``) so that a page of the most relevant is an index range scan (ix_contents_relevance[_of_type]:
published, [type,] position, relevance DESC, id DESC) instead of a sort of every published title.

The score depends on the current year (a title's age), so the stored scores are those of one year, the one
cache_counters holds under ``RELEVANCE_YEAR``: a flush that adds or changes a content scores it (``listen``), and
when the year turns (or after a bulk write that flushed no content, or before any scoring) the reads rank with the
expression itself, as before, until ``rescore_all`` (a job the read starts, or a command) has rewritten every score."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Float, and_, case, cast, event, extract, func, inspect, select, update
from sqlalchemy.orm import Session

from app.clock import now
from app.database import dialect_insert
from app.models import CacheCounter, Category, Content, ContentCategory, TypeFacets

NEUTRAL_RATING = 5.0  # an unrated title counts as the middle of the 10-point scale
RECENCY_YEARS = 10.0  # a title this many years old counts half its rating; twice as old, a third
RELEVANCE_YEAR = "relevance:year"  # the cache_counters row: the year the stored scores are of
NO_GENERATION = -1  # kept facets of no generation: the catalogue's are times in nanoseconds, or 0 before any change


def relevance(current_year: int) -> Any:
    """A title's score: its rating (the mean of its Kinopoisk and IMDb ratings, the one it has, else
    ``NEUTRAL_RATING``) damped by age, ``rating × R / (R + age)`` with ``R = RECENCY_YEARS`` and ``age`` the years
    since its ``year`` (else the year it was added), never below 0. Plain arithmetic: the same on SQLite and
    PostgreSQL."""
    kinopoisk, imdb = cast(Content.kinopoisk_rating, Float), cast(Content.imdb_rating, Float)
    rating = case((and_(kinopoisk.is_not(None), imdb.is_not(None)), (kinopoisk + imdb) / 2.0),
                  else_=func.coalesce(kinopoisk, imdb, NEUTRAL_RATING))
    age = cast(current_year - func.coalesce(Content.year, extract("year", Content.created_at)), Float)
    return rating * RECENCY_YEARS / (RECENCY_YEARS + case((age < 0, 0.0), else_=age))


def stored_year(session: Any) -> int | None:
    """The year the stored scores are of (None: never scored), one primary-key lookup."""
    return session.scalar(select(CacheCounter.value).where(CacheCounter.name == RELEVANCE_YEAR))


def scores_current(session: Any) -> bool:
    return stored_year(session) == now().year


def rescore_all(session: Any) -> int:
    """Every content's stored score in this year, and the year noted: one UPDATE of every row (a job's or a
    command's, in its own transaction; the time each content was changed is left as it was). Returns the year."""
    year = now().year
    session.execute(update(Content).values(relevance=relevance(year), updated_at=Content.updated_at)
                    .execution_options(synchronize_session=False))
    noted = dialect_insert(session, CacheCounter).values(name=RELEVANCE_YEAR, value=year)
    session.execute(noted.on_conflict_do_update(index_elements=[CacheCounter.name], set_={"value": year}))
    return year


SCORED = ("year", "kinopoisk_rating", "imdb_rating", "created_at")  # what the score reads of a content
COUNTED = ("published", "publish_at", "unpublish_at", "content_type_id", "year", "kinopoisk_rating", "age_rating",
           "genres", "countries", "tags", "voice_authors", "categories", "category_links")  # what the kept facets,
# categories' counts and totals count of it; and every change of a category or of a content's place in one
COUNTED_ROWS = (Category, ContentCategory)


def _changed(session: Session, item: Content, fields: tuple[str, ...]) -> bool:
    return item in session.new or any(inspect(item).attrs[name].history.has_changes() for name in fields)


def _contents_flushed(session: Session, _context: Any) -> None:
    """The contents this flush added or changed in what the score reads get their score in the current year (their
    rows are written: the expression reads their year, ratings and the time they were added, a server default, from
    them); when it added, removed or changed a content in what the facets count, or a category or a content's place
    in one, the facets, categories' counts and totals kept of every type (app/services/catalogue/facets.py) stop
    being answered, in the same transaction: a change that does not bump
    the catalogue's generation (a script's, a test's) is never hidden by them. Other changes (a review's counts) leave
    both alone."""
    changed = [item for item in (*session.new, *session.dirty) if isinstance(item, Content) and item.id is not None]
    scored = [item.id for item in changed if _changed(session, item, SCORED)]
    connection = session.connection() if changed or session.deleted else None
    if scored and connection is not None:
        connection.execute(update(Content.__table__).where(Content.__table__.c.id.in_(scored))
                           .values(relevance=relevance(now().year), updated_at=Content.updated_at))
    removed = any(isinstance(item, Content) for item in session.deleted)
    placed = any(isinstance(item, COUNTED_ROWS) for item in (*session.new, *session.dirty, *session.deleted))
    if placed and connection is None:
        connection = session.connection()
    if connection is not None and (removed or placed or any(_changed(session, item, COUNTED) for item in changed)):
        connection.execute(update(TypeFacets.__table__).values(generation=NO_GENERATION))


def listen() -> None:
    """Once per process: every session scores the contents it flushes."""
    if not event.contains(Session, "after_flush", _contents_flushed):
        event.listen(Session, "after_flush", _contents_flushed)
