"""An edit in the admin reaches every worker's kept answers, also without Redis: each process has its own cache, and
the catalogue's generation they all key on is kept in the database (app/caching.py, app/models/counters.py)."""

from __future__ import annotations

import time

import pytest
from flask import Flask

from app import caching, create_app
from app.models import Role
from tests.admin.conftest import EMAILS
from tests.admin.helpers import sign_in
from tests.admin.test_content_editing import edit_form


def worker(app: Flask) -> Flask:
    """An application on ``app``'s database without Redis: a worker with its own in-process cache."""
    return create_app({"TESTING": True, "DATABASE_URL": app.config["DATABASE_URL"], "REDIS_URL": "",
                       "MEDIA_ROOT": app.config["MEDIA_ROOT"]})


def test_an_edit_in_one_worker_is_seen_by_another_within_the_memo(
        app: Flask, demo_catalogue: Flask, accounts: dict[Role, int], monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(caching, "GENERATION_MEMO", 0.2)
    reader = worker(app).test_client()
    assert reader.get("/contents/2").get_json()["title"] == "Тихая гавань"  # kept by the other worker
    editor = worker(app).test_client()
    assert sign_in(editor, EMAILS[Role.EDITOR]).status_code == 302
    form = edit_form(editor, 2)
    form["title"] = "Гавань, отредактированная в другом процессе"
    assert editor.post("/admin/content/edit/?id=2", data=form).status_code == 302
    time.sleep(0.3)
    assert reader.get("/contents/2").get_json()["title"] == "Гавань, отредактированная в другом процессе"


def test_the_generation_survives_a_database_that_fails(app: Flask, monkeypatch: pytest.MonkeyPatch):
    """A counter the database cannot give keeps the value the process knew (no request fails for it)."""
    monkeypatch.setattr(caching, "GENERATION_MEMO", 0.0)
    with worker(app).app_context():
        known = caching.store().bump_generation()
        assert caching.store().generation() == known
        monkeypatch.setattr(caching, "database_counter", lambda key, log: caching.UNREAD)
        assert caching.store().generation() == known
