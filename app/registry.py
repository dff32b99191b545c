"""What the factory makes once per application and the request path looks up, each behind a typed function: no caller
spells a key of ``app.extensions`` or gets ``Any`` back (as app/caching.py ``store()`` already is for the cache).
``app`` defaults to the current application; tests pass theirs."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from flask import Flask, current_app

from app.database import Breaker
from app.http.assets import Manifest

_REVOCATIONS = "revocations"
_ASSETS = "assets_manifest"
_BREAKER = "database_breaker"
_INLINE_SOURCES = "embed_inline_sources"


class RevocationList(Protocol):
    """The sessions whose access tokens no longer count (app/services/accounts/revocations.py)."""

    def add(self, session_ids: Iterable[str]) -> None: ...

    def contains(self, session_id: str) -> bool: ...


InlineSources = Callable[[], dict[str, list[str]]]


def _app(app: Flask | None) -> Flask:
    return app if app is not None else current_app._get_current_object()  # type: ignore[attr-defined]


def revocations(app: Flask | None = None) -> RevocationList:
    found: RevocationList = _app(app).extensions[_REVOCATIONS]
    return found


def assets(app: Flask | None = None) -> Manifest:
    found: Manifest = _app(app).extensions[_ASSETS]
    return found


def database_breaker(app: Flask | None = None) -> Breaker:
    found: Breaker = _app(app).extensions[_BREAKER]
    return found


def embed_inline_sources(app: Flask | None = None) -> dict[str, list[str]]:
    """The embed page's inline script and style, for its CSP's hashes (made by the player: app/player/views.py)."""
    sources: InlineSources = _app(app).extensions[_INLINE_SOURCES]
    return sources()


def register_database_breaker(app: Flask, breaker: Breaker) -> None:
    app.extensions[_BREAKER] = breaker


def register_revocations(app: Flask, revocation_list: RevocationList) -> None:
    app.extensions[_REVOCATIONS] = revocation_list


def register_assets(app: Flask, manifest: Manifest) -> None:
    app.extensions[_ASSETS] = manifest


def register_inline_sources(app: Flask, sources: InlineSources) -> None:
    app.extensions[_INLINE_SOURCES] = sources
