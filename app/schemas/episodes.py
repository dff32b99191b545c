"""Episodes across contents: the newest ones (``POST /episodes/fresh``) and what the player needs to play one
(``GET /episodes/{id}/resource``)."""

from __future__ import annotations

from marshmallow import Schema, fields

from app.schemas.cards import ContentCardSchema
from app.schemas.catalogue import EpisodeSchema, PlayerContentSchema, SeasonSchema
from app.schemas.common import Slug
from app.schemas.paging import PageQuerySchema


class FreshEpisodesQuerySchema(PageQuerySchema):
    content_type = Slug("series", 64, data_key="type", load_default=None,
                        metadata={"description": "a content type's slug: episodes of its contents only"})


class FreshEpisodeSchema(Schema):
    """An episode in a list of episodes of many contents: where it sits, and the content as a card."""

    id = fields.Int(required=True, metadata={"example": 12})
    order = fields.Int(required=True, metadata={"example": 3})
    title = fields.Str(required=True, metadata={"example": "Серия 3"})
    duration = fields.Int(allow_none=True, required=True, metadata={"example": 2640})
    posterPath = fields.Str(attribute="poster_path", allow_none=True, required=True,
                            metadata={"example": "/media/posters/series-s1e3.jpg"})
    addedAt = fields.DateTime(attribute="created_at", required=True, metadata={"example": "2026-11-20T18:00:00+00:00"})
    season = fields.Nested(SeasonSchema, allow_none=True, required=True)
    content = fields.Nested(ContentCardSchema, required=True)


class EpisodeResourceSchema(Schema):
    """One episode as the player opens it: the content's player fields, the episode with its media address (signed;
    null unless it plays for this viewer), and whether it plays here."""

    content = fields.Nested(PlayerContentSchema, required=True, metadata={"example": {
        "id": 2, "title": "Тихая гавань", "hasMultipleEpisodes": True, "posterUrl": "/media/posters/series-s1e1.jpg",
        "contentType": {"slug": "series"}, "year": 2023, "countries": [{"slug": "ru"}],
        "languages": [{"code": "en"}, {"code": "ru"}], "kinopoiskId": 1000002, "imdbId": "tt0000002",
        "rating": {"kinopoisk": {"value": 8.2}, "imdb": {"value": 7.9, "url": "https://www.imdb.com/title/tt0000002/"}}}})
    episode = fields.Nested(EpisodeSchema, required=True)
    available = fields.Bool(required=True, metadata={"example": True})
    reason = fields.Str(allow_none=True, required=True, metadata={
        "description": "why it does not play: blocked_country or blocked_domain; null when it plays",
        "example": None})
