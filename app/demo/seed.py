"""Writes the demo catalogue of ``catalogue.py`` with its fixed ids."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select, text

from app.caching import invalidate_catalogue
from app.demo import extras
from app.demo.catalogue import CONTENTS, TITLE_BY_SLUG, DemoContent
from app.extensions import db
from app.jobs.search import rebuild_index
from app.models import (
    AlternativeTitle,
    AvailabilityRule,
    Category,
    Content,
    ContentCategory,
    ContentPerson,
    ContentType,
    Country,
    Episode,
    Genre,
    Language,
    MenuItem,
    Person,
    PersonType,
    Playlist,
    PlaylistItem,
    PromoSlide,
    Redirect,
    RuleKind,
    Season,
    Tag,
    Visibility,
    VoiceAuthor,
)
from app.models.catalogue import content_countries, content_languages
from app.models.taxonomy import content_genres, content_subtitles, content_tags, content_voice_authors

CONTENT_TYPES = {"film": "Фильм", "series": "Сериал"}
COUNTRIES = {"ru": "Россия", "fr": "Франция", "us": "США"}
LANGUAGES = {"ru": "Русский", "en": "English", "fr": "Français"}
# The editors' playlist of the demo (POST /playlists/by-slug/luchshee-v-demo), with a fixed id: its contents in order
DEMO_PLAYLIST = (1, "luchshee-v-demo", "Лучшее в демо", "Подборка редакции: с чего начать.", (2, 1, 5))
MISSING_MEDIA_SLUG = "never-uploaded"  # the error-path content points here, and nothing is ever generated there


def seed_demo(media_url: str = "/media", *, reset: bool = False) -> bool:
    """Write the catalogue when the database has no contents (or after ``reset``). True if it wrote anything."""
    if reset:
        # Association rows too: SQLite, unlike PostgreSQL, does not cascade the contents' deletion to them.
        for table in (content_countries, content_languages, content_genres, content_tags, content_voice_authors,
                      content_subtitles):
            db.session.execute(table.delete())
        db.session.execute(delete(PlaylistItem))
        db.session.execute(delete(Playlist).where(Playlist.account_id.is_(None)))
        for model in (PromoSlide, ContentCategory, ContentPerson, Person, PersonType, Category, MenuItem, Redirect,
                      AlternativeTitle, AvailabilityRule, Episode, Season, Content, ContentType, Country, Language,
                      Genre, Tag, VoiceAuthor):
            db.session.execute(delete(model))
    elif db.session.scalar(select(func.count()).select_from(Content)):
        return False

    types = _dictionary(ContentType, "slug", CONTENT_TYPES)
    countries = _dictionary(Country, "slug", COUNTRIES)
    languages = _dictionary(Language, "code", LANGUAGES)
    media = media_url.rstrip("/")
    contents = {demo.id: _content(demo, types, countries, languages, media) for demo in CONTENTS}
    db.session.add_all(contents.values())
    _label(contents, languages)
    categories = _categorise(contents, types)
    _credit(contents)
    _site(contents, media, types, categories)
    db.session.commit()
    advance_sequences()
    rebuild_index()
    invalidate_catalogue()  # pages and reads kept from the catalogue before are stale (app/caching.py)
    return True


def _dictionary(model: type, key: str, titles: dict[str, str]) -> dict[str, Any]:
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


def _label(contents: dict[int, Content], languages: dict) -> None:
    genres = _dictionary(Genre, "slug", extras.GENRES)
    tags = _dictionary(Tag, "slug", extras.TAGS)
    voices = _dictionary(VoiceAuthor, "slug", extras.VOICE_AUTHORS)
    for content_id, labels in extras.LABELS.items():
        content = contents[content_id]
        content.slug, content.original_title = labels.slug, labels.original_title
        content.description, content.age_rating = labels.description, labels.age_rating
        content.genres = [genres[g] for g in labels.genres]
        content.tags = [tags[t] for t in labels.tags]
        content.voice_authors = [voices[v] for v in labels.voices]
        content.subtitles = [languages[code] for code in labels.subtitles]
        content.alternative_titles = [AlternativeTitle(title=title, language=language, kind=kind, position=position)
                                      for position, (title, language, kind)
                                      in enumerate(extras.ALTERNATIVE_TITLES.get(content_id, ()))]


def _categorise(contents: dict[int, Content], types: dict) -> dict[tuple[str, str | None], Category]:
    categories: dict[tuple[str, str | None], Category] = {}
    for position, (type_slug, slug, title, parent, main_mart) in enumerate(extras.CATEGORIES):
        categories[type_slug, slug] = Category(content_type=types[type_slug], slug=slug, title=title,
                                               parent=categories.get((type_slug, parent)), position=position,
                                               main_mart=main_mart)
    db.session.add_all(categories.values())
    for content_id, labels in extras.LABELS.items():
        content = contents[content_id]
        for slug in labels.categories:
            content.category_links.append(ContentCategory(category=categories[content.content_type.slug, slug],
                                                          position=content_id))
    return categories


def _credit(contents: dict[int, Content]) -> None:
    kinds = {slug: PersonType(slug=slug, title=title, position=position)
             for position, (slug, title) in enumerate(extras.PERSON_TYPES)}
    for slug, name, original, parts in extras.PERSONS:
        person = Person(slug=slug, name=name, original_name=original)
        for position, (content_id, kind, character) in enumerate(parts):
            contents[content_id].persons.append(ContentPerson(person=person, person_type=kinds[kind],
                                                              character=character, position=position))


def _site(contents: dict[int, Content], media: str, types: dict[str, ContentType],
          categories: dict[tuple[str, str | None], Category]) -> None:
    for position, (content_id, title) in enumerate(extras.PROMO_SLIDES):
        db.session.add(PromoSlide(content=contents[content_id], title=title, position=position,
                                  image_url=contents[content_id].poster_url or f"{media}/posters/none.jpg"))
    def entry(title: str, url: str, opens: tuple[str, str | None] | None, position: int) -> MenuItem:
        if opens is None:
            return MenuItem(title=title, url=url, position=position)
        type_slug, category = opens
        return MenuItem(title=title, url=url, position=position, content_type=types[type_slug],
                        category=categories[type_slug, category] if category is not None else None)

    for position, (title, url, opens, children) in enumerate(extras.MENU):
        item = entry(title, url, opens, position)
        item.children = [entry(*child, index) for index, child in enumerate(children)]
        db.session.add(item)
    for old, new, status in extras.REDIRECTS:
        db.session.add(Redirect(from_path=old, to_path=new, status=status))
    playlist_id, slug, title, description, content_ids = DEMO_PLAYLIST
    db.session.add(Playlist(id=playlist_id, slug=slug, title=title, description=description, published=True,
                            visibility=Visibility.PUBLIC, items=[
                                PlaylistItem(content=contents[content_id], position=position)
                                for position, content_id in enumerate(content_ids, start=1)]))


def _duration(slug: str | None) -> int | None:
    return TITLE_BY_SLUG[slug].duration if slug else None


def advance_sequences(tables: tuple[str, ...] = ("contents", "episodes", "playlists")) -> None:
    """Rows were written with explicit ids; PostgreSQL's sequences must move past them."""
    if db.engine.dialect.name != "postgresql":
        return
    for table in tables:
        db.session.execute(
            text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))")  # noqa: S608
        )
    db.session.commit()
