"""The catalogue's reference lists (spec §7): content types, genres, tags, languages, countries, voice authors, the
subtitle languages, person types, the persons of a type (a person and their contents: persons.py). Only published
contents count.

Every list is ordered in full (its sort key, then the id), so that a page never repeats or skips a row; each call
runs a fixed number of queries whatever its size."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, exists, func, or_, select

from app.extensions import db
from app.models import (
    Content,
    ContentPerson,
    ContentType,
    Country,
    Genre,
    Language,
    Person,
    PersonType,
    Tag,
    VoiceAuthor,
)
from app.models.ids import storable_id
from app.models.slugs import is_slug
from app.models.taxonomy import content_subtitles
from app.services.catalogue.contents import content_not_found
from app.services.catalogue.paging import Page, paginate
from app.services.catalogue.publishing import public
from app.services.errors import NotFound

# ё and е are one letter to a reader: a query with either finds both.
_SAME_LETTERS = {"е": "еЕёЁ", "ё": "еЕёЁ"}


def content_types() -> list[ContentType]:
    return list(db.session.scalars(select(ContentType).order_by(ContentType.position, ContentType.id)))


def genres() -> list[Genre]:
    return list(db.session.scalars(select(Genre).order_by(Genre.title, Genre.id)))


def tags(query: str | None, page: int, page_size: int) -> Page:
    """Tags whose title holds ``query`` (any case), by title."""
    rows = select(Tag).order_by(Tag.title)
    if query:
        rows = rows.where(holds(Tag.title, query))
    return paginate(rows, Tag.id, page, page_size)


def tag(tag_id: int) -> Tag:
    found = db.session.get(Tag, tag_id) if storable_id(tag_id) else None
    if found is None:
        raise NotFound("tag_not_found", "Тег не найден", {"id": tag_id})
    return found


def languages() -> list[Language]:
    return list(db.session.scalars(select(Language).order_by(Language.code)))


def countries(query: str | None, page: int, page_size: int) -> Page:
    """Countries whose title holds ``query`` (any case) or whose code it is (``us``), by title."""
    rows = select(Country).order_by(Country.title)
    if query:
        rows = rows.where(or_(holds(Country.title, query), Country.slug == query.strip().lower()))
    return paginate(rows, Country.id, page, page_size)


def voice_authors() -> list[VoiceAuthor]:
    return list(db.session.scalars(select(VoiceAuthor).order_by(VoiceAuthor.title, VoiceAuthor.id)))


def subtitle_languages(content_id: int | None = None) -> list[dict[str, Any]]:
    """The languages that published contents have subtitles in, with how many such contents each; with
    ``content_id``, only that (published) content's languages, each counting that content alone."""
    published = select(content_subtitles.c.language_id, content_subtitles.c.content_id) \
        .join(Content, Content.id == content_subtitles.c.content_id).where(public())
    if content_id is not None:
        if not _published_content_exists(content_id):
            raise content_not_found(content_id)
        published = published.where(content_subtitles.c.content_id == content_id)
    titles = published.subquery()
    counted = (
        select(Language.code, Language.title, func.count(func.distinct(titles.c.content_id)).label("contents"))
        .join(titles, titles.c.language_id == Language.id)
        .group_by(Language.id, Language.code, Language.title)
        .order_by(Language.code)
    )
    return [row._asdict() for row in db.session.execute(counted)]


def person_types() -> list[PersonType]:
    return list(db.session.scalars(select(PersonType).order_by(PersonType.position, PersonType.id)))


def persons_of_type(slug: str, query: str | None, page: int, page_size: int) -> Page:
    """The persons with a part of this type in a published content, whose name (or original name) holds ``query``,
    by name."""
    kind = _by_slug(PersonType, slug)
    if kind is None:
        raise NotFound("person_type_not_found", "Тип персоны не найден", {"slug": slug})
    credited = exists().where(ContentPerson.person_id == Person.id, ContentPerson.person_type_id == kind.id,
                              ContentPerson.content_id == Content.id, public())
    rows = select(Person).where(credited).order_by(Person.name)
    if query:
        rows = rows.where(or_(holds(Person.name, query), holds(Person.original_name, query)))
    return paginate(rows, Person.id, page, page_size)


def holds(column: Any, text: str) -> ColumnElement[bool]:
    """Whether ``column`` holds ``text``, in any letter case, ё and е alike. A regular expression whose every letter
    is a class of its cases (``[аА]``): SQLite's LIKE and lower() fold ASCII only, and PostgreSQL's ILIKE follows the
    database's LC_CTYPE, which may be C. Both SQLite (SQLAlchemy's Python REGEXP) and PostgreSQL (``~``) read it."""
    return column.regexp_match(_pattern(text.strip()))


def _pattern(text: str) -> str:
    parts = []
    for char in text:
        cases = _SAME_LETTERS.get(char.lower()) or "".join(dict.fromkeys(char + char.lower() + char.upper()))
        if len(cases) > 1:
            parts.append(f"[{cases}]")
        elif char.isalnum():
            parts.append(char)
        else:
            parts.append("\\" + char)  # a punctuation mark or a space, literally (both dialects read \x so)
    return "".join(parts)


def _by_slug(model: Any, slug: str) -> Any:
    """The row with this slug, or None; a text that is no slug asks nothing."""
    return db.session.scalars(select(model).where(model.slug == slug)).first() if is_slug(slug) else None


def _published_content_exists(content_id: int) -> bool:
    return storable_id(content_id) and bool(
        db.session.scalar(select(exists().where(Content.id == content_id, public()))))

