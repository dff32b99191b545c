"""Playlists (spec §7 "Catalogue: types and playlists" and the two v2 calls): a viewer's own (an account's: a device
identity has none) and the editors' (by slug, edited in the admin). Who may do what is the rules'
(app/services/playlists/access.py); docs/api.md "Playlists" tells a site how to use them.

- ``POST /playlists/new``: create; ``POST /v2/playlists``: the caller's own, paged.
- ``POST /playlists/{id}``: read it, or, when the body names any of title, description, visibility, change it.
- ``DELETE /playlists/{id}``: delete it (not in the spec, which names no way to).
- ``POST /playlists/{id}/contents/{contentId}``: add the content; with ``{"remove": true}``, take it out.
- ``POST /playlists/{id}/contents``: its contents in its order, paged; ``POST /v2/playlists/{id}/contents``: the same
  with the catalogue's filters and sorts (app/schemas/lists.py).
- ``POST /playlists/by-slug/{slug}``: an editors' playlist.

A read takes a bearer token when there is one (a private playlist is its owner's), and answers 401 for a token that
is expired, revoked or invalid rather than reading as nobody; a write needs one. Writes count per account
(RATE_LIMIT_PLAYLIST_WRITES), reads per address with the catalogue's other list reads (RATE_LIMIT_CATALOGUE_READS).
No answer is kept by any cache (what a caller sees depends on who they are)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import current_app, request
from flask.views import MethodView
from flask_jwt_extended import get_jwt, verify_jwt_in_request

from app.api.arguments import Blueprint
from app.api.docs import BEARER, answers, id_parameter, never_stored, slug_parameter
from app.errors import ApiError
from app.extensions import limiter
from app.http.rates import by_viewer, configured, limited_catalogue_read
from app.http.viewer import viewer_country
from app.schemas.cards import ContentCardSchema
from app.schemas.paging import DEFAULT_PAGE_SIZE, page_of
from app.schemas.playlists import (
    MembershipBodySchema,
    MembershipSchema,
    PlaylistChangeSchema,
    PlaylistContentsBodySchema,
    PlaylistContentsQuerySchema,
    PlaylistNewSchema,
    PlaylistPageBodySchema,
    PlaylistPageQuerySchema,
    PlaylistSchema,
)
from app.services.catalogue.filters import list_request
from app.services.playlists import contents, playlists
from app.services.playlists.access import Caller

blp = Blueprint("playlists", __name__, description="Playlists: a viewer's own, and the editors' (spec §7)")
never_stored(blp)
CardPage = page_of(ContentCardSchema)
PlaylistPage = page_of(PlaylistSchema)
# A read names a bearer token if it has one (a private playlist is its owner's); a write needs one.
MAYBE_BEARER: list[dict[str, list[str]]] = [{}, {"bearerAuth": []}]
PLAYLIST_ID = id_parameter("playlist_id", "a playlist's id", 1)
CONTENT_ID = id_parameter("content_id", "a content's id", 2)
SIGN_IN = "Войдите, чтобы продолжить"

limited_write = limiter.shared_limit(configured("RATE_LIMIT_PLAYLIST_WRITES"), scope="playlist-writes",
                                     key_func=by_viewer)


def caller(required: bool = False) -> Caller:
    """Who asks: the bearer token's account (or the access cookie's with its CSRF header), else nobody. A token that
    is there but expired, revoked or invalid is refused (401 with its code, app/api/access.py), never read as
    nobody; ``required``: nobody is refused too."""
    if verify_jwt_in_request(optional=True) is None:
        if required:
            raise ApiError(401, "unauthorized", SIGN_IN)
        return Caller()
    claims = get_jwt()
    return Caller(int(claims["sub"]), claims.get("role"))


def signed_in(view: Callable[..., Any]) -> Callable[..., Any]:
    """A write: a bearer token needed (checked before the body is read: 401, not 422), counted per account."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        caller(required=True)
        return view(*args, **kwargs)

    return blp.doc(security=BEARER)(guarded)


def config(name: str) -> int:
    return int(current_app.config[name])


@blp.route("/playlists/new", methods=["POST"])
@signed_in
@limited_write
@blp.arguments(PlaylistNewSchema)
@blp.response(201, PlaylistSchema)
@answers(blp, 401, 403, 422, 429, body=True)
def create(body: dict[str, Any]) -> Any:
    """A new playlist of the caller's account: a title, a description (optional), private (the default) or public.
    At most PLAYLIST_MAX_PER_ACCOUNT per account (422 too_many_playlists)."""
    return playlists.create_playlist(caller(True), body["title"], body["description"], body["visibility"],
                                     config("PLAYLIST_MAX_PER_ACCOUNT"))


@blp.route("/v2/playlists", methods=["POST"])
@signed_in
@blp.arguments(PlaylistPageQuerySchema, location="query")
@blp.arguments(PlaylistPageBodySchema, required=False)
@blp.response(200, PlaylistPage)
@answers(blp, 401, 403, 422, body=True)
def own(query: dict[str, Any], body: dict[str, Any]) -> Any:
    """The caller's own playlists, the last changed first, paged (page and pageSize in the query, the body or both:
    the body wins)."""
    asked = {**query, **(body or {})}
    return playlists.own_playlists(caller(True), asked.get("page", 1),
                                     asked.get("page_size", DEFAULT_PAGE_SIZE)).envelope()


