"""GET /caches, DELETE /caches, DELETE /caches/{name} (administrators only), and single flight: a hot entry that is
missing is made once, by one request, while the others asking for it wait (app/caching.py)."""

from __future__ import annotations

import threading
import time

import pytest

import app.snapshots as snapshots
from app import create_app
from app.database import unhurried
from app.extensions import db
from app.models import Role
from tests.api.accounts_helpers import bearer, block, make_account, sign_in
from tests.api.test_catalogue_api import assert_error
from tests.api.test_revocation import redis_url

CALLS = [("get", "/caches"), ("delete", "/caches"), ("delete", "/caches/responses")]


@pytest.fixture
def admin(app, client):
    make_account(app, "root@example.com", Role.ADMIN)
    return bearer(sign_in(client, "root@example.com"))


@pytest.fixture
def builds(monkeypatch):
    """Counts the snapshots made; each takes a moment, so that concurrent requests meet while it is made."""
    made: list[int] = []
    original = snapshots._build

    def slow(content_id):
        made.append(content_id)
        time.sleep(0.3)
        return original(content_id)

    monkeypatch.setattr(snapshots, "_build", slow)
    return made


def sizes(client, headers):
    response = client.get("/caches", headers=headers)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    return {cache["name"]: cache for cache in response.get_json()["caches"]}


@pytest.mark.parametrize(("who", "status"), [("anonymous", 401), ("viewer", 403), ("editor", 403),
                                             ("blocked admin", 401), ("admin", 200)])
def test_only_administrators_see_and_clear_caches(app, client, demo_catalogue, who, status):
    headers = {}
    if who != "anonymous":
        role = {"viewer": Role.VIEWER, "editor": Role.EDITOR}.get(who, Role.ADMIN)
        account = make_account(app, f"{who.replace(' ', '-')}@example.com", role)
        headers = bearer(sign_in(client, f"{who.replace(' ', '-')}@example.com"))
        if who == "blocked admin":
            block(app, account)
    for method, path in CALLS:
        response = getattr(client, method)(path, headers=headers)
        assert response.status_code == status, (method, path)
        if status != 200:
            assert_error(response, status, response.get_json()["error"]["code"])


def test_sizes_count_what_is_kept_and_a_clear_empties_one_cache(client, demo_catalogue, admin, builds):
    before = sizes(client, admin)
    assert set(before) == {"responses", "snapshots"}
    assert all(cache["exact"] and cache["description"] for cache in before.values())
    for content_id in (1, 2):
        assert client.get(f"/contents/{content_id}").status_code == 200
    kept = sizes(client, admin)
    assert kept["responses"]["entries"] == before["responses"]["entries"] + 2
    assert kept["snapshots"]["entries"] == before["snapshots"]["entries"] + 4  # fresh and last-known, per title
    assert builds == [1, 2]

    after = client.delete("/caches/responses", headers=admin)
    assert after.status_code == 200
    cleared = {cache["name"]: cache["entries"] for cache in after.get_json()["caches"]}
    assert cleared == {"responses": 0, "snapshots": kept["snapshots"]["entries"]}
    assert client.get("/contents/1").status_code == 200
    assert builds == [1, 2]  # the response was made again, from the snapshot still kept

    assert client.delete("/caches", headers=admin).status_code == 200
    assert {name: cache["entries"] for name, cache in sizes(client, admin).items()} == {"responses": 0,
                                                                                       "snapshots": 0}
    assert client.get("/contents/1").status_code == 200
    assert builds == [1, 2, 1]  # and now the snapshot too


def test_an_unknown_cache_is_a_404(client, admin):
    error = assert_error(client.delete("/caches/sessions", headers=admin), 404, "cache_not_found")
    assert error["details"]["caches"] == ["responses", "snapshots"]


def concurrently(clients, path, count):
    """``count`` requests for ``path`` at once, spread over ``clients``; their statuses and bodies, and the time."""
    answers: list[tuple[int, bytes]] = []
    start = threading.Barrier(count)

    def ask(client):
        start.wait()
        response = client.get(path)
        answers.append((response.status_code, response.get_data()))

    threads = [threading.Thread(target=ask, args=(clients[n % len(clients)],)) for n in range(count)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    return answers, time.monotonic() - began


def test_a_cleared_hot_entry_is_made_once_for_every_waiting_request(app, demo_catalogue, builds):
    clients = [app.test_client() for _ in range(12)]
    answers, _ = concurrently(clients, "/contents/2", 12)
    assert builds == [2]
    assert len(answers) == 12 and {status for status, _ in answers} == {200}
    assert len({body for _, body in answers}) == 1


def test_a_failed_maker_lets_the_waiting_requests_make_it_themselves(app, demo_catalogue, builds, monkeypatch):
    made_once = snapshots._build
    failures = []

    def failing_first(content_id):
        if not failures:
            failures.append(content_id)
            time.sleep(0.3)
            raise RuntimeError("the first maker fails")
        return made_once(content_id)

    monkeypatch.setattr(snapshots, "_build", failing_first)
    answers, took = concurrently([app.test_client() for _ in range(6)], "/contents/1", 6)
    statuses = sorted(status for status, _ in answers)
    assert statuses.count(500) == 1 and statuses.count(200) == 5
    assert took < 3  # no one waited out the flight's limit


def test_across_processes_the_entry_is_made_once(migrated_database, assets_built, tmp_path, smtp_server, builds):
    url = redis_url()
    if url is None:
        pytest.skip("no Redis on this machine (CI runs one)")
    config = {"TESTING": True, "DATABASE_URL": migrated_database, "MEDIA_ROOT": str(tmp_path), "REDIS_URL": url}
    apps = [create_app(config), create_app(config)]
    from app.demo.seed import seed_demo
    from tests.conftest import empty_tables

    try:
        with apps[0].app_context(), unhurried(apps[0], db.engine):
            seed_demo()
        answers, _ = concurrently([apps[n % 2].test_client() for n in range(10)], "/contents/2", 10)
        assert {status for status, _ in answers} == {200} and len({body for _, body in answers}) == 1
        assert builds == [2]
    finally:
        with apps[0].app_context():
            empty_tables()
        for one in apps:
            with one.app_context():
                db.engine.dispose()
