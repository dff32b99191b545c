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

    def dump_rating(self, content: Any) -> dict[str, Any]:
        return {"kinopoisk": {"value": content.kinopoisk_rating},
                "imdb": {"value": content.imdb_rating, "url": content.imdb_url}}
