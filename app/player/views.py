"""The player page (spec §2): validated on the server, resolved on the server, painted before any script."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, current_app, g, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from app import texts
from app.errors import error_screen
from app.extensions import db
from app.models import Content
from app.services.availability import Verdict, domain_of
from app.services.embed import parent_origin, parse_origin_list
from app.services.params import InvalidMovieId, MissingMovieId, parse_player_params
from app.services.player_context import Viewer, resolve_player_context
from app.services.progress import completed_episode_ids
from app.viewer import viewer_country, viewer_key_from_cookie

bp = Blueprint("player", __name__)


def runtime_config() -> dict[str, Any]:
    """The runtime configuration the player reads (spec §1)."""
    config = current_app.config
    return {
        "baseUrl": config["PLAYER_BASE_URL"],
        "adListUrl": config["AD_LIST_URL"] or None,
        "fullscreenMode": config["FULLSCREEN_MODE"],
        "sentryProject": config["SENTRY_PROJECT"],
        "sentryDsn": config["SENTRY_BROWSER_DSN"] or None,  # error reporting in the browser (spec §1); None loads none
        "widgetAssetsPath": config["WIDGET_ASSETS_PATH"],
        "statisticsFunction": config["STATISTICS_FUNCTION"],  # analytics (spec §7); "" sends none
        "placeholderUrl": url_for("assets.clip", filename="not-available.mp4"),
        # The embedding page's origin (spec §7): the allow-listed `origin` parameter, else the Referer's; the parent
        # bridge posts only there and takes commands only from there (static_src/embed/bridge.ts).
        "parentOrigin": parent_origin(
            request.args.get("origin"), request.referrer, parse_origin_list(config["PUBLISHER_ORIGINS"])
        ),
    }


def csp_nonce() -> str:
    if "csp_nonce" not in g:
        g.csp_nonce = secrets.token_urlsafe(16)
    return str(g.csp_nonce)


@bp.get("/")
def player() -> Any:
    try:
        params = parse_player_params(request.args)
    except MissingMovieId:
        return error_screen(texts.MISSING_MOVIE_ID, 400)
    except InvalidMovieId:
        return error_screen(texts.CONTENT_NOT_AVAILABLE, 404)

    key = viewer_key_from_cookie()
    completed = completed_episode_ids(key, params.movie_id) if key else frozenset()
    viewer = Viewer(country=viewer_country(), domain=domain_of(request.referrer), completed=completed)
    context = resolve_player_context(params, viewer, runtime_config())
    if context is None:
        return error_screen(texts.CONTENT_NOT_AVAILABLE, 404)
    if context.verdict is Verdict.BLOCKED_DOMAIN:
        return error_screen(texts.CONTENT_NOT_AVAILABLE, 403, context=context.data)
    # Blocked in the viewer's country (spec §4): still the player, which plays a tiny placeholder clip and then shows
    # the blocked text (the shell says it without JavaScript); 451 tells crawlers and monitoring what happened.
    status = 451 if context.verdict is Verdict.BLOCKED_COUNTRY else 200
    return render_template("player/player.html", ctx=context, data=context.data), status


@bp.after_request
def vary_on_viewer(response: Response) -> Response:
    """The page depends on the viewer's device_fp cookie (completed episodes) and on the Referer (the embedding
    domain's availability, the parent origin): a cache must key on them."""
    if request.endpoint == "player.player":
        response.vary.add("Cookie")
        response.vary.add("Referer")
    return response


@bp.get("/demo")
def demo() -> Any:
    """A publisher's page: embeds the player the way a publisher would and shows what it posts."""
    contents = db.session.execute(select(Content.id, Content.title).order_by(Content.id)).all()
    return render_template("demo/demo.html", contents=contents, country_param=current_app.config["COUNTRY_QUERY_PARAM"])


@bp.app_context_processor
def template_helpers() -> dict[str, Any]:
    manifest = current_app.extensions["assets_manifest"]
    return {"csp_nonce": csp_nonce, "assets": manifest.entry, "inline_css": manifest.inline_css, "texts": texts}
