"""A fresh application and an empty, migrated database for every test (flaskr's pattern).

The database is SQLite by default. With DATABASE_URL pointing at PostgreSQL, the session creates a throwaway
database on that server, migrates it, and drops it at the end; each test starts from empty tables. The browser
tests' live server gets a database of its own the same way (tests/browser/conftest.py).
"""

from __future__ import annotations

import copy
import os
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import time_machine
from aiosmtpd.controller import Controller
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from sqlalchemy.engine import make_url

from app import create_app
from app.config import PROJECT_ROOT, normalise_database_url
from app.database import unhurried
from app.extensions import db, limiter
from app.jobs.queue import broker_of
from tests.mailbox import Mailbox, start_smtp

ASSETS_DIR = PROJECT_ROOT / "app" / "static" / "dist"


@pytest.fixture(scope="session", autouse=True)
def own_rate_limits() -> Iterator[None]:
    """With REDIS_URL (CI), every application shares this machine's Redis: this run keeps its counters, its cache
    entries and its job queue apart."""
    with pytest.MonkeyPatch.context() as session:  # (monkeypatch itself is a test's, not a session's)
        for name in ("RATE_LIMIT_KEY_PREFIX", "CACHE_KEY_PREFIX", "QUEUE_NAME"):
            session.setenv(name, f"test-{uuid.uuid4().hex}")
        yield


@pytest.fixture(scope="session", autouse=True)
def background_at_the_tests_priority() -> Iterator[None]:
    """Background work at the tests' own CPU priority (BACKGROUND_NICE 0): a command a test runs in its own process
    (``flask sitemap generate``) would otherwise lower the test process's for good, and the job tests' workers, with
    heartbeats 25 times production's, could miss them on a loaded machine. tests/jobs/test_sitemaps_job.py starts a
    worker at a nice of its own and checks it."""
    with pytest.MonkeyPatch.context() as session:
        session.setenv("BACKGROUND_NICE", "0")
        yield


@pytest.fixture(scope="session", autouse=True)
def suggestion_files_apart(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every application and server the tests make (a browser test's gunicorn too: it inherits the environment) keeps
    its suggestion index files (app/suggestion_files.py) in a folder of the session's, not in the checkout's
    instance/."""
    with pytest.MonkeyPatch.context() as session:
        session.setenv("SUGGESTION_INDEX_DIR", str(tmp_path_factory.mktemp("suggestion-files")))
        yield


@pytest.fixture(scope="session", autouse=True)
def statements_unhurried_by_the_machines_load() -> Iterator[None]:
    """The requests' statement deadline of the tests' applications (DB_STATEMENT_TIMEOUT_MS: 1.5 s in the service) is
    10 s. On a loaded CI run (three pytest workers, Chromium and PostgreSQL on two cores) a statement of a few
    milliseconds has waited past 1.75 s: a commit of a test's set-up, one of the search tests' 4,500 searches. Each
    opened the database's breaker and failed a test that is not about time. The tests of the deadline itself set it:
    tests/test_database_outages.py (the service's 1.5 s), tests/test_batch_statements.py, tests/test_migrations.py."""
    with pytest.MonkeyPatch.context() as session:
        session.setenv("DB_STATEMENT_TIMEOUT_MS", "10000")
        yield


@pytest.fixture(autouse=True)
def own_test_rate_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """And each test's applications count from zero and start with an empty cache. Flask-Limiter's module-level
    instance keeps the first application's prefix (its init_app: ``self._key_prefix or config…``), right for one
    application per process, not for a test run: each test sets it afresh."""
    prefix = f"test-{uuid.uuid4().hex}"
    monkeypatch.setenv("RATE_LIMIT_KEY_PREFIX", prefix)
    monkeypatch.setattr(limiter, "_key_prefix", prefix)  # for a module's application too
    monkeypatch.setenv("CACHE_KEY_PREFIX", f"test-{uuid.uuid4().hex}")


@pytest.fixture(scope="session")
def make_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], str]]:
    """Makes an empty throwaway database per call (a SQLite file, or a PostgreSQL database dropped at the end)."""
    configured = os.environ.get("DATABASE_URL", "")
    if not configured.startswith(("postgres://", "postgresql")):
        yield lambda label: f"sqlite:///{tmp_path_factory.mktemp(label) / 'test.db'}"
        return
    server = make_url(normalise_database_url(configured))
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
    created: list[str] = []

    def make(label: str) -> str:
        name = f"player_{label}_{uuid.uuid4().hex[:12]}"
        with admin.connect() as connection:
            connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
        created.append(name)
        return server.set(database=name).render_as_string(hide_password=False)

    try:
        yield make
    finally:
        with admin.connect() as connection:
            for name in created:
                connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def database_url(make_database: Callable[[str], str]) -> str:
    return make_database("test")


