"""The database gone, black-holed and back (app/database.py, app/errors.py), against this machine's PostgreSQL through
a TCP proxy the test can switch to a black hole (it accepts and never answers). Every route answers within about
2 s: what was kept before the outage (shared responses, a title's snapshot) as before, a returning viewer's page from
the snapshot, the rest with 503 and Retry-After (the API) or the generic error screen (the page); routes without the
database are untouched, and the service recovers by itself when the database is back."""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade
from sqlalchemy.engine import make_url
from werkzeug.serving import make_server

from app import create_app, texts
from app.config import Settings, normalise_database_url
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from deploy.relay import Relay
from tests.conftest import signed_identity

LOCAL_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
RETRY_AFTER = 2


def postgres_server() -> sa.engine.URL:
    configured = os.environ.get("DATABASE_URL", "")
    url = make_url(normalise_database_url(configured if configured.startswith("postgres") else LOCAL_POSTGRES))
    try:
        socket.create_connection((url.host or "127.0.0.1", url.port or 5432), timeout=1).close()
    except OSError:
        pytest.skip("no PostgreSQL answers here (the outage tests need one: make test's machine runs it)")
    return url


@pytest.fixture
def outage_app(tmp_path) -> Iterator[tuple[Flask, str, Relay, sa.engine.URL]]:
    server = postgres_server()
    name = f"player_outage_{os.getpid()}_{int(time.time() * 1000) % 10**8}"
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    proxy = Relay((server.host or "127.0.0.1", server.port or 5432))
    through_proxy = server.set(host="127.0.0.1", port=proxy.port, database=name)
    app = create_app({"TESTING": True, "DATABASE_URL": through_proxy.render_as_string(hide_password=False),
                      "MEDIA_ROOT": Settings.from_env().MEDIA_ROOT,  # the demo media (make test makes them)
                      "DB_RETRY_AFTER": RETRY_AFTER, "DB_STATEMENT_TIMEOUT_MS": Settings.DB_STATEMENT_TIMEOUT_MS})
    # the set-up's statements: no requests' deadline (CI: it timed out)
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
        db.session.remove()
    http = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    try:
        yield app, f"http://127.0.0.1:{http.server_port}", proxy, server.set(database=name)
    finally:
        http.shutdown()
        proxy.set("through")
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
        proxy.close()
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str, float]:
    started = time.monotonic()
    try:
        request = urllib.request.Request(url, headers=headers or {})  # noqa: S310 - our loopback server
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - our loopback server
            status, headers, body = response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        status, headers, body = error.code, dict(error.headers), error.read().decode()
    return status, headers, body, time.monotonic() - started


def assert_unavailable(base: str, limit: float = 2.6) -> None:
    """What nothing kept can answer (a title nobody asked for yet): 503 in the error shape, the generic screen."""
    status, headers, body, took = get(f"{base}/contents/2")
    assert status == 503 and took < limit, (status, took)
    assert headers["Retry-After"] == str(RETRY_AFTER) and '"code":"service_unavailable"' in body
    status, headers, body, took = get(f"{base}/?movie_id=3")
    assert status == 503 and took < limit and texts.GENERIC_ERROR in body  # the spec's generic error screen


def assert_kept_answers(base: str) -> None:
    """What was asked for before the outage keeps answering, at once (app/http/shared.py, app/snapshots.py)."""
    for path in ("/?movie_id=1", "/contents/1"):
        status, _, _body, took = get(f"{base}{path}")
        assert status == 200 and took < 1, (path, status, took)
    assert "Долгая дорога домой" in get(f"{base}/?movie_id=1")[2]


