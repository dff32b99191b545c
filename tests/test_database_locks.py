"""A statement that waits past its deadline for a lock another transaction holds (an editor's save, a long batch, an
import writing to SQLite), and one PostgreSQL aborts in a deadlock, fail alone: the database answered, so the breaker
stays shut, the pool is kept, and the other requests are served (app/database.py ``_unreachable``). Before, either
opened the breaker and dropped the pool: every request of the process was refused for ``DB_RETRY_AFTER`` seconds.
(PostgreSQL's lock wait ends by its statement_timeout, which is its lock_timeout too, and was answered alone before.)"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask
from sqlalchemy import update
from sqlalchemy.exc import OperationalError

from app import create_app
from app.database import unhurried
from app.extensions import db
from app.models import Content
from tests.api.accounts_helpers import bearer, make_account, sign_in
from tests.api.reviews_helpers import FILM, SERIES, TEXT, reviews_path
from tests.conftest import empty_tables

DEADLINE_MS = 400


@pytest.fixture
def hurried_app(migrated_database: str, assets_built: Path) -> Iterator[Flask]:
    yield from seeded_app(migrated_database, DEADLINE_MS)


@pytest.fixture
def patient_app(migrated_database: str, assets_built: Path) -> Iterator[Flask]:
    """PostgreSQL's, its statements waiting longer than its deadlock_timeout (1 s), so that a deadlock is found as one.
    (SQLite runs one writer at a time: it has no deadlock.)"""
    if not migrated_database.startswith("postgresql"):
        pytest.skip("SQLite runs one writer at a time: no deadlock")
    yield from seeded_app(migrated_database, 6000)


def seeded_app(database_url: str, deadline_ms: int) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SUGGESTION_INDEX": False,
                      "DB_STATEMENT_TIMEOUT_MS": deadline_ms})
    from app.demo.seed import seed_demo

    with app.app_context(), unhurried(app, db.engine):
        seed_demo()
        db.session.commit()
    yield app
    with app.app_context():
        empty_tables()
        db.session.remove()
        db.engine.dispose()


@contextmanager
def content_row_held(app: Flask, content_id: int) -> Iterator[None]:
    """Another transaction holding what writing about the content needs: its row on PostgreSQL, the database file's
    write lock on SQLite (which locks no less); read it may."""
    with app.app_context():
        url = db.engine.url
    if url.get_backend_name() == "postgresql":
        holder = sa.create_engine(url)
        try:
            with holder.connect() as other:
                other.execute(sa.text("SELECT id FROM contents WHERE id = :id FOR UPDATE"), {"id": content_id})
                yield
                other.rollback()
        finally:
            holder.dispose()
        return
    other = sqlite3.connect(str(url.database), isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


def test_a_write_that_waits_past_its_lock_deadline_fails_alone(hurried_app):
    app = hurried_app
    make_account(app, "waiting@example.com")
    writer = bearer(sign_in(app.test_client(), "waiting@example.com"))
    create = reviews_path(FILM, "/create")
    with content_row_held(app, FILM):
        waited = app.test_client().post(create, json={"text": TEXT, "rating": 7}, headers=writer)
        assert waited.status_code == 503
        assert waited.get_json()["error"]["code"] == "service_unavailable"
        # the database answers: what does not need the held lock is served at once, from the same pool
        listed = app.test_client().get(reviews_path(FILM))
        assert listed.status_code == 200
        assert listed.get_json()["items"] == []
    written = app.test_client().post(create, json={"text": TEXT, "rating": 7}, headers=writer)
    assert written.status_code == 201
    with app.app_context():
        content = db.session.get_one(Content, FILM)
        assert (content.review_count, content.review_rating_sum) == (1, 7)


def touch(content_id: int) -> sa.Update:
    """An UPDATE that changes nothing but locks the content's row."""
    return update(Content).where(Content.id == content_id).values(review_count=Content.review_count)


def waiting_for_a_lock(engine: sa.Engine, seconds: float = 10) -> None:
    """Returns once a session of this database waits for a lock (ours, for the film's row)."""
    deadline = time.monotonic() + seconds
    with engine.connect() as watcher:
        while time.monotonic() < deadline:
            waiting = watcher.scalar(sa.text("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                                             " AND wait_event_type = 'Lock'"))
            watcher.rollback()  # a new snapshot of the activity each time
            if waiting:
                return
            time.sleep(0.02)
    raise AssertionError("the application's transaction never waited for the film's row")


def test_a_deadlock_fails_its_transaction_alone(patient_app):
    """The application's transaction locks the series, then waits for the film, which another transaction holds
    while it waits for the series: PostgreSQL aborts the one that waited first, ours, with a deadlock. The other goes
    on, and the application's next requests are served."""
    app = patient_app
    with app.app_context():
        url = db.engine.url
    ours_locked, theirs_locked = threading.Event(), threading.Event()
    failed: list[BaseException] = []

    def ours() -> None:
        with app.app_context():
            try:
                db.session.execute(touch(SERIES))
                ours_locked.set()
                theirs_locked.wait(10)
                db.session.execute(touch(FILM))  # waits for theirs, first: the deadlock is found here
            except OperationalError as error:
                failed.append(error)
            finally:
                db.session.rollback()
                db.session.remove()

    holder = sa.create_engine(url)
    try:
        with holder.connect() as theirs:
            thread = threading.Thread(target=ours)
            thread.start()
            assert ours_locked.wait(10)
            theirs.execute(touch(FILM))
            theirs_locked.set()
            waiting_for_a_lock(holder)  # ours first: its deadlock check comes first, and aborts it
            theirs.execute(touch(SERIES))  # served once ours is aborted
            theirs.rollback()
            thread.join(10)
    finally:
        holder.dispose()
    assert [type(error.orig).__name__ for error in failed] == ["DeadlockDetected"]
    listed = app.test_client().get(reviews_path(FILM))
    assert listed.status_code == 200
