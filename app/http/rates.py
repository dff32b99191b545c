"""Rate limits (Flask-Limiter) on what can be flooded or brute-forced: anonymous writes (progress and history, the
ad pixel) and the device identities handed out. Each call counts per client address (app/http/proxies.py: behind
TRUSTED_PROXIES the forwarded one) and, where there is one, per viewer. The limits are configuration (app/config.py,
"per minute" strings), read at each request; the counters live in memory per process, or in Redis when REDIS_URL is
set (shared by every worker). A Redis that fails or hangs costs half a second and then counts in memory instead:
limits never stop the service. A limited call answers 429 with Retry-After, in the error shape."""

from __future__ import annotations

from collections.abc import Callable

from flask import current_app

from app.http.proxies import client_ip
from app.http.viewer import viewer_key


def by_ip() -> str:
    return f"ip:{client_ip()}"


def by_viewer() -> str:
    """The viewer (a verified token or device identity), else the address: an unknown caller is limited as one."""
    return viewer_key() or by_ip()


def configured(name: str) -> Callable[[], str]:
    """A limit read from configuration when the request comes, so that tests and operators can change it."""
    return lambda: str(current_app.config[name])
