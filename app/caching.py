"""The cache as the service uses it: Flask-Caching's (Redis with ``REDIS_URL``, else in-process), never a reason to
fail or to wait.

* Redis's client waits half a second at most (``CACHE_OPTIONS``, app/config.py); a failure opens a short breaker
  during which this process uses its own in-process cache instead (and says so in the log, once), then Redis is tried
  again: the service keeps answering with Redis gone or black-holed, only less of it is shared between workers.
* Hot entries (shared responses, snapshots) are read "near": this process keeps its own copy a few seconds, so that
  most requests cost no round trip to Redis.
* The catalogue's generation: every key of what is derived from the catalogue (shared responses, snapshots) carries
  it, so a change made through the service (the demo seeder, the admin) bumps it and every such entry is unreachable
  at once, in every process within ``GENERATION_MEMO`` seconds (at once in the process that made the change). A
  publishing boundary passing (a title scheduled to show or to go) moves it as well: the generation is at least the
  latest boundary passed (``_schedule``).
* Named caches (``NAMED_CACHES``: what ``GET /caches`` lists and ``DELETE /caches/{name}`` clears): each name's keys
  start with it and carry its own epoch beside the generation (``key()``), so that clearing one bumps its epoch (its
  entries are unreachable in every process, as for the generation) and then deletes its keys to free the memory.
* Single flight (``kept_or_claim``/``settle``): when a hot entry is missing (expired, cleared, a new generation), one
  request makes it and the others asking for it meanwhile wait for that one (``FLIGHT_WAIT`` seconds at most, then
  they make it themselves: never a hang): in this process on an event, across processes on a Redis lock.

Without Redis every process has its own cache, and the counters (the generation, the epochs) are kept in the
database (app/models/counters.py), read like Redis's: a change or a clear made in one process makes every process's
entries unreachable within ``GENERATION_MEMO`` seconds, and the others' memory is freed as their entries expire.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any, TypeVar, cast

from cachelib import SimpleCache
from flask import Flask, current_app, has_app_context, has_request_context
from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from app import clock
from app.database import Breaker

T = TypeVar("T")
GENERATION_KEY = "catalogue:generation"
GENERATION_MEMO = 1.0  # seconds a process trusts the generation it last read
NEAR_SECONDS = 5  # how long a process keeps its own copy of a hot entry it read from Redis ("near" reads)
FLIGHT_WAIT = 3.0  # seconds a request waits for another making the entry it needs, before it makes it itself
FLIGHT_POLL = 0.01  # seconds between looks at Redis while another process makes it
COUNT_LIMIT = 1_000_000  # keys a size counts at most (then it says it is a lower bound)
NAMED_CACHES = {
    "responses": "Общие ответы: анонимные чтения каталога и страницы плеера, как они были отправлены",
    "snapshots": "Снимки тайтлов: контент с сезонами, сериями и правилами доступности для страницы и чтений API",
}


@dataclass(frozen=True)
class CacheSize:
    name: str
    description: str
    entries: int  # stored, stale ones waiting to expire included
    exact: bool  # False: at least this many (counting stopped at COUNT_LIMIT)
    where: str  # "redis", or "process" (this process's own: no Redis, or Redis failing)


PRUNED_TO = 0.9  # a full process cache drops to this share of its threshold at once (``ProcessCache``)


class ProcessCache(SimpleCache):
    """cachelib's SimpleCache, pruned a tenth at a time. Past its threshold, SimpleCache sorts every entry by expiry on
    each write to drop one: at 2,000 entries that is half a millisecond on every uncached answer of a worker without
    Redis (1.0 → 1.5 ms in the process, a suggestion). Here a full cache drops its expired entries, then the oldest
    written, down to PRUNED_TO of its threshold: a pass over the entries once in a couple of hundred writes. An entry
    without expiry (0: the counters) is not taken for an expired one."""

    def _prune(self) -> None:
        if not self._over_threshold():
            return
        now = time.time()
        for key in [key for key, (expires, _) in self._cache.items() if 0 < expires < now]:
            del self._cache[key]
        for key in list(islice(self._cache, max(len(self._cache) - int(self._threshold * PRUNED_TO), 0))):
            del self._cache[key]


class ResilientCache:
    """``get``/``set``/``delete`` over the configured cache, falling back to an in-process one while it fails."""

    def __init__(self, app: Flask) -> None:
        from app.extensions import cache

        self._shared = app.extensions["cache"][cache]  # the backend Flask-Caching made (after cache.init_app)
        self._log = app.logger
        self._local = ProcessCache(threshold=2000, default_timeout=300)
        self._near = ProcessCache(threshold=500, default_timeout=NEAR_SECONDS)
        self._remote = app.config["CACHE_TYPE"] != "SimpleCache"
        self._breaker = Breaker(float(app.config["CACHE_RETRY_AFTER"]))
        self._counters: dict[str, tuple[float, int]] = {}  # key → (when this process read it, its value)
        self._schedule_memo: tuple[float, int, Any] = (0.0, 0, None)  # (read when, last boundary, next boundary)
        self._flights: dict[str, threading.Event] = {}
        self._lock = threading.Lock()
        self._per_generation: dict[str, tuple[int, Any]] = {}  # name → (the generation it was made at, the value)

    def _call(self, method: str, *args: Any) -> Any:
        if self._remote and not self._breaker.open:
            try:
                return getattr(self._shared, method)(*args)
            except Exception as error:
                if not self._breaker.open:
                    self._log.warning("the cache (Redis) failed (%s: %s); this process uses its own cache for %s s",
                                type(error).__name__, error, self._breaker.seconds)
                self._breaker.trip()
        return getattr(self._local, method)(*args)

    @property
    def failing(self) -> bool:
        """Whether this process uses its own cache now, Redis having failed a moment ago."""
        return self._remote and self._breaker.open

    def get(self, key: str, near: bool = False) -> Any:
        """``near``: the entry may be this process's own copy, up to ``NEAR_SECONDS`` old, of what Redis holds (for
        entries keyed under the catalogue's generation: a change still shows within the generation's memo, plus
        this). A hot page then costs no round trip to Redis."""
        if near and self._remote:
            value = self._near.get(key)
            if value is not None:
                return value
            value = self._call("get", key)
            if value is not None:
                self._near.set(key, value, NEAR_SECONDS)
            return value
        return self._call("get", key)

    def set(self, key: str, value: Any, timeout: int) -> None:
        self._call("set", key, value, timeout)

    def delete(self, key: str) -> None:
        self._call("delete", key)

    def generation(self) -> int:
        """The catalogue's generation: bumped by a change, and moved by a publishing boundary passing (a title
        scheduled to show or to go), so that nothing kept from before it is read after it."""
        return max(self._counter(GENERATION_KEY), self._schedule())

    def _schedule(self) -> int:
        """The latest publishing boundary passed, in nanoseconds (0: none), read at most every ``GENERATION_MEMO``
        seconds and at once when the next boundary this process knew of has come."""
        read_at, last, upcoming = self._schedule_memo
        at = clock.now()
        if (time.monotonic() - read_at < GENERATION_MEMO and (upcoming is None or at < upcoming)) \
                or not has_app_context():  # (a cache used alone, in a unit test: no database to ask)
            return last
        found = schedule_boundaries(at, self._log)
        if found is not UNREAD:  # the database failed: the boundary this process knew
            passed, upcoming = found
            last = int(passed.timestamp() * 1_000_000) * 1000 if passed is not None else 0
        self._schedule_memo = (time.monotonic(), last, upcoming)
        return last

    def bump_generation(self) -> int:
        self._schedule_memo = (0.0, 0, None)  # a change may have scheduled a title: the next read asks again
        return self._bump(GENERATION_KEY)

    def per_generation(self, name: str, make: Callable[[], T], again: bool = False) -> T:
        """``make()``, made once per catalogue generation in this process (``again``: made now whatever): what a
        process may hold of the catalogue between its changes (app/services/catalogue/known.py). Two requests making
        it at once each keep one, both the same."""
        generation = self.generation()
        held = self._per_generation.get(name)
        if held is None or held[0] != generation or again:
            held = (generation, make())
            self._per_generation[name] = held
        return cast(T, held[1])

    def epoch(self, name: str) -> int:
        """The named cache's epoch: bumped by ``clear``, read like the generation."""
        return self._counter(f"{GENERATION_KEY}:{name}")

    def _counter(self, key: str) -> int:
        """A counter as this process last read it, trusted ``GENERATION_MEMO`` seconds."""
        read_at, value = self._counters.get(key, (0.0, 0))
        if time.monotonic() - read_at < GENERATION_MEMO:
            return value
        stored = self.get(key) if self._remote else database_counter(key, self._log)
        if stored is not UNREAD:  # the database failed: the value this process knew, looked for again next time
            value = int(stored) if stored is not None else 0
        self._counters[key] = (time.monotonic(), value)
        return value

    def _bump(self, key: str) -> int:
        """A new value of the counter (a time in nanoseconds, so that it never repeats one a restarted cache forgot),
        seen at once in this process."""
        with self._lock:
            value = max(time.time_ns(), self._counter(key) + 1)
            self.set(key, value, 0)
            if not self._remote:
                store_database_counter(key, value, self._log)
            self._local.set(key, value, 0)
            self._counters[key] = (time.monotonic(), value)
            return value

    def key(self, name: str, rest: str) -> str:
        """A key of the named cache ``name`` for what is derived from the catalogue: unreachable once either the
        catalogue's generation or the name's epoch changes."""
        return f"{name}:{self.generation()}.{self.epoch(name)}:{rest}"

    def sizes(self) -> list[CacheSize]:
        return [self._size(name, description) for name, description in NAMED_CACHES.items()]

    def _size(self, name: str, description: str) -> CacheSize:
        if self._remote and not self._breaker.open:
            try:
                count, exact = 0, True
                for _ in self._redis_keys(name):
                    count += 1
                    if count >= COUNT_LIMIT:
                        exact = False
                        break
                return CacheSize(name, description, count, exact, "redis")
            except Exception as error:
                self._log.warning("the cache (Redis) failed counting %s (%s)", name, error)
                self._breaker.trip()
        return CacheSize(name, description, sum(1 for _ in self._local_keys(self._local, name)), True, "process")

    def clear(self, name: str) -> None:
        """Every entry of the named cache: unreachable at once (a new epoch), then deleted."""
        self._bump(f"{GENERATION_KEY}:{name}")
        for cache in (self._local, self._near):
            for key in list(self._local_keys(cache, name)):
                cache.delete(key)
        if self._remote and not self._breaker.open:
            try:
                client, batch = self._shared._write_client, []
                for raw in self._redis_keys(name):
                    batch.append(raw)
                    if len(batch) == 1000:
                        client.unlink(*batch)
                        batch = []
                if batch:
                    client.unlink(*batch)
            except Exception as error:  # unreachable already: the entries expire on their own
                self._log.warning("the cache (Redis) failed clearing %s (%s)", name, error)
                self._breaker.trip()

    def _redis_keys(self, name: str) -> Iterator[bytes]:
        pattern = f"{self._shared._get_prefix()}{name}:*"
        yield from self._shared._read_client.scan_iter(match=pattern, count=1000)

    @staticmethod
    def _local_keys(cache: SimpleCache, name: str) -> Iterator[str]:
        return (key for key in list(cache._cache) if key.startswith(f"{name}:"))

    # Single flight.

    def kept_or_claim(self, key: str) -> tuple[Any, bool]:
        """The entry at ``key`` (a near read), or the one another request is making now once made; else None, and
        whether this request is to make it (then it must ``settle`` it): False when waiting for another was in vain
        (it failed or was slow), and this request makes it too. When another process makes it, one request of this
        process waits for it on Redis and the others of this process wait for that one."""
        kept = self.get(key, near=True)
        if kept is not None:
            return kept, False
        with self._lock:
            event = self._flights.get(key)
            if event is None:
                self._flights[key] = threading.Event()
        if event is not None:  # made in this process
            event.wait(FLIGHT_WAIT)
            return self.get(key), False
        if self._locked_elsewhere(key):
            try:
                return self._poll(key), False
            finally:
                self._end_flight(key)
        return None, True

    def settle(self, key: str) -> None:
        """The claimed entry is made (or its making failed): those waiting look again."""
        if self._remote and not self._breaker.open:
            try:
                self._shared._write_client.delete(self._lock_key(key))
            except Exception:
                self._breaker.trip()
        self._end_flight(key)

    def _locked_elsewhere(self, key: str) -> bool:
        """Whether another process holds ``key``'s Redis lock (else this one takes it; without Redis, or with Redis
        failing, no process but this one can be waited for)."""
        if not self._remote or self._breaker.open:
            return False
        try:
            token = uuid.uuid4().hex
            return not self._shared._write_client.set(self._lock_key(key), token, nx=True,
                                                      px=int(FLIGHT_WAIT * 1000))
        except Exception as error:
            self._log.warning("the cache (Redis) failed locking (%s)", error)
            self._breaker.trip()
            return False

    def _poll(self, key: str) -> Any:
        """The entry another process is making: its lock goes when it is made."""
        deadline = time.monotonic() + FLIGHT_WAIT
        while time.monotonic() < deadline:
            value = self.get(key)
            if value is not None:
                return value
            try:
                if self._breaker.open or not self._shared._read_client.exists(self._lock_key(key)):
                    return self.get(key)
            except Exception:
                self._breaker.trip()
                return None
            time.sleep(FLIGHT_POLL)
        return None

    def _lock_key(self, key: str) -> str:
        return f"{self._shared._get_prefix()}flight:{key}"

    def _end_flight(self, key: str) -> None:
        with self._lock:
            event = self._flights.pop(key, None)
        if event is not None:
            event.set()


