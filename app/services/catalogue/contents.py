"""Finding contents and their episodes, the way every caller (the API, the player page) needs them: by id, slug or
Kinopoisk id, and the most relevant ones."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import joinedload, selectinload

from app import texts
from app.clock import now
from app.extensions import db
from app.models import Category, Content, ContentPerson, ContentType, Episode
from app.models.ids import storable_id
from app.models.slugs import is_slug
from app.services.catalogue.cards import CARD_OPTIONS, load_cards
from app.services.catalogue.facets import kept_published
from app.services.catalogue.paging import Page, paginate
from app.services.catalogue.publishing import public
from app.services.catalogue.reach import PlaysHere, plays_here
from app.services.catalogue.relevance import NO_GENERATION, relevance, scores_current
from app.services.errors import NotFound
from app.services.player.episodes import EpisodeRef, play_order


def content_not_found(content_id: int) -> NotFound:
    return NotFound("content_not_found", texts.CONTENT_NOT_AVAILABLE, {"contentId": content_id})


def _not_found(details: dict[str, Any]) -> NotFound:
    return NotFound("content_not_found", texts.CONTENT_NOT_AVAILABLE, details)


def load_content(content_id: int) -> Content | None:
    """The content with what the player and the API show of it (countries, languages, seasons, availability rules,
    labels, subtitles, credits, categories with their types, alternative titles), in one query per collection (a
    snapshot reads them in one statement: app/services/catalogue/loaded.py, which a test compares with this); None
    when there is none, an id no column can hold included. Unpublished ones too: the caller decides who may see them."""
    if not storable_id(content_id):
        return None
    query = (
        select(Content)
        .where(Content.id == content_id)
        .options(
            selectinload(Content.countries),
            selectinload(Content.languages),
            selectinload(Content.seasons),
            selectinload(Content.availability_rules),
            selectinload(Content.genres),
            selectinload(Content.tags),
            selectinload(Content.voice_authors),
            selectinload(Content.subtitles),
            selectinload(Content.categories).joinedload(Category.content_type),
            selectinload(Content.alternative_titles),
            selectinload(Content.persons).options(joinedload(ContentPerson.person),
                                                  joinedload(ContentPerson.person_type)),
        )
    )
    return db.session.scalars(query).first()


def get_content(content_id: int) -> Content:
    """As ``load_content``, but a missing content is a NotFound ('Контент не доступен')."""
    content = load_content(content_id)
    if content is None:
        raise content_not_found(content_id)
    return content


def load_episodes(content_id: int) -> list[Episode]:
    """The content's episodes in play order (spec §4): season order, then episode order; their seasons joined (one
    statement)."""
    episodes = list(db.session.scalars(_EPISODES, {"content_id": content_id}))
    by_id = {e.id: e for e in episodes}
    return [by_id[ref.id] for ref in play_order([episode_ref(e) for e in episodes])]


_EPISODES = select(Episode).where(Episode.content_id == bindparam("content_id")).options(joinedload(Episode.season))


def episode_ref(episode: Episode) -> EpisodeRef:
    return EpisodeRef(episode.id, episode.order, episode.season.order if episode.season else None)


def published_id_by_slug(slug: str) -> int:
    """The id of the published content at ``slug``; NotFound for any other slug (a malformed one asks nothing)."""
    found = db.session.scalar(select(Content.id).where(Content.slug == slug, public())) \
        if is_slug(slug) else None
    if found is None:
        raise _not_found({"slug": slug})
    return found


def published_id_by_kinopoisk(kinopoisk_id: int) -> int:
    """The id of the published content with this Kinopoisk id (the first made, should two share it)."""
    found = None
    if storable_id(kinopoisk_id):
        found = db.session.scalar(select(Content.id).where(Content.kinopoisk_id == kinopoisk_id, public())
                                  .order_by(Content.id).limit(1))
    if found is None:
        raise _not_found({"kinopoiskId": kinopoisk_id})
    return found


def most_relevant(type_slug: str | None, page: int, page_size: int, generation: int | None = None,
                  when_stale: Callable[[], object] = lambda: None, here: PlaysHere | None = None) -> Page:
    """Published contents (of the type ``type_slug``), most relevant first: the editorial position (lower first; 0,
    the default, is neutral), then ``relevance`` (higher first), then the newest id. With the stored scores of this
    year (app/services/catalogue/relevance.py) a page is an index range scan, and its total is the count kept at the
    catalogue's ``generation`` (app/services/catalogue/facets.py); without them the ranking computes the score of
    every published content and sorts ids only, and the total is counted (``when_stale`` is called, to start a
    refresh, when the scores are of another year or no total was ever kept; the refresh after a change is under way).
    Then the page's cards are loaded by id: at most six queries
    (the type with its kept total, the scores' year, the count when none is kept, the page's ids, the cards and their
    genres). ``here``: only those that play there (app/services/catalogue/reach.py), counted (no total is kept)."""
    kept = kept_published(type_slug, generation if generation is not None else NO_GENERATION)
    if kept.unknown:  # a type no title has: nothing, as every list's filter (docs/api.md, Lists)
        return Page([], 0, page, page_size)
    ranked = select(Content.id).where(public())
    if kept.type_id is not None:
        ranked = ranked.where(Content.content_type_id == kept.type_id)
    if here is not None:
        ranked = ranked.where(plays_here(here))
    scored = scores_current(db.session)
    if not scored or kept.missing:
        when_stale()
    score = Content.relevance if scored else relevance(now().year)
    found = paginate(ranked.order_by(Content.position, score.desc()), Content.id.desc(), page, page_size,
                     kept.published if here is None else None)
    cards = load_cards(found.items)
    return Page([cards[content_id] for content_id in found.items], found.total, page, page_size)


def published_content_of_episode(episode_id: int) -> int:
    """The id of the published content this episode belongs to; NotFound for any other id."""
    found = db.session.scalar(select(Episode.content_id).join(Episode.content).where(
        Episode.id == episode_id, public())) if storable_id(episode_id) else None
    if found is None:
        raise episode_not_found(episode_id)
    return found


def episode_not_found(episode_id: int) -> NotFound:
    return NotFound("episode_not_found", texts.CONTENT_NOT_AVAILABLE, {"episodeId": episode_id})


def fresh_episodes(type_slug: str | None, page: int, page_size: int) -> Page:
    """The episodes of published series (of the type ``type_slug``: a slug no type has lists nothing, as every list's
    filter), the last added first (then the highest id), each with its season and its content's card: five queries
    whatever the page size (the count, the page's ids, the episodes with their seasons, the contents, their genres)."""
    newest = select(Episode.id).join(Episode.content).where(public(), Content.has_multiple_episodes)
    if type_slug is not None:
        newest = newest.where(Content.content_type.has(ContentType.slug == type_slug))
    found = paginate(newest.order_by(Episode.created_at.desc()), Episode.id.desc(), page, page_size)
    if not found.items:
        return found
    episodes = {episode.id: episode for episode in db.session.scalars(
        select(Episode).where(Episode.id.in_(found.items)).options(
            joinedload(Episode.season), selectinload(Episode.content).options(*CARD_OPTIONS)))}
    return Page([episodes[episode_id] for episode_id in found.items], found.total, page, page_size)
