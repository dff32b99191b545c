"""Catalogue reads the player and the site make (spec §7 "Catalogue: content reads", "episodes"): a content by id,
slug or Kinopoisk id (all from its snapshot), the most relevant contents, seasons, episodes, availability."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from flask.views import MethodView
from marshmallow import RAISE

from app.api.arguments import Blueprint
from app.api.decorators import shared_read
from app.api.docs import answers, id_parameter, slug_parameter
from app.caching import refresh_derived_later, store
from app.http.media import sign_address
from app.http.origins import domain_of
from app.http.rates import limited_catalogue_read
from app.http.shared import share
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
from app.schemas.episodes import EpisodeResourceSchema, FreshEpisodeSchema, FreshEpisodesQuerySchema
from app.schemas.paging import page_of
from app.services.catalogue.contents import (
    episode_not_found,
    fresh_episodes,
    most_relevant,
    published_content_of_episode,
    published_id_by_kinopoisk,
    published_id_by_slug,
)
from app.services.catalogue.reach import PlaysHere, playability
from app.services.player.availability import Verdict
from app.services.player.context import Viewer, availability_of
from app.snapshots import get_snapshot

blp = Blueprint("catalogue", __name__, description="Contents, seasons, episodes and their availability")
SLUG_PARAMETER = slug_parameter("slug", "the content's slug", "dolgaya-doroga-domoy")
FILM_ID = id_parameter("content_id", "a published content's id", 1)
SERIES_ID = id_parameter("content_id", "a published content's id", 2)


@blp.route("/contents/<int:content_id>", parameters=[FILM_ID])
@shared_read(blp, ContentSchema, 404)
def get_content_by_id(content_id: int) -> Any:
    """A published content: the player's fields (spec §3) and its details."""
    return content_of(content_id)


@blp.route("/contents/by-slug/<slug>", parameters=[SLUG_PARAMETER])
@shared_read(blp, ContentSchema, 404)
def get_content_by_slug(slug: str) -> Any:
    """As ``GET /contents/{id}``, for the published content at this slug (an old slug: ``GET /redirect-info``)."""
    return content_of(published_id_by_slug(slug))


@blp.route("/kinopoisk/contents/<int:kinopoisk_id>",
           parameters=[id_parameter("kinopoisk_id", "the content's Kinopoisk id", 1000001)])
@shared_read(blp, ContentSchema, 404)
def get_content_by_kinopoisk_id(kinopoisk_id: int) -> Any:
    """As ``GET /contents/{id}``, for the published content with this Kinopoisk id."""
    return content_of(published_id_by_kinopoisk(kinopoisk_id))


@blp.route("/contents/most-relevant")
@limited_catalogue_read
@blp.arguments(MostRelevantQuerySchema, location="query", as_kwargs=True)
@shared_read(blp, page_of(ContentCardSchema), 422, 429)
def get_most_relevant(content_type: str | None, page: int, pageSize: int, available_here: bool = False) -> Any:
    """Published contents, most relevant first (docs/api.md says how relevance is ranked); ``type``: of this
    content type only (a slug no type has lists nothing, as every list's filter); ``availableHere``: only those that
    play for the viewer's country."""
    share()
    here = PlaysHere(viewer_country()) if available_here else None
    return most_relevant(content_type, page, pageSize, store().generation(), refresh_derived_later, here).envelope()


@blp.route("/contents/<int:content_id>/seasons", parameters=[SERIES_ID])
@shared_read(blp, SeasonSchema(many=True), 404)
def get_seasons(content_id: int) -> Any:
    return dumped(get_snapshot(content_id).seasons)


@blp.route("/episodes")
@blp.arguments(EpisodesQuerySchema, location="query", as_kwargs=True)
@shared_read(blp, EpisodeSchema(many=True), 404, 422)
def get_episodes(content_id: int) -> Any:
    """The content's episodes in play order; their media addresses only for a viewer the title may play for (the
    country), signed. A title licensed to named sites plays only in the player they frame, never from an API answer
    (a Referer is anyone's to write): its addresses are null here. Shared by everyone in a country."""
    snapshot = get_snapshot(content_id)
    country = viewer_country()
    playable = api_verdict(snapshot.rules, country).available
    episodes = [{**episode, "m3u8MasterFilePath": sign_address(episode["m3u8MasterFilePath"], country, snapshot.id)
                 if playable else None} for episode in snapshot.episodes]
    return dumped(episodes)