UNREAD = object()  # a counter the database could not be asked for


def database_counter(key: str, log: Any) -> Any:
    """The counter as the database holds it (None: never bumped), or UNREAD when the database fails (a request
    that reads it must not fail for it: the database's own breaker makes this fast, app/database.py)."""
    from app.extensions import db
    from app.models import CacheCounter

    try:
        with db.engine.connect() as connection:
            return connection.scalar(select(CacheCounter.value).where(CacheCounter.name == key))
    except SQLAlchemyError as error:
        log.warning("the cache's counter %s could not be read (%s); this process keeps its own", key,
                    type(error).__name__)
        return UNREAD


def schedule_boundaries(at: Any, log: Any) -> Any:
    """The publishing boundaries around ``at`` (app/services/catalogue/publishing.py), on a connection of its own,
    or UNREAD when the database fails."""
    from app.extensions import db
    from app.services.catalogue.publishing import aware, boundaries

    try:
        with db.engine.connect() as connection:
            row = connection.execute(boundaries(at)).one()
            return aware(row[0]), aware(row[1])
    except SQLAlchemyError as error:
        log.warning("the publishing schedule could not be read (%s)", type(error).__name__)
        return UNREAD


def store_database_counter(key: str, value: int, log: Any) -> None:
    """Writes the counter for the other processes, in its own transaction (the caller's is committed already)."""
    from app.extensions import db
    from app.models import CacheCounter

    try:
        for attempt in (1, 2):  # a first write of the counter in two processes at once: one insert loses, updates
            try:
                with db.engine.begin() as connection:
                    larger = func.max if connection.dialect.name == "sqlite" else func.greatest
                    if connection.execute(update(CacheCounter).where(CacheCounter.name == key).values(
                            value=larger(CacheCounter.value, value))).rowcount == 0:
                        connection.execute(insert(CacheCounter).values(name=key, value=value))
                return
            except IntegrityError:
                if attempt == 2:
                    raise
    except SQLAlchemyError as error:
        log.warning("the cache's counter %s could not be written (%s): other processes see the change when their "
                    "answers expire", key, type(error).__name__)


