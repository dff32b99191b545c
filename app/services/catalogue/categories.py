"""Categories (spec §7): one category, a content type's tree with how many published titles each category holds, and a
category's scope: the category with every category under it. A category's titles are its own and its
sub-categories' (each title once): its list, its facets, its count and its main-mart row all take the scope.

A title's place in a scope (the list's editorial order, sort=position, and the main mart's row) is its lowest position
among its links to the scope's categories, then the newest first (the higher id): a title linked to a category
directly keeps its place there, one only in a sub-category takes its place in it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer as SqlInteger
from sqlalchemy import Select, distinct, func, literal_column, select, values
from sqlalchemy.dialects.postgresql import array
from sqlalchemy.orm import joinedload, selectinload
from sqlalchemy.sql import column

from app.extensions import db
from app.models import Category, Content, ContentCategory, ContentType
from app.services.catalogue.known import of_type_slug
from app.services.catalogue.publishing import public
from app.services.catalogue.types import content_type, type_not_found
from app.services.errors import NotFound


@dataclass(frozen=True)
class Scope:
    """A category and the categories under it."""

    id: int
    ids: tuple[int, ...]  # the category first, then its descendants, each once


def category_not_found(type_slug: str, slug: str) -> NotFound:
    return NotFound("category_not_found", "Категория не найдена", {"type": type_slug, "slug": slug})


def get_category(type_slug: str, slug: str) -> Category:
    """The category ``slug`` of the content type ``type_slug``, with its parent and children (in their order)."""
    query = (select(Category).join(ContentType).where(ContentType.slug == type_slug, Category.slug == slug)
             .options(joinedload(Category.parent), selectinload(Category.children)))
    category = db.session.scalars(query).first()
    if category is None:
        raise not_found(type_slug, slug)
    return category


def category_scope(type_slug: str, slug: str) -> Scope:
    """The scope of the category ``slug`` of type ``type_slug``: from the type's categories as the process knows them
    (app/services/catalogue/known.py; read again before the category is called missing)."""
    rows = of_type_slug(type_slug)
    found = next((row.id for row in rows if row.slug == slug), None)
    if found is None:
        rows = of_type_slug(type_slug, fresh=True)
        found = next((row.id for row in rows if row.slug == slug), None)
    if found is None:
        raise not_found(type_slug, slug)
    return Scope(found, descendants(found, children_of(rows)))


def not_found(type_slug: str, slug: str) -> NotFound:
    """Which one is missing: the type or, in it, the category (one more query, on this path only)."""
    if db.session.scalar(select(ContentType.id).where(ContentType.slug == type_slug)) is None:
        return type_not_found({"slug": type_slug})
    return category_not_found(type_slug, slug)


def children_of(rows: Iterable[Any]) -> dict[int, list[int]]:
    """Each category's children's ids, from rows with ``id`` and ``parent_id``, in the rows' order."""
    children: dict[int, list[int]] = {}
    for row in rows:
        if row.parent_id is not None:
            children.setdefault(row.parent_id, []).append(row.id)
    return children


def descendants(category_id: int, children: dict[int, list[int]]) -> tuple[int, ...]:
    """``category_id`` then every category under it, each once (a loop an edit made ends where it comes back)."""
    found = [category_id]
    seen = {category_id}
    for current in found:  # grows as it goes: breadth first
        for child in children.get(current, ()):
            if child not in seen:
                seen.add(child)
                found.append(child)
    return tuple(found)


def in_scope(ids: Sequence[int]) -> Any:
    """Whether a content is linked to any of the categories ``ids``: on PostgreSQL its own ``category_ids`` overlap
    them (their GIN index; app/services/catalogue/filters.py LABEL_ARRAYS), on SQLite its links."""
    if db.engine.dialect.name == "postgresql":
        return literal_column("contents.category_ids").op("&&")(array(list(ids)))
    return Content.id.in_(select(ContentCategory.content_id).where(ContentCategory.category_id.in_(ids)))


def placed(ids: Sequence[int]) -> Any:
    """The titles linked to the categories ``ids`` with their place among them (``content_id``, ``position``: the
    lowest of their links'), as a selectable to join; one category's links as they are."""
    if len(ids) == 1:
        return (select(ContentCategory.content_id, ContentCategory.position)
                .where(ContentCategory.category_id == ids[0]).subquery("placed"))
    return (select(ContentCategory.content_id, func.min(ContentCategory.position).label("position"))
            .where(ContentCategory.category_id.in_(ids)).group_by(ContentCategory.content_id).subquery("placed"))


def category_tree(type_id: int, counted: Callable[[], dict[int, int]] | None = None, include_empty: bool = False
                  ) -> list[dict[str, Any]]:
    """The type's categories as a forest, siblings in position order, each with ``count``: its published titles, its
    sub-categories' included (``counted``, once the type is known to exist: as kept, app/services/catalogue/facets.py
    ``category_counts``; else counted here). Empty ones are left out unless ``include_empty`` (a category whose
    sub-categories hold titles is not empty). The tree is one query, built here."""
    content_type(type_id)
    rows = db.session.execute(select(Category.id, Category.parent_id, Category.slug, Category.title)
                              .where(Category.content_type_id == type_id)
                              .order_by(Category.position, Category.id)).all()
    counts = counted() if counted is not None else count_categories(type_id, rows)
    nodes = {row.id: {"id": row.id, "slug": row.slug, "title": row.title, "count": counts.get(row.id, 0),
                      "children": []} for row in rows}
    roots: list[dict[str, Any]] = []
    reached: set[int] = set()
    pending: list[tuple[int | None, list[dict[str, Any]]]] = [(None, roots)]
    by_parent: dict[int | None, list[Any]] = {}
    for row in rows:  # in position order, so each level is too
        by_parent.setdefault(row.parent_id if row.parent_id in nodes else None, []).append(row)
    while pending:  # from the top down, each node once: a loop an edit made is not shown
        parent_id, siblings = pending.pop()
        for row in by_parent.get(parent_id, ()):
            if row.id in reached or (not include_empty and not nodes[row.id]["count"]):
                continue
            reached.add(row.id)
            siblings.append(nodes[row.id])
            pending.append((row.id, nodes[row.id]["children"]))
    return roots


def count_categories(type_id: int, rows: Sequence[Any] | None = None) -> dict[int, int]:
    """How many published titles each category of the type holds, its sub-categories' included, each title once:
    {category id: count}, the empty ones left out. One query over the links of the type's categories."""
    if rows is None:
        rows = db.session.execute(select(Category.id, Category.parent_id)
                                  .where(Category.content_type_id == type_id)).all()
    if not rows:
        return {}
    children = children_of(rows)
    pairs = [(row.id, member) for row in rows for member in descendants(row.id, children)]
    scopes = values(column("scope", SqlInteger), column("member", SqlInteger), name="scopes").data(pairs).cte("scopes")
    query: Select[Any] = (select(scopes.c.scope, func.count(distinct(ContentCategory.content_id)))
                          .select_from(scopes)
                          .join(ContentCategory, ContentCategory.category_id == scopes.c.member)
                          .join(Content, Content.id == ContentCategory.content_id)
                          .where(public()).group_by(scopes.c.scope))
    return {scope: count for scope, count in db.session.execute(query)}
