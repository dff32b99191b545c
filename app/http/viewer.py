"""Who is watching, as far as the request tells: the viewer's country, and the key their progress is kept under."""

from __future__ import annotations

import re
from contextlib import suppress

from flask import current_app, request
from flask_jwt_extended import get_jwt_identity, verify_jwt_in_request
from flask_jwt_extended.exceptions import JWTExtendedException
from jwt import PyJWTError

from app.http.proxies import from_trusted_proxy
from app.models.activity import MAX_VIEWER_KEY

FINGERPRINT_HEADER = "X-Session-Context"  # spec §7: every API request carries the device fingerprint
FINGERPRINT_COOKIE = "device_fp"  # spec §3
_FINGERPRINT = re.compile(r"[A-Za-z0-9_-]{8,128}")


def normalise_country(code: str | None) -> str | None:
    code = (code or "").strip().lower()
    return code if len(code) == 2 and code.isascii() and code.isalpha() else None


def viewer_country() -> str | None:
    """COUNTRY_HEADER when a trusted proxy sent the request (app/http/proxies.py), else DEFAULT_COUNTRY; in development
    the demo's override parameter first, when it is configured."""
    config = current_app.config
    param = config["COUNTRY_QUERY_PARAM"]
    override = normalise_country(request.args.get(param)) if param else None
    header = normalise_country(request.headers.get(config["COUNTRY_HEADER"])) if from_trusted_proxy() else None
    return override or header or normalise_country(config["DEFAULT_COUNTRY"])


def viewer_key() -> str | None:
    """An API caller: "user:{identity}" for a valid bearer token, else "fp:{fingerprint}" from the header, else None.

    An expired or forged token counts as no token.
    """
    with suppress(JWTExtendedException, PyJWTError):
        if verify_jwt_in_request(optional=True):
            key = f"user:{get_jwt_identity()}"
            if len(key) <= MAX_VIEWER_KEY:
                return key
    return _fingerprint_key(request.headers.get(FINGERPRINT_HEADER))


def viewer_key_from_cookie() -> str | None:
    """The player page's viewer: a navigation carries the fingerprint cookie, not the API header."""
    return _fingerprint_key(request.cookies.get(FINGERPRINT_COOKIE))


def _fingerprint_key(value: str | None) -> str | None:
    return f"fp:{value}" if value and _FINGERPRINT.fullmatch(value) else None