@pytest.fixture(scope="session")
def migrated_database(database_url: str) -> str:
    """The schema comes from the migrations, never from create_all: the tests exercise them too."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url})
    with app.app_context():
        upgrade()
        db.engine.dispose()
    return database_url


@pytest.fixture(scope="session")
def assets_built() -> Path:
    if not (ASSETS_DIR / "meta.json").exists():
        pytest.exit("the front end is not built: run `make test` (or `npm run build`) first", returncode=2)
    return ASSETS_DIR


@pytest.fixture(scope="session")
def smtp_server() -> Iterator[tuple[Controller, Mailbox]]:
    """A real SMTP server on this machine (aiosmtpd) that every test application mails through."""
    from app.http.mail import drain

    controller, mailbox = start_smtp()
    yield controller, mailbox
    drain()
    controller.stop()


@pytest.fixture
def mailbox(smtp_server: tuple[Controller, Mailbox]) -> Mailbox:
    """The mails this test's applications sent."""
    smtp_server[1].messages.clear()
    return smtp_server[1]


_LIMITER_STATE: dict[str, Any] = {}


@pytest.fixture(scope="session")
def worker_app(migrated_database: str, assets_built: Path, tmp_path_factory: pytest.TempPathFactory,
               smtp_server: tuple[Controller, Mailbox]) -> Iterator[tuple[Flask, dict[str, Any], dict[str, Any]]]:
    """One application per test process, with its configuration and extensions as made: making one is most of what a
    test of the API costs (its routes, its OpenAPI document, the admin's views), so ``app`` lends it to each test and
    puts it back as it was made."""
    app = create_app({"TESTING": True, "DATABASE_URL": migrated_database, "SUGGESTION_INDEX": False,
                      "MEDIA_ROOT": str(tmp_path_factory.mktemp("media")),
                      "QUEUE_FILE": str(tmp_path_factory.mktemp("queue") / "queue.db"),
                      "JOB_FILES_DIR": str(tmp_path_factory.mktemp("job-files")),
                      "VIDEO_UPLOAD_DIR": str(tmp_path_factory.mktemp("video-uploads")),
                      "MAIL_SERVER": "127.0.0.1", "MAIL_PORT": smtp_server[0].port})
    # Flask-Limiter is one instance per process, and takes the storage of the last application made: a test that
    # makes one with REDIS_URL would leave this application counting in Redis
    _LIMITER_STATE.update(storage=limiter._storage, limiter=limiter._limiter)
    yield app, copy.deepcopy(dict(app.config)), dict(app.extensions)
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def app(worker_app: tuple[Flask, dict[str, Any], dict[str, Any]], tmp_path: Path) -> Iterator[Flask]:
    """The application of one test: the process's, as it was made (its configuration and extensions put back, its
    caches empty, its breakers closed, a media root of the test's own); after the test its tables are emptied. A test
    that needs an application made otherwise calls create_app itself."""
    app, config, extensions = worker_app
    app.config.clear()
    app.config.update(copy.deepcopy(config))
    app.config["MEDIA_ROOT"] = str(tmp_path / "media")
    app.extensions.clear()
    app.extensions.update(extensions)
    _start_afresh(app)
    yield app
    from app.http.background import drain_jobs
    from app.http.mail import drain

    drain()  # what runs after an answer (a restore's code and mail) is done before the tables are emptied
    drain_jobs()  # and the work a request started on its thread (a refresh of the facets)
    # TRUNCATE waits for every table's lock (an autovacuum yields only after deadlock_timeout): on a loaded CI machine
    # that passed the requests' 1.5 s deadline, which is the service's, not this clean-up's
    with app.app_context(), unhurried(app, db.engine):
        empty_tables()
        db.session.remove()
    broker_of(app).huey.flush()  # the queue's messages a test left (no worker takes them here): their rows are gone


@pytest.fixture
def fresh_app(migrated_database: str, assets_built: Path, tmp_path: Path) -> Iterator[Flask]:
    """A new application of the test's own, for a test that adds to what an application is made of (a route)."""
    app = create_app({"TESTING": True, "DATABASE_URL": migrated_database, "MEDIA_ROOT": str(tmp_path / "media"),
                      "SUGGESTION_INDEX": False, "QUEUE_FILE": str(tmp_path / "queue.db"),
                      "JOB_FILES_DIR": str(tmp_path / "job-files"),
                      "VIDEO_UPLOAD_DIR": str(tmp_path / "video-uploads")})
    yield app
    with app.app_context(), unhurried(app, db.engine):
        empty_tables()
        db.session.remove()


