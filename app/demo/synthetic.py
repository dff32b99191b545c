"""A synthetic catalogue of realistic size for benchmarks (``flask demo catalogue --titles N``): films and series with
seasons and episodes, Russian titles that inflect (app/demo/words.py, names.py, labels.py) with English originals,
genres, tags, countries, categories, persons with parts, ratings, years. Added beside what is there (the demo catalogue
first, ids after the largest; labels found by slug, made when missing), deterministic for a seed, written in batches of
plain INSERTs (no ORM objects): 100,000 titles in under a minute on 2 cores. The episodes play the demo's short film, so
every title works in the player.

Its shape is a real catalogue's: words, genres, tags and countries are drawn with a skew (a few common, a long tail),
so that of 100,000 titles nearly nine in ten are distinct and the commonest title word is on under 1% of them; a
title has one to three genres, drama and comedy common, westerns rare; each type's categories run from several
thousand titles down to about fifty (a category holds a share of its type's titles that falls with its rank,
CATEGORY_SHARES), and most titles are in none."""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import accumulate
from typing import Any, Generic, TypeVar

from psycopg import sql
from sqlalchemy import func, insert, select

from app.demo.labels import CATEGORIES, COUNTRIES, GENRES, TAGS
from app.demo.names import FEMININE_NAMES, FIRST_NAMES, LAST_NAMES, ROLES, feminine
from app.demo.seed import advance_sequences
from app.demo.words import ADJECTIVES, KINDS, NOUNS, TAILS, WHENS, WHERE
from app.extensions import db
from app.jobs.search import rebuild_index
from app.models import (
    Category,
    Content,
    ContentCategory,
    ContentPerson,
    ContentType,
    Country,
    Episode,
    Genre,
    Person,
    PersonType,
    Season,
    Tag,
)
from app.models.catalogue import content_countries
from app.models.slugs import slugify, transliterate
from app.models.sort_keys import title_key
from app.models.taxonomy import content_genres, content_tags

BATCH = 2000  # contents per transaction
SERIES_SHARE = 0.2
PERSONS_PER_TITLE = 0.2  # the person pool's size, per title: parts repeat people as real credits do
MASTER = "/titles/film-short/master.json"  # the demo's 120 s film (app/demo/catalogue.py)
# When each title was added: one every half hour from this time on, in id order; a series' episodes a week apart.
ADDED_FROM, ADDED_EVERY, EPISODE_EVERY = datetime(2020, 1, 1, tzinfo=UTC), timedelta(minutes=30), timedelta(days=7)
# The skew of the words' draws: the word of rank r (from 1) is drawn with weight 1 / (r + offset) ** exponent, the
# first noun half as often again as the last. A few hundred words cannot hold a real catalogue's long tail (tens of
# thousands of words, most in a title or two): a steeper skew would put the first noun on 5% of the titles (a pure
# Zipf's), where a real catalogue's commonest word is on well under 1% (here: 0.4%; «2», the sequels', 0.7%; 0.9% for
# «тайн», the stem of both «тайна» and «тайный»).
WORD_SKEW = {"offset": 800, "exponent": 1.0}
# A category's share of its type's titles: top / rank ** exponent (films: 8,800 of 80,000 down to ~60; series:
# 4,000 of 20,000 down to ~60).
CATEGORY_SHARES = {"film": (0.11, 1.35), "series": (0.20, 1.2)}
CATEGORY_POSITION = 10  # the new categories' positions start here, after the demo's (app/demo/extras.py)
GENRES_PER_TITLE = (1, 1, 1, 1, 1, 2, 2, 2, 2, 3)  # 1.6 on average
TAGS_PER_TITLE = (0, 0, 0, 1, 1, 1, 1, 2, 2, 3)
COUNTRIES_PER_TITLE = (1, 1, 1, 2)
SEQUELS = 0.01  # the share of titles that are a sequel: «Тихая гавань 2» (2, 2 or 3)
# How often a title that may end in a tail does («Дом» → «Дом на берегу»), and how the tails are drawn: a place, five
# patterns of a preposition and a genitive (but «против», no stop word, as rare as a phrase), then the set phrases,
# each far rarer (their words repeat as they are).
TAIL_SHARE = 0.5
TAIL_WEIGHTS = {"{where}": 5.0, "против": 0.1, "{gen}": 2.0, "": 0.1}  # the first key in a tail gives its weight

