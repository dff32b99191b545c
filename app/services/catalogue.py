"""Finding contents and their episodes, the way every caller (the API, the player page) needs them."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from app import texts
from app.extensions import db
from app.models import Content, Episode
from app.models.ids import storable_id
from app.services.episodes import EpisodeRef, play_order
from app.services.errors import NotFound


def content_not_found(content_id: int) -> NotFound:
    return NotFound("content_not_found", texts.CONTENT_NOT_AVAILABLE, {"contentId": content_id})


def load_content(content_id: int) -> Content | None:
    """The content with what the player and the API show of it (countries, languages, seasons, availability rules),
    in one query per collection; None when there is none, an id no column can hold included."""
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
    """The content's episodes in play order (spec §4): season order, then episode order."""
    query = select(Episode).where(Episode.content_id == content_id).options(selectinload(Episode.season))
    episodes = list(db.session.scalars(query))
    by_id = {e.id: e for e in episodes}
    return [by_id[ref.id] for ref in play_order([episode_ref(e) for e in episodes])]


def episode_ref(episode: Episode) -> EpisodeRef:
    return EpisodeRef(episode.id, episode.order, episode.season.order if episode.season else None)
