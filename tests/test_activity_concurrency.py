"""Progress saves, finished marks, recorded views and sign-ins at once (issue 32), from threads against a real
threaded server on this machine's PostgreSQL: every write is one statement (INSERT … ON CONFLICT), so concurrent
requests for the same rows all succeed and leave exactly one row each, and a sign-in that merges a device's progress
while that device keeps saving loses nothing and doubles nothing."""

from __future__ import annotations

import itertools
import json
import logging
import os
import random
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
from sqlalchemy import func, select
from werkzeug.serving import make_server

from app import create_app
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from app.models import WatchProgress
from tests.api.accounts_helpers import PASSWORD, make_account
from tests.conftest import signed_identity
from tests.test_database_outages import postgres_server

VIEWERS, EPISODES, TIMES = 12, (2, 3, 4, 5, 6, 7), (5, 10, 15)
LOTS = "100000 per minute"
CLIENTS = 16
# Werkzeug's server takes a thread per request, without bound; gunicorn's worker has GUNICORN_THREADS (4), under its
# pool's 2 x DB_POOL_SIZE connections, so that no request waits for a connection. This server's pool is sized the same
# way for the test's clients: a wait for a connection (DB_POOL_TIMEOUT_MS) past a loaded machine's second is a 503
# that production's shape never meets, and not the races this test is about.
POOL_SIZE = CLIENTS // 2


@pytest.fixture
def served() -> Iterator[tuple[Flask, str]]:
    server = postgres_server()
    name = f"player_race_{os.getpid()}_{int(time.time() * 1000) % 10**8}"
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    app = create_app({"TESTING": True, "DATABASE_URL": server.set(database=name).render_as_string(hide_password=False),
                      "RATE_LIMIT_VIEWER": LOTS, "RATE_LIMIT_IP": LOTS, "RATE_LIMIT_AUTH_IP": LOTS,
                      "RATE_LIMIT_AUTH_ACCOUNT": LOTS, "DB_POOL_SIZE": POOL_SIZE})
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
    http = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    try:
        yield app, f"http://127.0.0.1:{http.server_port}"
    finally:
        http.shutdown()
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def post(url: str, body: dict | None, headers: dict[str, str]) -> tuple[int, dict]:
    data = json.dumps(body if body is not None else {}).encode()
    request = urllib.request.Request(url, data=data, method="POST",  # noqa: S310 - our loopback server
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310 - our loopback server
            raw = response.read()
            return response.status, json.loads(raw) if raw else {}
    except urllib.error.HTTPError as error:
        return error.code, {}


def unavailable(records: list[logging.LogRecord]) -> list[str]:
    """The causes app/errors.py logs for its 503s, so that a failure says which wait ran out."""
    return [record.getMessage() for record in records if record.getMessage().startswith("503 on")]


def test_simultaneous_saves_marks_and_views_leave_exact_rows_and_no_error(served, caplog):
    app, base = served
    devices = {n: {"X-Session-Context": signed_identity(app, f"race{n:04d}device00000000")}
               for n in range(VIEWERS)}
    calls = [(f"/contents/2/episodes/{e}/time-progress", {"time": t}, n)
             for n, e, t in itertools.product(range(VIEWERS), EPISODES, TIMES)]
    calls += [(f"/contents/2/episodes/{e}/completed", None, n) for n in range(VIEWERS) for e in EPISODES[::2]] * 2
    calls += [("/contents/2/history", {"episodeId": 2}, n) for n in range(VIEWERS)] * 3
    random.Random(32).shuffle(calls)
    with ThreadPoolExecutor(CLIENTS) as pool:
        statuses = list(pool.map(lambda c: post(base + c[0], c[1], devices[c[2]])[0], calls))
    assert statuses.count(204) == len(calls), ({s: statuses.count(s) for s in set(statuses)},
                                               unavailable(caplog.records))
    with app.app_context():
        rows = db.session.execute(select(WatchProgress.viewer_key, WatchProgress.episode_id, WatchProgress.time,
                                         WatchProgress.completed)).all()
    assert len(rows) == VIEWERS * len(EPISODES)  # one row per viewer and episode, however many requests raced
    assert {time for *_, time, _ in rows} <= set(TIMES)
    assert sum(done for *_, done in rows) == VIEWERS * len(EPISODES[::2])
    for n in range(VIEWERS):
        status, page = post(f"{base}/contents/history", {}, devices[n])
        assert status == 200 and page["total"] == 1 and page["items"][0]["content"]["id"] == 2


def test_a_sign_in_from_many_devices_while_they_save_merges_everything_once(served):
    app, base = served
    account_id = make_account(app, "anna@example.com")
    devices = [{"X-Session-Context": signed_identity(app, f"merge{n:03d}device00000000")} for n in range(6)]
    for n, device in enumerate(devices):  # each device watched one episode before
        assert post(f"{base}/contents/2/episodes/{EPISODES[n]}/time-progress", {"time": 10 + n}, device)[0] == 204
    sign_in = [("/authentication", {"email": "anna@example.com", "password": PASSWORD}, device)
               for device in devices]
    saves = [(f"/contents/2/episodes/{EPISODES[n]}/time-progress", {"time": 20 + n}, devices[n]) for n in range(6)]
    with ThreadPoolExecutor(12) as pool:
        statuses = list(pool.map(lambda c: post(base + c[0], c[1], c[2])[0], sign_in + saves))
    assert statuses == [200] * 6 + [204] * 6
    with app.app_context():
        held = db.session.execute(select(WatchProgress.episode_id, func.count()).where(
            WatchProgress.viewer_key == f"user:{account_id}").group_by(WatchProgress.episode_id)).all()
    assert dict(held) == dict.fromkeys(EPISODES, 1)  # every episode any device watched, once