def changing() -> bool:
    """Whether POST /playlists/{id}'s body changes the playlist (names a field) rather than reading it."""
    body = request.get_json(silent=True)
    return isinstance(body, dict) and any(name in body for name in ("title", "description", "visibility"))


@blp.route("/playlists/<int:playlist_id>", parameters=[PLAYLIST_ID])
class One(MethodView):
    @limited_catalogue_read
    @limiter.shared_limit(configured("RATE_LIMIT_PLAYLIST_WRITES"), scope="playlist-writes", key_func=by_viewer,
                          exempt_when=lambda: not changing())
    @blp.arguments(PlaylistChangeSchema, required=False)
    @blp.response(200, PlaylistSchema)
    @blp.doc(security=MAYBE_BEARER)
    @answers(blp, 401, 403, 404, 422, 429, body=True)
    def post(self, body: dict[str, Any], playlist_id: int) -> Any:
        """The playlist, to whoever may read it: its owner, anyone for a public one or a published editors' one.
        With any of title, description, visibility in the body, its owner changes them first (401 without a token,
        403 for a playlist the caller may read but not change, 404 for one they may not read)."""
        if body:
            return playlists.update_playlist(playlist_id, caller(True), body)
        return playlists.show_playlist(playlist_id, caller())

    @signed_in
    @limited_write
    @blp.response(204)
    @answers(blp, 401, 403, 404, 429)
    def delete(self, playlist_id: int) -> None:
        """Deletes the caller's own playlist (its contents stay in the catalogue). Not in the spec: docs/api.md."""
        playlists.delete_playlist(playlist_id, caller(True))


@blp.route("/playlists/<int:playlist_id>/contents/<int:content_id>", methods=["POST"],
           parameters=[PLAYLIST_ID, CONTENT_ID])
@signed_in
@limited_write
@blp.arguments(MembershipBodySchema, required=False)
@blp.response(200, MembershipSchema)
@answers(blp, 401, 403, 404, 422, 429, body=True)
def membership(body: dict[str, Any], playlist_id: int, content_id: int) -> Any:
    """Adds the content at the end of the caller's playlist, or with ``{"remove": true}`` takes it out. Both are
    idempotent (``changed`` says whether this call did anything). Only a published content can be added (404
    'Контент не доступен'); at most PLAYLIST_MAX_CONTENTS per playlist (422 playlist_full)."""
    if (body or {}).get("remove"):
        return contents.remove_content(playlist_id, content_id, caller(True))
    return contents.add_content(playlist_id, content_id, caller(True), config("PLAYLIST_MAX_CONTENTS"))


@blp.route("/playlists/<int:playlist_id>/contents", methods=["POST"], parameters=[PLAYLIST_ID])
@limited_catalogue_read
@blp.arguments(PlaylistPageQuerySchema, location="query")
@blp.arguments(PlaylistPageBodySchema, required=False)
@blp.response(200, CardPage)
@blp.doc(security=MAYBE_BEARER)
@answers(blp, 401, 404, 422, 429, body=True)
def contents_v1(query: dict[str, Any], body: dict[str, Any], playlist_id: int) -> Any:
    """The playlist's published contents as cards, in its own order (added first, first; an editors' playlist: the
    editors' order), paged (page and pageSize in the query, the body or both: the body wins)."""
    return contents.playlist_contents(playlist_id, caller(), list_request(query, body)).envelope()


@blp.route("/v2/playlists/<int:playlist_id>/contents", methods=["POST"], parameters=[PLAYLIST_ID])
@limited_catalogue_read
@blp.arguments(PlaylistContentsQuerySchema, location="query")
@blp.arguments(PlaylistContentsBodySchema, required=False)
@blp.response(200, CardPage)
@blp.doc(security=MAYBE_BEARER)
@answers(blp, 401, 404, 422, 429, body=True)
def contents_v2(query: dict[str, Any], body: dict[str, Any], playlist_id: int) -> Any:
    """As v1, with the catalogue lists' filters and sorts (genres, countries, years, rating, type of content…; sort
    position: the playlist's order, the default)."""
    request = list_request(query, body, country=viewer_country())
    return contents.playlist_contents(playlist_id, caller(), request).envelope()


@blp.route("/playlists/by-slug/<string:slug>", methods=["POST"],
           parameters=[slug_parameter("slug", "an editors' playlist's slug", "luchshee-v-demo")])
@limited_catalogue_read
@blp.response(200, PlaylistSchema)
@blp.doc(security=MAYBE_BEARER)
@answers(blp, 401, 404, 429)
def by_slug(slug: str) -> Any:
    """An editors' playlist, once published (editors and administrators see it before: a preview). Its contents:
    POST /playlists/{id}/contents."""
    return playlists.editorial_by_slug(slug, caller())
