"""Flask-Limiter's ``Limiter``, with one change: when its storage (Redis) stops answering, the first look at whether
it is back comes a second after it failed, not in the same request.

Flask-Limiter falls back to its in-memory counters when the storage fails, and then looks at the storage again on a
backing-off schedule (1, 2, 4 … seconds). That schedule starts when the limiter was made, not when the storage died.
So in a process older than a second, the request that found the storage dead looked at it again at once, and waited
for the storage's timeout twice: a black-holed Redis cost that request a second instead of half a second
(tests/test_redis_outages.py)."""

from __future__ import annotations

import time

import flask_limiter

# Flask-Limiter's private names for the schedule (flask_limiter/_extension.py, 4.x: ``__last_check_backend``)
_LAST_LOOK = "_Limiter__last_check_backend"


class Limiter(flask_limiter.Limiter):
    @property
    def _storage_dead(self) -> bool:
        return bool(self.__dict__.get("_dead", False))

    @_storage_dead.setter
    def _storage_dead(self, dead: bool) -> None:
        if dead and not self.__dict__.get("_dead", False):
            setattr(self, _LAST_LOOK, time.time())  # the next look a second from now, as for every later one
        self.__dict__["_dead"] = dead
