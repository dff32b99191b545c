"""Response compression: Flask-Compress with the rules this service needs on top of its defaults."""

from __future__ import annotations

from flask import Flask, current_app
from flask.wrappers import Response
from flask_compress import Compress

# Text only: the page, scripts, styles, JSON (API, master JSON, source maps), subtitles, playlists, SVG. Never video,
# audio or segments (already compressed; and the browser reads them with Range requests).
COMPRESSIBLE_TYPES = [
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "text/vtt",
    "application/vnd.apple.mpegurl",
    "image/svg+xml",
]
COMPRESSION_DEFAULTS: dict[str, object] = {
    "COMPRESS_MIMETYPES": COMPRESSIBLE_TYPES,
    "COMPRESS_ALGORITHM": ["br", "gzip"],  # brotli when the client accepts it, else gzip; never zstd or deflate
    "COMPRESS_BR_LEVEL": 5,  # per-request responses (the page, the API): fast, ~5 % above quality 11
    "COMPRESS_LEVEL": 6,  # gzip, per request
    "COMPRESS_STREAMS": False,  # true streams are left alone; files are buffered first (below)
}


class TextCompress(Compress):
    """Flask-Compress with the rules this service needs on top of its defaults.

    * Only ``COMPRESSIBLE_TYPES``; any other response passes untouched (not even ``Vary``).
    * Never a partial response (206, or anything with ``Content-Range``): a range of the identity bytes must not
      be re-encoded, and a compressed body does not advertise ``Accept-Ranges``. A body already encoded (the built
      assets' .br/.gz siblings, written at the highest levels by static_src/build.mjs and served by
      app/player/static.py) passes through untouched: no request ever waits for brotli 11.
    * Files (``send_file``: playlists, master JSON, subtitles, source maps) are streamed by Werkzeug; Flask-Compress
      would then take its streaming path, which has no gzip and no conditional check. They are read into memory
      first (all are small text), so compressed responses keep a strong ETag with the algorithm appended
      (``"…:br"``) and an ``If-None-Match`` with it answers 304.
    """

    def init_app(self, app: Flask) -> None:
        for key, value in COMPRESSION_DEFAULTS.items():
            app.config.setdefault(key, value)
        super().init_app(app)

    def after_request(self, response: Response | None) -> Response:
        if response is None or response.mimetype not in current_app.config["COMPRESS_MIMETYPES"]:
            return response  # type: ignore[return-value]  # Compress turns None into a 204; Flask never passes one
        if response.status_code == 206 or "Content-Range" in response.headers or "Content-Encoding" in response.headers:
            _vary_on_encoding(response)  # a range, or a body encoded already (a pre-compressed asset): left alone
            return response
        if response.direct_passthrough and response.status_code == 200:  # a file from send_file
            response.direct_passthrough = False
            response.make_sequence()  # reads the file; closed when the response is
        compressed = super().after_request(response)
        if "Content-Encoding" in compressed.headers:
            compressed.headers.pop("Accept-Ranges", None)
        return compressed


def _vary_on_encoding(response: Response) -> None:
    vary = response.headers.get("Vary")
    if not vary:
        response.headers["Vary"] = "Accept-Encoding"
    elif "accept-encoding" not in vary.lower():
        response.headers["Vary"] = f"{vary}, Accept-Encoding"

