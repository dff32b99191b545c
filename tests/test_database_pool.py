"""The pool's check that a connection is still open (app/database.py ``alive_window``): a connection given back a
moment ago is used without a round trip; one idle for longer is pinged, and replaced if the database closed it."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade

from app import create_app
from app.demo.seed import seed_demo
from app.extensions import db

WINDOW_MS = 300


@pytest.fixture
def pooled_app(migrated_database: str) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE_URL": migrated_database, "SUGGESTION_INDEX": False,
                      "DB_ALIVE_WINDOW_MS": WINDOW_MS})
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def pings(app: Flask, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    seen: list[object] = []
    with app.app_context():
        dialect = db.engine.dialect
    original = dialect.do_ping

    def counted(dbapi_connection: object) -> bool:
        seen.append(dbapi_connection)
        return original(dbapi_connection)

    monkeypatch.setattr(dialect, "do_ping", counted)
    return seen


def backend(connection: sa.Connection) -> object:
    if connection.dialect.name == "postgresql":
        return connection.scalar(sa.text("SELECT pg_backend_pid()"))
    return connection.connection.driver_connection


def test_a_connection_given_back_a_moment_ago_is_used_without_a_ping(pooled_app, monkeypatch):
    seen = pings(pooled_app, monkeypatch)
    with pooled_app.app_context():
        with db.engine.connect() as connection:  # connected for this checkout: open by definition
            first = backend(connection)
        with db.engine.connect() as connection:  # given back just now
            assert backend(connection) == first
        assert seen == []
        time.sleep(WINDOW_MS / 1000 + 0.1)
        with db.engine.connect() as connection:  # idle past the window: asked once
            assert backend(connection) == first
        assert len(seen) == 1


def test_a_connection_the_database_closed_while_idle_is_replaced_unseen(pooled_app, database_url):
    if not database_url.startswith("postgresql"):
        pytest.skip("a server that closes a connection: PostgreSQL's pg_terminate_backend")
    with pooled_app.app_context():
        with db.engine.connect() as connection:
            first = backend(connection)
        admin = sa.create_engine(database_url, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as connection:
                assert connection.scalar(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": first})
        finally:
            admin.dispose()
        time.sleep(WINDOW_MS / 1000 + 0.1)
        with db.engine.connect() as connection:
            assert connection.scalar(sa.text("SELECT 1")) == 1
            assert backend(connection) != first


def test_a_sqlite_connection_to_a_file_that_is_no_longer_the_database_is_replaced(tmp_path):
    """The embedded database's file replaced under the running process (an operator's restore, a folder moved away
    and back): a pooled connection that opened the wrong file answers "no such table" once, and is thrown away with
    the pool, so the next request reads the file that is there; the breaker stays shut (the file answers)."""
    path = tmp_path / "app.db"
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}", "SUGGESTION_INDEX": False})
    with app.app_context():
        upgrade()
        seed_demo()
        db.session.remove()
        db.engine.dispose()
    client = app.test_client()
    assert client.get("/contents/1").status_code == 200
    path.rename(tmp_path / "away.db")
    sqlite3.connect(path).close()  # an empty file where the database was
    with app.app_context():
        db.engine.dispose()  # the next connection opens what is at the path now
    response = client.get("/contents/2")
    assert response.status_code == 503 and response.get_json()["error"]["code"] == "service_unavailable"
    (tmp_path / "away.db").replace(path)  # the real file back
    assert client.get("/contents/2").status_code == 200  # without the pool's connection to the empty file
    assert not app.extensions["database_breaker"].open
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