def _start_afresh(app: Flask) -> None:
    """What a new application would not remember: kept answers and counters, open breakers, a dead limit store."""
    from app import registry
    from app.caching import register_cache
    from app.extensions import cache

    with app.app_context():
        app.extensions["cache"][cache].clear()  # the backend (in process, or this run's keys in Redis)
        register_cache(app)  # a new resilient cache: nothing kept locally, no counter memo
        registry.database_breaker(app).close()
        revocation_breaker = getattr(registry.revocations(app), "_breaker", None)
        if revocation_breaker is not None:
            revocation_breaker.close()
    limiter._storage_dead = False  # Flask-Limiter remembers a dead storage per process
    limiter._storage, limiter._limiter = _LIMITER_STATE["storage"], _LIMITER_STATE["limiter"]


@pytest.fixture
def clock() -> Iterator[time_machine.Traveller]:
    """The wall clock held still for the test (app/clock.py's ``now()``, JWTs, rate-limit windows): a test moves it
    with ``clock.shift(seconds)`` instead of sleeping. Monotonic time (deadlines, breakers) goes on as it does."""
    with time_machine.travel(datetime.now(UTC), tick=False) as traveller:
        yield traveller


def empty_tables(*, exclusive: bool = True) -> None:
    """Every table emptied, once this process's background work (app/http/background.py: a refresh of the facets a
    test's read or change started) has ended, as its transaction would hold locks the emptying waits for.

    On PostgreSQL this is a batch statement, on a connection of its own without the requests' deadlines (under a
    loaded CI machine a TRUNCATE of every table can take longer than a request may, and a request's deadline would
    open the application's breaker for the next test); it waits for locks at most LOCK_WAIT, then says which sessions
    held them. ``exclusive=False`` deletes the rows instead of truncating, for a database other processes still use
    (the job tests' workers): a TRUNCATE's exclusive locks would wait for, and can deadlock with, their transactions."""
    from app.http.background import drain_jobs

    drain_jobs()
    db.session.remove()  # this thread's own transaction, if a test left one, holds locks too
    tables = list(reversed(db.metadata.sorted_tables))
    if db.engine.dialect.name != "postgresql":
        for table in tables:
            db.session.execute(table.delete())
        db.session.commit()
        return
    engine = sa.create_engine(db.engine.url, poolclass=sa.pool.NullPool)
    try:
        with engine.begin() as connection:
            connection.execute(sa.text(f"SET LOCAL lock_timeout = '{LOCK_WAIT}s'"))
            if exclusive:
                names = ", ".join(f'"{t.name}"' for t in tables)
                connection.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
            else:
                for table in tables:
                    connection.execute(table.delete())
    except sa.exc.OperationalError as error:
        raise AssertionError(f"the tables could not be emptied ({error.orig}); the other sessions on this "
                             f"database: {_other_sessions(engine)}") from error
    finally:
        engine.dispose()


LOCK_WAIT = 20  # seconds


def _other_sessions(engine: sa.Engine) -> list[tuple[Any, ...]]:
    with engine.connect() as connection:
        return [tuple(row) for row in connection.execute(sa.text(
            "SELECT pid, application_name, state, now() - xact_start, wait_event_type, left(query, 200) "
            "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"))]


def reconfigure(app: Flask, **values: object) -> None:
    """Changes the configuration of a running application, as only a test does (a deployment restarts with it): what
    it kept from the old one (app/http/shared.py) goes with it."""
    from app.caching import invalidate_catalogue

    app.config.update(values)
    with app.app_context():
        invalidate_catalogue()


@pytest.fixture
def behind_proxy(app: Flask) -> Flask:
    """The test client's requests (from 127.0.0.1) come through a trusted proxy, as behind the production nginx:
    their X-Forwarded-For and country header count."""
    app.config["TRUSTED_PROXIES"] = "127.0.0.1"
    return app


def signed_identity(app: Flask, device: str, fingerprint: str = "signals-hash-0001") -> str:
    """The device identity ``device`` (22 characters of [A-Za-z0-9_-]) as this application would have issued it:
    tests name their viewers, and can tell their progress keys ("dev:{device}")."""
    from app.http.viewer import _signature

    with app.test_request_context():
        return f"{fingerprint}.{device}.{_signature(fingerprint, device)}"


@pytest.fixture
def viewer_headers(app: Flask) -> Callable[[], dict[str, str]]:
    """Makes the headers of a new anonymous viewer: a device identity this application issued."""
    from app.http.viewer import issue_device_identity

    def make(fingerprint: str = "signals-hash-0001") -> dict[str, str]:
        with app.test_request_context():
            return {"X-Session-Context": issue_device_identity(fingerprint)}

    return make


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def demo_catalogue(app: Flask) -> Flask:
    """The demo catalogue of app/demo/catalogue.py, with its fixed ids."""
    from app.demo.seed import seed_demo

    # The set-up's own statements wait for the database as long as it takes (app/database.py: the requests' 1.5 s
    # deadline otherwise): on a loaded CI run the seed's insert of the episodes passed it and the test errored in its
    # set-up.
    with app.app_context(), unhurried(app, db.engine):
        seed_demo()
    return app
