"""Every response's security headers (the embed page's policy is built in app/http/csp.py).

The embed page (``player.player``: the player and its error screens) gets its Content-Security-Policy, allowing its
inline script and style by their hashes (``registry.embed_inline_sources()``, made by the player), and may be
framed by publishers; every other response refuses framing. A response that already carries a
Content-Security-Policy (a view that knows better) keeps it.

The admin's pages (everything under ``/admin`` but its static files and the media library's thumbnails) get the
admin's own policy (``ADMIN_POLICY``: no inline script) and ``Cache-Control: no-store``: what an editor saw is never
kept by a browser or a proxy.

When the deployment is https (``PUBLIC_URL`` starts with ``https://``), every response carries
``Strict-Transport-Security`` (a year), so that a browser that has been here once never asks over plain http again.

Every response also says what it sends as Referer (the origin alone to other sites: a player page's address names
the film and the viewer's options) and which powerful features its documents may use: the embed page the ones a
player needs, nothing else anywhere. A 412 (a failed If-Match) carries no body.
"""

from __future__ import annotations

from flask import Flask, current_app, g, request
from werkzeug.wrappers import Response

from app import registry
from app.http.csp import ADMIN_POLICY, REFUSE_FRAMING, embed_policy
from app.http.origins import parse_origin_list
from app.http.reporting import reporting_connect_origins

EMBED_ENDPOINTS = {"player.player", "player.preview"}  # the page, and an editor's preview of it
ADMIN_PATH = "/admin"
HSTS = "max-age=31536000"
REFERRER_POLICY = "strict-origin-when-cross-origin"
_NEVER = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), display-capture=()"
PERMISSIONS = {
    "embed": f"autoplay=(self), fullscreen=(self), picture-in-picture=(self), encrypted-media=(self), {_NEVER}",
    # the rest: what no page of ours uses (the demo publisher page keeps autoplay and fullscreen to hand its player)
    "other": _NEVER,
}


def embed_csp() -> str:
    config = current_app.config
    inline = registry.embed_inline_sources()
    return embed_policy(
        inline_scripts=inline["script"],
        inline_styles=inline["style"],
        publisher_origins=parse_origin_list(config["PUBLISHER_ORIGINS"]),
        allow_http=config["ENV"] == "development" or bool(config["PLAYER_CSP_ALLOW_HTTP"]),
        own_urls=(config["WIDGET_ASSETS_PATH"], config["PLAYER_BASE_URL"]),
        # the ad list's origin (an outside ad server's may be plain http:), error reporting's ingest host
        extra_connect=(config["AD_LIST_URL"], *reporting_connect_origins(config["SENTRY_BROWSER_DSN"])),
        licensed_domains=g.get("licensed_domains", ()),  # set by the player page for a domain-licensed content
    )


def security_headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", REFERRER_POLICY)
    embed = request.endpoint in EMBED_ENDPOINTS and response.mimetype == "text/html"
    headers.setdefault("Permissions-Policy", PERMISSIONS["embed" if embed else "other"])
    if str(current_app.config["PUBLIC_URL"]).startswith("https://"):
        headers.setdefault("Strict-Transport-Security", HSTS)
    admin = _admin_page(response)
    if admin:
        headers["Cache-Control"] = "no-store"
    if response.status_code == 412 and not response.is_json:
        _drop_body(response)  # a failed If-Match: the file it guarded is not sent anyway
    if "Content-Security-Policy" in headers:
        return response
    if embed:
        headers["Content-Security-Policy"] = embed_csp()
    else:
        headers.update(REFUSE_FRAMING)
        if admin:
            headers["Content-Security-Policy"] = ADMIN_POLICY
    return response


def _admin_page(response: Response) -> bool:
    """A page of the admin (its errors and redirects too), not one of its static files nor a media library thumbnail
    it sends (named by its picture's hash, it never changes: app/admin/media.py)."""
    path = request.path
    endpoint = request.endpoint or ""
    thumbnail = endpoint == "media.thumb" and response.status_code in (200, 304)
    return (path == ADMIN_PATH or path.startswith(ADMIN_PATH + "/")) and not (endpoint.endswith(".static") or thumbnail)


def _drop_body(response: Response) -> None:
    response.close()  # a file from send_file: closed, never read
    response.direct_passthrough = False
    response.set_data(b"")
    for name in ("Content-Range", "Accept-Ranges"):
        response.headers.pop(name, None)


def register_security_headers(app: Flask) -> None:
    app.after_request(security_headers)
