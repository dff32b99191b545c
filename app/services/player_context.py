"""Everything the player page needs, resolved on the server in three queries (spec §3 "Player context")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from app.extensions import db
from app.models import AvailabilityRule, Content, Episode
from app.schemas.catalogue import ContentSchema, SeasonSchema, dump_episodes
from app.services.availability import Verdict, check_availability
from app.services.episodes import EpisodeRef, choose_episode, play_order
from app.services.params import PlayerParams


@dataclass(frozen=True)
class Viewer:
    country: str | None  # ISO 3166-1 alpha-2, lower case
    domain: str | None  # host of the embedding page, when the browser told us
    completed: frozenset[int] = frozenset()  # episode ids this viewer finished


@dataclass(frozen=True)
class PlayerContext:
    content: Content
    episode: Episode | None
    verdict: Verdict
    data: dict[str, Any]  # the JSON blob the front end mounts from

    @property
    def available(self) -> bool:
        return self.verdict.available

    @property
    def master_json_url(self) -> str | None:
        """The chosen episode's master JSON, which the player fetches first: the page preloads it."""
        path = self.episode.master_file_path if self.episode else None
        return path if self.available and path and ".json" in path else None


def load_content(content_id: int) -> Content | None:
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


def load_episodes(content_id: int) -> list[Episode]:
    query = select(Episode).where(Episode.content_id == content_id).options(selectinload(Episode.season))
    episodes = list(db.session.scalars(query))
    by_id = {e.id: e for e in episodes}
    return [by_id[ref.id] for ref in play_order([episode_ref(e) for e in episodes])]


def episode_ref(episode: Episode) -> EpisodeRef:
    return EpisodeRef(episode.id, episode.order, episode.season.order if episode.season else None)


def availability_of(rules: list[AvailabilityRule], viewer: Viewer) -> Verdict:
    return check_availability(((r.kind, r.value) for r in rules), country=viewer.country, domain=viewer.domain)


def resolve_player_context(params: PlayerParams, viewer: Viewer, runtime: dict[str, Any]) -> PlayerContext | None:
    """None when no such content exists; otherwise the context, available or not."""
    content = load_content(params.movie_id)
    if content is None:
        return None
    episodes = load_episodes(content.id)
    chosen_ref = choose_episode(
        [episode_ref(e) for e in episodes],
        episode_id=params.episode_id,
        season=params.season,
        episode=params.episode,
        completed=viewer.completed,
    )
    chosen = next((e for e in episodes if chosen_ref and e.id == chosen_ref.id), None)
    # spec §4: availability is checked unless the embed disables the check
    verdict = Verdict.AVAILABLE if params.disable_checking_available else availability_of(
        content.availability_rules, viewer
    )
    data = {
        "content": ContentSchema().dump(content),
        "seasons": SeasonSchema(many=True).dump(content.seasons),
        "episodes": dump_episodes(episodes, viewer.completed),
        "episodeId": chosen.id if chosen else None,
        "episodeTime": params.episode_time,
        "timeCode": params.time_code,
        "isEnabledShare": params.enabled_share,
        "isAvailable": verdict.available,
        "isPreload": not params.auto_play,
        "autoPlay": params.auto_play,
        "voiceAuthor": params.voice_author,
        "userId": params.user_id,
        "langOrder": list(params.lang_order),
        "config": runtime,
    }
    return PlayerContext(content=content, episode=chosen, verdict=verdict, data=data)
