"""Catalogue reads the player and the site make (spec §7 "Catalogue: content reads", "episodes"): a content by id,
slug or Kinopoisk id (all from its snapshot), the most relevant contents, seasons, episodes, availability."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request
from flask_smorest import Blueprint

from app.api.docs import SHARED_HEADERS, answers, slug_parameter
from app.http.media import sign_address
from app.http.origins import domain_of
from app.http.shared import share, shareable
from app.http.viewer import viewer_country
from app.schemas.cards import ContentCardSchema
from app.schemas.catalogue import (
    AvailabilityQuerySchema,
    AvailabilitySchema,
    ContentSchema,
    EpisodeSchema,
    EpisodesQuerySchema,
    MostRelevantQuerySchema,
    SeasonSchema,
)
from app.schemas.paging import page_of
from app.services.availability import depends_on_domain
from app.services.catalogue import most_relevant, published_id_by_kinopoisk, published_id_by_slug
from app.services.player_context import Viewer, availability_of
from app.snapshots import get_snapshot

blp = Blueprint("catalogue", __name__, description="Contents, seasons, episodes and their availability")
SLUG_PARAMETER = slug_parameter("slug", "the content's slug", "dolgaya-doroga-domoy")


@blp.route("/contents/<int:content_id>")
@blp.etag
@blp.response(200, ContentSchema, headers=SHARED_HEADERS)
@answers(blp, 404)
@shareable()
def get_content_by_id(content_id: int) -> Any:
    """A published content: the player's fields (spec §3) and its details."""
    return content_of(content_id)


@blp.route("/contents/by-slug/<slug>")
@blp.etag
@blp.doc(parameters=[SLUG_PARAMETER, "IF_NONE_MATCH"])  # a list given here replaces @blp.etag's: named again
@blp.response(200, ContentSchema, headers=SHARED_HEADERS)
@answers(blp, 404)
@shareable()
def get_content_by_slug(slug: str) -> Any:
    """As ``GET /contents/{id}``, for the published content at this slug (an old slug: ``GET /redirect-info``)."""
    return content_of(published_id_by_slug(slug))


@blp.route("/kinopoisk/contents/<int:kinopoisk_id>")
@blp.etag
@blp.response(200, ContentSchema, headers=SHARED_HEADERS)
@answers(blp, 404)
@shareable()
def get_content_by_kinopoisk_id(kinopoisk_id: int) -> Any:
    """As ``GET /contents/{id}``, for the published content with this Kinopoisk id."""
    return content_of(published_id_by_kinopoisk(kinopoisk_id))


@blp.route("/contents/most-relevant")
@blp.etag
@blp.arguments(MostRelevantQuerySchema, location="query", as_kwargs=True)
@blp.response(200, page_of(ContentCardSchema), headers=SHARED_HEADERS)
@answers(blp, 404, 422)
@shareable()
def get_most_relevant(content_type: str | None, page: int, pageSize: int) -> Any:
    """Published contents, most relevant first (README "API" says how relevance is ranked); ``type``: of this
    content type only (an unknown one is a 404)."""
    share()
    return most_relevant(content_type, page, pageSize).envelope()


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


def content_of(content_id: int) -> Response:
    """The API's answer for a content from its snapshot: the player's fields and the details (the page carries only
    the former)."""
    snapshot = get_snapshot(content_id)
    return dumped({**snapshot.content, **snapshot.details})


def dumped(data: Any, shared: bool = True) -> Response:
    """A read answered from the title's snapshot (app/snapshots.py), which holds it as the response's schema dumps it
    already: sent as it is, with its ETag (flask-smorest's, from the same data)."""
    blp.set_etag(data)
    if shared:
        share()
    return jsonify(data)
