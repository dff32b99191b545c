"""Catalogue reads the player makes (spec §7 "Catalogue: content reads", "episodes")."""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint

from app.http.origins import domain_of
from app.http.viewer import viewer_country
from app.schemas.catalogue import (
    AvailabilityQuerySchema,
    AvailabilitySchema,
    ContentSchema,
    EpisodeSchema,
    EpisodesQuerySchema,
    SeasonSchema,
)
from app.services.catalogue import get_content, load_episodes
from app.services.player_context import Viewer, availability_of

blp = Blueprint("catalogue", __name__, description="Contents, seasons, episodes and their availability")


@blp.route("/contents/<int:content_id>")
@blp.etag
@blp.response(200, ContentSchema)
@blp.alt_response(404, response="NOT_FOUND")
def get_content_by_id(content_id: int) -> Any:
    return get_content(content_id)


@blp.route("/contents/<int:content_id>/seasons")
@blp.etag
@blp.response(200, SeasonSchema(many=True))
@blp.alt_response(404, response="NOT_FOUND")
def get_seasons(content_id: int) -> Any:
    return get_content(content_id).seasons


@blp.route("/episodes")
@blp.etag
@blp.arguments(EpisodesQuerySchema, location="query", as_kwargs=True)
@blp.response(200, EpisodeSchema(many=True))
@blp.alt_response(404, response="NOT_FOUND")
def get_episodes(content_id: int) -> Any:
    get_content(content_id)
    return load_episodes(content_id)


@blp.route("/contents/<int:content_id>/available")
@blp.arguments(AvailabilityQuerySchema, location="query", as_kwargs=True)
@blp.response(200, AvailabilitySchema)
@blp.alt_response(404, response="NOT_FOUND")
def get_available(content_id: int, domain: str | None) -> Any:
    """Whether the content plays for this viewer's country on the page at ``domain`` (an address or a host)."""
    content = get_content(content_id)
    verdict = availability_of(content.availability_rules, Viewer(country=viewer_country(), domain=domain_of(domain)))
    return {"available": verdict.available}
