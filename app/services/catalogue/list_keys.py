"""A category's list filtered by genre and years in one index lookup (PostgreSQL). Each content carries its list
keys (``contents.list_keys``, a generated column of its ``category_ids``, ``genre_ids`` and ``year``, GIN-indexed:
migration 95b613c9219f): a number for each of its categories with each of its genres, with each of its genres and
its year, and with its year. A category's page of dramas of 1980–2000 then asks the index for the keys (category,
drama, 1980) … (category, drama, 2000) and reads the 800 titles that have one, where the category's and the genre's
own indexes gave 8,851 and 28,583 ids to intersect, and 2,500 rows to read for their year (100,000 titles: 4.8 ms
to 1 ms for the statement).

A key is ``category × 2³⁶ + genre × 2¹² + year − 1799``, with 0 for "any genre" and for "any year": exact for
category ids under 2²⁷, genre ids under 2²⁴ (a catalogue has a few dozen) and years 1800–5894, which every range a
list takes lies in (app/schemas/lists.py: 1800–2200); a content's year outside them gives no year keys, and no such
range could take it.

The statement finds the keys' titles first, with what the sorts read (a materialised CTE), then sorts, counts and
cuts them to the page, and reads that page's cards (app/services/catalogue/cards.py) in the same statement. Left to
plan it as one statement, PostgreSQL 15 took the order's index with the keys as a filter for a first page (94 ms: it
costs the page's LIMIT as if the count of all, a window over every row, could stop early), or, for the position
order, a loop over the category's links (19 ms). The statement of each shape (genres or not, years or not, the sort
and its direction) is made once, with parameters for the values: built per request, its expressions and their cache
key cost a millisecond."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from sqlalchemy import ARRAY, BigInteger, Integer, String, any_, bindparam, cast, func, literal_column, select, true

from app import clock
from app.extensions import db
from app.models import Content, ContentCategory, ContentType, Genre
from app.services.catalogue.cards import CARD_COLUMNS_POSTGRESQL, cards_of_rows
from app.services.catalogue.filters import SORT_COLUMNS, ListRequest, filtered, ordered
from app.services.catalogue.paging import Page

CATEGORY_UNIT = 2 ** 36
GENRE_UNIT = 2 ** 12
YEAR_ZERO = 1799
CATEGORY_LIMIT = 2 ** 27  # ids at or above it have no keys (the migration's function says the same)
# The most keys one lookup asks for. GIN checks each title it finds against every key asked (its consistent function
# for &&), so a lookup costs its keys times its titles: on the 100,000-title catalogue (a category of 8,851 films, by
# rating and by position, in-process) 6 to 32 keys were 1.2–4.4× faster than the statement without them, 61 keys over
# 7,906 titles 1.6× slower, 903 keys 1.9× and 1,806 keys 3.3× slower. Past it the years are filtered instead, and
# past it for the genres alone the statement without keys runs.
MOST_KEYS = 32
_SCOPE = bindparam("scope_ids", type_=ARRAY(Integer))


@dataclass(frozen=True)
class Lookup:
    """What the keys find: the scope's titles of any of ``genres`` (none: of any genre) made in ``years`` (None: in
    any year); ``rest``: the request less what the keys say, for the other filters."""

    scope_ids: tuple[int, ...]
    genres: tuple[str, ...]
    years: tuple[int, int] | None
    rest: ListRequest


def keyed(scope_ids: tuple[int, ...], request: ListRequest) -> Lookup | None:
    """The lookup of the scope ``scope_ids`` with ``request``'s genres (any of them) and years (both bounds given);
    None when the keys would say nothing but the scope (no genre or year to key), or too much to look up."""
    if any(category >= CATEGORY_LIMIT for category in scope_ids):
        return None
    genres = request.genres if request.genres and (request.genres_match == "any" or len(request.genres) == 1) else ()
    years = (request.year_from, request.year_to) \
        if request.year_from is not None and request.year_to is not None else None
    span = max(years[1] - years[0] + 1, 0) if years else 1
    if years and len(scope_ids) * max(len(genres), 1) * span > MOST_KEYS:
        years = None
    if (not genres and not years) or len(scope_ids) * max(len(genres), 1) > MOST_KEYS:
        return None
    rest = replace(request, genres=() if genres else request.genres,
                   year_from=None if years else request.year_from, year_to=None if years else request.year_to)
    return Lookup(scope_ids, genres, years, rest)


def keyed_page(lookup: Lookup, request: ListRequest) -> Page:
    """``request``'s page of the cards of the titles ``lookup`` finds, and how many it finds: one statement (two for
    a page past the last)."""
    values = {"scope_ids": list(lookup.scope_ids), "genre_slugs": list(lookup.genres), "at": clock.now(),
              "year_from": lookup.years[0] if lookup.years else None,
              "year_to": lookup.years[1] if lookup.years else None,
              "limit": request.page_size, "offset": (request.page - 1) * request.page_size}
    shape = (bool(lookup.genres), lookup.years is not None)
    rest = lookup.rest if lookup.rest.narrows else None  # other filters too: a statement of its own
    statement = _cards_of_page(_found(*shape, rest), request.sort, request.descending) if rest is not None \
        else _cards_of_shape(*shape, request.sort, request.descending)
    rows = db.session.execute(statement, values).all()
    if rows:
        return Page(cards_of_rows(rows), rows[0].total, request.page, request.page_size)
    counted = select(func.count()).select_from(_found(*shape, rest))
    return Page([], db.session.scalar(counted, values) or 0, request.page, request.page_size)


def _condition(genres: bool, years: bool) -> Any:
    """``contents.list_keys`` has one of the keys of the parameters ``scope_ids``, ``genre_slugs`` (when ``genres``)
    and ``year_from`` to ``year_to`` (when ``years``): a GIN lookup."""
    scope = func.unnest(_SCOPE).table_valued("id").render_derived(name="scope")
    key: Any = cast(scope.c.id, BigInteger) * CATEGORY_UNIT
    source: Any = scope
    if genres:
        source = source.join(Genre, Genre.slug == any_(bindparam("genre_slugs", type_=ARRAY(String))))
        key = key + cast(Genre.id, BigInteger) * GENRE_UNIT
    if years:
        year = func.generate_series(bindparam("year_from", type_=Integer), bindparam("year_to", type_=Integer)) \
            .table_valued("value").render_derived(name="year")
        source = source.join(year, true())
        key = key + (year.c.value - YEAR_ZERO)
    return literal_column("contents.list_keys").op("&&")(
        select(func.array_agg(key)).select_from(source).scalar_subquery())


def _found(genres: bool, years: bool, rest: ListRequest | None = None) -> Any:
    """The titles the keys find, public at the parameter ``at`` (and within ``rest``'s filters), with what the sorts
    read: materialised, so that the page is sorted from them alone."""
    query = select(*SORT_COLUMNS).where(_condition(genres, years))
    query = filtered(query, rest) if rest is not None else query.where(Content.shown_at(bindparam("at")))
    return query.cte("found").prefix_with("MATERIALIZED")


def _cards_of_page(found: Any, sort: str, descending: bool) -> Any:
    """The cards of the page (parameters ``limit``, ``offset``) of ``found`` in ``sort``, each row with the count of
    all: the page is cut from ``found`` alone, then its 20 titles' cards read and put in the same order. The position
    sort: a title's lowest position among the scope's links (their key (content_id, category_id))."""
    order = ListRequest(sort=sort, order="desc" if descending else "asc")
    rows = select(*found.c, func.count().over().label("total"))
    editorial = None
    if sort == "position":
        editorial = select(func.min(ContentCategory.position)).where(
            ContentCategory.content_id == found.c.id, ContentCategory.category_id == any_(_SCOPE)) \
            .scalar_subquery().label("editorial")
        rows = rows.add_columns(editorial)
    page = ordered(rows, order, editorial=editorial, newest=found.c.id, of=found.c).order_by(found.c.id) \
        .limit(bindparam("limit", type_=Integer)).offset(bindparam("offset", type_=Integer)).subquery("page")
    cards = (select(*CARD_COLUMNS_POSTGRESQL, page.c.total)
             .select_from(page.join(Content, Content.id == page.c.id))
             .join(ContentType, ContentType.id == Content.content_type_id))
    return ordered(cards, order, editorial=page.c.editorial if editorial is not None else None, newest=page.c.id,
                   of=page.c).order_by(page.c.id)


@cache
def _cards_of_shape(genres: bool, years: bool, sort: str, descending: bool) -> Any:
    return _cards_of_page(_found(genres, years), sort, descending)