def api_verdict(rules: Any, country: str | None) -> Verdict:
    """Whether a title plays for an API caller: by its country alone, never by the page a Referer names, so a title
    with an allow list of sites is blocked_domain here (docs/licences.md)."""
    return availability_of(rules, Viewer(country=country, domain=None))


@blp.route("/episodes/fresh")
class FreshEpisodes(MethodView):
    """The newest episodes across series (spec §7 ``POST /episodes/fresh``; also a GET, which a CDN can keep)."""

    @blp.arguments(FreshEpisodesQuerySchema, location="query")
    @shared_read(blp, page_of(FreshEpisodeSchema), 422)
    def get(self, query: dict[str, Any]) -> Any:
        """Episodes of published series, the last added first, each with its season and its content's card;
        ``type``: of this content type only (a slug no type has lists nothing, as every list's filter)."""
        share()
        return fresh_episodes(query["content_type"], query["page"], query["pageSize"]).envelope()

    @blp.arguments(FreshEpisodesQuerySchema, unknown=RAISE)
    @blp.response(200, page_of(FreshEpisodeSchema))
    @answers(blp, 422, body=True)
    def post(self, body: dict[str, Any]) -> Any:
        """As the GET, with the type and the page in the JSON body."""
        return fresh_episodes(body["content_type"], body["page"], body["pageSize"]).envelope()


@blp.route("/episodes/<int:episode_id>/resource", parameters=[id_parameter("episode_id", "an episode's id", 3)])
@shared_read(blp, EpisodeResourceSchema, 404)
def get_episode_resource(episode_id: int) -> Any:
    """What the player needs to play one episode of a published content: the content's player fields, the episode
    with its media address (signed, and only when it plays for this viewer's country; never for a title licensed to
    named sites, as ``GET /episodes``), and the verdict. Shared by everyone in a country."""
    snapshot = get_snapshot(published_content_of_episode(episode_id))
    episode = next((episode for episode in snapshot.episodes if episode["id"] == episode_id), None)
    if episode is None:  # added a moment ago, after the snapshot was kept: not yet here
        raise episode_not_found(episode_id)
    country = viewer_country()
    verdict = api_verdict(snapshot.rules, country)
    address = sign_address(episode["m3u8MasterFilePath"], country, snapshot.id) if verdict.available else None
    return dumped({"content": snapshot.content, "episode": {**episode, "m3u8MasterFilePath": address},
                   "available": verdict.available, "reason": None if verdict.available else verdict.value})


@blp.route("/contents/<int:content_id>/available", parameters=[FILM_ID])
@blp.arguments(AvailabilityQuerySchema, location="query", as_kwargs=True)
@shared_read(blp, AvailabilitySchema, 404)
def get_available(content_id: int, domain: str | None) -> Any:
    """Whether the content plays for this viewer's country on the page at ``domain`` (an address or a host)."""
    rules = get_snapshot(content_id).rules
    verdict = availability_of(rules, Viewer(country=viewer_country(), domain=domain_of(domain)))
    share()
    return {"available": verdict.available}


def content_of(content_id: int) -> Response:
    """The API's answer for a content from its snapshot: the player's fields and the details (the page carries only
    the former), and whether it plays for the viewer's country (app/services/catalogue/reach.py): shared by everyone
    in a country."""
    snapshot = get_snapshot(content_id)
    reason = playability([episode["m3u8MasterFilePath"] for episode in snapshot.episodes], snapshot.rules,
                         viewer_country())
    return dumped({**snapshot.content, **snapshot.details, "playable": reason is None, "reason": reason})


def dumped(data: Any, shared: bool = True) -> Response:
    """A read answered from the title's snapshot (app/snapshots.py), which holds it as the response's schema dumps it
    already: sent as it is, its ETag made from the body (app/api/arguments.py)."""
    if shared:
        share()
    return jsonify(data)
