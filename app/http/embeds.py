"""Embed addresses signed by the publisher's own server, for a publisher that opts in (``PUBLISHER_EMBED_KEYS``).

A title licensed to named sites is judged on the page the browser names for the frame it loads the player into
(``Sec-Fetch-Dest: iframe`` and its ``Referer``): a browser cannot be made to lie about either, but a script that
forges both headers can. A publisher that holds a key shares it with this service and signs each iframe address its
own server writes:

    embed_exp = a Unix time, at most EMBED_MAX_SECONDS away
    embed_sig = base64url(HMAC-SHA256(key, "{movie_id}:{embed_exp}")), without padding

and its domain's frames of such a title play only with a valid, unexpired signature for that title: a forged Referer
naming the publisher then needs a signature only the publisher's server makes, for one title, for a while
(docs/embed.md shows the three lines a publisher's server needs). Pages of titles without domain rules are shared by
everyone and need none.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Mapping

from flask import current_app

from app import clock
from app.http.origins import domain_of

EMBED_MAX_SECONDS = 7 * 86_400  # a signed address a publisher's page may carry (a week: pages are cached too)
MIN_KEY_BYTES = 32
_DOMAIN = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$")


def parse_publisher_keys(raw: str) -> dict[str, str]:
    """``PUBLISHER_EMBED_KEYS``: comma-separated ``domain=key`` pairs. Raises ValueError for an entry that is not a
    lower-case domain with a key of at least 32 bytes (checked once at start, app/config.py)."""
    keys: dict[str, str] = {}
    for entry in raw.split(","):
        entry = entry.strip()
        if not entry:
            continue
        domain, _, key = entry.partition("=")
        domain = domain.strip()
        key = key.strip()
        if not _DOMAIN.fullmatch(domain):
            raise ValueError(f"PUBLISHER_EMBED_KEYS: {domain!r} is not a domain like partner.example")
        if len(key.encode()) < MIN_KEY_BYTES:
            raise ValueError(f"PUBLISHER_EMBED_KEYS: the key of {domain} must have at least {MIN_KEY_BYTES} bytes")
        keys[domain] = key
    return keys


def embed_signature(key: str, movie_id: int, expires: int) -> str:
    digest = hmac.new(key.encode(), f"{movie_id}:{expires}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def signing_key(domain: str | None, keys: Mapping[str, str]) -> str | None:
    """The key of the publisher whose domain (or a parent domain of it) frames the page, if it signs its embeds."""
    host = domain_of(domain)
    while host:
        if host in keys:
            return keys[host]
        host = host.partition(".")[2]
    return None


def embed_refused(domain: str | None, movie_id: int, expires: str | None, given: str | None) -> bool:
    """Whether a page framed on ``domain`` must be refused: its publisher signs its embeds, and this address carries no
    valid, unexpired signature for ``movie_id``."""
    key = signing_key(domain, parse_publisher_keys(current_app.config["PUBLISHER_EMBED_KEYS"]))
    if key is None:
        return False
    if not expires or not expires.isdigit() or not given or len(expires) > 12:
        return True
    moment = int(expires)
    now = clock.now().timestamp()
    if not now <= moment <= now + EMBED_MAX_SECONDS:
        return True
    return not hmac.compare_digest(given, embed_signature(key, movie_id, moment))
