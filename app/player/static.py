"""Built assets (hashed, cached for a year) and, in development, the generated media (a CDN's job in production)."""

from __future__ import annotations

import mimetypes
from pathlib import Path

from flask import Blueprint, Flask, abort, current_app, request, send_file, send_from_directory
from werkzeug.wrappers import Response

from app.http.media import (
    SIGNED,
    UNKNOWN_COUNTRY,
    safe_file,
    scope_of,
    sign_master,
    signed_prefix,
    unsigned_scope,
    valid_signature,
)
from app.http.previews import MARK_PARAM, valid_master_mark
from app.http.viewer import viewer_country
from app.services.player.context import Viewer, availability_of
from app.snapshots import content_snapshot

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
# Committed, 4 kB: a 2 s dark frame with a red no-entry sign, made with
# ffmpeg -f lavfi -i color=c=0x111111:s=320x180:d=2:r=12 -f lavfi -i anullsrc=r=44100:cl=stereo -t 2
#   -vf drawbox=x=130:y=60:w=60:h=60:color=0xe50914:t=fill,drawbox=x=140:y=85:w=40:h=10:color=white:t=fill
#   -c:v libx264 -profile:v baseline -pix_fmt yuv420p -crf 40 -c:a aac -b:a 16k -movflags +faststart
CLIPS_DIR = Path(__file__).resolve().parent.parent / "static" / "clips"


PRECOMPRESSED = (("br", ".br"), ("gzip", ".gz"))  # written by static_src/build.mjs next to each .js and .css
NOT_HASHED = {"meta.json", "lib.js"}  # the metafile; /lib.js is served at its own address with a short cache


@assets_bp.get("/assets/<path:filename>")
def asset(filename: str) -> Response:
    if filename in NOT_HASHED or filename.endswith((".br", ".gz")):  # the build's own files, not addressable here
        abort(404)
    if filename.endswith(".map") and not source_maps_public():
        abort(404)
    config = current_app.config
    response = send_built(filename, config["ASSETS_MAX_AGE"])
    response.cache_control.immutable = True
    return response


def source_maps_public() -> bool:
    config = current_app.config
    return config["ENV"] == "development" or bool(config["PUBLIC_SOURCE_MAPS"])


def send_built(filename: str, max_age: int) -> Response:
    """A file of the build, its precompressed sibling when the client takes that encoding (each with its own ETag)."""
    folder = Path(current_app.config["ASSETS_DIR"])
    accepted = request.accept_encodings
    for encoding, suffix in PRECOMPRESSED:
        if accepted[encoding] and (folder / (filename + suffix)).is_file():
            response = send_from_directory(folder, filename + suffix, max_age=max_age)
            response.mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
            response.content_encoding = encoding  # Flask-Compress leaves an encoded response alone
            break
    else:
        response = send_from_directory(folder, filename, max_age=max_age)
    response.vary.add("Accept-Encoding")
    return response


@assets_bp.get("/processing/down-mix-processor.js")
def down_mix_worklet() -> Response:
    """The audio worklet (spec §7) has a fixed address, so it is cached for a day, not a year."""
    folder = Path(current_app.config["ASSETS_DIR"]) / "processing"
    return send_from_directory(folder, "down-mix-processor.js", max_age=86_400)


LIB_MAX_AGE = 300  # /lib.js: the name never changes, so a publisher's visitors revalidate it (ETag) every 5 minutes


@assets_bp.get("/lib.js")
def embed_lib() -> Response:
    """The publisher's script (spec §7, static_src/embed/lib.ts) at a stable address: a short cache and an ETag,
    precompressed like the hashed assets."""
    response = send_built("lib.js", LIB_MAX_AGE)
    response.cache_control.public = True
    return response


@assets_bp.get("/clips/<path:filename>")
def clip(filename: str) -> Response:
    """Product clips: the tiny placeholder played when the content is not available here (spec §4)."""
    return send_from_directory(CLIPS_DIR, filename, max_age=86_400)


def serve_media(filename: str) -> Response:
    """A public media file (posters, ad creatives). A title's files are served only at their signed address."""
    if scope_of(filename) is not None:
        abort(403)
    return _send_media(filename, public=True)


def serve_signed_media(signature: str, expires: int, country: str, content: int, filename: str) -> Response:
    """A title's file at an address signed for this viewer's country and this title, and not yet expired
    (app/http/media.py). Its master JSON is the application's to serve in every deployment (its links are signed
    here): only while the title is published, plays in that country and has its episodes in that folder, so that a
    title unpublished or blocked since stops at its next start (docs/licences.md). Its other files are served here
    only where SERVE_MEDIA is on (development); in production nginx serves them (docs/nginx-media.conf)."""
    scope = scope_of(filename)
    if scope is None:
        abort(404)
    # the viewer must be where the address was signed for, unless the page's country was chosen (development's demo)
    same_country = country == (viewer_country() or UNKNOWN_COUNTRY) or bool(current_app.config["COUNTRY_QUERY_PARAM"])
    if not valid_signature(signature, expires, content, scope, country) or not same_country:
        abort(403)
    if filename.endswith(".json"):
        preview = valid_master_mark(content, expires, request.args.get(MARK_PARAM))  # an editor's (a draft plays)
        if not plays_from(content, scope, country, preview):
            abort(404)
        path = safe_file(current_app.config["MEDIA_ROOT"], filename) or abort(404)
        prefix = signed_prefix(content, scope, country, expires)
        response = Response(sign_master(path.read_bytes(), scope, prefix), mimetype="application/json")
        response.cache_control.no_cache = True
    elif current_app.config["SERVE_MEDIA"]:
        response = _send_media(filename, public=False)
    else:
        abort(404)
    return response


def plays_from(content_id: int, scope: str, country: str, preview: bool = False) -> bool:
    """Whether the title is shown now (or this is an editor's preview, app/http/previews.py), plays in ``country``
    (its country rules: the domain was the page's to check) and has an episode in the folder ``scope``; from its
    snapshot, so no query in the common case."""
    snapshot = content_snapshot(content_id)
    if snapshot is None or not (preview or snapshot.shown()):
        return False
    viewer = Viewer(country=country if country != UNKNOWN_COUNTRY else None, domain=None, skip_domain_check=True)
    if not availability_of(snapshot.rules, viewer).available:
        return False
    return any(unsigned_scope(episode["m3u8MasterFilePath"]) == scope for episode in snapshot.episodes)


def _send_media(filename: str, public: bool) -> Response:
    # Range requests and conditional GETs are handled by send_file; playlists must not go stale.
    path = safe_file(current_app.config["MEDIA_ROOT"], filename) or abort(404)
    max_age = 0 if filename.endswith((".m3u8", ".json")) else 3600
    response = send_file(path, max_age=max_age, conditional=True)
    if not public:
        response.cache_control.private = True  # addresses of one viewer: shared caches key on what is behind them
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


def register_static(app: Flask) -> None:
    app.register_blueprint(assets_bp)
    prefix = app.config["MEDIA_URL_PATH"].rstrip("/")
    app.add_url_rule(f"{prefix}/{SIGNED}/<signature>/<int:expires>/<country>/<int:content>/<path:filename>",
                     "signed_media", serve_signed_media)
    if app.config["SERVE_MEDIA"]:
        app.add_url_rule(f"{prefix}/<path:filename>", "media", serve_media)
