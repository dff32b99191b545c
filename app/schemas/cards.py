"""A content as lists show it (a card): what a catalogue page, a search result or a person's filmography needs to
draw it and link to it, without its episodes. The services load what it reads with
``app.services.catalogue.cards.CARD_OPTIONS``, so that a page of cards costs a bounded number of queries whatever its
size."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields


class LabelSchema(Schema):
    slug = fields.Str(required=True, metadata={"example": "drama"})
    title = fields.Str(required=True, metadata={"example": "Драма"})


class ReviewTotalsSchema(Schema):
    """A content's visible reviews: how many, and their average rating (null without any). The shared answers that
    carry it are kept a few minutes (docs/caching.md); the content's reviews list itself is current."""

    count = fields.Int(required=True, attribute="review_count", metadata={"example": 12})
    averageRating = fields.Float(required=True, allow_none=True, attribute="viewer_rating",
                                 metadata={"description": "1 to 10, to one decimal", "example": 7.8})


class OfTheContent(fields.Nested):
    """A nested schema dumped from the content itself (its own columns grouped under one name)."""

    def get_value(self, obj: Any, attr: str, accessor: Any = None, default: Any = None) -> Any:
        return obj


def review_totals() -> fields.Field:
    return OfTheContent(ReviewTotalsSchema, required=True, metadata={"example": {"count": 12, "averageRating": 7.8}})


class ContentCardSchema(Schema):
    id = fields.Int(required=True, metadata={"example": 2})
    slug = fields.Str(required=True, metadata={"example": "tikhaya-gavan"})
    title = fields.Str(required=True, metadata={"example": "Тихая гавань"})
    originalTitle = fields.Str(attribute="original_title", allow_none=True, metadata={"example": "Quiet Harbour"})
    year = fields.Int(allow_none=True, metadata={"example": 2023})
    posterUrl = fields.Str(attribute="poster_url", allow_none=True,
                           metadata={"example": "/media/posters/series-s1e1.jpg"})
    contentType = fields.Nested(LabelSchema, attribute="content_type", required=True,
                                metadata={"example": {"slug": "series", "title": "Сериал"}})
    hasMultipleEpisodes = fields.Bool(attribute="has_multiple_episodes", required=True, metadata={"example": True})
    ageRating = fields.Int(attribute="age_rating", allow_none=True, metadata={"example": 16})
    genres = fields.List(fields.Nested(LabelSchema), required=True, metadata={"example": [
        {"slug": "detective", "title": "Детектив"}, {"slug": "drama", "title": "Драма"}]})
    rating = fields.Method("dump_rating", required=True, metadata={"example": {
        "kinopoisk": {"value": 8.2}, "imdb": {"value": 7.9, "url": "https://www.imdb.com/title/tt0000002/"}}})
    reviews = review_totals()

    def dump_rating(self, content: Any) -> dict[str, Any]:
        return {"kinopoisk": {"value": content.kinopoisk_rating},
                "imdb": {"value": content.imdb_rating, "url": content.imdb_url}}

    def _serialize(self, obj: Any, *, many: bool = False) -> Any:
        """The card's fields as ``dump_card`` writes them (this schema's own dump, field for field, key for key: a
        unit test compares them), an eighth of marshmallow's time per card: a page of 100 cards is dumped on every
        uncached list, search and main mart. A subclass (a filmography's card with its parts) or a schema limited
        with ``only``/``exclude`` dumps as marshmallow does."""
        if type(self) is not ContentCardSchema or self.only is not None or self.exclude:
            return super()._serialize(obj, many=many)
        if many:
            return None if obj is None else [dump_card(card) for card in obj]
        return dump_card(obj)


def _label(label: Any) -> dict[str, str]:
    return {"slug": str(label.slug), "title": str(label.title)}


def _number(value: Any, kind: type) -> Any:
    return None if value is None else kind(value)


def dump_card(content: Any) -> dict[str, Any]:
    """``ContentCardSchema().dump(content)`` written out: the same keys in the same order, the same values
    (marshmallow's Int is int(), Str str(), Float float(), each None as None)."""
    review_count = content.review_count
    return {
        "id": _number(content.id, int),
        "slug": _number(content.slug, str),
        "title": _number(content.title, str),
        "originalTitle": _number(content.original_title, str),
        "year": _number(content.year, int),
        "posterUrl": _number(content.poster_url, str),
        "contentType": _label(content.content_type),
        "hasMultipleEpisodes": _number(content.has_multiple_episodes, bool),
        "ageRating": _number(content.age_rating, int),
        "genres": [_label(genre) for genre in content.genres],
        "rating": {"kinopoisk": {"value": content.kinopoisk_rating},
                   "imdb": {"value": content.imdb_rating, "url": content.imdb_url}},
        "reviews": {"count": _number(review_count, int), "averageRating": _number(content.viewer_rating, float)},
    }