def recovered(base: str, seconds: float = 10) -> bool:
    """A read nothing kept (content 4's): the database answers it again."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if get(f"{base}/contents/4")[0] == 200:
            return True
        time.sleep(0.2)
    return False


def test_a_black_holed_database_costs_two_seconds_and_the_service_recovers(outage_app):
    _app, base, proxy, _ = outage_app
    assert get(f"{base}/contents/1")[0] == 200  # a pooled connection, through the proxy
    assert get(f"{base}/?movie_id=1")[0] == 200
    proxy.set("black-hole")
    assert_unavailable(base)
    assert_kept_answers(base)
    # a returning viewer's page too, from the title's snapshot (their history waits), and its film plays: the master
    # JSON and the media need no database
    cookie = {"Cookie": f"device_fp={signed_identity(_app, 'outage-viewer-00000001')}"}
    status, headers, page, took = get(f"{base}/?movie_id=1", cookie)
    assert status == 200 and took < 2.6 and headers["Cache-Control"] == "private, max-age=0"
    master = re.search(r'"m3u8MasterFilePath": "([^"]+)"', page)
    assert master and get(f"{base}{master.group(1)}")[0] == 200
    # while it lasts, sixteen viewers at once get their answers at once, and what needs no database is untouched
    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(get, [f"{base}/contents/{n}" for n in range(6, 22)]))
    assert {status for status, *_ in answers} == {503} and max(took for *_, took in answers) < 2.6
    status, _, _, took = get(f"{base}/lib.js")
    assert status == 200 and took < 1
    assert get(f"{base}/healthz")[0] == 200  # the process is up
    status, _, body, took = get(f"{base}/readyz")  # and says what it lacks
    assert status == 503 and '"database":"unavailable' in body.replace(" ", "") and took < 2.6
    proxy.set("through")
    assert recovered(base)  # no restart


def test_a_database_dropped_under_the_service_is_a_fast_503_and_one_put_back_serves_again(outage_app):
    app, base, _, database = outage_app
    assert get(f"{base}/?movie_id=1")[0] == 200
    assert get(f"{base}/contents/1")[0] == 200
    admin = sa.create_engine(database.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'DROP DATABASE "{database.database}" WITH (FORCE)'))
    assert_unavailable(base)
    assert_kept_answers(base)
    with admin.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{database.database}"'))
    admin.dispose()
    while app.extensions["database_breaker"].open:  # the operator's migration goes through the same engine
        time.sleep(0.1)
    with app.app_context():
        upgrade()
        with unhurried(app, db.engine):  # as `flask demo seed` runs it: a batch, without the requests' deadlines
            seed_demo()
    assert recovered(base)


def post(url: str, body: dict, headers: dict[str, str]) -> tuple[int, dict[str, str], float]:
    started = time.monotonic()
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",  # noqa: S310 - loopback
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - our loopback server
            status, answered = response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        status, answered = error.code, dict(error.headers)
    return status, answered, time.monotonic() - started


def test_a_progress_save_while_the_database_is_away_is_refused_for_the_player_to_send_again(outage_app):
    """Progress saves are not kept in the process while the database is away (a worker's memory is lost with it, and
    a later save would race the kept one): each is refused at once with 503 and Retry-After, which the player's
    client honours, sending the newest position again (static_src/api/client.ts); the save after the outage lands."""
    app, base, proxy, _ = outage_app
    viewer = {"X-Session-Context": signed_identity(app, "outage-viewer-00000002")}
    save = f"{base}/contents/1/episodes/1/time-progress"
    assert post(save, {"time": 10}, viewer)[0] == 204
    proxy.set("black-hole")
    status, headers, took = post(save, {"time": 20}, viewer)
    assert (status, headers.get("Retry-After")) == (503, str(RETRY_AFTER)) and took < 2.6
    proxy.set("through")
    deadline = time.monotonic() + 10
    while (status := post(save, {"time": 20}, viewer)[0]) == 503 and time.monotonic() < deadline:
        time.sleep(float(RETRY_AFTER) / 4)  # as the client does, after its Retry-After (shortened here)
    assert status == 204
    status, _, body, _ = get(f"{base}/contents/1/episodes/watched/last", viewer)
    assert status == 200 and json.loads(body)["time"] == 20
