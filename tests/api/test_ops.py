"""Liveness, readiness and request ids (app/api/ops.py, app/http/requests.py)."""

from __future__ import annotations

import re
import socket

import pytest


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # nothing listens there once the probe is closed


def test_healthz_is_ok_and_never_cached(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_json() == {"status": "ok"}
    assert response.headers["Cache-Control"] == "no-store"


def test_readyz_asks_the_database_and_says_redis_is_not_configured(app, client):
    app.config["REDIS_URL"] = ""  # (CI sets it for every application)
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": "ok", "redis": "not configured"}


def test_readyz_is_503_with_what_is_missing_when_redis_does_not_answer(app, client):
    app.config["REDIS_URL"] = f"redis://127.0.0.1:{closed_port()}/0"
    response = client.get("/readyz")
    assert response.status_code == 503 and response.headers["Retry-After"] == str(app.config["DB_RETRY_AFTER"])
    body = response.get_json()
    assert body["database"] == "ok" and body["redis"].startswith("unavailable")


def test_readyz_with_this_machines_redis(app, client):
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
    except OSError:
        pytest.skip("no Redis answers on 127.0.0.1:6379")
    app.config["REDIS_URL"] = "redis://127.0.0.1:6379/0"
    assert client.get("/readyz").get_json()["redis"] == "ok"


def test_every_response_has_its_own_request_id_and_errors_name_it(client):
    first, second = client.get("/healthz"), client.get("/contents/424242")
    assert re.fullmatch(r"[0-9a-f]{32}", first.headers["X-Request-Id"])
    assert first.headers["X-Request-Id"] != second.headers["X-Request-Id"]
    assert second.get_json()["error"]["requestId"] == second.headers["X-Request-Id"]


def test_a_request_id_is_taken_from_a_trusted_proxy_only(app, client):
    given = {"X-Request-Id": "nginx-0123456789abcdef"}
    assert client.get("/healthz", headers=given).headers["X-Request-Id"] != given["X-Request-Id"]
    app.config["TRUSTED_PROXIES"] = "127.0.0.1"
    assert client.get("/healthz", headers=given).headers["X-Request-Id"] == given["X-Request-Id"]
    forged = client.get("/healthz", headers={"X-Request-Id": "bad id with spaces"})
    assert re.fullmatch(r"[0-9a-f]{32}", forged.headers["X-Request-Id"])
