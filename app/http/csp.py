"""Security headers: the embed page's Content-Security-Policy, and the refusal to be framed everywhere else.

The player page (and its server-rendered error screens) runs under a policy without 'unsafe-eval' and without
'unsafe-inline': its one inline script and inline style are allowed by their SHA-256 (the same for every response of
a build, so that a cache may keep the page for everyone); everything else it runs comes from this origin (or the
configured assets/API origin). What it fetches:

* media: this origin (``MEDIA_URL_PATH``), ``blob:`` for Media Source Extensions, and ad creatives from any host;
* connect: the master JSON, HLS playlists and segments (hls.js fetches them), the API, the ad list, VAST documents
  and tracking pixels (keepalive GETs) from any host, and error reporting's ingest host;
* workers: hls.js's transmuxing worker, a file under the assets path (``workerPath``; no ``blob:`` worker: the
  browser error reporting's session replay is built without its inline compression worker, static_src/build.mjs);
* scripts: the entry, its chunks and the audio worklet ``/processing/down-mix-processor.js`` (worklets follow
  script-src).

"Any host" means ``https:``; ``http:`` too only when ``allow_http`` (development, or ``PLAYER_CSP_ALLOW_HTTP``).

The admin's pages (Flask-Admin under ``/admin/``) run under a policy of their own, ``ADMIN_POLICY``: scripts from this
origin only (Flask-Admin's files and the admin's own, app/admin/static/), no inline script and no inline handler (the
Flask-Admin templates that had them are overridden in templates/admin/, their handlers done by the admin's script);
styles from this origin, with inline style attributes allowed (Flask-Admin's date pickers and select2 write them;
a nonce would switch that off), images from this origin and ``data:`` (Bootstrap's own icons), fonts and fetches
(select2's lookups) from this origin, forms sent to this origin only, no plugin, no ``<base>``, no framing.

Framing (``frame-ancestors``): the embed may be framed by this origin (the demo publisher page) and by the publisher
allow-list when one is configured, otherwise by any http(s) site: publishers embed us, and a licence that names its
sites is enforced by the per-content domain rules (app/services/player/availability.py). Every other response refuses
framing outright: ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY`` for browsers without CSP level 2.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Sequence
from functools import lru_cache
from urllib.parse import urlsplit

from app.http.origins import origin_of

REFUSE_FRAMING = {
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
}
ADMIN_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))


def _sources(*groups: Iterable[str]) -> str:
    seen: list[str] = []
    for group in groups:
        for source in group:
            if source and source not in seen:
                seen.append(source)
    return " ".join(seen)


def origins_of(urls: Iterable[str]) -> list[str]:
    """The origins of the absolute http(s) addresses among ``urls`` (relative ones are this origin: 'self')."""
    return [origin for origin in (origin_of(url) for url in urls) if origin]


def licensed_ancestors(domains: Sequence[str], publisher_origins: Sequence[str]) -> list[str]:
    """Who may frame a content licensed to ``domains``: the listed publishers on those domains, or without a list any
    page on them (scheme as the player's own, any port)."""
    def on_domains(origin: str) -> bool:
        host = (urlsplit(origin).hostname or "").lower()
        return any(host == domain or host.endswith("." + domain) for domain in domains)

    if publisher_origins:
        return [origin for origin in publisher_origins if on_domains(origin)]
    return [source for domain in domains for source in (f"{domain}:*", f"*.{domain}:*")]


@lru_cache(maxsize=16)
def source_hash(text: str) -> str:
    """The CSP source that allows an inline element with exactly this text."""
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


def embed_policy(
    *,
    inline_scripts: Sequence[str] = (),
    inline_styles: Sequence[str] = (),
    publisher_origins: Sequence[str] = (),
    allow_http: bool = False,
    own_urls: Iterable[str] = (),
    extra_connect: Iterable[str] = (),
    licensed_domains: Sequence[str] = (),
) -> str:
    """The Content-Security-Policy of the embed page.

    ``licensed_domains``: the domains the content on the page is licensed to be embedded on (its allowed domains):
    then only pages there may frame it (those of ``publisher_origins`` there, when an allow-list is configured), so a
    browser refuses the player anywhere else whatever the page claims.
    ``own_urls``: the configured addresses the player's own code and API live at (``WIDGET_ASSETS_PATH``,
    ``PLAYER_BASE_URL``), which may name another origin (a CDN); ``extra_connect``: more addresses the page talks to
    (the ad list's, the browser error reporting's ingest host), reduced to their origins.
    """
    own = origins_of(own_urls)
    remote = ["https:", "http:"] if allow_http else ["https:"]
    ancestors = list(publisher_origins) if publisher_origins else ["http:", "https:"]
    if licensed_domains:
        ancestors = licensed_ancestors(licensed_domains, publisher_origins)
    directives = {
        "default-src": "'none'",
        "script-src": _sources(["'self'"], map(source_hash, inline_scripts), own),
        "style-src": _sources(["'self'"], map(source_hash, inline_styles), own),
        "img-src": _sources(["'self'", "data:", "blob:"], own, remote),
        "media-src": _sources(["'self'", "blob:"], own, remote),
        "connect-src": _sources(["'self'"], own, remote, origins_of(extra_connect)),
        "worker-src": _sources(["'self'"], own),
        "base-uri": "'none'",
        "form-action": "'none'",
        "frame-ancestors": _sources(["'self'"], ancestors),
    }
    return "; ".join(f"{name} {value}" for name, value in directives.items())
