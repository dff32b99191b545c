"""Every response's security headers (the embed page's policy is built in app/http/csp.py).

The embed page (``player.player``: the player and its error screens) gets its Content-Security-Policy, with the
per-request nonce of its inline script and style, and may be framed by publishers; every other response refuses
framing. A response that already carries a Content-Security-Policy (a view that knows better) keeps it.
"""

from __future__ import annotations

import secrets

from flask import Flask, current_app, g, request
from werkzeug.wrappers import Response

from app.http.csp import REFUSE_FRAMING, embed_policy
from app.http.origins import parse_origin_list
from app.http.reporting import reporting_connect_origins

EMBED_ENDPOINTS = {"player.player"}


def csp_nonce() -> str:
    """This request's nonce for the page's inline script and style (templates call it; the policy names it)."""
    if "csp_nonce" not in g:
        g.csp_nonce = secrets.token_urlsafe(16)
    return str(g.csp_nonce)


def embed_csp() -> str:
    config = current_app.config
    return embed_policy(
        nonce=csp_nonce(),
        publisher_origins=parse_origin_list(config["PUBLISHER_ORIGINS"]),
        allow_http=config["ENV"] == "development" or bool(config["PLAYER_CSP_ALLOW_HTTP"]),
        own_urls=(config["WIDGET_ASSETS_PATH"], config["PLAYER_BASE_URL"]),
        # the ad list's origin (an outside ad server's may be plain http:), error reporting's ingest host
        extra_connect=(config["AD_LIST_URL"], *reporting_connect_origins(config["SENTRY_BROWSER_DSN"])),
    )


def security_headers(response: Response) -> Response:
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if "Content-Security-Policy" in response.headers:
        return response
    if request.endpoint in EMBED_ENDPOINTS and response.mimetype == "text/html":
        response.headers["Content-Security-Policy"] = embed_csp()
    else:
        response.headers.update(REFUSE_FRAMING)
    return response


def register_security_headers(app: Flask) -> None:
    app.after_request(security_headers)