T = TypeVar("T")


class Skewed(Generic[T]):
    """Draws from ``items`` with ``weights``: one, or a few different ones."""

    def __init__(self, items: Sequence[T], weights: Sequence[float]) -> None:
        self.items = list(items)
        self.bounds = list(accumulate(weights))

    @classmethod
    def ranked(cls, items: Sequence[T], offset: float, exponent: float) -> Skewed[T]:
        """The first items the commonest: a Zipf-like long tail."""
        return cls(items, [1 / (rank + offset) ** exponent for rank in range(1, len(items) + 1)])

    def pick(self, rng: random.Random) -> T:
        return self.items[min(bisect(self.bounds, rng.random() * self.bounds[-1]), len(self.items) - 1)]

    def sample(self, rng: random.Random, k: int) -> list[T]:
        chosen: list[T] = []
        while len(chosen) < min(k, len(self.items)):
            item = self.pick(rng)
            if item not in chosen:
                chosen.append(item)
        return chosen


def _article(noun: tuple[str, ...]) -> str:
    return "" if noun[0][0].isupper() else "the "  # Paris, the Lake


def _english(noun: tuple[str, ...]) -> str:
    return _article(noun) + noun[4]


_NOUNS = Skewed.ranked(NOUNS, **WORD_SKEW)
_ADJECTIVES = Skewed.ranked(ADJECTIVES, **WORD_SKEW)
_TAILS = Skewed(TAILS, [next(weight for key, weight in TAIL_WEIGHTS.items() if key in tail) for tail, _en in TAILS])
_BY_NOMINATIVE = {noun[0]: noun for noun in NOUNS}
# («на берегу», "on the Shore"), ranked as their nouns are
_PLACES = Skewed.ranked([(place, f"{'on' if place.startswith('на ') else 'in'} {_english(_BY_NOMINATIVE[noun])}")
                         for noun, place in WHERE.items()], **WORD_SKEW)


@dataclass(frozen=True)
class Labels:
    """The ids the generated rows point at."""

    film: int
    series: int
    genres: Skewed[int]
    tags: Skewed[int]
    countries: Skewed[int]
    categories: dict[int, list[tuple[int, float]]]  # content type id → its category ids, each with its share
    person_types: list[int]


def generate(titles: int, seed: int = 1, media_url: str = "/media",
             progress: Callable[[int, int], None] = lambda done, total: None) -> int:
    """Adds ``titles`` contents; returns how many episodes came with them."""
    rng = random.Random(seed)  # noqa: S311 - a benchmark's data, not a secret
    labels = _labels()
    first_id = (db.session.scalar(select(func.max(Content.id))) or 0) + 1
    people = _persons(rng, max(50, int(titles * PERSONS_PER_TITLE)))
    ids = _Ids()
    episodes = 0
    for start in range(0, titles, BATCH):
        rows = _Rows()
        for number in range(first_id + start, first_id + min(titles, start + BATCH)):
            episodes += _title(rng, number, labels, people, ids, rows, media_url.rstrip("/"))
        rows.write()
        db.session.commit()
        progress(min(titles, start + BATCH), titles)
    advance_sequences(("contents", "episodes", "seasons"))
    rebuild_index()  # the whole index: its word counts span the catalogue
    return episodes


