"""Rate limits (Flask-Limiter) on what can be flooded or brute-forced: anonymous writes (progress and history, the
ad pixel) and the device identities handed out. Each call counts per client address (app/http/proxies.py: behind
TRUSTED_PROXIES the forwarded one) and, where there is one, per viewer. The limits are configuration (app/config.py,
"per minute" strings), read at each request; the counters live in memory per process, or in Redis when REDIS_URL is
set (shared by every worker). A Redis that fails or hangs costs half a second and then counts in memory instead:
limits never stop the service. A limited call answers 429 with Retry-After, in the error shape.

The catalogue's expensive reads (the lists with filters, search, a type's facets, the most relevant) share one count per
address, ``limited_catalogue_read``. It is checked when the view runs, so a request the shared-response store answers
(app/http/shared.py, before any view) is not counted: only the ones that cost a query are.

A viewer's own writes about others (reviews, votes, abuse reports) are counted per viewer (the account; an anonymous
reporter's device identity), and abuse reports per address too (device identities are cheap to ask for); each
answers 429 with its own Russian message.

The authenticator's limits (sign-in, sign-up, restore, refresh: the API's and the admin's sign-in alike) are shared:
``limited_per_ip`` and ``limited_per_account`` count before the view runs, so before any password is hashed."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from flask import Response, current_app, request

from app.extensions import limiter
from app.http.proxies import client_ip
from app.http.viewer import counted_viewer_key
from app.models.accounts import MAX_EMAIL, normalise_email


def by_ip() -> str:
    return f"ip:{client_ip()}"


def by_viewer() -> str:
    """The viewer (a verified token or device identity), else the address: an unknown caller is limited as one."""
    return counted_viewer_key() or by_ip()


def configured(name: str) -> Callable[[], str]:
    """A limit read from configuration when the request comes, so that tests and operators can change it."""
    return lambda: str(current_app.config[name])


def by_account() -> str:
    """The account a sign-in, sign-up or restore names (its email), or the refresh token presented; else the
    address. Read from the body before the view: the limit comes before any hash."""
    body = request.get_json(silent=True)
    body = body if isinstance(body, dict) else {}
    email = body.get("email") or request.form.get("email")  # the API's JSON, the admin's sign-in form
    if isinstance(email, str) and email.strip():
        return "account:" + normalise_email(email)[:MAX_EMAIL]
    token = body.get("refreshToken") or request.cookies.get(current_app.config["JWT_REFRESH_COOKIE_NAME"])
    if isinstance(token, str) and token:
        return "refresh:" + hashlib.sha256(token.encode()).hexdigest()[:32]
    return by_ip()


limited_per_ip = limiter.shared_limit(configured("RATE_LIMIT_AUTH_IP"), scope="auth-ip", key_func=by_ip)
limited_per_account = limiter.shared_limit(configured("RATE_LIMIT_AUTH_ACCOUNT"), scope="auth-account",
                                           key_func=by_account)
limited_catalogue_read = limiter.shared_limit(configured("RATE_LIMIT_CATALOGUE_READS"), scope="catalogue-reads",
                                              key_func=by_ip)
limited_review_writes = limiter.shared_limit(
    configured("RATE_LIMIT_REVIEW_WRITES"), scope="review-writes", key_func=by_viewer,
    error_message="Слишком много изменений рецензий: попробуйте позже")
limited_review_votes = limiter.shared_limit(
    configured("RATE_LIMIT_REVIEW_VOTES"), scope="review-votes", key_func=by_viewer,
    error_message="Слишком много голосов подряд: попробуйте позже")
limited_abuse_reports = limiter.shared_limit(
    configured("RATE_LIMIT_ABUSE_REPORTS"), scope="abuse-reports", key_func=by_viewer,
    error_message="Слишком много жалоб: попробуйте позже")
limited_abuse_per_ip = limiter.shared_limit(
    configured("RATE_LIMIT_ABUSE_IP"), scope="abuse-ip", key_func=by_ip,
    error_message="Слишком много жалоб с этого адреса: попробуйте позже")


def retry_after_as_answered(response: Response, own: str | None) -> Response:
    """Flask-Limiter writes Retry-After on every answer of a limited call (the reset of its window, or the later of
    that and the answer's own): only a 429 means "wait until the window resets", and a 429 that named its wait
    (app/errors.py: the same seconds as its message says) keeps it. Any other answer keeps the Retry-After it gave
    (a 503's: the database back in 2 s, not in a minute), or has none."""
    if response.status_code == 429 and own is None:
        return response
    if own is None:
        response.headers.pop("Retry-After", None)
    else:
        response.headers["Retry-After"] = own
    return response
