"""Contents, seasons and episodes as the player and the catalogue API see them (spec §3)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields

from app.schemas.common import Id, Text


class SlugSchema(Schema):
    slug = fields.Str()


class LanguageRefSchema(Schema):
    code = fields.Str()


class ContentSchema(Schema):
    id = fields.Int()
    title = fields.Str()
    has_multiple_episodes = fields.Bool(data_key="hasMultipleEpisodes")
    poster_url = fields.Str(data_key="posterUrl", allow_none=True)
    content_type = fields.Nested(SlugSchema, data_key="contentType")
    year = fields.Int(allow_none=True)
    countries = fields.List(fields.Nested(SlugSchema))
    languages = fields.List(fields.Nested(LanguageRefSchema))
    kinopoisk_id = fields.Int(data_key="kinopoiskId", allow_none=True)
    imdb_id = fields.Str(data_key="imdbId", allow_none=True)
    rating = fields.Method("dump_rating")

    def dump_rating(self, content: Any) -> dict[str, Any]:
        return {
            "kinopoisk": {"value": content.kinopoisk_rating},
            "imdb": {"value": content.imdb_rating, "url": content.imdb_url},
        }


class SeasonSchema(Schema):
    id = fields.Int()
    order = fields.Int()
    title = fields.Str(allow_none=True)


class SeasonRefSchema(Schema):
    id = fields.Int()
    order = fields.Int()


class EpisodeSchema(Schema):
    id = fields.Int()
    order = fields.Int()
    title = fields.Str()
    description = fields.Str()
    duration = fields.Int(allow_none=True)
    poster_path = fields.Str(data_key="posterPath", allow_none=True)
    master_file_path = fields.Str(data_key="m3u8MasterFilePath", allow_none=True)
    # Whether this viewer finished the episode; dump_episodes() fills it from the viewer's history.
    is_completed = fields.Bool(data_key="isCompleted", dump_default=False)
    season = fields.Nested(SeasonRefSchema, allow_none=True)


class AvailabilitySchema(Schema):
    available = fields.Bool(required=True)


class EpisodesQuerySchema(Schema):
    content_id = Id(data_key="content-id", required=True)


class AvailabilityQuerySchema(Schema):
    domain = Text(load_default=None, metadata={"description": "the embedding page's address or host"})


def dump_episodes(episodes: list[Any], completed: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = EpisodeSchema(many=True).dump(episodes)
    for row in rows:
        row["isCompleted"] = row["id"] in completed
    return rows
