"""The catalogue's reference lists as the API shows them (spec §7), and the queries of the paged ones. Pages use the
one list envelope (``page_of``, app/schemas/paging.py)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from app.schemas.cards import ContentCardSchema
from app.schemas.common import Id, Text
from app.schemas.paging import PageQuerySchema, page_of

MAX_QUERY = 100  # characters of a filter: a title or a name, not a document


class ContentTypeSchema(Schema):
    id = fields.Int(required=True, metadata={"example": 1})
    slug = fields.Str(required=True, metadata={"example": "film"})
    title = fields.Str(required=True, metadata={"example": "Фильм"})


class GenreSchema(Schema):
    id = fields.Int(required=True, metadata={"example": 1})
    slug = fields.Str(required=True, metadata={"example": "drama"})
    title = fields.Str(required=True, metadata={"example": "Драма"})


class TagSchema(Schema):
    id = fields.Int(required=True, metadata={"example": 1})
    slug = fields.Str(required=True, metadata={"example": "sea"})
    title = fields.Str(required=True, metadata={"example": "Море"})


class LanguageSchema(Schema):
    code = fields.Str(required=True, metadata={"example": "ru", "description": "BCP 47 primary tag"})
    title = fields.Str(required=True, metadata={"example": "Русский"})


class CountrySchema(Schema):
    slug = fields.Str(required=True, metadata={"example": "ru", "description": "ISO 3166-1 alpha-2, lower case"})
    title = fields.Str(required=True, metadata={"example": "Россия"})


class VoiceAuthorSchema(Schema):
    id = fields.Int(required=True, metadata={"example": 1})
    slug = fields.Str(required=True, metadata={"example": "dubliazh"})
    title = fields.Str(required=True, metadata={"example": "Дубляж"})


class SubtitleLanguageSchema(Schema):
    code = fields.Str(required=True, metadata={"example": "en"})
    title = fields.Str(required=True, metadata={"example": "English"})
    contents = fields.Int(required=True, metadata={"example": 2,
                                                   "description": "published contents with subtitles in it"})


class PersonTypeSchema(Schema):
    slug = fields.Str(required=True, metadata={"example": "actor"})
    title = fields.Str(required=True, metadata={"example": "Актёр"})


class PersonSchema(Schema):
    id = fields.Int(required=True, metadata={"example": 2})
    slug = fields.Str(required=True, metadata={"example": "ivan-petrov"})
    name = fields.Str(required=True, metadata={"example": "Иван Петров"})
    originalName = fields.Str(attribute="original_name", allow_none=True, metadata={"example": "Ivan Petrov"})
    photoUrl = fields.Str(attribute="photo_url", allow_none=True,
                          metadata={"example": "/media/photos/ivan-petrov.jpg"})


class PersonPartSchema(Schema):
    type = fields.Nested(PersonTypeSchema, attribute="person_type", required=True)
    character = fields.Str(allow_none=True, metadata={"example": "Смотритель маяка",
                                                      "description": "for an actor, whom they play"})


class PersonContentSchema(ContentCardSchema):
    """A content of a person's filmography: its card and the person's parts in it."""

    parts = fields.List(fields.Nested(PersonPartSchema), required=True)


class PersonDetailsSchema(PersonSchema):
    """A person (``GET /persons/{id}``): who, the kinds of part they take, and a page of their contents."""

    roles = fields.List(fields.Nested(PersonTypeSchema), required=True, metadata={
        "description": "the kinds of part they take in published contents, in the credits' order of types",
        "example": [{"slug": "actor", "title": "Актёр"}]})
    contents = fields.Nested(page_of(PersonContentSchema), required=True, metadata={
        "description": "their published contents as ``GET /persons/{id}/contents`` pages them (page, pageSize)"})


FilmographySchema = type("FilmographySchema", (page_of(PersonContentSchema),), {
    "person": fields.Nested(PersonSchema, required=True, metadata={"description": "whose contents these are"}),
})


class ListQuerySchema(PageQuerySchema):
    """A page of a reference list, filtered by ``query`` (a part of a title or a name, any letter case, ё as е)."""

    query = Text(load_default=None, validate=validate.Length(max=MAX_QUERY),
                 metadata={"example": "мор", "description": "a part of the title or the name, any letter case"})


class SubtitlesQuerySchema(Schema):
    content_id = Id(data_key="content-id", load_default=None,
                    metadata={"example": 1, "description": "only this content's subtitle languages"})

