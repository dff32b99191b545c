"""Catalogue reads the player makes (spec §7 "Catalogue: content reads", "episodes")."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request
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
from app.services.player_context import Viewer, availability_of
from app.snapshots import get_snapshot

blp = Blueprint("catalogue", __name__, description="Contents, seasons, episodes and their availability")


@blp.route("/contents/<int:content_id>")
@blp.etag
@blp.response(200, ContentSchema, headers=SHARED_HEADERS)
@answers(blp, 404)
@shareable()
def get_content_by_id(content_id: int) -> Any:
    return dumped(get_snapshot(content_id).content)


@blp.route("/contents/<int:content_id>/seasons")
@blp.etag
@blp.response(200, SeasonSchema(many=True), headers=SHARED_HEADERS)
@answers(blp, 404)
@shareable()
def get_seasons(content_id: int) -> Any:
    return dumped(get_snapshot(content_id).seasons)


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
    snapshot = get_snapshot(content_id)
    viewer = Viewer(country=viewer_country(), domain=domain_of(request.referrer))
    playable = availability_of(snapshot.rules, viewer).available
    episodes = [{**episode, "m3u8MasterFilePath": sign_address(episode["m3u8MasterFilePath"], viewer.country)
                 if playable else None} for episode in snapshot.episodes]
    return dumped(episodes, shared=not depends_on_domain(snapshot.rules))


@blp.route("/contents/<int:content_id>/available")
@blp.arguments(AvailabilityQuerySchema, location="query", as_kwargs=True)
@blp.response(200, AvailabilitySchema, headers=SHARED_HEADERS)
@answers(blp, 404)
@shareable()
def get_available(content_id: int, domain: str | None) -> Any:
    """Whether the content plays for this viewer's country on the page at ``domain`` (an address or a host)."""
    rules = get_snapshot(content_id).rules
    verdict = availability_of(rules, Viewer(country=viewer_country(), domain=domain_of(domain)))
    share()
    return {"available": verdict.available}


def dumped(data: Any, shared: bool = True) -> Response:
    """A read answered from the title's snapshot (app/snapshots.py), which holds it as the response's schema dumps it
    already: sent as it is, with its ETag (flask-smorest's, from the same data)."""
    blp.set_etag(data)
    if shared:
        share()
    return jsonify(data)
