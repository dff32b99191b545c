"""The application exactly as bin/start serves it, plus the benchmark's two baseline pages on the same server.

``gunicorn tests.bench.wsgi:app`` (tests/bench/run.py starts it). The baselines go through the same Flask app, the
same compression (app/extensions.py) and the same gunicorn, so any difference to the player is the player's:

* ``/bench/static``: a static HTML page with a visible heading, padded to the player page's byte size, no
  stylesheet, no script: the floor for first contentful paint. The padding is the player page's own HTML in a
  comment, so the compressed sizes are alike too.
* ``/bench/hls?src=…``: a bare ``<video muted autoplay playsinline>`` and hls.js (its UMD build from node_modules,
  served like a built asset: compressed once, immutable) playing ``src``: the floor for the first video frame.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
import threading
from html import escape

import brotli
from flask import Blueprint, Flask, Response, abort, current_app, request

from app import create_app
from app.config import PROJECT_ROOT

PLAYER_PATH = "/?movie_id=1&auto_play=1"
HLS_DIST = PROJECT_ROOT / "node_modules" / "hls.js" / "dist"
ONE_YEAR = 31_536_000

bp = Blueprint("bench", __name__, url_prefix="/bench")
_player_pages: dict[str, bytes] = {}
_lock = threading.Lock()


def player_page(path: str) -> bytes:
    """The player page's HTML as a client without compression gets it; rendered once per process."""
    with _lock:
        if path not in _player_pages:
            response = current_app.test_client().get(path)
            if response.status_code != 200:
                abort(502, f"the player page {path} answered {response.status_code}")
            _player_pages[path] = response.get_data()
        return _player_pages[path]


def title_of(html: bytes) -> str:
    match = re.search(rb'<script id="player-context" type="application/json">(.*?)</script>', html, re.S)
    try:
        return str(json.loads(match.group(1))["content"]["title"]) if match else "Плеер"
    except (ValueError, KeyError, TypeError):
        return "Плеер"


STATIC_HEAD = """<!doctype html>
<html lang="ru">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
  <meta name="robots" content="noindex">
  <title>{title}</title>
</head>
<body style="margin:0;background:#000;color:#fff;font-family:system-ui,sans-serif">
<main style="position:relative;height:100vh">
  <h1 style="position:absolute;left:24px;bottom:24px;margin:0;font-size:28px">{title}</h1>
</main>
<!--
"""
STATIC_TAIL = "\n-->\n</body>\n</html>\n"


@bp.get("/static")
def static_page() -> Response:
    """As many bytes as the player page (``?of=`` another player URL), a heading, nothing to fetch."""
    html = player_page(request.args.get("of", PLAYER_PATH))
    head = STATIC_HEAD.format(title=escape(title_of(html))).encode()
    tail = STATIC_TAIL.encode()
    padding = html.replace(b"--", b"- ")  # nothing in it may close the comment
    if len(head) + len(tail) > len(html):
        abort(500, "the player page is smaller than the static page's frame")
    padding *= len(html) // max(len(padding), 1) + 1
    response = Response(_exact(head, padding, tail, len(html)), mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    return response


def _exact(head: bytes, padding: bytes, tail: bytes, size: int) -> bytes:
    """head + padding + tail, exactly ``size`` bytes and valid UTF-8 (a multi-byte character is never cut)."""
    room = size - len(head) - len(tail)
    text = padding.decode("utf-8", errors="ignore")
    out = bytearray()
    for char in text:
        encoded = char.encode()
        if len(out) + len(encoded) > room:
            break
        out += encoded
    out += b" " * (room - len(out))
    return head + bytes(out) + tail


HLS_PAGE = """<!doctype html>
<html lang="ru">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>hls.js baseline</title>
  <style>html,body{{margin:0;height:100%;background:#000}}video{{display:block;width:100%;height:100%}}</style>
</head>
<body>
<video muted autoplay playsinline></video>
<script src="{hls_js}"></script>
<script>
  var video = document.querySelector("video");
  var src = {src};
  if (window.Hls && Hls.isSupported()) {{
    var hls = new Hls();
    hls.loadSource(src);
    hls.attachMedia(video);
  }} else {{
    video.src = src;
  }}
</script>
</body>
</html>
"""


@bp.get("/hls")
def hls_page() -> Response:
    src = request.args.get("src", "")
    if not src.startswith("/"):
        abort(400, "src must be a path on this server, e.g. /media/titles/film-long/master.m3u8")
    src_js = json.dumps(src).replace("</", "<\\/")
    response = Response(HLS_PAGE.format(src=src_js, hls_js="/bench/vendor/hls.min.js"), mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    return response


@functools.cache
def _hls_min_js(encoding: str) -> bytes:
    """hls.min.js as the player's own assets are served: precompressed once at the highest level (brotli 11)."""
    data = (HLS_DIST / "hls.min.js").read_bytes()
    if encoding == "br":
        return brotli.compress(data, quality=11)
    if encoding == "gzip":
        return gzip.compress(data, 9, mtime=0)
    return data


@bp.get("/vendor/hls.min.js")
def hls_js() -> Response:
    encoding = next((e for e in ("br", "gzip") if request.accept_encodings[e]), "identity")
    response = Response(_hls_min_js(encoding), mimetype="text/javascript")
    if encoding != "identity":
        response.content_encoding = encoding  # Flask-Compress leaves an encoded body alone
    response.vary.add("Accept-Encoding")
    response.cache_control.max_age = ONE_YEAR
    response.cache_control.public = True
    response.cache_control.immutable = True
    return response


def create_bench_app() -> Flask:
    bench_app = create_app()
    bench_app.register_blueprint(bp)
    return bench_app


app = create_bench_app()
