"""The revocation list: the sessions whose access tokens no longer count, looked up on every authenticated request
by every worker, so that a revocation (a password change or reset, a block, a replayed refresh token) takes effect
on the very next request.

* Without Redis: the database's ``auth_sessions.revoked_at``, one primary-key lookup per request.
* With ``REDIS_URL``: a key per revoked session, kept as long as an access token naming it can live, so that a request
  costs one Redis round trip and no database query. The database stays the record: a revocation is written there
  first; when Redis fails (half a second at most) a worker asks the database instead, for ``retry_after`` seconds.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from redis import Redis
from redis.exceptions import RedisError

from app.database import Breaker
from app.services.accounts.sessions import session_revoked


class DatabaseRevocations:
    def add(self, session_ids: Iterable[str]) -> None:
        """Nothing more to do: the database holds it (services/accounts/sessions.py wrote it)."""

    def contains(self, session_id: str) -> bool:
        return session_revoked(session_id)


class RedisRevocations(DatabaseRevocations):
    def __init__(self, url: str, prefix: str, lifetime_seconds: int, retry_after: float,
                 log: logging.Logger) -> None:
        self._redis = Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        self._prefix = f"{prefix}:revoked-session:"
        self._lifetime = lifetime_seconds
        self._breaker = Breaker(retry_after)
        self._log = log

    def add(self, session_ids: Iterable[str]) -> None:
        try:
            pipeline = self._redis.pipeline(transaction=False)
            for session_id in session_ids:
                pipeline.set(self._prefix + session_id, b"1", ex=self._lifetime)
            pipeline.execute()
        except RedisError as error:
            self._failed(error)

    def contains(self, session_id: str) -> bool:
        if not self._breaker.open:
            try:
                return bool(self._redis.exists(self._prefix + session_id))
            except RedisError as error:
                self._failed(error)
        return session_revoked(session_id)

    def _failed(self, error: RedisError) -> None:
        if not self._breaker.open:
            self._log.warning("the revocation list (Redis) failed (%s: %s); the database answers for %s s",
                              type(error).__name__, error, self._breaker.seconds)
        self._breaker.trip()
