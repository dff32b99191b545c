"""A content with every collection its snapshot shows (app/snapshots.py: the player's fields, the details, the seasons,
the rules), read in two statements: the content's row, and one UNION ALL of its collections, each ordered by the
database as its relationship orders it (a rank numbered by the database: its collation, not Python's). Eleven
``selectinload``\\ s cost eleven statements, each built, compiled and loaded into ORM objects: on 100,000 titles on
PostgreSQL, most of an uncached ``GET /contents/{id}``'s time (issue 36). The collections come back as plain rows
(``Row``: attributes as the ORM objects' the schemas dump); the content is the ORM row, its collections not loaded.

A test (tests/api/test_loaded_content.py) compares what the schemas dump of it with what they dump of the content
loaded by its relationships, for every content of the demo and of a synthetic catalogue, on both databases."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer, String, bindparam, cast, func, literal, null, select, union_all

from app.extensions import db
from app.models import (
    AvailabilityRule,
    Category,
    Content,
    ContentType,
    Country,
    Genre,
    Language,
    Person,
    PersonType,
    Season,
    Tag,
    VoiceAuthor,
)
from app.models.catalogue import RuleKind, content_countries, content_languages
from app.models.ids import storable_id
from app.models.persons import ContentPerson
from app.models.taxonomy import ContentCategory, content_genres, content_subtitles, content_tags, content_voice_authors
from app.models.titles import AlternativeTitle, TitleKind

NUMBERS = 5  # each branch's integer columns n0…n4, then its text columns t0…t4
TEXTS = 5


class Row:
    """One item of a collection: its attributes as the ORM object's that the schemas read."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)

    def __getattr__(self, name: str) -> Any:  # (only for an attribute it was not given)
        raise AttributeError(name)

    @property
    def shown(self) -> bool:  # an alternative title's (app/models/titles.py)
        return self.kind != TitleKind.MISSPELLING


@dataclass
class LoadedContent:
    """The content's own row, and its collections as ``Row``\\ s: reads as the content otherwise."""

    content: Content
    countries: list[Row]
    languages: list[Row]
    subtitles: list[Row]
    genres: list[Row]
    tags: list[Row]
    voice_authors: list[Row]
    categories: list[Row]
    alternative_titles: list[Row]
    persons: list[Row]
    seasons: list[Row]
    availability_rules: list[Row]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.content, name)


def _branch(name: str, order: list[Any], numbers: list[Any], texts: list[Any], source: Any, *where: Any) -> Any:
    """One collection's rows: its name, its rank in the relationship's order, NUMBERS integers and TEXTS texts."""
    numbers = [cast(value, Integer) for value in numbers] + [cast(null(), Integer)] * (NUMBERS - len(numbers))
    texts = [cast(value, String) for value in texts] + [cast(null(), String)] * (TEXTS - len(texts))
    return (select(literal(name).label("name"), func.row_number().over(order_by=order).label("rank"),
                   *(value.label(f"n{i}") for i, value in enumerate(numbers)),
                   *(value.label(f"t{i}") for i, value in enumerate(texts)))
            .select_from(source).where(*where))


def _labels(name: str, link: Any, column: str, model: Any, key: Any, order: Any, content_id: Any) -> Any:
    return _branch(name, [order, model.id], [model.id], [key, model.title],
                   link.join(model, model.id == getattr(link.c, column)), link.c.content_id == content_id)


