"""What the catalogue holds now of a batch's contents: found by external id, then their columns, links, credits,
seasons and episodes, each in one query for the whole batch (IN lists of at most a batch's ids)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Table, select

from app.extensions import db
from app.models import Content, ContentCategory, ContentPerson, Episode, Person, Season
from app.models.catalogue import content_countries, content_languages
from app.models.taxonomy import content_genres, content_tags
from app.models.titles import AlternativeTitle

# the file's field → the contents column (the rest of a content is links, credits, seasons and episodes)
SCALARS = {"kinopoiskId": "kinopoisk_id", "imdbId": "imdb_id", "title": "title", "originalTitle": "original_title",
           "year": "year", "description": "description", "ageRating": "age_rating",
           "kinopoiskRating": "kinopoisk_rating", "imdbRating": "imdb_rating", "poster": "poster_url",
           "published": "published"}
LINKS: dict[str, tuple[Table, str]] = {
    "countries": (content_countries, "country_id"), "languages": (content_languages, "language_id"),
    "genres": (content_genres, "genre_id"), "tags": (content_tags, "tag_id"),
    "categories": (ContentCategory.__table__, "category_id")}
COLUMNS = (*SCALARS.values(), "content_type_id", "has_multiple_episodes")


@dataclass
class EpisodeNow:
    id: int
    season_id: int | None
    order: int
    title: str
    description: str
    duration: int | None
    media: str | None


@dataclass
class ContentNow:
    id: int
    columns: dict[str, Any]
    links: dict[str, list[int]] = field(default_factory=lambda: {name: [] for name in LINKS})
    credits: list[tuple[int, int, str | None]] = field(default_factory=list)  # (person, role, character) in order
    people: dict[tuple[str, str | None], list[int]] = field(default_factory=dict)  # credited persons by name
    names: dict[int, tuple[str, str | None, int | None]] = field(default_factory=dict)  # id → name, original, KP id
    seasons: dict[int, tuple[int, str | None]] = field(default_factory=dict)  # number → (id, title)
    episodes: dict[tuple[int | None, int], EpisodeNow] = field(default_factory=dict)  # (season id, number) → it
    titles: list[tuple[str, str | None, str]] = field(default_factory=list)  # alternative: title, language, kind


def by_external_id(kinopoisk: Iterable[int], imdb: Iterable[str]) -> tuple[dict[int, int], dict[str, int]]:
    """The contents these ids name (the oldest where several share one): Kinopoisk id → content id, IMDb id → id."""
    table = Content.__table__
    found_kp: dict[int, int] = {}
    found_imdb: dict[str, int] = {}
    kp, im = sorted(set(kinopoisk)), sorted(set(imdb))
    if kp:
        for content_id, key in db.session.execute(select(table.c.id, table.c.kinopoisk_id)
                                                  .where(table.c.kinopoisk_id.in_(kp)).order_by(table.c.id)):
            found_kp.setdefault(key, content_id)
    if im:
        for content_id, key in db.session.execute(select(table.c.id, table.c.imdb_id)
                                                  .where(table.c.imdb_id.in_(im)).order_by(table.c.id)):
            found_imdb.setdefault(key, content_id)
    return found_kp, found_imdb


def load(ids: Iterable[int]) -> dict[int, ContentNow]:
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    table = Content.__table__
    session = db.session
    found = {row.id: ContentNow(row.id, {name: getattr(row, name) for name in COLUMNS})
             for row in session.execute(select(table.c.id, *(table.c[name] for name in COLUMNS))
                                        .where(table.c.id.in_(wanted)))}
    for name, (link, column) in LINKS.items():
        for content_id, label_id in session.execute(select(link.c.content_id, link.c[column])
                                                    .where(link.c.content_id.in_(wanted))
                                                    .order_by(link.c.content_id, link.c[column])):
            found[content_id].links[name].append(label_id)
    credits = ContentPerson.__table__
    persons = Person.__table__
    for content_id, person_id, role_id, character, name, original, kinopoisk in session.execute(
            select(credits.c.content_id, credits.c.person_id, credits.c.person_type_id, credits.c.character,
                   persons.c.name, persons.c.original_name, persons.c.kinopoisk_id)
            .join(persons, persons.c.id == credits.c.person_id)
            .where(credits.c.content_id.in_(wanted)).order_by(credits.c.content_id, credits.c.position,
                                                              credits.c.id)):
        found[content_id].credits.append((person_id, role_id, character))
        namesakes = found[content_id].people.setdefault((name, original), [])
        if person_id not in namesakes:
            namesakes.append(person_id)
        found[content_id].names[person_id] = (name, original, kinopoisk)
    titles = AlternativeTitle.__table__
    for content_id, title, language, kind in session.execute(
            select(titles.c.content_id, titles.c.title, titles.c.language, titles.c.kind)
            .where(titles.c.content_id.in_(wanted)).order_by(titles.c.content_id, titles.c.position, titles.c.id)):
        found[content_id].titles.append((title, language, str(getattr(kind, "value", kind))))
    seasons = Season.__table__
    for season_id, content_id, order, title in session.execute(
            select(seasons.c.id, seasons.c.content_id, seasons.c.order, seasons.c.title)
            .where(seasons.c.content_id.in_(wanted)).order_by(seasons.c.id)):
        found[content_id].seasons.setdefault(order, (season_id, title))
    episodes = Episode.__table__
    for row in session.execute(select(episodes.c.id, episodes.c.content_id, episodes.c.season_id, episodes.c.order,
                                      episodes.c.title, episodes.c.description, episodes.c.duration,
                                      episodes.c.master_file_path)
                               .where(episodes.c.content_id.in_(wanted)).order_by(episodes.c.id)):
        found[row.content_id].episodes.setdefault(
            (row.season_id, row.order), EpisodeNow(row.id, row.season_id, row.order, row.title, row.description,
                                                   row.duration, row.master_file_path))
    return found


def persons_named(names: Iterable[str]) -> list[tuple[int, str, str | None]]:
    """The persons of these names, the oldest first."""
    wanted = sorted(set(names))
    table = Person.__table__
    found: list[tuple[int, str, str | None]] = []
    for start in range(0, len(wanted), 500):
        found += [(row.id, row.name, row.original_name) for row in db.session.execute(
            select(table.c.id, table.c.name, table.c.original_name)
            .where(table.c.name.in_(wanted[start:start + 500])).order_by(table.c.id))]
    return found

