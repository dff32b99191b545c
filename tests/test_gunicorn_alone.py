"""gunicorn alone, as `make start` serves (bin/start: gunicorn's own settings, no nginx in front to read bodies whole):
a body the application left unread (refused for its size, a 413; or answered before a view read it) no longer costs
the client its connection's next request (app/http/limits.py). One read away after the answer leaves the connection
serving the next request; one too large for that is answered with ``Connection: close`` and the connection closed,
so the client opens a new one. Before, gunicorn answered with ``Connection: keep-alive``, read 64 KiB of the body,
gave up and closed: the next request got no answer."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.http.limits import DRAIN_BYTES
from deploy.production import ROOT, free_port

VENV = ROOT / ".venv" / "bin"
LIMIT = 65_536  # MAX_REQUEST_BYTES's default


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    folder: Path = tmp_path_factory.mktemp("gunicorn-alone")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'app.db'}", "FLASK_APP": "wsgi.py",
           "PYTHONUNBUFFERED": "1", "MAX_REQUEST_BYTES": str(LIMIT)}
    for name in ("ENV", "PUBLIC_URL", "GUNICORN_CMD_ARGS", "WEB_CONCURRENCY"):
        env.pop(name, None)
    subprocess.run([str(VENV / "flask"), "db", "upgrade"], cwd=ROOT, env=env, check=True, capture_output=True,
                   timeout=120)
    port = free_port()
    with (folder / "gunicorn.log").open("w") as log:
        server = subprocess.Popen(  # as bin/start runs it
            [str(VENV / "gunicorn"), "--bind", f"127.0.0.1:{port}", "--workers", "1", "--threads", "2", "wsgi:app"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            deadline = time.monotonic() + 60
            while True:
                assert server.poll() is None, (folder / "gunicorn.log").read_text()
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert time.monotonic() < deadline, "gunicorn did not listen"
                    time.sleep(0.2)
            yield port
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)


def too_large(size: int) -> bytes:
    return b'{"fingerprint": "' + b"a" * size + b'"}'


def test_a_refused_body_leaves_the_connection_serving_the_next_request(port):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("POST", "/session-context", body=too_large(3 * LIMIT),
                       headers={"Content-Type": "application/json"})
    refused = connection.getresponse()
    assert refused.status == 413 and json.loads(refused.read())["error"]["code"] == "payload_too_large"
    assert refused.getheader("Connection") == "keep-alive" and not refused.will_close
    used = connection.sock
    connection.request("GET", "/healthz")
    following = connection.getresponse()
    assert following.status == 200 and json.loads(following.read()) == {"status": "ok"}
    assert connection.sock is used  # the same connection, not a new one
    connection.close()


def test_a_chunked_body_too_large_is_read_away_as_well(port):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    chunks = iter([too_large(LIMIT)[:40_000], b"a" * 60_000, b"a" * 60_000, b'"}'])
    connection.request("POST", "/session-context", body=chunks, encode_chunked=True,
                       headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
    refused = connection.getresponse()
    assert refused.status == 413 and not refused.will_close
    refused.read()
    connection.request("GET", "/healthz")
    assert connection.getresponse().status == 200
    connection.close()


def test_a_body_too_large_to_read_away_closes_the_connection_and_says_so(port):
    declared = DRAIN_BYTES * 4
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(b"POST /session-context HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    b"Content-Length: " + str(declared).encode() + b"\r\n\r\n" + too_large(LIMIT)[:30_000])
        answer = b""
        while True:  # until the server closes: the whole answer, then the end of the connection
            data = raw.recv(65_536)
            if not data:
                break
            answer += data
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 ")
    assert b"\r\nConnection: close\r\n" in head + b"\r\n"
    assert json.loads(body)["error"]["code"] == "payload_too_large"
    fresh = http.client.HTTPConnection("127.0.0.1", port, timeout=10)  # the client's next request, on a new one
    fresh.request("GET", "/healthz")
    assert fresh.getresponse().status == 200
    fresh.close()


def test_a_body_answered_before_it_was_read_leaves_the_connection_serving(port):
    """An admin upload without a session is redirected to the sign-in before any view reads it: a body the
    application would have taken (its limit is the admin's) is read away whole."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("POST", "/admin/content/new/", body=b"-" * (3 * DRAIN_BYTES),
                       headers={"Content-Type": "application/x-www-form-urlencoded"})
    redirected = connection.getresponse()
    assert redirected.status == 302 and not redirected.will_close
    redirected.read()
    used = connection.sock
    connection.request("GET", "/healthz")
    assert connection.getresponse().status == 200 and connection.sock is used
    connection.close()
