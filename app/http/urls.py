"""Absolute addresses this service hands out (VAST documents, their media and pixels, signed media) are built from
``PUBLIC_URL``, never from a request's Host header, which a client may set to anything. Without it (development
only) the request's own host stands in, and Flask's TRUSTED_HOSTS (app/config.py) refuses any host not listed."""

from __future__ import annotations

from urllib.parse import urljoin

from flask import current_app, request


def public_base() -> str:
    configured = current_app.config["PUBLIC_URL"]
    return configured.rstrip("/") + "/" if configured else request.host_url


def absolute_url(path: str) -> str:
    """``path`` (origin-relative, or already absolute) as an absolute address of this service."""
    return urljoin(public_base(), path)
