"""Who is watching, as far as the request tells: the viewer's country, and the key their progress is kept under.

An anonymous viewer is a device identity this service handed out (``issue_device_identity``, through
``POST /session-context``) and the player keeps in the device_fp cookie (spec §3) and sends as X-Session-Context
(spec §7): ``{fingerprint}.{random}.{signature}``. The fingerprint is the browser's hash of its device signals, as the
spec has it; the random part makes it one per browser profile, even on identical hardware; the signature (HMAC with a
key derived from SECRET_KEY) means only values this service issued count. Knowing another device's signals, or
guessing its fingerprint, gives nothing: its progress is filed under the random part ("dev:{random}"), which only its
own browser holds.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from contextlib import suppress
from functools import lru_cache
from typing import Any

from flask import current_app, request
from flask_jwt_extended import get_jwt_identity, verify_jwt_in_request
from flask_jwt_extended.exceptions import JWTExtendedException
from jwt import ExpiredSignatureError, PyJWTError

from app.http.proxies import from_trusted_proxy
from app.models.activity import MAX_VIEWER_KEY

FINGERPRINT_HEADER = "X-Session-Context"  # spec §7: every API request carries the device fingerprint
FINGERPRINT_COOKIE = "device_fp"  # spec §3
FINGERPRINT = re.compile(r"[A-Za-z0-9_-]{8,64}")  # the browser's hash of its signals (static_src/api/fingerprint.ts)
_IDENTITY = re.compile(
    r"(?P<fingerprint>[A-Za-z0-9_-]{8,64})\.(?P<device>[A-Za-z0-9_-]{22})\.(?P<signature>[A-Za-z0-9_-]{22})"
)


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
    """An API caller: "user:{identity}" for a valid access token (the bearer header, or the authToken cookie with its
    X-CSRF-TOKEN header on a write), else "dev:{device}" for a device identity this service issued
    (X-Session-Context), else None. The viewer is never guessed: a token that is there but expired, revoked or not
    ours, or a cookie write without its CSRF header, is refused (401 with its code: token_expired, token_revoked,
    invalid_token, csrf_failed; app/api/access.py), never taken for the device, so reads and writes always agree on
    whose data it is."""
    if verify_jwt_in_request(optional=True):
        key = f"user:{get_jwt_identity()}"
        if len(key) <= MAX_VIEWER_KEY:
            return key
    if request.cookies.get(current_app.config["JWT_REFRESH_COOKIE_NAME"]):
        # A signed-in browser whose authToken cookie lapsed at its expiry: it refreshes, then calls again (401
        # token_expired, as flask-jwt-extended answers an expired token: app/api/access.py).
        lapsed = ExpiredSignatureError("the access token's cookie lapsed; the refresh cookie is here")
        # what flask-jwt-extended's handler reads (it sets them on the tokens it decodes itself)
        lapsed.jwt_header, lapsed.jwt_data = {}, {}  # type: ignore[attr-defined]
        raise lapsed
    return device_key(request.headers.get(FINGERPRINT_HEADER))


def counted_viewer_key() -> str | None:
    """As ``viewer_key`` for a rate limit's key, where nothing may be refused yet: a token that does not verify
    counts as no token."""
    return _account_key() or device_key(request.headers.get(FINGERPRINT_HEADER))


def viewer_key_from_cookie() -> str | None:
    """The player page's viewer: a navigation carries cookies, not the API headers. A signed-in viewer's account (its
    authToken cookie, or, once that has lapsed, its refreshToken cookie: a read, which rotates nothing), else the
    device_fp cookie's identity."""
    cookies, config = request.cookies, current_app.config
    # flask-jwt-extended's look for a cookie that is not there costs a tenth of a millisecond: asked only if it is
    return ((config["JWT_ACCESS_COOKIE_NAME"] in cookies and _account_key(locations=["cookies"]))
            or (config["JWT_REFRESH_COOKIE_NAME"] in cookies and _account_key(locations=["cookies"], refresh=True))
            or device_key(cookies.get(FINGERPRINT_COOKIE)))


def _account_key(**verify: Any) -> str | None:
    """ "user:{identity}" for a valid, unrevoked token where ``verify`` says to look (flask-jwt-extended's
    verify_jwt_in_request), else None."""
    with suppress(JWTExtendedException, PyJWTError):
        if verify_jwt_in_request(optional=True, **verify):
            key = f"user:{get_jwt_identity()}"
            if len(key) <= MAX_VIEWER_KEY:
                return key
    return None


def issue_device_identity(fingerprint: str) -> str:
    """A new device identity for a browser whose signals hash to ``fingerprint`` (FINGERPRINT's shape)."""
    device = secrets.token_urlsafe(16)  # 128 bits, 22 characters
    return f"{fingerprint}.{device}.{_signature(fingerprint, device)}"


def device_key(value: str | None) -> str | None:
    """The progress key of a device identity this service issued, else None."""
    match = _IDENTITY.fullmatch(value or "")
    if match is None:
        return None
    expected = _signature(match["fingerprint"], match["device"])
    return f"dev:{match['device']}" if hmac.compare_digest(expected, match["signature"]) else None


def _signature(fingerprint: str, device: str) -> str:
    digest = hmac.new(_identity_key(current_app.config["SECRET_KEY"]), f"{fingerprint}.{device}".encode(),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")  # 128 bits, 22 characters


@lru_cache(maxsize=4)
def _identity_key(secret: str) -> bytes:
    """The identities' signing key, derived from SECRET_KEY (once per key, not per request)."""
    return hmac.new(secret.encode(), b"device identity", hashlib.sha256).digest()
