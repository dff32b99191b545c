"""The filters and sorts of the lists of contents (spec §7 "query, body"): what a list call asks for, merged from its
query string and its body (the body wins per field), as conditions and an order on a query of published contents."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, Select, and_, func, literal_column, select

from app.extensions import db
from app.models import Content, ContentType, Country, Genre, Tag, VoiceAuthor
from app.services.catalogue.publishing import public
from app.services.catalogue.reach import PlaysHere, plays_here
from app.services.errors import Invalid

SORTS = ("position", "newest", "year", "rating", "title")
ORDERS = ("asc", "desc")
MATCHES = ("any", "all")  # a label filter's values: a title with any of them (the default), or with all
# The order each sort takes when the caller names none: the editorial order first, the newest, latest, best first.
DEFAULT_ORDER = {"position": "asc", "newest": "desc", "year": "desc", "rating": "desc", "title": "asc"}
DEFAULT_PAGE_SIZE = 20
Query = TypeVar("Query", bound=Select)  # a select of any columns
# PostgreSQL: each content carries its labels' ids (arrays the migration b8e2d4f61c07 adds and triggers on the link
# tables keep), so that a filter reads the content's own row: a list of a large category looks at each of its
# contents once, never at every content of a genre. SQLite asks the link tables.
LABEL_ARRAYS: dict[str, tuple[str, Any]] = {
    "genres": ("genre_ids", Genre), "countries": ("country_ids", Country), "tags": ("tag_ids", Tag),
    "voice_authors": ("voice_author_ids", VoiceAuthor)}


@dataclass(frozen=True)
class ListRequest:
    """One list call's filters, sort and page. Slug filters match any of their values, or all of them where their
    ``…_match`` says "all" (a slug no row has matches nothing); the others are bounds, inclusive."""

    genres: tuple[str, ...] = ()
    countries: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    voice_authors: tuple[str, ...] = ()
    genres_match: str = "any"
    countries_match: str = "any"
    tags_match: str = "any"
    voice_authors_match: str = "any"
    year_from: int | None = None
    year_to: int | None = None
    rating_from: float | None = None  # Kinopoisk's
    age_rating_max: int | None = None
    type: str | None = None  # a content type slug: the list of all contents only
    has_multiple_episodes: bool | None = None
    available_here: PlaysHere | None = None  # what plays for the viewer's country only (services/catalogue/reach.py)
    sort: str = "position"
    order: str | None = None  # None: the sort's DEFAULT_ORDER
    page: int = 1
    page_size: int = DEFAULT_PAGE_SIZE

    @property
    def narrows(self) -> bool:
        """Whether any filter is set (beyond the published contents every list shows)."""
        return bool(self.genres or self.countries or self.tags or self.voice_authors or self.available_here) or any(
            value is not None for value in (self.year_from, self.year_to, self.rating_from, self.age_rating_max,
                                             self.type, self.has_multiple_episodes))

    @property
    def descending(self) -> bool:
        return (self.order or DEFAULT_ORDER[self.sort]) == "desc"


_NAMES = {field.name for field in fields(ListRequest)}


def list_request(query: Mapping[str, Any], body: Mapping[str, Any] | None = None, *,
                 country: str | None = None) -> ListRequest:
    """The request of a list call whose query string and body (both loaded by their schemas, snake_case keys, only
    the fields given) say ``query`` and ``body``: per field, the body's value wins. Invalid when the years cross.
    ``country``: the viewer's, which ``availableHere`` (true; false asks nothing) is judged for."""
    merged = {**query, **(body or {})}
    unknown = set(merged) - _NAMES
    if unknown:  # the schemas refuse them first; this guards the callers that build the mappings themselves
        raise Invalid("unknown_filter", "Неизвестный фильтр", fields=sorted(unknown))
    values: dict[str, Any] = {name: tuple(value) if isinstance(value, list) else value
                              for name, value in merged.items()}
    values["available_here"] = PlaysHere(country) if values.get("available_here") else None
    request = ListRequest(**values)
    if request.sort not in SORTS or (request.order is not None and request.order not in ORDERS):
        raise Invalid("unknown_sort", "Неизвестная сортировка", {"sort": request.sort, "order": request.order})
    if any(getattr(request, f"{field}_match") not in MATCHES for field in LABEL_ARRAYS):
        raise Invalid("unknown_filter", "Неизвестный фильтр", {"fields": [f"{field}_match" for field in LABEL_ARRAYS]})
    if request.year_from is not None and request.year_to is not None and request.year_from > request.year_to:
        raise Invalid("invalid_year_range", "Год «от» позже года «до»",
                      {"yearFrom": request.year_from, "yearTo": request.year_to})
    return request


@dataclass(frozen=True)
class _Filtered:
    """The columns the filters read, of contents or of the search documents' copy of them (PostgreSQL)."""

    table: str  # whose label arrays (PostgreSQL)
    year: Any
    rating: Any  # Kinopoisk's
    age_rating: Any
    content_type_id: Any
    has_multiple_episodes: Any


