"""The player page (spec §2): validated on the server, resolved on the server, painted before any script."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, current_app, g, render_template, request
from sqlalchemy import select

from app import texts
from app.errors import error_screen
from app.extensions import db
from app.models import Content
from app.services.availability import Verdict, domain_of
from app.services.params import InvalidMovieId, MissingMovieId, parse_player_params
from app.services.player_context import Viewer, resolve_player_context
from app.viewer import viewer_country

bp = Blueprint("player", __name__)


def runtime_config() -> dict[str, Any]:
    """The runtime configuration the player reads (spec §1)."""
    config = current_app.config
    return {
        "baseUrl": config["PLAYER_BASE_URL"],
        "adListUrl": config["AD_LIST_URL"] or None,
        "fullscreenMode": config["FULLSCREEN_MODE"],
        "sentryProject": config["SENTRY_PROJECT"],
        "widgetAssetsPath": config["WIDGET_ASSETS_PATH"],
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

    viewer = Viewer(country=viewer_country(), domain=domain_of(request.referrer))
    context = resolve_player_context(params, viewer, runtime_config())
    if context is None:
        return error_screen(texts.CONTENT_NOT_AVAILABLE, 404)
    if context.verdict is Verdict.BLOCKED_COUNTRY:
        return error_screen(texts.BLOCKED_IN_COUNTRY, 451, context=context.data)
    if context.verdict is Verdict.BLOCKED_DOMAIN:
        return error_screen(texts.CONTENT_NOT_AVAILABLE, 403, context=context.data)
    return render_template("player/player.html", ctx=context, data=context.data)


@bp.get("/demo")
def demo() -> Any:
    """A publisher's page: embeds the player the way a publisher would and shows what it posts."""
    contents = db.session.execute(select(Content.id, Content.title).order_by(Content.id)).all()
    return render_template("demo/demo.html", contents=contents, country_param=current_app.config["COUNTRY_QUERY_PARAM"])


@bp.app_context_processor
def template_helpers() -> dict[str, Any]:
    return {"csp_nonce": csp_nonce, "assets": current_app.extensions["assets_manifest"].entry, "texts": texts}
