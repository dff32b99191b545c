"""Error reporting in the browser (spec §1): what the browser's Sentry DSN (``SENTRY_BROWSER_DSN``) means for the
embed page. The one place that knows where the browser sends its reports.

A DSN reads ``{scheme}://{public key}@{host}[:{port}][/{path}]/{project id}``; the browser SDK posts its envelopes to
``{scheme}://{host}[:{port}][/{path}]/api/{project id}/envelope/``. The embed page's Content-Security-Policy must let
the page connect to that origin (``reporting_connect_origins``). Session replay runs without a compression worker
(static_src/reporting/sentry.ts), so error reporting needs nothing in ``worker-src``.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from app.http.origins import origin_of


@dataclass(frozen=True)
class Dsn:
    origin: str  # where the envelopes go: scheme, host and port as a browser serialises an origin
    public_key: str
    project_id: str


def parse_dsn(dsn: str) -> Dsn:
    """A Sentry DSN's parts; ValueError for anything the browser SDK would refuse (checked once at start)."""
    parts = urlsplit(dsn.strip())
    origin = origin_of(dsn)
    project_id = parts.path.rstrip("/").rsplit("/", 1)[-1]
    if origin is None or not parts.username or not project_id.isdigit() or parts.query or parts.fragment:
        raise ValueError(f"not a Sentry DSN like https://key@o1.ingest.sentry.io/123: {dsn!r}")
    return Dsn(origin=origin, public_key=parts.username, project_id=project_id)


def reporting_connect_origins(dsn: str) -> tuple[str, ...]:
    """The origins the embed page's connect-src must allow for error reporting: the DSN's ingest host, or none."""
    return (parse_dsn(dsn).origin,) if dsn.strip() else ()