class _Ids:
    """The next id of each table the generator fills with explicit ids."""

    def __init__(self) -> None:
        self.season = (db.session.scalar(select(func.max(Season.id))) or 0) + 1
        self.episode = (db.session.scalar(select(func.max(Episode.id))) or 0) + 1

    def next_season(self) -> int:
        self.season += 1
        return self.season - 1

    def next_episode(self) -> int:
        self.episode += 1
        return self.episode - 1


class _Rows:
    """One batch's rows per table, inserted in dependency order."""

    def __init__(self) -> None:
        self.tables: dict[Any, list[dict[str, Any]]] = {
            Content.__table__: [], Season.__table__: [], Episode.__table__: [], content_genres: [],
            content_tags: [], content_countries: [], ContentCategory.__table__: [], ContentPerson.__table__: []}

    def add(self, table: Any, **row: Any) -> None:
        self.tables[table].append(row)

    def write(self) -> None:
        """On PostgreSQL a COPY per table (its statement-level triggers on the link tables, the contents' label
        arrays, then run once per batch, where an executemany, a statement per row, ran them once per row); on SQLite
        an executemany. A COPY runs no Python-side column default (the title's sort key): the rows carry them."""
        connection = db.session.connection()
        if connection.dialect.name != "postgresql":
            for table, rows in self.tables.items():
                if rows:
                    db.session.execute(insert(table), rows)
            return
        with connection.connection.driver_connection.cursor() as cursor:  # type: ignore[union-attr]
            for table, rows in self.tables.items():
                if not rows:
                    continue
                columns = list(rows[0])
                skipped = [column.name for column in table.columns
                           if column.default is not None and column.default.is_callable and column.name not in columns]
                if skipped:  # a COPY runs no Python-side default: the rows must carry those values themselves
                    raise RuntimeError(f"the rows of {table.name} lack {skipped}, which COPY would leave unset")
                statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
                    sql.Identifier(table.name), sql.SQL(", ").join(map(sql.Identifier, columns)))
                with cursor.copy(statement) as copy:
                    for row in rows:
                        copy.write_row([row[column] for column in columns])

def _title(rng: random.Random, number: int, labels: Labels, people: list[int], ids: _Ids, rows: _Rows,
           media: str) -> int:
    title, original = _name(rng)
    series = rng.random() < SERIES_SHARE
    type_id = labels.series if series else labels.film
    added = ADDED_FROM + ADDED_EVERY * number
    rows.add(Content.__table__, id=number, created_at=added, updated_at=added, slug=f"{slugify(title, 110)}-{number}",
             title=title, title_sort=title_key(title), original_title=original,
             description=f"{title}: {rng.choice(KINDS)} о том, что случилось {rng.choice(WHENS)} "
                         f"{_PLACES.pick(rng)[0]}.",
             age_rating=rng.choice((0, 6, 12, 16, 18)), published=rng.random() > 0.02, position=0,
             content_type_id=type_id, year=rng.randint(1960, 2026), has_multiple_episodes=series,
             poster_url=f"{media}/posters/film-short.jpg", kinopoisk_id=10_000_000 + number,
             kinopoisk_rating=round(rng.uniform(3.0, 9.5), 1), imdb_id=f"tt{9_000_000 + number}",
             imdb_rating=round(rng.uniform(3.0, 9.5), 1))
    for genre in labels.genres.sample(rng, rng.choice(GENRES_PER_TITLE)):
        rows.add(content_genres, content_id=number, genre_id=genre)
    for tag in labels.tags.sample(rng, rng.choice(TAGS_PER_TITLE)):
        rows.add(content_tags, content_id=number, tag_id=tag)
    for country in labels.countries.sample(rng, rng.choice(COUNTRIES_PER_TITLE)):
        rows.add(content_countries, content_id=number, country_id=country)
    for category, share in labels.categories[type_id]:
        if rng.random() < share:
            rows.add(ContentCategory.__table__, content_id=number, category_id=category,
                     position=rng.randint(0, 1000))
    for position, person in enumerate(rng.sample(people, k=rng.randint(3, 8))):
        rows.add(ContentPerson.__table__, content_id=number, person_id=person, position=position,
                 person_type_id=labels.person_types[0 if position == 0 else 1], character=None)
    return _episodes(rng, number, title, series, ids, rows, media, added)


