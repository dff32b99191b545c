"""The production shape (deploy/production.py: Debian's nginx in front of gunicorn with deploy/gunicorn.conf.py,
ENV=production, this machine's PostgreSQL and Redis) as a viewer and an attacker meet it: shared pages kept by nginx
and personal ones passed by, what nginx refuses answered in the service's JSON error shape, and slow or idle
clients that never starve the workers."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from deploy.production import NGINX, Shape, free_port, running
from tests.test_database_outages import postgres_server


def redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture(scope="module")
def shape() -> Iterator[Shape]:
    if not shutil.which("nginx") and not os.path.exists(NGINX):
        pytest.fail("nginx is missing: `make test` installs Debian's nginx-light")
    server = postgres_server()  # skips without PostgreSQL
    if not redis_answers():
        pytest.skip("no Redis answers on 127.0.0.1:6379 (the production shape needs one)")
    name = f"player_shape_{os.getpid()}"
    database = server.set(database=name).render_as_string(hide_password=False)
    try:
        with running(port=free_port(), quiet=True, database_url=database, redis_url="redis://127.0.0.1:6379/5") as up:
            # each worker's first requests connect to PostgreSQL and Redis and make the snapshots: done before the
            # tests, which time what comes after (the suite runs beside browser tests: a busy machine)
            for path in ("/?movie_id=2", "/contents/2", "/episodes?content-id=2", "/healthz") * 4:
                get(up.base + path, timeout=60)
            yield up
        shutil.rmtree(up.run, ignore_errors=True)  # its logs and nginx's cache
    finally:
        admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def get(url: str, headers: dict[str, str] | None = None, data: bytes | None = None,
        timeout: float = 30) -> tuple[int, dict[str, str], bytes, float]:
    started = time.monotonic()
    request = urllib.request.Request(url, data=data, headers=headers or {})  # noqa: S310 - loopback
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - loopback
            return response.status, dict(response.headers), response.read(), time.monotonic() - started
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read(), time.monotonic() - started


def test_nginx_keeps_the_shared_page_and_passes_a_returning_viewer_by(shape):
    first = get(f"{shape.base}/?movie_id=1")
    second = get(f"{shape.base}/?movie_id=1")
    assert first[0] == second[0] == 200 and second[1]["X-Cache"] == "HIT" and second[2] == first[2]
    personal = get(f"{shape.base}/?movie_id=1", {"Cookie": "device_fp=anything"})
    assert personal[0] == 200 and personal[1]["X-Cache"] == "BYPASS"
    assert personal[1]["Cache-Control"] == "private, max-age=0"
    german = get(f"{shape.base}/?movie_id=1", {"X-Viewer-Country": "de"})
    assert german[1]["X-Cache"] == "MISS"  # another country: another entry


def test_what_nginx_refuses_is_answered_in_the_error_shape(shape):
    status, headers, body, _ = get(f"{shape.base}/contents/1?q={'a' * 9000}")
    assert status == 414 and headers["Content-Type"] == "application/json"
    assert json.loads(body)["error"]["code"] == "uri_too_long"
    status, headers, body, _ = get(f"{shape.base}/session-context", {"Content-Type": "application/json"},
                                   b'{"fingerprint": "' + b"a" * 100_000 + b'"}')
    assert status == 413 and json.loads(body)["error"]["code"] == "payload_too_large"


def test_idle_and_slow_clients_never_starve_the_workers(shape):
    """200 idle connections and 20 sending a header line every 2 s, against 2 workers × 4 threads: nginx holds them,
    and the page and the API answer every probe within a second."""
    host, port = shape.base.removeprefix("http://").split(":")
    held: list[socket.socket] = [socket.create_connection((host, int(port)), timeout=2) for _ in range(200)]
    slow = [socket.create_connection((host, int(port)), timeout=2) for _ in range(20)]
    stop = threading.Event()

    def drip() -> None:
        for connection in slow:
            connection.sendall(b"GET /?movie_id=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        while not stop.wait(2):
            for connection in slow:
                with contextlib.suppress(OSError):
                    connection.sendall(b"X-Slow: 1\r\n")

    threading.Thread(target=drip, daemon=True).start()
    try:
        time.sleep(0.5)
        for path in ("/?movie_id=2", "/contents/2", "/episodes?content-id=2", "/healthz"):
            for _ in range(3):
                status, _, _, took = get(shape.base + path, timeout=3)
                assert status == 200 and took < 1, (path, status, took)
    finally:
        stop.set()
        for connection in held + slow:
            connection.close()
