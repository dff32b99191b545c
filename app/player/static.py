"""Built assets (hashed, cached for a year) and, in development, the generated media (a CDN's job in production)."""

from __future__ import annotations

import mimetypes

from flask import Blueprint, Flask, abort, current_app, send_from_directory
from werkzeug.wrappers import Response

# Python's table lacks the streaming types; the browser and hls.js check them.
for _type, _ext in (
    ("application/vnd.apple.mpegurl", ".m3u8"),
    ("video/iso.segment", ".m4s"),
    ("text/vtt", ".vtt"),
    ("text/javascript", ".js"),
    ("application/json", ".map"),
):
    mimetypes.add_type(_type, _ext)

assets_bp = Blueprint("assets", __name__)


@assets_bp.get("/assets/<path:filename>")
def asset(filename: str) -> Response:
    if filename == "meta.json":  # the build's own record, read by the server, not served
        abort(404)
    config = current_app.config
    response = send_from_directory(config["ASSETS_DIR"], filename, max_age=config["ASSETS_MAX_AGE"])
    response.cache_control.immutable = True
    return response


def serve_media(filename: str) -> Response:
    # Range requests and conditional GETs are handled by send_from_directory; playlists must not go stale.
    max_age = 0 if filename.endswith((".m3u8", ".json")) else 3600
    response = send_from_directory(current_app.config["MEDIA_ROOT"], filename, max_age=max_age)
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


def register_static(app: Flask) -> None:
    app.register_blueprint(assets_bp)
    if app.config["SERVE_MEDIA"]:
        prefix = app.config["MEDIA_URL_PATH"].rstrip("/")
        app.add_url_rule(f"{prefix}/<path:filename>", "media", serve_media)
