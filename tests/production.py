"""The production shape (deploy/production.py) for the tests: started once per test file on a throwaway PostgreSQL
database, with Redis, and requests made from a loopback address the demo's country database places in a country
(deploy/geo/demo-country-db.pl: 127.0.0.1 Russia, 127.0.0.2 Germany, any other nowhere)."""

from __future__ import annotations

import contextlib
import http.client
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa

from deploy.production import GEOIP_MODULE, NGINX, ROOT, Shape, free_port, running
from tests.test_database_outages import postgres_server

RUSSIA, GERMANY, NOWHERE = "127.0.0.1", "127.0.0.2", "127.0.0.9"


def redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@contextlib.contextmanager
def production_shape(label: str, **settings: str) -> Iterator[tuple[Shape, str]]:
    """The shape and its database's URL; warmed (each worker's first requests connect and make the snapshots)."""
    if not (shutil.which("nginx") or os.path.exists(NGINX)) or not os.path.exists(GEOIP_MODULE):
        pytest.fail("nginx or its geoip2 module is missing: `make test` installs them")
    server = postgres_server()  # skips without PostgreSQL
    if not redis_answers():
        pytest.skip("no Redis answers on 127.0.0.1:6379 (the production shape needs one)")
    name = f"player_{label}_{os.getpid()}"
    database = server.set(database=name).render_as_string(hide_password=False)
    try:
        with running(port=free_port(), quiet=True, database_url=database, redis_url="redis://127.0.0.1:6379/5",
                     settings=settings or None) as up:
            for path in ("/?movie_id=2", "/contents/2", "/episodes?content-id=2", "/healthz") * 4:
                fetch(up.base + path, timeout=60)
            yield up, database
        shutil.rmtree(up.run, ignore_errors=True)  # its logs and nginx's cache
    finally:
        admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def fetch(url: str, headers: dict[str, str] | None = None, data: bytes | None = None, timeout: float = 30,
          source: str = RUSSIA, method: str | None = None) -> tuple[int, dict[str, str], bytes, float]:
    """(status, headers, body, seconds) of one request from the loopback address ``source``; never follows a
    redirect."""
    parts = urlsplit(url)
    started = time.monotonic()
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout,
                                            source_address=(source, 0))
    try:
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        connection.request(method or ("POST" if data is not None else "GET"), target, body=data,
                           headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read(), time.monotonic() - started
    finally:
        connection.close()


def create_admin(database_url: str, email: str, password: str) -> None:
    """The first administrator, as an operator makes one (docs/production.md): the CLI, the password on stdin."""
    env = {**os.environ, "DATABASE_URL": database_url, "FLASK_APP": "wsgi.py"}
    env.pop("ENV", None)
    done = subprocess.run([str(ROOT / ".venv" / "bin" / "flask"), "accounts", "create-admin", email,
                           "--password-stdin"], cwd=ROOT, env=env, input=f"{password}\n", text=True,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr or done.stdout
