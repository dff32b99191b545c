"""Categories, the main mart, the filter facets, and what a list of contents is asked with (spec §7).

A list call takes its filters, sort and page in the query string, in the JSON body (POST), or both: the same fields
in each, none defaulted here (app/services/catalogue/filters.py merges them, the body winning per field, and fills the
defaults). A list in a query string is the parameter repeated: ``genres=drama&genres=comedy``. Unknown names are
refused (422) in both places."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from marshmallow import Schema, fields, validate

from app.schemas.cards import ContentCardSchema, LabelSchema
from app.schemas.common import Count, Slug
from app.schemas.paging import DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE

MAX_VALUES = 20  # values of one list filter
SORTS = ("position", "newest", "year", "rating", "title")  # as app/services/catalogue/filters.py SORTS
MATCHES = ("any", "all")  # as app/services/catalogue/filters.py MATCHES
_NUMBER = re.compile(r"[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?|\.[0-9]+([eE][-+]?[0-9]+)?")


class CategoryRefSchema(Schema):
    slug = fields.Str(required=True, metadata={"example": "drama-films"})
    title = fields.Str(required=True, metadata={"example": "Драмы"})


class CategorySchema(Schema):
    id = fields.Int(required=True, metadata={"example": 2})
    slug = fields.Str(required=True, metadata={"example": "drama-films"})
    title = fields.Str(required=True, metadata={"example": "Драмы"})
    description = fields.Str(required=True, metadata={"example": ""})
    parent = fields.Nested(CategoryRefSchema, required=True, allow_none=True,
                           metadata={"example": None})  # a category of the type's first level, as most are
    children = fields.List(fields.Nested(CategoryRefSchema), required=True,
                           metadata={"example": [{"slug": "family-dramas", "title": "Семейные драмы"}]})


class CategoryNodeSchema(Schema):
    """A node of a category tree: its children are nodes too."""

    id = fields.Int(required=True, metadata={"example": 1})
    slug = fields.Str(required=True, metadata={"example": "new"})
    title = fields.Str(required=True, metadata={"example": "Новинки"})
    count = fields.Int(required=True, metadata={
        "example": 12, "description": "its published titles, its sub-categories' included, each once"})
    children = fields.List(fields.Nested(lambda: CategoryNodeSchema()), required=True, metadata={"example": []})


class MartCategorySchema(Schema):
    id = fields.Int(required=True, metadata={"example": 4})
    slug = fields.Str(required=True, metadata={"example": "new"})
    title = fields.Str(required=True, metadata={"example": "Новые сериалы"})
    contentType = fields.Nested(LabelSchema, attribute="content_type", required=True,
                                metadata={"example": {"slug": "series", "title": "Сериал"}})


class MartEntrySchema(Schema):
    category = fields.Nested(MartCategorySchema, required=True)
    contents = fields.List(fields.Nested(ContentCardSchema), required=True,
                           metadata={"description": "the category's leading published contents, in its order"})




class LabelCountSchema(Schema):
    slug = fields.Str(required=True, metadata={"example": "drama"})
    title = fields.Str(required=True, metadata={"example": "Драма"})
    count = fields.Int(required=True, metadata={"example": 3})


class YearCountSchema(Schema):
    year = fields.Int(required=True, metadata={"example": 2021})
    count = fields.Int(required=True, metadata={"example": 1})


class RatingBandSchema(Schema):
    from_ = fields.Int(data_key="from", attribute="from", required=True,
                       metadata={"description": "the band [from, from + 1) of the Kinopoisk rating", "example": 7})
    count = fields.Int(required=True, metadata={"example": 2})


class AgeCountSchema(Schema):
    max = fields.Int(required=True, metadata={"description": "an age mark (0, 6, 12, 16, 18)", "example": 12})
    count = fields.Int(required=True, metadata={
        "description": "the titles marked at most this: what ageRatingMax=max lists", "example": 4})


class FacetsSchema(Schema):
    """Each value a list filter can ask for, with how many titles that filter lists (a label, a year, an age mark:
    the total of the list with it)."""

    genres = fields.List(fields.Nested(LabelCountSchema), required=True)
    countries = fields.List(fields.Nested(LabelCountSchema), required=True,
                            metadata={"example": [{"slug": "ru", "title": "Россия", "count": 3}]})
    tags = fields.List(fields.Nested(LabelCountSchema), required=True,
                       metadata={"example": [{"slug": "road-movie", "title": "Роуд-муви", "count": 1}]})
    years = fields.List(fields.Nested(YearCountSchema), required=True)
    ratings = fields.List(fields.Nested(RatingBandSchema), required=True)
    ages = fields.List(fields.Nested(AgeCountSchema), required=True, metadata={
        "description": "the age marks the titles have, lowest first, each counting the titles marked at most it",
        "example": [{"max": 6, "count": 1}, {"max": 12, "count": 3}, {"max": 18, "count": 4}]})
    voiceAuthors = fields.List(fields.Nested(LabelCountSchema), required=True,
                               metadata={"example": [{"slug": "dubliazh", "title": "Дубляж", "count": 3}]})

    def _serialize(self, obj: Any, *, many: bool = False) -> Any:
        """``dump_facets``: this schema's own dump written out (a unit test compares them), a tenth of marshmallow's
        time for a type's few hundred values, on every uncached ``/categories/filters/{id}``. A schema limited with
        ``only``/``exclude`` dumps as marshmallow does."""
        if many or self.only is not None or self.exclude:
            return super()._serialize(obj, many=many)
        return dump_facets(obj)


def _whole(value: Any) -> int | None:
    return None if value is None else int(value)


def dump_facets(facets: Any) -> dict[str, Any]:
    """``FacetsSchema().dump(facets)`` written out, for a mapping of the facets (as app/services/catalogue/
    facet_counts.py counts them): the same keys in the same order, the same values (Int is int(), Str str())."""

    def labels(name: str) -> list[dict[str, Any]]:
        return [{"slug": str(label["slug"]), "title": str(label["title"]), "count": _whole(label["count"])}
                for label in facets[name]]

    return {
        "genres": labels("genres"),
        "countries": labels("countries"),
        "tags": labels("tags"),
        "years": [{"year": _whole(year["year"]), "count": _whole(year["count"])} for year in facets["years"]],
        "ratings": [{"from": _whole(band["from"]), "count": _whole(band["count"])} for band in facets["ratings"]],
        "ages": [{"max": _whole(age["max"]), "count": _whole(age["count"])} for age in facets["ages"]],
        "voiceAuthors": labels("voiceAuthors"),
    }


# Fields that read a query string's text or a JSON body's values, by the schema they are in: "5" is a number in a
# query and a string in a body, where only 5 is one (and true is not 1).


def _in_query(field: fields.Field) -> bool:
    return bool(getattr(field.root, "IN_QUERY", False))


class Whole(Count):
    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not _in_query(self) and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class Decimal(fields.Float):
    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        text_ok = isinstance(value, str) and _in_query(self) and _NUMBER.fullmatch(value)
        number_ok = isinstance(value, int | float) and not isinstance(value, bool) and not _in_query(self)
        if not (text_ok or number_ok):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class Flag(fields.Boolean):
    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if _in_query(self) and value in ("true", "false"):
            return value == "true"
        if not _in_query(self) and isinstance(value, bool):
            return value
        raise self.make_error("invalid")


def _slugs(attribute: str, example: str, what: str) -> fields.Field:
    return fields.List(Slug(example), attribute=attribute, validate=validate.Length(max=MAX_VALUES),
                       metadata={"description": f"{what}: any of these slugs, at most {MAX_VALUES}",
                                 "example": [example]})


def _match(attribute: str, name: str | None = None) -> fields.Field:
    return fields.Str(attribute=f"{attribute}_match", validate=validate.OneOf(MATCHES), metadata={
        "description": f"any (the default): a title with any of the {name or attribute} asked for; all: with every "
                       "one of them («драма и комедия»)", "example": "all"})


def available_here() -> fields.Field:
    return Flag(attribute="available_here", metadata={
        "description": "true: only the titles that play for the viewer's country (they have media, no rule blocks "
                       "the country, and they are not licensed to named sites only); false: all, as without it",
        "example": True})


class MartQuerySchema(Schema):
    IN_QUERY: ClassVar[bool] = True

    limit = Count(load_default=12, validate=validate.Range(min=1, max=50),
                  metadata={"description": "contents per category, at most 50", "example": 12})
    availableHere = available_here()


class CategoryContentsBodySchema(Schema):
    """A list's filters, sort and page; none required."""

    IN_QUERY: ClassVar[bool] = False

    genres = _slugs("genres", "drama", "genres")
    genresMatch = _match("genres")
    countries = _slugs("countries", "ru", "countries")
    countriesMatch = _match("countries")
    tags = _slugs("tags", "road-movie", "tags")
    tagsMatch = _match("tags")
    voiceAuthors = _slugs("voice_authors", "dubliazh", "voice authors")
    voiceAuthorsMatch = _match("voice_authors", "voiceAuthors")
    yearFrom = Whole(attribute="year_from", validate=validate.Range(min=1800, max=2200),
                     metadata={"description": "from this year on", "example": 2019})
    yearTo = Whole(attribute="year_to", validate=validate.Range(min=1800, max=2200),
                   metadata={"description": "up to this year, not before yearFrom", "example": 2023})
    ratingFrom = Decimal(attribute="rating_from", validate=validate.Range(min=0, max=10),
                         metadata={"description": "a Kinopoisk rating of at least this", "example": 7})
    ageRatingMax = Whole(attribute="age_rating_max", validate=validate.Range(min=0, max=18),
                         metadata={"description": "an age mark (0, 6, 12, 16, 18) of at most this", "example": 16})
    hasMultipleEpisodes = Flag(attribute="has_multiple_episodes",
                               metadata={"description": "series (true) or films (false)", "example": False})
    availableHere = available_here()
    sort = fields.Str(validate=validate.OneOf(SORTS), metadata={
        "description": "position (editorial, the default), newest (added), year, rating (Kinopoisk), title; the id "
                       "breaks ties", "example": "rating"})
    order = fields.Str(validate=validate.OneOf(("asc", "desc")), metadata={
        "description": "the sort's direction; by default asc for position and title, desc for the others",
        "example": "desc"})
    page = Whole(validate=validate.Range(min=1, max=MAX_PAGE), metadata={"description": "from 1 (default)",
                                                                         "example": 1})
    pageSize = Whole(attribute="page_size", validate=validate.Range(min=1, max=MAX_PAGE_SIZE), metadata={
        "description": f"items per page, at most {MAX_PAGE_SIZE} (default {DEFAULT_PAGE_SIZE})", "example": 20})


class CategoryContentsQuerySchema(CategoryContentsBodySchema):
    IN_QUERY = True


class ContentsBodySchema(CategoryContentsBodySchema):
    type = Slug("film", 64, metadata={"description": "a content type's slug"})


class ContentsQuerySchema(ContentsBodySchema):
    IN_QUERY = True


class TreeQuerySchema(Schema):
    IN_QUERY: ClassVar[bool] = True

    includeEmpty = Flag(attribute="include_empty", load_default=False, metadata={
        "description": "true: the categories without a published title too (with count 0); by default left out",
        "example": False})
