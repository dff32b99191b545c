"""Catalogue reads the player makes (spec §7 "Catalogue: content reads", "episodes")."""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint

from app import texts
from app.errors import ApiError
from app.schemas.catalogue import (
    AvailabilityQuerySchema,
    AvailabilitySchema,
    ContentSchema,
    EpisodeSchema,
    EpisodesQuerySchema,
    SeasonSchema,
)
from app.services.availability import domain_of
from app.services.params import MAX_ID
from app.services.player_context import Viewer, availability_of, load_content, load_episodes
from app.viewer import viewer_country

blp = Blueprint("catalogue", __name__, description="Contents, seasons, episodes and their availability")


def content_or_404(content_id: int) -> Any:
    # An id no column can hold names no content (and must not reach PostgreSQL, which would refuse it).
    content = load_content(content_id) if 0 < content_id <= MAX_ID else None
    if content is None:
        raise ApiError(404, "content_not_found", texts.CONTENT_NOT_AVAILABLE, {"contentId": content_id})
    return content


@blp.route("/contents/<int:content_id>")
@blp.etag
@blp.response(200, ContentSchema)
def get_content(content_id: int) -> Any:
    return content_or_404(content_id)


@blp.route("/contents/<int:content_id>/seasons")
@blp.etag
@blp.response(200, SeasonSchema(many=True))
def get_seasons(content_id: int) -> Any:
    return content_or_404(content_id).seasons


@blp.route("/episodes")
@blp.etag
@blp.arguments(EpisodesQuerySchema, location="query", as_kwargs=True)
@blp.response(200, EpisodeSchema(many=True))
def get_episodes(content_id: int) -> Any:
    content_or_404(content_id)
    return load_episodes(content_id)


@blp.route("/contents/<int:content_id>/available")
@blp.arguments(AvailabilityQuerySchema, location="query", as_kwargs=True)
@blp.response(200, AvailabilitySchema)
def get_available(content_id: int, domain: str | None) -> Any:
    """Whether the content plays for this viewer's country on the page at ``domain`` (an address or a host)."""
    content = content_or_404(content_id)
    verdict = availability_of(content.availability_rules, Viewer(country=viewer_country(), domain=domain_of(domain)))
    return {"available": verdict.available}
