"""Flask-Limiter's ``Limiter``, with two changes: when its storage (Redis) stops answering, the first look at whether
it is back comes a second after it failed, not in the same request; and its counters in memory (no Redis, or Redis
failed) start no thread per request (``SweptMemoryStorage``).

Flask-Limiter falls back to its in-memory counters when the storage fails, and then looks at the storage again on a
backing-off schedule (1, 2, 4 … seconds). That schedule starts when the limiter was made, not when the storage died.
So in a process older than a second, the request that found the storage dead looked at it again at once, and waited
for the storage's timeout twice: a black-holed Redis cost that request a second instead of half a second
(tests/test_redis_outages.py)."""

from __future__ import annotations

import threading
import time

import flask
import flask_limiter
from limits.storage import MemoryStorage

# Flask-Limiter's private names for the schedule (flask_limiter/_extension.py, 4.x: ``__last_check_backend``)
_LAST_LOOK = "_Limiter__last_check_backend"
SWEEP_SECONDS = 1.0  # how often the counters in memory are swept of the expired ones


class SweptMemoryStorage(MemoryStorage):
    """limits' counters in memory (``memory-swept://``), the expired ones swept at most once a second, by the request
    that finds a sweep due, instead of by a thread that limits' ``MemoryStorage`` starts 10 ms after a hit, and again
    after the next hit once that one has finished: under steady traffic a thread started every few requests, each
    start waiting for the new thread to run. In-process at 100,000 titles, a suggestion (one limit counted) took
    0.2–0.3 ms more at the p95 with those threads (docs/search.md "Suggestions"); a limited search from memory, 8
    clients on gunicorn, answered 7 % more requests a second without them (docs/operations.md). A sweep only frees
    memory: a counter past its expiry already reads as none (``get``), and a moving window already counts only its
    entries in time. It takes 1 ms at 10,000 counters and 21 ms at 100,000 (a flood from as many addresses), once a
    second, where limits' own thread would run it every 10 ms or so."""

    STORAGE_SCHEME = ["memory-swept"]  # noqa: RUF012  # limits registers a storage by this list, as its own do

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: str) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self._next_sweep = time.monotonic() + SWEEP_SECONDS
        self._sweeping = threading.Lock()

    def _MemoryStorage__schedule_expiry(self) -> None:  # limits' own (private) name: called before each hit
        if time.monotonic() < self._next_sweep or not self._sweeping.acquire(blocking=False):
            return
        try:
            self._next_sweep = time.monotonic() + SWEEP_SECONDS
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]  # limits' sweep, as its thread runs it
        except KeyError:  # a counter another request dropped meanwhile (``get`` drops an expired one) ends this
            pass  # sweep: the next one, a second later, takes the rest
        finally:
            self._sweeping.release()


class Limiter(flask_limiter.Limiter):
    def init_app(self, app: flask.Flask) -> None:
        super().init_app(app)
        if self._fallback_limiter is not None:  # Flask-Limiter's counters while Redis fails: limits' MemoryStorage
            self._fallback_storage = SweptMemoryStorage()
            self._fallback_limiter = type(self._fallback_limiter)(self._fallback_storage)

    @property
    def _storage_dead(self) -> bool:
        return bool(self.__dict__.get("_dead", False))

    @_storage_dead.setter
    def _storage_dead(self, dead: bool) -> None:
        if dead and not self.__dict__.get("_dead", False):
            setattr(self, _LAST_LOOK, time.time())  # the next look a second from now, as for every later one
        self.__dict__["_dead"] = dead
