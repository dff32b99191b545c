"""What a title page shows of a content beside the player's fields (``GET /contents/{id}``, kept in its snapshot:
app/snapshots.py): its categories with the chain of their parents (breadcrumbs), its runtime, and the alternative
titles it is also known as (misspellings are for search only)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from app.extensions import db
from app.models import AlternativeTitle, Category, Content


@dataclass(frozen=True)
class Breadcrumb:
    """One of a content's categories, with its parents from the type's first level down (its own excluded)."""

    category: Category
    parents: list[Category]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.category, name)


@dataclass(frozen=True)
class TitleDetails:
    """A content with what its details add (``ContentDetailsSchema`` dumps it); reads as the content otherwise."""

    content: Content
    breadcrumbs: list[Breadcrumb]
    runtime: int | None
    alternative_titles: list[AlternativeTitle]  # those shown: «Также известен как»

    def __getattr__(self, name: str) -> Any:
        return getattr(self.content, name)


def title_details(content: Content, durations: Iterable[int | None]) -> TitleDetails:
    """``content`` (loaded with its categories and alternative titles: app/services/catalogue/contents.py
    ``load_content``, or in one statement: loaded.py ``load_whole``) with its breadcrumbs, the runtime of its
    episodes' ``durations`` and the alternative titles shown."""
    return TitleDetails(content, breadcrumbs(content.categories), runtime(durations, content.has_multiple_episodes),
                        [title for title in content.alternative_titles if title.shown])


def runtime(durations: Iterable[int | None], series: bool) -> int | None:
    """Seconds: a film's length (its episodes' durations summed: one, or its parts), a series' typical episode (the
    median of its episodes' durations, to the second); None when no episode has a duration."""
    known = [duration for duration in durations if duration]
    if not known:
        return None
    return round(statistics.median(known)) if series else sum(known)


def breadcrumbs(categories: list[Category]) -> list[Breadcrumb]:
    """Each of ``categories`` with its parents, root first: the ancestors not yet loaded are read a level at a time
    (one query per level above the categories, none when they are of the first level). A parent chain that loops (an
    editor's slip) stops where it would repeat."""
    known = {category.id: category for category in categories}
    missing = {c.parent_id for c in categories if c.parent_id is not None and c.parent_id not in known}
    while missing:
        found = list(db.session.scalars(select(Category).where(Category.id.in_(missing))))
        known.update((category.id, category) for category in found)
        missing = {c.parent_id for c in found if c.parent_id is not None and c.parent_id not in known}
    crumbs = []
    for category in categories:
        parents: list[Category] = []
        seen = {category.id}
        parent_id = category.parent_id
        while parent_id is not None and parent_id in known and parent_id not in seen:
            seen.add(parent_id)
            parents.insert(0, known[parent_id])
            parent_id = known[parent_id].parent_id
        crumbs.append(Breadcrumb(category, parents))
    return crumbs
