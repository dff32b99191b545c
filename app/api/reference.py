"""The catalogue's reference lists (spec §7): content types, genres, tags, languages, countries, voice authors,
subtitles, person types and persons.

Every call is an anonymous read, shared (app/http/shared.py: kept under the catalogue's generation, ``public,
s-maxage`` for CDNs, with an ETag). Where the spec makes a read a POST with its filters in the body (``/countries``,
``/person-types/{slug}/persons``), the same read is a GET with them in the query, which a CDN can keep."""

from __future__ import annotations

from typing import Any

from app.api.arguments import Blueprint
from app.api.decorators import shared_read
from app.api.docs import SHARED_HEADERS, answers, id_parameter, slug_parameter
from app.http.shared import shareable, shared
from app.schemas.paging import PageQuerySchema, page_of
from app.schemas.reference import (
    ContentTypeSchema,
    CountrySchema,
    FilmographySchema,
    GenreSchema,
    LanguageSchema,
    ListQuerySchema,
    PersonDetailsSchema,
    PersonSchema,
    PersonTypeSchema,
    SubtitleLanguageSchema,
    SubtitlesQuerySchema,
    TagSchema,
    VoiceAuthorSchema,
)
from app.services.catalogue import persons, reference, types
from app.services.catalogue.paging import Page

blp = Blueprint("reference", __name__, description="Content types, genres, tags, languages, countries, voice authors, "
                "subtitles, persons")

TYPE_SLUG = slug_parameter("slug", "a content type's slug", "film")
PERSON_TYPE_SLUG = slug_parameter("slug", "a person type's slug", "actor")


def envelope(page: Page) -> dict[str, Any]:
    return shared(page.envelope())


@blp.route("/types")
@shared_read(blp, ContentTypeSchema(many=True))
def get_types() -> Any:
    """Every content type, in the catalogue's order."""
    return shared(reference.content_types())


@blp.route("/types/<int:type_id>", parameters=[id_parameter("type_id", "a content type's id", 1)])
@shared_read(blp, ContentTypeSchema, 404)
def get_type(type_id: int) -> Any:
    return shared(types.content_type(type_id))


@blp.route("/types/by-slug/<slug>", parameters=[TYPE_SLUG])
@shared_read(blp, ContentTypeSchema, 404)
def get_type_by_slug(slug: str) -> Any:
    return shared(types.content_type_by_slug(slug))


@blp.route("/genres")
@shared_read(blp, GenreSchema(many=True))
def get_genres() -> Any:
    """Every genre, by title."""
    return shared(reference.genres())


@blp.route("/tags")
@blp.arguments(ListQuerySchema, location="query", as_kwargs=True)
@shared_read(blp, page_of(TagSchema), 422)
def get_tags(query: str | None, page: int, pageSize: int) -> Any:
    """Tags by title, a page at a time; ``query`` keeps those whose title holds it."""
    return envelope(reference.tags(query, page, pageSize))


@blp.route("/tags/<int:tag_id>", parameters=[id_parameter("tag_id", "a tag's id", 1)])
@shared_read(blp, TagSchema, 404)
def get_tag(tag_id: int) -> Any:
    return shared(reference.tag(tag_id))


@blp.route("/languages")
@shared_read(blp, LanguageSchema(many=True))
def get_languages() -> Any:
    """Every language of the catalogue (audio and subtitles), by code."""
    return shared(reference.languages())


@blp.route("/countries")
@blp.arguments(ListQuerySchema, location="query", as_kwargs=True)
@shared_read(blp, page_of(CountrySchema), 422)
def get_countries(query: str | None, page: int, pageSize: int) -> Any:
    """Countries by title, a page at a time; ``query`` keeps those whose title holds it or whose code it is. The same
    as ``POST /countries``, for a CDN to keep."""
    return envelope(reference.countries(query, page, pageSize))


@blp.route("/countries", methods=["POST"])
@blp.arguments(ListQuerySchema, location="json", required=False, as_kwargs=True)
@blp.response(200, page_of(CountrySchema), headers=SHARED_HEADERS)
@answers(blp, 422, body=True)
@shareable()
def post_countries(query: str | None, page: int, pageSize: int) -> Any:
    """As ``GET /countries``, with the filters in the body (which may be left out)."""
    return envelope(reference.countries(query, page, pageSize))


@blp.route("/voice-authors")
@shared_read(blp, VoiceAuthorSchema(many=True))
def get_voice_authors() -> Any:
    """Every voice author (a dubbing studio, or the original soundtrack), by title."""
    return shared(reference.voice_authors())


@blp.route("/subtitles")
@blp.arguments(SubtitlesQuerySchema, location="query", as_kwargs=True)
@shared_read(blp, SubtitleLanguageSchema(many=True), 404, 422)
def get_subtitles(content_id: int | None) -> Any:
    """The languages that published contents have subtitles in, by code, with how many contents each; with
    ``content-id``, that content's languages only (404 for a content that is not published)."""
    return shared(reference.subtitle_languages(content_id))


@blp.route("/person-types")
@shared_read(blp, PersonTypeSchema(many=True))
def get_person_types() -> Any:
    """Every kind of part (director, actor, …), in the order a content's credits show them."""
    return shared(reference.person_types())


@blp.route("/person-types/<slug>/persons", parameters=[PERSON_TYPE_SLUG])
@blp.arguments(ListQuerySchema, location="query", as_kwargs=True)
@shared_read(blp, page_of(PersonSchema), 404, 422)
def get_persons_of_type(slug: str, query: str | None, page: int, pageSize: int) -> Any:
    """The persons with a part of this type in a published content, by name, a page at a time; ``query`` keeps those
    whose name or original name holds it. The same as the POST, for a CDN to keep."""
    return envelope(reference.persons_of_type(slug, query, page, pageSize))


@blp.route("/person-types/<slug>/persons", methods=["POST"], parameters=[PERSON_TYPE_SLUG])
@blp.arguments(ListQuerySchema, location="json", required=False, as_kwargs=True)
@blp.response(200, page_of(PersonSchema), headers=SHARED_HEADERS)
@answers(blp, 404, 422, body=True)
@shareable()
def post_persons_of_type(slug: str, query: str | None, page: int, pageSize: int) -> Any:
    """As the GET, with the filters in the body (which may be left out)."""
    return envelope(reference.persons_of_type(slug, query, page, pageSize))


PERSON_ID = id_parameter("person_id", "a person's id", 2)


@blp.route("/persons/<int:person_id>", parameters=[PERSON_ID])
@blp.arguments(PageQuerySchema, location="query", as_kwargs=True)
@shared_read(blp, PersonDetailsSchema, 404, 422)
def get_person(person_id: int, page: int, pageSize: int) -> Any:
    """A person: name, original name, photo, the kinds of part they take (``roles``) and their published contents
    (``contents``: cards with the person's parts, newest year first, a page of them as ``page`` and ``pageSize``
    ask)."""
    return shared(persons.person_details(person_id, page, pageSize))


@blp.route("/persons/<int:person_id>/contents", parameters=[PERSON_ID])
@blp.arguments(PageQuerySchema, location="query", as_kwargs=True)
@shared_read(blp, FilmographySchema, 404, 422)
def get_person_contents(person_id: int, page: int, pageSize: int) -> Any:
    """The person's published contents as cards, newest year first, each with the person's parts in it, and whose
    they are (``person``)."""
    found = persons.person(person_id)
    return shared({**persons.person_contents(found.id, page, pageSize).envelope(), "person": found})