def _collections(content_id: Any) -> Any:
    return union_all(
        _labels("countries", content_countries, "country_id", Country, Country.slug, Country.slug, content_id),
        _labels("languages", content_languages, "language_id", Language, Language.code, Language.code, content_id),
        _labels("subtitles", content_subtitles, "language_id", Language, Language.code, Language.code, content_id),
        _labels("genres", content_genres, "genre_id", Genre, Genre.slug, Genre.slug, content_id),
        _labels("tags", content_tags, "tag_id", Tag, Tag.slug, Tag.slug, content_id),
        _labels("voice_authors", content_voice_authors, "voice_author_id", VoiceAuthor, VoiceAuthor.slug,
                VoiceAuthor.title, content_id),
        _branch("categories", [Category.title, Category.id], [Category.id, Category.parent_id],
                [Category.slug, Category.title, ContentType.slug, ContentType.title],
                ContentCategory.__table__.join(Category, Category.id == ContentCategory.category_id)
                .join(ContentType, ContentType.id == Category.content_type_id),
                ContentCategory.content_id == content_id),
        _branch("alternative_titles", [AlternativeTitle.position, AlternativeTitle.id],
                [AlternativeTitle.id, AlternativeTitle.position],
                [AlternativeTitle.title, AlternativeTitle.language, AlternativeTitle.kind],
                AlternativeTitle.__table__, AlternativeTitle.content_id == content_id),
        _branch("persons", [ContentPerson.position, ContentPerson.id],
                [ContentPerson.id, ContentPerson.position, Person.id, PersonType.id, PersonType.position],
                [ContentPerson.character, Person.slug, Person.name, PersonType.slug, PersonType.title],
                ContentPerson.__table__.join(Person, Person.id == ContentPerson.person_id)
                .join(PersonType, PersonType.id == ContentPerson.person_type_id),
                ContentPerson.content_id == content_id),
        _branch("seasons", [Season.order, Season.id], [Season.id, Season.order], [Season.title], Season.__table__,
                Season.content_id == content_id),
        _branch("availability_rules", [AvailabilityRule.id], [AvailabilityRule.id], [AvailabilityRule.kind,
                                                                                       AvailabilityRule.value],
                AvailabilityRule.__table__, AvailabilityRule.content_id == content_id),
    )


# Made once, the content's id a parameter: built per read, its 11 branches' expressions and its cache key cost 3 ms of
# an uncached read's 8 on 100,000 titles (SQLAlchemy memoizes the key on the statement object).
COLLECTIONS = _collections(bindparam("content_id", type_=Integer))


def _label(row: Any, key: str = "slug") -> Row:
    return Row(id=row.n0, **{key: row.t0}, title=row.t1)


MAKERS: dict[str, Callable[[Any], Row]] = {
    "countries": _label, "genres": _label, "tags": _label, "voice_authors": _label,
    "languages": lambda row: _label(row, "code"), "subtitles": lambda row: _label(row, "code"),
    "categories": lambda row: Row(id=row.n0, parent_id=row.n1, slug=row.t0, title=row.t1,
                                  content_type=Row(slug=row.t2, title=row.t3)),
    "alternative_titles": lambda row: Row(id=row.n0, position=row.n1, title=row.t0, language=row.t1,
                                          kind=TitleKind(row.t2)),
    "seasons": lambda row: Row(id=row.n0, order=row.n1, title=row.t0),
    "availability_rules": lambda row: Row(id=row.n0, kind=RuleKind(row.t0), value=row.t1),
}


def load_whole(content_id: int) -> LoadedContent | None:
    """The content (unpublished ones too: the caller decides who may see them) with its collections; None when there is
    none, an id no column can hold included. Two statements whatever it holds."""
    content = db.session.get(Content, content_id) if storable_id(content_id) else None
    if content is None:
        return None
    found: dict[str, list[Any]] = {}
    for row in db.session.execute(COLLECTIONS, {"content_id": content_id}):
        found.setdefault(row.name, []).append(row)
    collections = {name: [make(row) for row in sorted(found.get(name, ()), key=lambda row: row.rank)]
                   for name, make in MAKERS.items()}
    collections["persons"] = [
        Row(id=row.n0, position=row.n1, character=row.t0, person_type_id=row.n3,
            person=Row(id=row.n2, slug=row.t1, name=row.t2),
            person_type=Row(id=row.n3, slug=row.t3, title=row.t4, position=row.n4))
        for row in sorted(found.get("persons", ()), key=lambda row: row.rank)]
    return LoadedContent(content, **collections)