def _episodes(rng: random.Random, content_id: int, title: str, series: bool, ids: _Ids, rows: _Rows,
              media: str, added: datetime) -> int:
    if not series:
        rows.add(Episode.__table__, id=ids.next_episode(), created_at=added, content_id=content_id, season_id=None,
                 order=1, title=title, description="", duration=120, master_file_path=media + MASTER, poster_path=None)
        return 1
    count = 0
    for season_order in range(1, rng.randint(1, 3) + 1):
        season_id = ids.next_season()
        rows.add(Season.__table__, id=season_id, content_id=content_id, order=season_order,
                 title=f"Сезон {season_order}")
        for order in range(1, rng.randint(4, 10) + 1):
            rows.add(Episode.__table__, id=ids.next_episode(), created_at=added + EPISODE_EVERY * count,
                     content_id=content_id, season_id=season_id, order=order, title=f"Серия {order}",
                     description="", duration=rng.randint(1500, 3300),
                     master_file_path=media + MASTER, poster_path=None)
            count += 1
    return count


def _name(rng: random.Random) -> tuple[str, str]:
    """A Russian title and its English original, in one of the shapes real ones take: «Долгая дорога домой» ("The
    Long Road Home"), «Тайна озера», «Война и мир», «Дом на берегу», «Маяк», «Тихая гавань капитана», «Майор
    Соколова», «О любви»; a few are sequels («Маяк 2»)."""
    noun = _NOUNS.pick(rng)
    shape = rng.random()
    if shape < 0.45:  # «Долгая дорога домой», «Тихая гавань»
        adjective, adjective_en = _agreeing(rng, noun[3])
        tail, tail_en = _tail(rng)
        title, original = f"{adjective} {noun[0]}{tail}", f"{_article(noun)}{adjective_en} {noun[4]}{tail_en}"
    elif shape < 0.62:  # «Тайна озера»
        other = _NOUNS.pick(rng)
        title, original = f"{noun[0]} {other[1]}", f"{_english(noun)} of {_english(other)}"
    elif shape < 0.69:  # «Война и мир»
        other = _NOUNS.pick(rng)
        title, original = f"{noun[0]} и {other[0]}", f"{_english(noun)} and {_english(other)}"
    elif shape < 0.89:  # «Дом на берегу», «Маяк»
        tail, tail_en = _tail(rng, share=0.85)
        title, original = f"{noun[0]}{tail}", f"{_english(noun)}{tail_en}"
    elif shape < 0.94:  # «Тихая гавань капитана»
        adjective, adjective_en = _agreeing(rng, noun[3])
        other = _NOUNS.pick(rng)
        title = f"{adjective} {noun[0]} {other[1]}"
        original = f"{_article(noun)}{adjective_en} {noun[4]} of {_english(other)}"
    elif shape < 0.975:  # «Майор Соколова»
        role, role_en = rng.choice(ROLES)
        surname = rng.choice(LAST_NAMES)
        surname = feminine(surname) if rng.random() < 0.3 else surname
        title, original = f"{role} {surname}", f"{role_en} {transliterate(surname).capitalize()}"
    else:  # «О любви», «Об острове»
        title = f"{'об' if noun[2][0] in 'аоуэи' else 'о'} {noun[2]}"
        original = f"About {_english(noun)}"
    if rng.random() < SEQUELS:
        number = rng.choice((2, 2, 3))
        title, original = f"{title} {number}", f"{original} {number}"
    return title[0].upper() + title[1:], original[0].upper() + original[1:]


