"""The lists' filters (app/services/catalogue/filters.py) over the in-memory search index (app/services/search/
suggest.py): each content is a bit at its position in the index, so a filter is a mask, and a filtered search from
memory is the query's masks ANDed with it. The same rules as the database's, value for value: a label filter's
known slugs (any: a content with one of them; all: with each, and nothing when a slug is unknown; none known:
nothing), inclusive bounds that a missing value never passes (SQL's NULL), the type by its slug, the kind. Made with
the index, from contents and the link tables (the same values PostgreSQL's documents copy: migration 9d4b2e7a1c53),
in the generation the index is of. ``available_here`` (the viewer's country against the content's rules) is the
database's: ``allowed`` gives None."""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import select

from app.models import Content, ContentType
from app.services.catalogue.filters import LABEL_ARRAYS, ListRequest
from app.services.search import bits
from app.services.search.bits import Posting


@dataclass(frozen=True)
class MemoryFilters:
    size: int  # the index's contents
    labels: dict[str, dict[int, Posting]]  # "genres" … → label id → its contents
    slugs: dict[str, dict[str, int]]  # "genres" … and "type" → slug → id
    years: dict[int, Posting]
    ages: dict[int, Posting]
    types: dict[int, Posting]
    series: int  # has_multiple_episodes true
    films: int  # has_multiple_episodes false
    ratings: dict[Decimal, Posting]  # Kinopoisk's, as stored (one decimal place), exactly


def made(connection: Any, positions: dict[int, int]) -> MemoryFilters:
    """The filters' masks of the index whose content ids sit at ``positions`` (id → position), read on
    ``connection`` (the index's own read: suggest.py ``_long_read``)."""
    labels: dict[str, dict[int, list[int]]] = {field: {} for field in LABEL_ARRAYS}
    for field in LABEL_ARRAYS:
        link = getattr(Content, field).property.secondary
        label_column = next(column for column in link.c if column.name != "content_id")
        for content_id, label_id in connection.execute(select(link.c.content_id, label_column)):
            if (position := positions.get(content_id)) is not None:
                labels[field].setdefault(label_id, []).append(position)
    years: dict[int, list[int]] = {}
    ages: dict[int, list[int]] = {}
    types: dict[int, list[int]] = {}
    ratings: dict[float, list[int]] = {}
    series: list[int] = []
    films: list[int] = []
    rows = connection.execute(select(Content.id, Content.year, Content.age_rating, Content.content_type_id,
                                     Content.kinopoisk_rating, Content.has_multiple_episodes))
    for content_id, year, age, type_id, rating, multiple in rows:
        if (position := positions.get(content_id)) is None:
            continue
        for value, into in ((year, years), (age, ages), (type_id, types), (rating, ratings)):
            if value is not None:
                into.setdefault(value, []).append(position)
        if multiple is not None:
            (series if multiple else films).append(position)
    size = len(positions)

    def kept(found: dict[Any, list[int]]) -> dict[Any, Posting]:
        return {value: bits.posting(array("i", sorted(spots)), size) for value, spots in found.items()}

    def masks(found: dict[Any, list[int]]) -> dict[Any, Posting]:  # a range is many values: each a mask already
        return {value: bits.mask(spots, size) for value, spots in found.items()}

    slugs = {field: dict(connection.execute(select(model.slug, model.id)).all())
             for field, (_, model) in LABEL_ARRAYS.items()}
    slugs["type"] = dict(connection.execute(select(ContentType.slug, ContentType.id)).all())
    exact = {Decimal(repr(rating)): spots for rating, spots in ratings.items()}  # (the column reads as a float)
    return MemoryFilters(size, {field: kept(found) for field, found in labels.items()}, slugs, masks(years),
                         masks(ages), kept(types), bits.mask(series, size), bits.mask(films, size), masks(exact))


def allowed(filters: MemoryFilters, request: ListRequest) -> int | None:
    """The contents ``request``'s filters let through as a mask (-1: every one), or None where the database must
    answer (``available_here``)."""
    if request.available_here is not None:
        return None

    def union(postings: Any) -> int:
        return bits.union(postings, filters.size)

    def of(postings: dict[Any, Posting], value: Any) -> int:  # one value's contents (none has it: none)
        return union((postings[value],)) if value in postings else 0

    mask = -1
    for field in LABEL_ARRAYS:
        slugs = set(getattr(request, field))
        if not slugs:
            continue
        known = filters.slugs[field]
        ids = [known[slug] for slug in slugs if slug in known]
        postings = filters.labels[field]
        if getattr(request, f"{field}_match") == "all":
            if len(ids) < len(slugs):
                return 0
            for label_id in ids:
                mask &= of(postings, label_id)
        else:
            mask &= union(postings[label_id] for label_id in ids if label_id in postings)
    if request.year_from is not None or request.year_to is not None:
        low = request.year_from if request.year_from is not None else -(2 ** 31)
        high = request.year_to if request.year_to is not None else 2 ** 31
        mask &= union(posting for year, posting in filters.years.items() if low <= year <= high)
    if request.rating_from is not None:  # compared as the database compares a numeric column: exactly (8.2 ≥ 8.2)
        bound = Decimal(str(request.rating_from))
        mask &= union(posting for rating, posting in filters.ratings.items() if rating >= bound)
    if request.age_rating_max is not None:
        mask &= union(posting for age, posting in filters.ages.items() if age <= request.age_rating_max)
    if request.type is not None:
        mask &= of(filters.types, filters.slugs["type"].get(request.type))
    if request.has_multiple_episodes is not None:
        mask &= filters.series if request.has_multiple_episodes else filters.films
    return mask
