"""Tokens on the wire (flask-jwt-extended): encoding a grant as an access and a refresh JWT, spec §3's cookies, and
the caller a verified token names (who may call what: app/api/access.py).

* The access token (``authToken``) names the account (``sub``), its role and its session (``sid``); it expires after
  ACCESS_TOKEN_MINUTES and its cookie with it (spec §3). It is readable by the player's script, which sends it as a
  bearer header (spec §4); a call that authenticates by the cookie instead must carry the double-submit CSRF header
  (``X-CSRF-TOKEN`` = the ``csrf_access_token`` cookie).
* The refresh token (``refreshToken``, HttpOnly) is a JWT whose ``jti`` is its row (app/models/accounts.py); its claims
  come from the row, so the same row always encodes to the same string (a second use within the grace window gets
  the same pair).
* Cookies are ``Secure; SameSite=None`` when the service is reached over https (the player lives in publishers'
  frames), ``SameSite=Lax`` in plain-http development, where a browser refuses ``None`` without ``Secure``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from flask import current_app, request
from flask_jwt_extended import create_access_token, create_refresh_token, get_csrf_token, get_jwt
from werkzeug.wrappers import Response

from app.clock import now, now_to_the_second
from app.models import RefreshToken


class GrantLike(Protocol):
    @property
    def account_id(self) -> int: ...
    @property
    def role(self) -> str: ...
    @property
    def session_id(self) -> str: ...
    @property
    def refresh(self) -> RefreshToken: ...


def encode_grant(grant: GrantLike) -> tuple[str, str, datetime]:
    """(access token, refresh token, the access token's expiry)."""
    moment = now_to_the_second()
    expires = moment + current_app.config["JWT_ACCESS_TOKEN_EXPIRES"]
    identity = str(grant.account_id)
    access = create_access_token(identity, additional_claims={"role": grant.role, "sid": grant.session_id,
                                                              "iat": moment, "nbf": moment, "exp": expires})
    row = grant.refresh
    issued, refresh_expires = row.issued_at, row.expires_at
    refresh = create_refresh_token(identity, additional_claims={
        "jti": row.id, "sid": grant.session_id, "csrf": row.csrf, "iat": issued, "nbf": issued, "exp": refresh_expires,
    })
    return access, refresh, expires


def set_token_cookies(response: Response, access: str, expires: datetime, refresh: str) -> None:
    secure = _https()
    same_site = "None" if secure else "Lax"
    access_age = max(0, int((expires - now()).total_seconds()))
    refresh_age = int(current_app.config["JWT_REFRESH_TOKEN_EXPIRES"].total_seconds())
    config = current_app.config
    refresh_expires = now() + config["JWT_REFRESH_TOKEN_EXPIRES"]
    cookies = (  # the auth cookie expires at the access token's exp (spec §3)
        (config["JWT_ACCESS_COOKIE_NAME"], access, access_age, expires, False),  # spec §4: the player reads it
        ("csrf_access_token", get_csrf_token(access), access_age, expires, False),
        (config["JWT_REFRESH_COOKIE_NAME"], refresh, refresh_age, refresh_expires, True),
        ("csrf_refresh_token", get_csrf_token(refresh), refresh_age, refresh_expires, False),
    )
    for name, value, max_age, until, http_only in cookies:
        response.set_cookie(name, value, max_age=max_age, expires=until, path="/", secure=secure,
                            httponly=http_only, samesite=same_site)


def current_account_id() -> int:
    """The account of the verified token (call after ``require_role``)."""
    return int(get_jwt()["sub"])


def current_session_id() -> str:
    return str(get_jwt()["sid"])


def _https() -> bool:
    public = current_app.config["PUBLIC_URL"]
    return public.startswith("https://") if public else request.scheme == "https"
