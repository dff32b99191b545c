"""Categories and the lists of contents (spec §7): one category, a content type's category tree, the main mart (the
home page's showcase: its categories with their leading contents), and the filtered, sorted pages of contents (the
facets of a type's filters: app/services/catalogue/facets.py). Each read runs a fixed number of queries whatever the
page size or number of categories; only published contents ever show."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ARRAY, Integer, bindparam, func, literal_column, select, true, union_all
from sqlalchemy.dialects.postgresql import array
from sqlalchemy.orm import joinedload, selectinload

from app.extensions import db
from app.models import Category, Content, ContentCategory, ContentType
from app.services.catalogue.cards import CARD_OPTIONS, cards_by_id
from app.services.catalogue.filters import ListRequest, filtered, ordered
from app.services.catalogue.paging import Page, paginate, paginate_counting_along
from app.services.catalogue.publishing import public
from app.services.catalogue.reach import PlaysHere, plays_here
from app.services.catalogue.types import content_type, type_not_found
from app.services.errors import NotFound

MART_LIMIT = 12  # leading contents per category on the main mart, unless the caller asks for another number
MART_PAGE = 100  # categories per statement: SQLite takes at most 500 branches in one UNION


def category_not_found(type_slug: str, slug: str) -> NotFound:
    return NotFound("category_not_found", "Категория не найдена", {"type": type_slug, "slug": slug})


def get_category(type_slug: str, slug: str) -> Category:
    """The category ``slug`` of the content type ``type_slug``, with its parent and children (in their order)."""
    query = (select(Category).join(ContentType).where(ContentType.slug == type_slug, Category.slug == slug)
             .options(joinedload(Category.parent), selectinload(Category.children)))
    category = db.session.scalars(query).first()
    if category is None:
        raise _not_found(type_slug, slug)
    return category


def _category_id(type_slug: str, slug: str) -> int:
    found = db.session.scalar(select(Category.id).join(ContentType)
                              .where(ContentType.slug == type_slug, Category.slug == slug))
    if found is None:
        raise _not_found(type_slug, slug)
    return found


def _not_found(type_slug: str, slug: str) -> NotFound:
    """Which one is missing: the type or, in it, the category (one more query, on this path only)."""
    if db.session.scalar(select(ContentType.id).where(ContentType.slug == type_slug)) is None:
        return type_not_found({"slug": type_slug})
    return category_not_found(type_slug, slug)


def category_tree(type_id: int) -> list[dict[str, Any]]:
    """The type's categories as a forest, siblings in position order: one query, the tree built here."""
    content_type(type_id)
    rows = db.session.execute(select(Category.id, Category.parent_id, Category.slug, Category.title)
                              .where(Category.content_type_id == type_id)
                              .order_by(Category.position, Category.id)).all()
    nodes = {row.id: {"id": row.id, "slug": row.slug, "title": row.title, "children": []} for row in rows}
    roots: list[dict[str, Any]] = []
    for row in rows:  # in position order, so each parent's children arrive in theirs
        parent = nodes.get(row.parent_id) if row.parent_id is not None else None
        (parent["children"] if parent is not None else roots).append(nodes[row.id])
    return roots


def main_mart(type_id: int | None, limit: int = MART_LIMIT, here: PlaysHere | None = None) -> list[dict[str, Any]]:
    """The main-mart categories (of type ``type_id``, or of every type) in position order, each with its first
    ``limit`` published contents in its editorial order (``here``: of those that play there only). A fixed number
    of queries whatever the number of categories (up to MART_PAGE; then one more per MART_PAGE): the categories,
    their leading contents' ids, the cards."""
    if type_id is not None:
        content_type(type_id)
    chosen = select(Category).where(Category.main_mart).options(joinedload(Category.content_type))
    if type_id is not None:
        chosen = chosen.where(Category.content_type_id == type_id)
    categories = list(db.session.scalars(chosen.order_by(Category.position, Category.id)))
    leading: list[Any] = []
    for start in range(0, len(categories), MART_PAGE):
        leading += db.session.execute(_leading([c.id for c in categories[start:start + MART_PAGE]], limit,
                                               here)).all()
    if not leading:
        return [{"category": category, "contents": []} for category in categories]
    cards = {content.id: content for content in
             db.session.scalars(cards_by_id({row.content_id for row in leading})).unique()}
    contents: dict[int, list[Content]] = {category.id: [] for category in categories}
    for row in sorted(leading, key=lambda row: (row.position, row.content_id)):
        contents[row.category_id].append(cards[row.content_id])
    return [{"category": category, "contents": contents[category.id]} for category in categories]


def _leading(category_ids: list[int], limit: int, here: PlaysHere | None = None) -> Any:
    """The first ``limit`` published contents of each category, in its order, each an index range scan where
    content_categories has (category_id, position, content_id); a window function (ROW_NUMBER() ≤ limit) would number
    every content of every category first. PostgreSQL: one LATERAL subquery over the ids (an array parameter: one
    statement shape whatever the number of categories); SQLite, which has no LATERAL: one LIMIT branch per category in
    one UNION ALL."""
    def first_of(category: Any) -> Any:
        return (select(ContentCategory.category_id, ContentCategory.content_id, ContentCategory.position)
                .join(Content, Content.id == ContentCategory.content_id)
                .where(ContentCategory.category_id == category, public(),
                       *([plays_here(here)] if here is not None else []))
                .order_by(ContentCategory.position, ContentCategory.content_id).limit(limit))

    if db.engine.dialect.name == "postgresql":
        given = bindparam("category_ids", category_ids, type_=ARRAY(Integer))
        ids = func.unnest(given).table_valued("id").render_derived()
        first = first_of(ids.c.id).lateral()
        return select(first.c.category_id, first.c.content_id, first.c.position).select_from(ids).join(first, true())
    return union_all(*(first_of(category_id).subquery().select() for category_id in category_ids))


def list_contents(request: ListRequest) -> Page:
    """A page of every published content that ``request``'s filters let through, in its sort."""
    query = ordered(filtered(select(Content), request), request).options(*CARD_OPTIONS)
    return paginate(query, Content.id, request.page, request.page_size)


def category_contents(type_slug: str, slug: str, request: ListRequest) -> Page:
    """A page of the published contents of the category ``slug`` of type ``type_slug`` (linked to it directly, not
    through its subcategories); the position sort is the category's own editorial order. On PostgreSQL membership is
    the contents' own ``category_ids`` (app/services/catalogue/filters.py LABEL_ARRAYS): the category's contents are
    read by its GIN index, counted along with the page in one statement, and only the position sort reads the links, for
    their order."""
    category_id = _category_id(type_slug, slug)
    if db.engine.dialect.name != "postgresql":
        query = (select(Content).join(ContentCategory, ContentCategory.content_id == Content.id)
                 .where(ContentCategory.category_id == category_id))
        query = ordered(filtered(query, request), request, editorial=ContentCategory.position).options(*CARD_OPTIONS)
        return paginate(query, Content.id, request.page, request.page_size)
    member = literal_column("contents.category_ids").op("@>")(array([category_id]))
    members = filtered(select(Content).where(member), request)
    if request.sort == "position":
        listed = members.join(ContentCategory, (ContentCategory.content_id == Content.id)
                              & (ContentCategory.category_id == category_id))
        query = ordered(listed, request, editorial=ContentCategory.position)
    else:
        query = ordered(members, request)
    return paginate_counting_along(query.options(*CARD_OPTIONS), Content.id, request.page, request.page_size,
                                   members.with_only_columns(Content.id))
