"""The page that embeds the player (spec §7): its origin, where the player's messages go and whose commands it takes.

The server decides it, once per page view: the ``origin`` query parameter (``/lib.js`` sets it to the publisher's
``location.origin``) when it is in the publisher allow-list (``PUBLISHER_ORIGINS``), otherwise the origin of the
``Referer`` the browser sent with the frame's request. A claimed origin that is not on the list is ignored, never
trusted: the browser, not the query, knows who embeds us. The player page hands the result to the browser as
``config.parentOrigin`` (static_src/embed/bridge.ts).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache
from urllib.parse import urlsplit

from flask import request

_DEFAULT_PORTS = {"http": 80, "https": 443}
_HOST = re.compile(r"[a-z0-9_-]+(?:\.[a-z0-9_-]+)*")  # lower case already (urlsplit); IDNs arrive as punycode
_IPV6 = re.compile(r"[0-9a-f:.]*:[0-9a-f:.]*")


def origin_of(url: str | None) -> str | None:
    """The origin of an http(s) address as browsers serialise it (``event.origin``, ``location.origin``): scheme and
    host in lower case, the port only when it is not the scheme's default. None for anything else (``data:``, an
    opaque ``null``, a host with non-ASCII letters, which browsers send as punycode, a bad port)."""
    text = (url or "").strip()
    if not text:
        return None
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = parts.hostname or ""
    if scheme not in _DEFAULT_PORTS or not (_HOST.fullmatch(host) or _IPV6.fullmatch(host)):
        return None
    if ":" in host:
        host = f"[{host}]"
    suffix = f":{port}" if port is not None and port != _DEFAULT_PORTS[scheme] else ""
    return f"{scheme}://{host}{suffix}"


@lru_cache(maxsize=8)
def parse_origin_list(raw: str, name: str = "PUBLISHER_ORIGINS") -> tuple[str, ...]:
    """``PUBLISHER_ORIGINS`` (and the other lists of origins): origins separated by commas or spaces
    (``https://a.example, https://b.example:8443``), normalised as ``origin_of`` does. Raises ValueError for an entry
    that is not a bare http(s) origin (a path, a wildcard, a typo): the list is checked once at start
    (app/config.py)."""
    origins: list[str] = []
    for entry in re.split(r"[,\s]+", raw):
        entry = entry.strip()
        if not entry:
            continue
        origin = origin_of(entry)
        if origin is None or urlsplit(entry).path not in ("", "/") or urlsplit(entry).query or "#" in entry:
            raise ValueError(f"{name}: {entry!r} is not an http(s) origin like https://site.example")
        if origin not in origins:
            origins.append(origin)
    return tuple(origins)


def parent_origin(origin_param: str | None, allowed: Collection[str]) -> str | None:
    """The embedding page's origin as the server knows it: the ``origin`` parameter when it is allow-listed, else None
    (then the player asks the browser: static_src/embed/bridge.ts). Never the Referer: the page would then differ per
    embedding site, and no shared cache could keep it."""
    claimed = origin_of(origin_param)
    return claimed if claimed is not None and claimed in allowed else None


def domain_of(address: str | None) -> str | None:
    """The host of a page address (``https://Site.example/film?id=1`` → ``site.example``) or of a bare host."""
    address = (address or "").strip()
    if not address:
        return None
    if "//" not in address:
        address = "//" + address
    try:
        host = urlsplit(address).hostname
    except ValueError:
        return None
    host = (host or "").rstrip(".")
    return host or None


def framed_navigation() -> bool:
    """Whether the browser says this page is being loaded into a frame (Fetch Metadata: Sec-Fetch-Dest: iframe, sent
    by every current browser). Only then does its Referer name a page that embeds us."""
    return request.headers.get("Sec-Fetch-Dest", "").lower() == "iframe"
