"""Writes the demo catalogue of ``catalogue.py`` with its fixed ids."""

from __future__ import annotations

from sqlalchemy import delete, func, select, text

from app.caching import invalidate_catalogue
from app.demo.catalogue import CONTENTS, TITLE_BY_SLUG, DemoContent
from app.extensions import db
from app.models import AvailabilityRule, Content, ContentType, Country, Episode, Language, RuleKind, Season
from app.models.catalogue import content_countries, content_languages

CONTENT_TYPES = {"film": "Фильм", "series": "Сериал"}
COUNTRIES = {"ru": "Россия", "fr": "Франция", "us": "США"}
LANGUAGES = {"ru": "Русский", "en": "English", "fr": "Français"}
MISSING_MEDIA_SLUG = "never-uploaded"  # the error-path content points here, and nothing is ever generated there


def seed_demo(media_url: str = "/media", *, reset: bool = False) -> bool:
    """Write the catalogue when the database has no contents (or after ``reset``). True if it wrote anything."""
    if reset:
        # Association rows too: SQLite, unlike PostgreSQL, does not cascade the contents' deletion to them.
        for table in (content_countries, content_languages):
            db.session.execute(table.delete())
        for model in (AvailabilityRule, Episode, Season, Content, ContentType, Country, Language):
            db.session.execute(delete(model))
    elif db.session.scalar(select(func.count()).select_from(Content)):
        return False

    types = _dictionary(ContentType, "slug", CONTENT_TYPES)
    countries = _dictionary(Country, "slug", COUNTRIES)
    languages = _dictionary(Language, "code", LANGUAGES)
    media = media_url.rstrip("/")
    for demo in CONTENTS:
        db.session.add(_content(demo, types, countries, languages, media))
    db.session.commit()
    advance_sequences()
    invalidate_catalogue()  # pages and reads kept from the catalogue before are stale (app/caching.py)
    return True


def _dictionary(model: type, key: str, titles: dict[str, str]) -> dict[str, object]:
    rows = {}
    for value, title in titles.items():
        row = model(**{key: value, "title": title})
        db.session.add(row)
        rows[value] = row
    return rows


def _content(demo: DemoContent, types: dict, countries: dict, languages: dict, media: str) -> Content:
    first_media = next((e.media for e in demo.episodes if e.media), None)
    content = Content(
        id=demo.id,
        title=demo.title,
        content_type=types[demo.type],
        year=demo.year,
        has_multiple_episodes=len(demo.episodes) > 1,
        poster_url=f"{media}/posters/{first_media}.jpg" if first_media else None,
        kinopoisk_id=demo.kinopoisk_id,
        kinopoisk_rating=demo.kinopoisk_rating,
        imdb_id=demo.imdb_id,
        imdb_rating=demo.imdb_rating,
        countries=[countries[c] for c in demo.countries],
        languages=[languages[c] for c in demo.languages],
    )
    seasons = {order: Season(order=order, title=f"Сезон {order}") for order in demo.seasons}
    content.seasons = list(seasons.values())
    for ep in demo.episodes:
        slug = ep.media or MISSING_MEDIA_SLUG
        content.episodes.append(
            Episode(
                id=ep.id,
                order=ep.order,
                title=ep.title,
                description=ep.description,
                duration=_duration(ep.media),
                season=seasons.get(ep.season) if ep.season is not None else None,
                poster_path=f"{media}/posters/{ep.media}.jpg" if ep.media else None,
                master_file_path=f"{media}/titles/{slug}/master.json",
            )
        )
    content.availability_rules = [
        *(AvailabilityRule(kind=RuleKind.BLOCK_COUNTRY, value=c) for c in demo.blocked_countries),
        *(AvailabilityRule(kind=RuleKind.ALLOW_DOMAIN, value=d) for d in demo.allowed_domains),
    ]
    return content


def _duration(slug: str | None) -> int | None:
    return TITLE_BY_SLUG[slug].duration if slug else None


def advance_sequences(tables: tuple[str, ...] = ("contents", "episodes")) -> None:
    """Rows were written with explicit ids; PostgreSQL's sequences must move past them."""
    if db.engine.dialect.name != "postgresql":
        return
    for table in tables:
        db.session.execute(
            text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))")  # noqa: S608
        )
    db.session.commit()
