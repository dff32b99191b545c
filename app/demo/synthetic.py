"""A synthetic catalogue of realistic size for benchmarks (``flask demo catalogue --titles N``): films and series
with seasons and episodes, Russian titles that inflect (app/demo/words.py) with English originals, genres, tags,
countries, categories, persons with parts, ratings, years. Added beside what is there (the demo catalogue first,
ids after the largest), deterministic for a seed, written in batches of plain INSERTs (no ORM objects): 100,000
titles in a few minutes on 2 cores. The episodes play the demo's short film, so every title works in the player."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, select

from app.demo.seed import advance_sequences
from app.demo.words import ADJECTIVES, COUNTRIES, FEMININE_NAMES, FIRST_NAMES, LAST_NAMES, NOUNS, TAILS
from app.extensions import db
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
from app.models.slugs import slugify
from app.models.taxonomy import content_genres, content_tags
from app.services.search_index import reindex

BATCH = 2000  # contents per transaction
SERIES_SHARE = 0.2
PERSONS_PER_TITLE = 0.2  # the person pool's size, per title: parts repeat people as real credits do
MASTER = "/titles/film-short/master.json"  # the demo's 120 s film (app/demo/catalogue.py)
# When each title was added: one every half hour from this time on, in id order; a series' episodes a week apart.
ADDED_FROM, ADDED_EVERY, EPISODE_EVERY = datetime(2020, 1, 1, tzinfo=UTC), timedelta(minutes=30), timedelta(days=7)


@dataclass(frozen=True)
class Labels:
    """The ids the generated rows point at."""

    film: int
    series: int
    genres: list[int]
    tags: list[int]
    countries: list[int]
    categories: dict[int, list[int]]  # content type id → its category ids
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
    reindex()  # the whole index: its word counts span the catalogue
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
        for table, rows in self.tables.items():
            if rows:
                db.session.execute(insert(table), rows)


def _title(rng: random.Random, number: int, labels: Labels, people: list[int], ids: _Ids, rows: _Rows,
           media: str) -> int:
    title, original = _name(rng)
    series = rng.random() < SERIES_SHARE
    type_id = labels.series if series else labels.film
    added = ADDED_FROM + ADDED_EVERY * number
    rows.add(Content.__table__, id=number, created_at=added, updated_at=added, slug=f"{slugify(title, 110)}-{number}",
             title=title, original_title=original,
             description=f"{title}: {rng.choice(('драма', 'история', 'приключение'))} "
             f"о том, что случилось {rng.choice(('однажды', 'зимой', 'летом', 'на севере', 'у моря'))}.",
             age_rating=rng.choice((0, 6, 12, 16, 18)), published=rng.random() > 0.02, position=0,
             content_type_id=type_id, year=rng.randint(1960, 2026), has_multiple_episodes=series,
             poster_url=f"{media}/posters/film-short.jpg", kinopoisk_id=10_000_000 + number,
             kinopoisk_rating=round(rng.uniform(3.0, 9.5), 1), imdb_id=f"tt{9_000_000 + number}",
             imdb_rating=round(rng.uniform(3.0, 9.5), 1))
    for genre in rng.sample(labels.genres, k=min(len(labels.genres), rng.randint(1, 3))):
        rows.add(content_genres, content_id=number, genre_id=genre)
    for tag in rng.sample(labels.tags, k=min(len(labels.tags), rng.randint(0, 2))):
        rows.add(content_tags, content_id=number, tag_id=tag)
    for country in rng.sample(labels.countries, k=rng.randint(1, 2)):
        rows.add(content_countries, content_id=number, country_id=country)
    for category in rng.sample(labels.categories[type_id], k=min(2, len(labels.categories[type_id]))):
        rows.add(ContentCategory.__table__, content_id=number, category_id=category, position=rng.randint(0, 1000))
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
    """A Russian title and its English original: «Долгая дорога домой», "The Long Road Home"."""
    noun, _genitive, _prepositional, gender, noun_en = rng.choice(NOUNS)
    masculine, feminine, neuter, adjective_en = rng.choice(ADJECTIVES)
    adjective = {"m": masculine, "f": feminine, "n": neuter}[gender]
    tail, tail_en = rng.choice(TAILS)
    other = rng.choice(NOUNS)
    tail = tail.format(prep=other[2], gen=other[1])
    tail_en = tail_en.format(en=other[4])
    title = f"{adjective.capitalize()} {noun}{' ' + tail if tail else ''}"
    return title, f"The {adjective_en} {noun_en}{' ' + tail_en if tail_en else ''}"


def _persons(rng: random.Random, count: int) -> list[int]:
    first = (db.session.scalar(select(func.max(Person.id))) or 0) + 1
    rows: list[dict[str, Any]] = []
    for number in range(first, first + count):
        given = rng.choice(FIRST_NAMES)
        family = rng.choice(LAST_NAMES) + ("а" if given in FEMININE_NAMES else "")
        rows.append({"id": number, "slug": f"{slugify(f'{given} {family}')}-{number}", "name": f"{given} {family}",
                     "original_name": None, "photo_url": None})
    for batch in _chunks(rows, 5000):
        db.session.execute(insert(Person.__table__), batch)
    db.session.commit()
    advance_sequences(("persons",))
    return list(range(first, first + count))


def _labels() -> Labels:
    """The types, genres, tags, countries, categories and person types the rows point at (made when missing)."""
    film = _ensure(ContentType, slug="film", title="Фильм")
    series = _ensure(ContentType, slug="series", title="Сериал")
    for slug, title in COUNTRIES.items():
        _ensure(Country, slug=slug, title=title)
    kinds = [_ensure(PersonType, slug=slug, title=title) for slug, title in
             (("director", "Режиссёр"), ("actor", "Актёр"))]
    categories = {}
    for type_id in (film, series):
        for slug, title in (("new", "Новинки"), ("popular", "Популярное"), ("classics", "Классика")):
            _ensure(Category, content_type_id=type_id, slug=slug, title=title)
        categories[type_id] = list(db.session.scalars(select(Category.id).where(Category.content_type_id == type_id)))
    db.session.commit()
    return Labels(film=film, series=series, genres=_all(Genre), tags=_all(Tag), countries=_all(Country),
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


def _all(model: Any) -> list[int]:
    ids = list(db.session.scalars(select(model.id).order_by(model.id)))
    if not ids:
        raise RuntimeError(f"no {model.__tablename__}: run `flask demo seed` first")
    return ids


def _chunks(rows: list[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    for start in range(0, len(rows), size):
        yield rows[start:start + size]

