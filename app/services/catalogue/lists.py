"""The lists of contents (spec §7): the main mart (the home page's showcase: its categories with their leading
contents) and the filtered, sorted pages of contents (categories and their scopes: app/services/catalogue/categories.py;
the facets of the filters: app/services/catalogue/facets.py). Each read runs a fixed number of queries whatever the
page size or number of categories; only published contents ever show."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ARRAY, Integer, bindparam, func, literal, select, true, union_all

from app import clock
from app.extensions import db
from app.models import Content, ContentCategory
from app.services.catalogue.cards import cards_in_order, load_cards
from app.services.catalogue.categories import category_scope, children_of, descendants, in_scope, placed
from app.services.catalogue.filters import ListRequest, filtered, ordered
from app.services.catalogue.known import categories as known_categories
from app.services.catalogue.list_keys import keyed, keyed_page
from app.services.catalogue.paging import Page, paginate, paginate_counting_along
from app.services.catalogue.reach import PlaysHere, plays_here
from app.services.catalogue.types import content_type

MART_LIMIT = 12  # leading contents per category on the main mart, unless the caller asks for another number
MART_PAGE = 100  # categories (sub-categories included) per statement: SQLite takes at most 500 branches in one UNION


def main_mart(type_id: int | None, limit: int = MART_LIMIT, here: PlaysHere | None = None) -> list[dict[str, Any]]:
    """The main-mart categories (of type ``type_id``, or of every type) in position order, each with the first
    ``limit`` published titles of its scope (app/services/catalogue/categories.py: its own and its sub-categories'),
    in the order its list's first page has them (``here``: of those that play there only). A fixed number of queries
    whatever the number of categories (up to MART_PAGE categories and sub-categories; then one more per MART_PAGE):
    their leading titles' ids, the cards (the categories as the process knows them: app/services/catalogue/known.py)."""
    if type_id is not None:
        content_type(type_id)
    every = known_categories(type_id)  # the sub-categories' too
    categories = [category for category in every if category.main_mart]
    children = children_of(every)
    pairs = [(category.id, member) for category in categories for member in descendants(category.id, children)]
    leading: list[Any] = []
    for start in range(0, len(pairs), MART_PAGE):
        leading += db.session.execute(_leading(pairs[start:start + MART_PAGE], limit, here)).all()
    if not leading:
        return [{"category": category, "contents": []} for category in categories]
    places: dict[int, dict[int, int]] = {category.id: {} for category in categories}
    for row in leading:  # a title's place in a scope: its lowest position there
        place = places[row.scope_id]
        place[row.content_id] = min(row.position, place.get(row.content_id, row.position))
    first = {scope: sorted(place, key=lambda content_id: (place[content_id], -content_id))[:limit]
             for scope, place in places.items()}
    cards = load_cards({content_id for ids in first.values() for content_id in ids})
    return [{"category": category, "contents": [cards[content_id] for content_id in first[category.id]]}
            for category in categories]


def _leading(pairs: list[tuple[int, int]], limit: int, here: PlaysHere | None = None) -> Any:
    """For each (scope, category) pair, the category's first ``limit`` published titles in its order (position, then
    the newest), each an index range scan of ix_content_categories_order (category_id, position, content_id DESC); the
    first ``limit`` of a scope are among its categories' first ``limit``. A window function (ROW_NUMBER() ≤ limit)
    would number every title of every category first. PostgreSQL: one LATERAL subquery over the pairs (array
    parameters: one statement shape whatever their number, made once when no ``here`` narrows it: built per request its
    expressions and cache key took a millisecond); SQLite, which has no LATERAL: one LIMIT branch per pair in one
    UNION ALL."""
    if db.engine.dialect.name == "postgresql":
        values = {"scope_ids": [scope for scope, _ in pairs], "category_ids": [member for _, member in pairs],
                  "limit": limit, "at": clock.now()}
        statement = _LEADING_POSTGRESQL if here is None else _leading_postgresql(plays_here(here))
        return statement.params(values)
    at = clock.now()
    return union_all(*(_first_of(literal(scope), member, Content.shown_at(at), limit, here).subquery().select()
                       for scope, member in pairs))


def _first_of(scope: Any, category: Any, shown: Any, limit: Any, here: PlaysHere | None = None) -> Any:
    return (select(scope.label("scope_id"), ContentCategory.content_id, ContentCategory.position)
            .join(Content, Content.id == ContentCategory.content_id)
            .where(ContentCategory.category_id == category, shown, *([plays_here(here)] if here is not None else []))
            .order_by(ContentCategory.position, ContentCategory.content_id.desc()).limit(limit))


def _leading_postgresql(*conditions: Any) -> Any:
    scopes = bindparam("scope_ids", type_=ARRAY(Integer))
    members = bindparam("category_ids", type_=ARRAY(Integer))
    given = func.unnest(scopes, members).table_valued("scope", "member").render_derived()
    first = _first_of(given.c.scope, given.c.member, Content.shown_at(bindparam("at")),
                      bindparam("limit", type_=Integer)).where(*conditions).lateral()
    return select(first.c.scope_id, first.c.content_id, first.c.position).select_from(given).join(first, true())


_LEADING_POSTGRESQL = _leading_postgresql()


def list_contents(request: ListRequest) -> Page:
    """A page of every published content that ``request``'s filters let through, in its sort."""
    found = paginate(ordered(filtered(select(Content.id), request), request), Content.id, request.page,
                     request.page_size)
    return carded(found)


def carded(found: Page) -> Page:
    """``found``, a page of content ids, as a page of their cards (app/services/catalogue/cards.py)."""
    return Page(cards_in_order(found.items), found.total, found.page, found.page_size)


def category_contents(type_slug: str, slug: str, request: ListRequest) -> Page:
    """A page of the published titles of the category ``slug`` of type ``type_slug`` and of its sub-categories, each
    once (its scope: app/services/catalogue/categories.py); the position sort is the scope's editorial order, a
    title's lowest position in it, then the newest. On PostgreSQL membership is the contents' own ``category_ids``
    (app/services/catalogue/filters.py LABEL_ARRAYS), or with the genres and years asked its ``list_keys``
    (app/services/catalogue/list_keys.py): the scope's titles are read by a GIN index, counted along with the page in
    one statement, and only the position sort reads the links, for their order."""
    scope = category_scope(type_slug, slug)
    if db.engine.dialect.name != "postgresql":
        place = placed(scope.ids)
        query = select(Content.id).join(place, place.c.content_id == Content.id)
        query = ordered(filtered(query, request), request, editorial=place.c.position, newest=Content.id)
        return carded(paginate(query, Content.id, request.page, request.page_size))
    lookup = keyed(scope.ids, request)  # the scope with the genres and years, where they can be one index lookup
    if lookup is not None:
        return keyed_page(lookup, request)
    members = filtered(select(Content.id).where(in_scope(scope.ids)), request)
    if request.sort == "position":
        place = placed(scope.ids)
        query = ordered(members.join(place, place.c.content_id == Content.id), request, editorial=place.c.position,
                        newest=Content.id)
    else:
        query = ordered(members, request)
    return carded(paginate_counting_along(query, Content.id, request.page, request.page_size, members))
