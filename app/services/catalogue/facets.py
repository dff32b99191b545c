"""The facets of the lists' filters: a type's (GET /categories/filters/{id}) and a category's (GET
/types/{type}/categories/{slug}/filters): each label, year, rating band and age mark of the published contents with
how many have it (counted by app/services/catalogue/facet_counts.py). Counting a type's reads every title of the type,
so its counts, and its categories' (the tree's), are kept per type in type_facets under the catalogue's generation
(app/caching.py): a read is a primary-key lookup when the kept row is of the current generation, and counts itself
(as before, the same answer) when it is not. A change to the catalogue bumps the generation and recounts every type's
(``store_facets``: the refresh after the change, app/jobs/derived.py), so the reads after it find them kept. The row
keeps how many of the type's contents are published too: most-relevant's total. A category's facets are counted at
each read: its titles are a share of its type's, read once by their index."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import false, func, select

from app.database import dialect_insert
from app.extensions import db
from app.models import Content, ContentType, TypeFacets
from app.models.ids import storable_id
from app.models.slugs import is_slug
from app.services.catalogue.categories import category_scope, count_categories, in_scope
from app.services.catalogue.facet_counts import FACETS, counted
from app.services.catalogue.publishing import public
from app.services.catalogue.types import content_type

CATEGORIES = "categories"  # the kept row's {category id: count} beside the facets (no facet: never answered as one)


def facets(type_id: int, generation: int, when_missing: Callable[[], object] = lambda: None) -> dict[str, Any]:
    """The type's facets: kept at ``generation`` (the catalogue's current one), else counted now. ``when_missing`` is
    called when none were ever kept (as the migration leaves them) or the kept ones lack a facet (kept before it was
    counted), to have them kept; kept ones of another generation are being made again by the refresh the change
    started."""
    row = _kept_row(type_id) if storable_id(type_id) else None
    if row is None:  # nothing kept: is there such a type at all (a kept row says so, one statement fewer)
        content_type(type_id)
    kept = _current(row, generation, FACETS, when_missing)
    return {facet: kept[facet] for facet in FACETS} if kept is not None else count_facets(type_id)


def category_counts(type_id: int, generation: int, when_missing: Callable[[], object] = lambda: None
                    ) -> dict[int, int]:
    """How many published titles each category of the type holds, its sub-categories' included (the tree's counts:
    app/services/catalogue/categories.py): kept with the type's facets at ``generation``, else counted now, as
    ``facets``. The type is the caller's to check."""
    kept = _kept(type_id, generation, {CATEGORIES}, when_missing)
    if kept is None:
        return count_categories(type_id)
    return {int(category_id): count for category_id, count in kept[CATEGORIES].items()}


def _kept(type_id: int, generation: int, needed: Collection[str], when_missing: Callable[[], object]
          ) -> dict[str, Any] | None:
    """The type's kept facets when they are of ``generation`` and have every key ``needed``; else None, having
    called ``when_missing`` when nothing current can come without a refresh being asked for."""
    return _current(_kept_row(type_id), generation, needed, when_missing)


def _kept_row(type_id: int) -> Any:
    return db.session.execute(select(TypeFacets.generation, TypeFacets.facets)
                              .where(TypeFacets.content_type_id == type_id)).first()


def _current(kept: Any, generation: int, needed: Collection[str], when_missing: Callable[[], object]
             ) -> dict[str, Any] | None:
    """``kept`` (the type's row, or None) as ``_kept`` answers it."""
    whole = kept is not None and set(needed) <= set(kept.facets)
    if whole and kept is not None and kept.generation == generation:
        return dict(kept.facets)
    if not whole:  # never kept, or kept before a facet was counted
        when_missing()
    return None


@dataclass(frozen=True)
class KeptTotal:
    type_id: int | None  # the type asked for (None: every type)
    published: int | None  # how many of its contents are published, kept at the generation asked for; else None
    missing: bool  # no count was ever kept of some type (a refresh has never run since the type was made)
    unknown: bool = False  # the type asked for is none: a filter that matches nothing (docs/api.md, Lists)


def kept_published(type_slug: str | None, generation: int) -> KeptTotal:
    """The type ``type_slug`` (``unknown`` for a slug no type has) and how many of its contents (of every type's when
    None) are published, as kept at ``generation``. One query: the types with what is kept of them."""
    query = (select(ContentType.id, TypeFacets.generation, TypeFacets.published)
             .outerjoin(TypeFacets, TypeFacets.content_type_id == ContentType.id))
    if type_slug is not None:
        query = query.where(ContentType.slug == type_slug) if is_slug(type_slug) else query.where(false())
    rows = db.session.execute(query).all()
    if type_slug is not None and not rows:
        return KeptTotal(None, 0, False, unknown=True)
    type_id = rows[0].id if type_slug is not None else None
    current = bool(rows) and all(row.generation == generation for row in rows)
    return KeptTotal(type_id, sum(row.published for row in rows) if current else None,
                     any(row.generation is None for row in rows))


def store_facets(generation: int) -> int:
    """Counts every type's facets and its categories' counts and keeps them as of ``generation``, read by the caller
    before counting (so that a row is never newer than what it counted: a change committed meanwhile bumps the
    generation past it). Returns how many types."""
    type_ids = list(db.session.scalars(select(ContentType.id)))
    for type_id in type_ids:
        made = {**count_facets(type_id),
                CATEGORIES: {str(category_id): count for category_id, count in count_categories(type_id).items()}}
        published = db.session.scalar(select(func.count()).select_from(Content)
                                      .where(public(), Content.content_type_id == type_id)) or 0
        values = {"generation": generation, "facets": made, "published": published}
        kept = dialect_insert(db.session, TypeFacets).values(content_type_id=type_id, **values)
        db.session.execute(kept.on_conflict_do_update(index_elements=[TypeFacets.content_type_id], set_=values))
    return len(type_ids)


def count_facets(type_id: int) -> dict[str, Any]:
    """The facets of the type's published contents (app/services/catalogue/facet_counts.py)."""
    return counted([public(), Content.content_type_id == type_id])


def category_facets(type_slug: str, slug: str) -> dict[str, Any]:
    """The facets of the published titles of the category ``slug`` of type ``type_slug`` and of its sub-categories,
    each title once (its scope, as its list has them: app/services/catalogue/categories.py): what each filter of its
    page lists. Counted at each read, which the shared store keeps: a category holds a share of its type's titles,
    read once by its index (docs/benchmarks.md: the cost on 100,000 titles)."""
    scope = category_scope(type_slug, slug)
    return counted([public(), in_scope(scope.ids)])
