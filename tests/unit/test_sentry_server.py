"""sentry-sdk on the server (spec §1): the Flask and SQLAlchemy integrations with a DSN, nothing at all without one.

With a DSN, the SDK posts to a fake ingest on 127.0.0.1 (tests/ingest.py): a real HTTP endpoint, the real SDK.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import sentry_sdk
from flask import Flask
from sqlalchemy import text

from app import create_app
from app.extensions import db
from tests.ingest import Ingest, serve_ingest


@pytest.fixture
def ingest() -> Iterator[tuple[Ingest, str]]:
    """A fake ingest; the SDK's client (process-global) is closed, while the ingest still answers, and unset after."""
    sentry_sdk.get_global_scope().set_client(None)
    with serve_ingest() as served:
        yield served
        sentry_sdk.get_client().close(timeout=2)
    sentry_sdk.get_global_scope().set_client(None)


def make_app(tmp_path: Path, dsn: str) -> Flask:
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'app.db'}", "SENTRY_DSN": dsn})

    @app.get("/boom")
    def boom() -> str:
        db.session.execute(text("SELECT 42"))  # a query for the SQLAlchemy integration to record
        raise RuntimeError("the server broke")

    return app


def test_without_a_dsn_nothing_is_set_up_and_nothing_sent(tmp_path, ingest):
    received, _origin = ingest
    app = make_app(tmp_path, "")
    assert not sentry_sdk.get_client().is_active()
    response = app.test_client().get("/boom")
    assert response.status_code == 500
    assert re.fullmatch(r"[0-9a-f]{32}", response.get_json()["error"]["details"]["errorId"])  # a random id instead
    sentry_sdk.flush(timeout=2)
    assert received.envelopes == []


def test_with_a_dsn_an_unexpected_error_is_reported_once_with_the_id_the_viewer_sees(tmp_path, ingest):
    received, origin = ingest
    app = make_app(tmp_path, origin.replace("http://", "http://public@") + "/7")
    client = sentry_sdk.get_client()
    assert client.is_active()
    assert {"flask", "sqlalchemy"} <= set(client.integrations)
    assert client.options["data_collection"]["user_info"] is False  # no personal data

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    error_id = response.get_json()["error"]["details"]["errorId"]
    assert "the server broke" not in response.get_data(as_text=True)

    sentry_sdk.flush(timeout=5)
    events = received.wait_for_events(lambda found: len(found) >= 1, seconds=5)
    assert [e["event_id"] for e in events] == [error_id]  # one event (not the log line's copy), the viewer's id
    event = events[0]
    assert event["exception"]["values"][-1]["value"] == "the server broke"
    assert event["request"]["url"].endswith("/boom")  # the Flask integration's request data
    queries = [c for c in event["breadcrumbs"]["values"] if c.get("category") == "query"]
    assert any("SELECT 42" in c["message"] for c in queries)  # the SQLAlchemy integration's breadcrumb
    assert {project for project, _ in received.envelopes} == {"7"}


def test_an_ordinary_http_error_is_not_reported(tmp_path, ingest):
    received, origin = ingest
    app = make_app(tmp_path, origin.replace("http://", "http://public@") + "/7")
    assert app.test_client().get("/nowhere").status_code == 404
    sentry_sdk.flush(timeout=2)
    assert received.events() == []