def store() -> ResilientCache:
    return current_app.extensions["resilient_cache"]


def invalidate_catalogue() -> None:
    """Everything derived from the catalogue is stale: call after any change to contents, seasons, episodes or their
    rules (the admin, the demo seeder), once it is committed. What the database keeps derived from it (the facets, the
    relevance scores: app/jobs/derived.py) is made again: after a request's change in a background job (one queued at
    a time: changes made while it waits are counted by it), elsewhere (a command, a test) at once."""
    generation = store().bump_generation()
    if has_request_context():
        refresh_derived_later()
    else:
        from app.jobs.derived import refresh_derived

        try:
            refresh_derived(generation)
        except Exception:  # what the change committed stands; the reads count and rank for themselves meanwhile
            current_app.logger.exception("the catalogue's facets and scores were not made again after a change")


_refresh_queued = threading.Event()


def refresh_derived_later() -> None:
    """The database's facets and scores made again after this request (app/jobs/derived.py), unless a refresh is
    queued already."""
    from app.http.background import start_job
    from app.jobs.derived import refresh_derived

    if _refresh_queued.is_set():
        return
    _refresh_queued.set()

    def refresh() -> None:
        _refresh_queued.clear()  # a change from now on queues the next one
        refresh_derived(store().generation())

    start_job(refresh, "the catalogue's facets and scores after a change")


def register_cache(app: Flask) -> None:
    app.extensions["resilient_cache"] = ResilientCache(app)