def _agreeing(rng: random.Random, gender: str) -> tuple[str, str]:
    """An adjective in the gender of its noun, and in English."""
    masculine, feminine_, neuter, english = _ADJECTIVES.pick(rng)
    return {"m": masculine, "f": feminine_, "n": neuter}[gender], english


def _tail(rng: random.Random, share: float = TAIL_SHARE) -> tuple[str, str]:
    """A title's ending and its English, each with its leading space; or, but for ``share`` of the time, none."""
    if rng.random() >= share:
        return "", ""
    tail, tail_en = _TAILS.pick(rng)
    if "{where}" in tail:
        place, place_en = _PLACES.pick(rng)
        return f" {place}", f" {place_en}"
    if "{gen}" in tail:
        other = _NOUNS.pick(rng)
        return f" {tail.format(gen=other[1])}", f" {tail_en.format(en=_english(other))}"
    return f" {tail}", f" {tail_en}"


def _persons(rng: random.Random, count: int) -> list[int]:
    first = (db.session.scalar(select(func.max(Person.id))) or 0) + 1
    rows: list[dict[str, Any]] = []
    for number in range(first, first + count):
        given = rng.choice(FIRST_NAMES)
        family = rng.choice(LAST_NAMES)
        family = feminine(family) if given in FEMININE_NAMES else family
        rows.append({"id": number, "slug": f"{slugify(f'{given} {family}')}-{number}", "name": f"{given} {family}",
                     "original_name": None, "photo_url": None})
    for batch in _chunks(rows, 5000):
        db.session.execute(insert(Person.__table__), batch)
    db.session.commit()
    advance_sequences(("persons",))
    return list(range(first, first + count))


def _labels() -> Labels:
    """The types, genres, tags, countries, categories and person types the rows point at (made when missing; the
    demo's own keep their titles and places)."""
    types = {"film": _ensure(ContentType, slug="film", title="Фильм"),
             "series": _ensure(ContentType, slug="series", title="Сериал")}
    countries = [_ensure(Country, slug=slug, title=title) for slug, title in COUNTRIES.items()]
    genres = [_ensure(Genre, slug=slug, title=title) for slug, title, _share in GENRES]
    tags = [_ensure(Tag, slug=slug, title=title) for slug, title in TAGS]
    kinds = [_ensure(PersonType, slug=slug, title=title) for slug, title in
             (("director", "Режиссёр"), ("actor", "Актёр"))]
    categories = {}
    for type_slug, entries in CATEGORIES.items():
        type_id, (top, exponent) = types[type_slug], CATEGORY_SHARES[type_slug]
        ids: dict[str, int] = {}
        for rank, (slug, title, parent, main_mart) in enumerate(entries, start=1):
            ids[slug] = _ensure(Category, content_type_id=type_id, slug=slug, title=title, main_mart=main_mart,
                                parent_id=ids[parent] if parent else None, position=CATEGORY_POSITION + rank)
        categories[type_id] = [(ids[slug], top / rank ** exponent)
                               for rank, (slug, *_rest) in enumerate(entries, start=1)]
    db.session.commit()
    return Labels(film=types["film"], series=types["series"],
                  genres=Skewed(genres, [share for _slug, _title, share in GENRES]),
                  tags=Skewed.ranked(tags, offset=3, exponent=1.0),
                  countries=Skewed.ranked(countries, offset=0, exponent=1.3),
                  categories=categories, person_types=kinds)


def _ensure(model: Any, **values: Any) -> int:
    """The id of the row with these values' slug (and type), made with them when missing."""
    keys = {key: values[key] for key in ("slug", "content_type_id") if key in values}
    found = db.session.scalar(select(model.id).filter_by(**keys))
    if found is None:
        row = model(**values)
        db.session.add(row)
        db.session.flush()
        found = row.id
    return int(found)


def _chunks(rows: list[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    for start in range(0, len(rows), size):
        yield rows[start:start + size]

