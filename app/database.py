"""How the service talks to its database when the database is slow, gone or black-holed: never for long.

* Every statement has a deadline (``DB_STATEMENT_TIMEOUT_MS``): PostgreSQL's statement_timeout, and the client's own
  wait on the socket (a server that accepts connections and never answers would hold a worker forever otherwise),
  connecting has psycopg's shortest timeout (2 s), and waiting for a pooled connection ``DB_POOL_TIMEOUT`` seconds.
* A pooled connection is pinged before use when it has been idle for ``DB_ALIVE_WINDOW_MS`` or more (a database
  restarted since, a connection closed by a proxy's idle timeout: it is replaced, unseen by the request); one given
  back just now is used as it is (``alive_window``).
* A failure to reach the database opens a short breaker (``DB_RETRY_AFTER`` seconds): the pool is dropped, and new
  connections fail at once instead of each request waiting for its own timeout; after it, the next request tries
  again, so the service recovers by itself when the database is back.
* app/errors.py answers these failures with 503 and Retry-After (the API) or the generic error screen (the page).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

UNAVAILABLE = (OperationalError, InterfaceError, DisconnectionError, PoolTimeout)
UNREACHABLE_STATES = frozenset({"57P01", "57P02", "57P03", "53300"})  # PostgreSQL's SQLSTATEs of a database away


class DatabaseUnavailable(OperationalError):
    """Raised instead of connecting while the breaker is open."""

    def __init__(self) -> None:
        super().__init__("connect", None, ConnectionError("the database was unreachable a moment ago"))


def engine_options(url: str, settings: Any) -> dict[str, Any]:
    """SQLALCHEMY_ENGINE_OPTIONS for this database (``settings``: app/config.py's): deadlines, a bounded pool."""
    statement_ms = int(settings.DB_STATEMENT_TIMEOUT_MS)
    options: dict[str, Any] = {"pool_pre_ping": False}  # ``alive_window`` pings an idle connection
    if url.startswith("postgresql"):
        options.update(
            pool_size=int(settings.DB_POOL_SIZE),
            max_overflow=int(settings.DB_POOL_SIZE),
            pool_timeout=int(settings.DB_POOL_TIMEOUT_MS) / 1000,
            connect_args={
                "connect_timeout": 2,  # psycopg's least
                # No parallel query: a request's statement is short, and a gather's workers take the cores the other
                # requests need (on 2 cores a parallel scan made one search twice as slow under load).
                "options": f"-c statement_timeout={statement_ms} -c lock_timeout={statement_ms} "
                           "-c max_parallel_workers_per_gather=0",
                "tcp_user_timeout": statement_ms,  # unacknowledged data: a peer that vanished
                "keepalives_idle": 10,
            },
        )
    elif url.startswith("sqlite"):
        options["connect_args"] = {"timeout": statement_ms / 1000}  # a locked database file
    return options


BATCH = "DB_BATCH"  # app.config's flag of a batch command (``batch_statements``)


class Breaker:
    """Open for ``seconds`` after a failure to reach the database; shared by the threads of one process."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._open_until = 0.0
        self._lock = threading.Lock()

    @property
    def open(self) -> bool:
        return time.monotonic() < self._open_until

    def trip(self) -> None:
        with self._lock:
            self._open_until = time.monotonic() + self.seconds

    def close(self) -> None:
        """Lets calls through again at once (what the next try after ``seconds`` does by itself)."""
        with self._lock:
            self._open_until = 0.0


def batch_statements(app: Flask, engine: Engine) -> None:
    """For a batch command (``flask demo catalogue``, ``flask sitemap generate``, ``flask search reindex``): its
    statements take as long as they take, without the requests' deadlines; the pool's connections are replaced."""
    app.config[BATCH] = True
    engine.dispose()


@contextmanager
def unhurried(app: Flask, engine: Engine) -> Iterator[None]:
    """``batch_statements`` for the block only: a test's set-up that writes before the application serves, a clean-up.
    The requests' deadlines again after it, on new connections (one made within the block has none). Within a batch
    already, the block changes nothing."""
    if app.config.get(BATCH):
        yield
        return
    batch_statements(app, engine)
    try:
        yield
    finally:
        app.config.pop(BATCH, None)
        engine.dispose()


def alive_window(engine: Engine, window_ms: int) -> None:
    """SQLAlchemy's pool_pre_ping, but for a connection given back less than ``window_ms`` ago, as HikariCP's
    aliveBypassWindowMs (500 ms there): a connection the pool handed out and took back a moment ago was open then, and
    the ping is a round trip to the database per request (on PostgreSQL, a returning viewer's page paid two round trips
    for its one lookup). A connection idle for longer is pinged; one found closed is thrown away and the pool gives a
    new one (DisconnectionError in a checkout: SQLAlchemy's pessimistic disconnect handling)."""
    window = window_ms / 1000
    returned_at = "returned_at"  # ConnectionPoolEntry.info: the DBAPI connection's own, gone with it

    @event.listens_for(engine, "checkin")
    def given_back(dbapi_connection: Any, record: Any) -> None:
        if dbapi_connection is not None:
            record.info[returned_at] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def taken(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        returned = record.info.get(returned_at)
        if returned is None or time.monotonic() - returned < window:  # (None: connected for this checkout)
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as error:
            disconnected = engine.dialect.is_disconnect(error, dbapi_connection, None)  # type: ignore[arg-type]
            if disconnected or _closed(dbapi_connection):
                raise DisconnectionError(str(error)) from error
            raise


def _closed(dbapi_connection: Any) -> bool:
    return bool(getattr(dbapi_connection, "closed", False))


def guard_engine(app: Flask, engine: Engine) -> Breaker:
    """Deadlines on the client's waits (PostgreSQL), the breaker, and a disconnect for every failure to reach it (so
    that the pool throws the connection away)."""
    breaker = Breaker(float(app.config["DB_RETRY_AFTER"]))
    alive_window(engine, int(app.config["DB_ALIVE_WINDOW_MS"]))
    deadline = int(app.config["DB_STATEMENT_TIMEOUT_MS"]) / 1000 + 0.25  # the server's own timeout answers first

    def _trip(cause: object = "no answer in time") -> None:
        if not breaker.open:
            app.logger.warning("the database is unreachable (%s); 503 for %s s", cause, breaker.seconds)
        breaker.trip()

    if engine.dialect.name == "postgresql":
        import psycopg

        class DeadlineConnection(psycopg.Connection):
            """Every wait on the socket ends by ``deadline``. Then the connection is closed, so that whatever uses it
            next (SQLAlchemy's ping resetting autocommit, say) is told it is gone, and the breaker opens."""

            def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
                if timeout is None and not app.config.get(BATCH):
                    timeout = deadline
                try:
                    return super().wait(gen, interval=interval, timeout=timeout)
                except psycopg.errors._WaitTimeout:
                    self.close()
                    _trip()
                    raise

        @event.listens_for(engine, "do_connect")
        def connect(dialect: Any, record: Any, cargs: Any, cparams: Any) -> Any:
            if breaker.open:
                raise DatabaseUnavailable()
            if app.config.get(BATCH):
                cparams = {**cparams, "options": "-c statement_timeout=0 -c lock_timeout=0", "tcp_user_timeout": 0}
            return DeadlineConnection.connect(*cargs, **cparams)
    else:
        @event.listens_for(engine, "do_connect")
        def connect_other(dialect: Any, record: Any, cargs: Any, cparams: Any) -> Any:
            if breaker.open:
                raise DatabaseUnavailable()
            return None  # the dialect's own connect

    @event.listens_for(engine, "handle_error")
    def unreachable(context: Any) -> None:
        if context.is_disconnect or _unreachable(context.original_exception, engine.dialect.name):
            context.is_disconnect = True  # this connection is thrown away, and the pool with it
            _trip(context.original_exception)
        elif engine.dialect.name == "sqlite" and "no such table" in str(context.original_exception):
            # A migrated database has its tables: this connection has a file that is not the database now (one
            # replaced under the running process, one made empty while it was away). Thrown away with the pool, so
            # that the next request opens the file that is there; the breaker stays shut, the file answers.
            context.is_disconnect = True

    return breaker


def _unreachable(error: BaseException, dialect: str) -> bool:
    """A failure to reach the database, as opposed to a statement it refused (a constraint, a missing table) or one
    that ran out of time on a database that answers (those fail alone, without tripping the breaker)."""
    if isinstance(error, (ConnectionError, TimeoutError)):
        return True
    if dialect == "postgresql":
        import psycopg

        if not isinstance(error, (psycopg.OperationalError, psycopg.InterfaceError)):
            return False
        # psycopg's own (no SQLSTATE: a connection refused, closed or timed out), a connection exception (08), the
        # server shutting down or starting (57P01-57P03), or out of connection slots (53300). Any other SQLSTATE is
        # the server answering about this statement: a lock wait past lock_timeout (55P03), a deadlock (40P01), a
        # serialization failure (40001), a statement cancelled (57014). Those fail alone: tripping the breaker for
        # one would drop the pool and refuse every request for DB_RETRY_AFTER seconds.
        state = getattr(error, "sqlstate", None)
        return state is None or state.startswith("08") or state in UNREACHABLE_STATES
    # SQLite's "database is locked" is a lock wait past its deadline: another writer holds the file (an import, a
    # batch), and the file answers; it fails alone, as PostgreSQL's lock wait does.
    text = str(error).lower()
    return any(sign in text for sign in ("unable to open", "disk i/o"))


def dialect_insert(session: Any, entity: Any) -> Any:
    """INSERT in the session's own dialect, which has ON CONFLICT (PostgreSQL's and SQLite's, the same methods): a
    rule that may race another request for a unique key decides the race in one statement, so that the loser need
    not roll back the rest of its transaction (app/transaction.py)."""
    from sqlalchemy.dialects import postgresql, sqlite

    dialect = session.get_bind().dialect.name
    return {"postgresql": postgresql.insert, "sqlite": sqlite.insert}[dialect](entity)