CONTENTS = _Filtered("contents", Content.year, Content.kinopoisk_rating, Content.age_rating, Content.content_type_id,
                     Content.has_multiple_episodes)
# PostgreSQL's search documents carry their content's filtered columns (migration 9d4b2e7a1c53, kept by triggers): a
# filtered search filters the rows it ranks (app/services/search/query.py).
DOCUMENTS = _Filtered("search_documents", *(literal_column(f"search_documents.{name}") for name in (
    "year", "rating", "age_rating", "content_type_id", "has_multiple_episodes")))


def filtered(query: Query, request: ListRequest) -> Query:
    """``query`` (of Content) narrowed to the published contents ``request``'s filters let through. Label filters are
    EXISTS subqueries (SQLite) or conditions on the content's own arrays (PostgreSQL): a content with two of the
    genres asked for is still one row."""
    conditions = _conditions(request, CONTENTS)
    if request.available_here is not None:
        conditions.append(plays_here(request.available_here))
    return query.where(public(), *conditions)


def documents_filtered(query: Query, request: ListRequest) -> Query:
    """``query`` of search documents (PostgreSQL) narrowed by ``request``'s filters but ``available_here`` (which
    reads the content's rules: the caller asks contents for it), on the documents' own copy of the columns."""
    return query.where(*_conditions(request, DOCUMENTS))


def _conditions(request: ListRequest, of: _Filtered) -> list[Any]:
    conditions: list[ColumnElement[bool] | Any] = []
    for field in LABEL_ARRAYS:
        if slugs := getattr(request, field):
            conditions.append(_labelled(field, set(slugs), getattr(request, f"{field}_match") == "all", of.table))
    if request.year_from is not None:
        conditions.append(of.year >= request.year_from)
    if request.year_to is not None:
        conditions.append(of.year <= request.year_to)
    if request.rating_from is not None:
        conditions.append(of.rating >= request.rating_from)
    if request.age_rating_max is not None:
        conditions.append(of.age_rating <= request.age_rating_max)
    if request.type is not None:
        conditions.append(of.content_type_id == select(ContentType.id).where(
            ContentType.slug == request.type).scalar_subquery())
    if request.has_multiple_episodes is not None:
        conditions.append(of.has_multiple_episodes == request.has_multiple_episodes)
    return conditions


def _labelled(field: str, slugs: set[str], every: bool, table: str = "contents") -> Any:
    """A content has any of the labels ``slugs`` of ``field`` (all of them when ``every``): a slug no label has
    matches nothing, so that all of a known and an unknown one is nothing too. ``table``: whose arrays (PostgreSQL)."""
    column, model = LABEL_ARRAYS[field]
    if db.engine.dialect.name == "postgresql":
        ids = select(func.array_agg(model.id)).where(model.slug.in_(slugs))
        if every:  # contains them all; NULL (no match) unless every slug is known
            return literal_column(f"{table}.{column}").op("@>")(
                ids.having(func.count() == len(slugs)).scalar_subquery())
        return literal_column(f"{table}.{column}").op("&&")(ids.scalar_subquery())  # overlap (none known: NULL)
    labels = getattr(Content, field)  # Content.genres, .countries, .tags, .voice_authors
    if every:
        return and_(*(labels.any(model.slug == slug) for slug in sorted(slugs)))
    return labels.any(model.slug.in_(slugs))


# What ``ordered`` reads of a content, but the editorial order (the caller's)
SORT_COLUMNS = (Content.id, Content.created_at, Content.year, Content.kinopoisk_rating, Content.title_sort)


def ordered(query: Select[Any], request: ListRequest, editorial: Any = Content.position,
            newest: Any = Content.created_at, of: Any = Content) -> Select[Any]:
    """``query`` in ``request``'s sort; ``editorial`` is the column of the position sort (a category's own order for
    its list), ``newest`` what puts the newest first among equal positions (a category's: the id, as its main-mart
    row has them, app/services/catalogue/lists.py); ``of``: whose columns the other sorts read (the contents', or a
    selection of them with those columns: SORT_COLUMNS). Contents without a year or rating come last either way;
    app/services/catalogue/paging.py adds the id last."""
    descending = request.descending

    def direction(column: Any, reverse: bool = False) -> Any:
        return column.desc() if descending != reverse else column.asc()

    if request.sort == "position":
        # lower positions first, then the newest (the model's editorial order)
        keys = [direction(editorial), direction(newest, reverse=True)]
    elif request.sort == "newest":
        keys = [direction(of.created_at)]
    elif request.sort == "year":
        keys = [direction(of.year).nulls_last()]
    elif request.sort == "rating":
        keys = [direction(of.kinopoisk_rating).nulls_last()]
    else:  # «По алфавиту»: the title's key (app/models/sort_keys.py), Russian alphabetical on both databases
        keys = [direction(of.title_sort)]
    return query.order_by(*keys)
