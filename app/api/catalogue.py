"""Catalogue reads the player makes (spec §7 "Catalogue: content reads", "episodes")."""

from __future__ import annotations

from typing import Any

from flask import request
from flask_smorest import Blueprint

from app.api.docs import SHARED_HEADERS, answers
from app.http.media import sign_address
from app.http.origins import domain_of
from app.http.shared import share, shareable
from app.http.viewer import viewer_country
from app.schemas.catalogue import (
    AvailabilityQuerySchema,
    AvailabilitySchema,
    ContentSchema,
    EpisodeSchema,
    EpisodesQuerySchema,
    SeasonSchema,
)
from app.services.availability import depends_on_domain
from app.services.catalogue import get_content, load_episodes
from app.services.player_context import Viewer, availability_of

blp = Blueprint("catalogue", __name__, description="Contents, seasons, episodes and their availability")


@blp.route("/contents/<int:content_id>")
@blp.etag
@blp.response(200, ContentSchema, headers=SHARED_HEADERS)
@answers(blp, 404)
@shareable()
def get_content_by_id(content_id: int) -> Any:
    content = get_content(content_id)
    share()
    return content


@blp.route("/contents/<int:content_id>/seasons")
@blp.etag
@blp.response(200, SeasonSchema(many=True), headers=SHARED_HEADERS)
@answers(blp, 404)
@shareable()
def get_seasons(content_id: int) -> Any:
    seasons = get_content(content_id).seasons
    share()
    return seasons


class PlayableEpisode:
    """An episode as this caller gets it: its media address signed for them, or withheld where the title may not
    play for them (app/http/media.py); everything else as stored."""

    def __init__(self, episode: Any, master_file_path: str | None) -> None:
        self._episode = episode
        self.master_file_path = master_file_path

    def __getattr__(self, name: str) -> Any:
        return getattr(self._episode, name)


@blp.route("/episodes")
@blp.etag
@blp.arguments(EpisodesQuerySchema, location="query", as_kwargs=True)
@blp.response(200, EpisodeSchema(many=True), headers=SHARED_HEADERS)
@answers(blp, 404, 422)
@shareable()
def get_episodes(content_id: int) -> Any:
    """The content's episodes in play order; their media addresses only for a viewer the title may play for (the
    country, and the embedding page's domain from Referer), signed. Shared by everyone in a country unless the title
    has domain rules."""
    content = get_content(content_id)
    viewer = Viewer(country=viewer_country(), domain=domain_of(request.referrer))
    rules = [(rule.kind, rule.value) for rule in content.availability_rules]
    playable = availability_of(rules, viewer).available
    episodes = [PlayableEpisode(e, sign_address(e.master_file_path, viewer.country) if playable else None)
                for e in load_episodes(content_id)]
    if not depends_on_domain(rules):
        share()
    return episodes


@blp.route("/contents/<int:content_id>/available")
@blp.arguments(AvailabilityQuerySchema, location="query", as_kwargs=True)
@blp.response(200, AvailabilitySchema, headers=SHARED_HEADERS)
@answers(blp, 404)
@shareable()
def get_available(content_id: int, domain: str | None) -> Any:
    """Whether the content plays for this viewer's country on the page at ``domain`` (an address or a host)."""
    content = get_content(content_id)
    rules = [(rule.kind, rule.value) for rule in content.availability_rules]
    verdict = availability_of(rules, Viewer(country=viewer_country(), domain=domain_of(domain)))
    share()
    return {"available": verdict.available}
