"""The facets of a type's filters (GET /categories/filters/{id}): each label, year and rating band of the type's
published contents with how many have it. Counting them is five GROUP BY scans of the type's contents (about half a
second for 50,000 films on PostgreSQL), so the counts are kept per type in type_facets under the catalogue's
generation (app/caching.py): a read is a primary-key lookup when the kept row is of the current generation, and
counts itself (as before, the same answer) when it is not. A change to the catalogue bumps the generation and
recounts every type's facets (``store_facets``: the refresh after the change, app/jobs/derived.py), so the reads after
it find them kept. The row keeps how many of the type's contents are published too: most-relevant's total."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, false, func, select

from app.database import dialect_insert
from app.extensions import db
from app.models import Content, ContentType, Country, Genre, TypeFacets, VoiceAuthor
from app.models.catalogue import content_countries
from app.models.slugs import is_slug
from app.models.taxonomy import content_genres, content_voice_authors
from app.services.catalogue.publishing import public
from app.services.catalogue.types import content_type, type_not_found


def facets(type_id: int, generation: int, when_missing: Callable[[], object] = lambda: None) -> dict[str, Any]:
    """The type's facets: kept at ``generation`` (the catalogue's current one), else counted now. ``when_missing`` is
    called when none were ever kept (as the migration leaves them), to have them kept; kept ones of another
    generation are being made again by the refresh the change started."""
    content_type(type_id)
    kept = db.session.execute(select(TypeFacets.generation, TypeFacets.facets)
                              .where(TypeFacets.content_type_id == type_id)).first()
    if kept is not None and kept.generation == generation:
        return dict(kept.facets)
    if kept is None:
        when_missing()
    return count_facets(type_id)


@dataclass(frozen=True)
class KeptTotal:
    type_id: int | None  # the type asked for (None: every type)
    published: int | None  # how many of its contents are published, kept at the generation asked for; else None
    missing: bool  # no count was ever kept of some type (a refresh has never run since the type was made)


def kept_published(type_slug: str | None, generation: int) -> KeptTotal:
    """The type ``type_slug`` (NotFound for an unknown one) and how many of its contents (of every type's when None)
    are published, as kept at ``generation``. One query: the types with what is kept of them."""
    query = (select(ContentType.id, TypeFacets.generation, TypeFacets.published)
             .outerjoin(TypeFacets, TypeFacets.content_type_id == ContentType.id))
    if type_slug is not None:
        query = query.where(ContentType.slug == type_slug) if is_slug(type_slug) else query.where(false())
    rows = db.session.execute(query).all()
    if type_slug is not None and not rows:
        raise type_not_found({"slug": type_slug})
    type_id = rows[0].id if type_slug is not None else None
    current = bool(rows) and all(row.generation == generation for row in rows)
    return KeptTotal(type_id, sum(row.published for row in rows) if current else None,
                     any(row.generation is None for row in rows))


def store_facets(generation: int) -> int:
    """Counts every type's facets and keeps them as of ``generation``, read by the caller before counting (so that a
    row is never newer than what it counted: a change committed meanwhile bumps the generation past it). Returns how
    many types."""
    type_ids = list(db.session.scalars(select(ContentType.id)))
    for type_id in type_ids:
        counted = count_facets(type_id)
        published = db.session.scalar(select(func.count()).select_from(Content)
                                      .where(public(), Content.content_type_id == type_id)) or 0
        values = {"generation": generation, "facets": counted, "published": published}
        kept = dialect_insert(db.session, TypeFacets).values(content_type_id=type_id, **values)
        db.session.execute(kept.on_conflict_do_update(index_elements=[TypeFacets.content_type_id], set_=values))
    return len(type_ids)


def count_facets(type_id: int) -> dict[str, Any]:
    """The filters' facets of the type's published contents with their counts, a GROUP BY query each: genres,
    countries and voice authors by title; years, latest first; Kinopoisk rating bands ([from, from + 1), a 10 in
    the band of 10), best first."""
    years = db.session.execute(_published_of(type_id, Content.year).order_by(Content.year.desc())).all()
    # Grouped by the rating itself (at most 101 values, one decimal), banded here: floor() is not SQLite's and
    # PostgreSQL's cast to integer rounds.
    bands: Counter[int] = Counter()
    for rating, count in db.session.execute(_published_of(type_id, Content.kinopoisk_rating)):
        bands[math.floor(rating)] += count
    return {
        "genres": _label_counts(Genre, content_genres, "genre_id", type_id),
        "countries": _label_counts(Country, content_countries, "country_id", type_id),
        "years": [{"year": year, "count": count} for year, count in years],
        "ratings": [{"from": band, "count": bands[band]} for band in sorted(bands, reverse=True)],
        "voiceAuthors": _label_counts(VoiceAuthor, content_voice_authors, "voice_author_id", type_id),
    }


def _label_counts(model: Any, link: Any, column: str, type_id: int) -> list[dict[str, Any]]:
    """Each label (genre, country, voice author) of the type's published contents with how many have it."""
    count = func.count(link.c.content_id)
    query = (select(model.slug, model.title, count.label("count"))
             .join(link, getattr(link.c, column) == model.id)
             .join(Content, Content.id == link.c.content_id)
             .where(public(), Content.content_type_id == type_id)
             .group_by(model.id, model.slug, model.title).order_by(model.title, model.slug))
    return [{"slug": row.slug, "title": row.title, "count": row.count} for row in db.session.execute(query)]


def _published_of(type_id: int, column: Any) -> Select[Any]:
    return (select(column, func.count().label("count"))
            .where(public(), Content.content_type_id == type_id, column.is_not(None)).group_by(column))
