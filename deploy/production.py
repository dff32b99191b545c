"""The production shape, run for real on this machine: nginx (Debian's) in front of gunicorn (deploy/gunicorn.conf.py)
with ENV=production, a job worker beside them (``flask jobs worker``, QUEUE_WORKERS threads, its queue in Redis:
docs/jobs.md), this machine's PostgreSQL and Redis. ``bin/production`` serves it until interrupted;
deploy/load_and_fault.py and tests/test_production_shape.py start it the same way.

Nothing is faked, but two things are put between the application and its stores so that a fault can be made on
purpose: the application reaches PostgreSQL and Redis through TCP relays of this process (deploy/relay.py), which can
refuse connections (the store is gone) or accept and never answer (black-holed). ``bin/production`` starts them
too, switched through, so that what is measured is what runs.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from deploy.relay import Relay

ROOT = Path(__file__).resolve().parent.parent
INSTANCE = ROOT / "instance"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
GEOIP_MODULE = "/usr/lib/nginx/modules/ngx_http_geoip2_module.so"  # Debian's libnginx-mod-http-geoip2
# The country database nginx looks viewers up in (GeoIP2/GeoLite2-Country format): MaxMind's GeoLite2-Country.mmdb in
# a real deployment; without one, the demo's, which places loopback addresses (deploy/geo/demo-country-db.pl).
GEOIP_DATABASE = os.environ.get("GEOIP_DATABASE", "")
POSTGRES = os.environ.get("PRODUCTION_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/player_production")
REDIS = os.environ.get("PRODUCTION_REDIS_URL", "redis://127.0.0.1:6379/3")


def _via(url: str, port: int) -> str:
    parts = urlsplit(url)
    credentials = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
    return urlunsplit(parts._replace(netloc=f"{credentials}127.0.0.1:{port}"))


def _address(url: str, default_port: int) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or default_port


def free_port() -> int:
    """A port nothing listens on, below Linux's ephemeral range (32768 and up): the kernel hands ports of that range
    to the relays and to every outgoing connection, and one of them could take a port chosen there before nginx
    binds it."""
    rng = random.SystemRandom()
    for _ in range(200):
        port = rng.randrange(20_000, 32_000)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port between 20000 and 32000")


def secrets_file() -> dict[str, str]:
    """instance/production.env: this machine's production secrets, made once (never in the repository)."""
    path = INSTANCE / "production.env"
    if not path.exists():
        INSTANCE.mkdir(exist_ok=True)
        path.write_text("".join(f"{name}={secrets.token_urlsafe(48)}\n" for name in ("SECRET_KEY", "MEDIA_URL_SECRET")))
        path.chmod(0o600)
    return dict(line.split("=", 1) for line in path.read_text().split() if "=" in line)


def ensure_database(url: str) -> None:
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url

    target = make_url(url)
    admin = sa.create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        exists = connection.execute(sa.text("SELECT 1 FROM pg_database WHERE datname = :n"),
                                    {"n": target.database}).first()
        if not exists:
            connection.execute(sa.text(f'CREATE DATABASE "{target.database}"'))
    admin.dispose()


@dataclass
class Shape:
    base: str  # nginx's address
    app: str  # gunicorn's
    worker: subprocess.Popen[bytes]  # the job worker (flask jobs worker)
    database: Relay
    redis: Relay
    run: Path


def _wait_until(ready: Callable[[], bool], process: subprocess.Popen[bytes], what: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}")
        if ready():
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} was not ready in {seconds} s")


def _listens(port: int) -> Callable[[], bool]:
    def ready() -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        except OSError:
            return False
        return True
    return ready


def _answers(url: str) -> Callable[[], bool]:
    """Whether the application answers ``url`` (its /healthz): gunicorn's socket listens as soon as it starts, but a
    request waits there until a worker has loaded the application (4–5 s on this machine, over 9 s when it is busy),
    so a client that gave up sooner (load_and_fault's first call, 5 s) found the shape "up" and unanswering."""
    def ready() -> bool:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.status == 200
        except (OSError, http.client.HTTPException):
            return False
    return ready


@contextlib.contextmanager
def running(port: int = 8080, workers: int = 2, threads: int = 4, quiet: bool = False,
            database_url: str = POSTGRES, redis_url: str = REDIS,
            settings: dict[str, str] | None = None) -> Iterator[Shape]:
    """nginx on 127.0.0.1:``port`` → gunicorn → (relays) → PostgreSQL and Redis, the demo catalogue in place.
    ``settings``: more of the application's configuration (app/config.py)."""
    if not Path(NGINX).exists() or not Path(GEOIP_MODULE).exists():
        raise RuntimeError("nginx or its geoip2 module is missing: bin/production installs Debian's nginx-light and "
                           "libnginx-mod-http-geoip2")
    geo_database = GEOIP_DATABASE or str(demo_country_database())
    keys = secrets_file()
    ensure_database(database_url)
    database = Relay(_address(database_url, 5432))
    redis = Relay(_address(redis_url, 6379))
    app_port = free_port()
    public = f"http://127.0.0.1:{port}"
    env = {
        **os.environ, **keys,
        "ENV": "production", "PUBLIC_URL": public, "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": _via(database_url, database.port), "REDIS_URL": _via(redis_url, redis.port),
        "TRUSTED_PROXIES": "127.0.0.1", "SERVE_MEDIA": "false", "COUNTRY_QUERY_PARAM": "",
        "BIND": f"127.0.0.1:{app_port}", "WEB_CONCURRENCY": str(workers), "GUNICORN_THREADS": str(threads),
        "FLASK_APP": "wsgi.py", "PYTHONUNBUFFERED": "1",
        # the job queue's name in Redis, the database's: two shapes sharing a Redis never take each other's jobs
        "QUEUE_NAME": f"player-jobs-{urlsplit(database_url).path.lstrip('/') or 'default'}", **(settings or {}),
    }
    env.pop("PLAYER_TEST_TIMINGS", None)
    flask = [str(ROOT / ".venv" / "bin" / "flask")]
    output = subprocess.DEVNULL if quiet else None
    subprocess.run([*flask, "db", "upgrade"], cwd=ROOT, env=env, check=True, stdout=output, stderr=output)
    subprocess.run([*flask, "demo", "seed"], cwd=ROOT, env=env, check=True, stdout=output)
    run = INSTANCE / "production" / str(port)
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir(parents=True)
    from app.config import Settings
    from app.http.origins import parse_origin_list

    config = Settings.from_env(env)
    sites = " ".join(f'"{origin}" $http_origin;' for origin in parse_origin_list(config.SITE_ORIGINS, "SITE_ORIGINS"))
    (run / "nginx.conf").write_text((ROOT / "deploy" / "nginx.conf").read_text().format(
        run=run, app=f"127.0.0.1:{app_port}", port=port, max_body=f"{config.MAX_REQUEST_BYTES // 1024}k",
        site_origins=sites,
        # an admin upload: a poster, a creative, a catalogue to import (its form's fields besides)
        admin_max_body=f"{max(config.ADMIN_MAX_REQUEST_BYTES, config.CATALOGUE_IMPORT_MAX_BYTES + 1_048_576) // 1024}k",
        upload_max_body=f"{(config.VIDEO_UPLOAD_CHUNK_BYTES + 1_048_576) // 1024}k",  # a video upload's chunk
        geoip_module=GEOIP_MODULE, geoip_database=geo_database,
        media_root=config.MEDIA_ROOT, media_secret=keys["MEDIA_URL_SECRET"],
        media_conf=ROOT / "docs" / "nginx-media.conf"))
    log = open(run / "gunicorn.log", "ab") if quiet else None  # noqa: SIM115 - closed below
    # Each in a session of its own: a terminal's Ctrl-C is this process's, which stops them in order (below).
    gunicorn = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "-c", str(ROOT / "deploy" / "gunicorn.conf.py"), "wsgi:app"],
        cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True, preexec_fn=_unblocked)
    nginx = subprocess.Popen([NGINX, "-p", str(run), "-c", str(run / "nginx.conf"), "-g", "daemon off;"],
                             stderr=log, start_new_session=True, preexec_fn=_unblocked)
    worker = subprocess.Popen([*flask, "jobs", "worker"], cwd=ROOT, env=env, stdout=log, stderr=log,
                              start_new_session=True, preexec_fn=_unblocked)
    try:
        _wait_until(_listens(app_port), gunicorn, f"gunicorn (listening on {app_port})", 30)
        _wait_until(_listens(port), nginx, f"nginx (listening on {port})", 30)
        _wait_until(_answers(f"http://127.0.0.1:{app_port}/healthz"), gunicorn, "gunicorn (answering /healthz)", 60)
        yield Shape(base=public, app=f"http://127.0.0.1:{app_port}", worker=worker, database=database, redis=redis,
                    run=run)
    finally:
        for process in (nginx, gunicorn, worker):  # the worker's running jobs are queued again (app/jobs/worker.py)
            process.send_signal(signal.SIGTERM)
        for process in (nginx, gunicorn, worker):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        database.close()
        redis.close()
        if log:
            log.close()



def _unblocked() -> None:
    """In a child, before it runs: the stop signals this process blocks (``main``) unblocked again; a mask is
    inherited, and gunicorn with SIGTERM blocked only stopped when the 20 s wait below killed it."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def demo_country_database() -> Path:
    """The demo's country database (deploy/geo/demo-country-db.pl), made when missing or older than its script."""
    script = ROOT / "deploy" / "geo" / "demo-country-db.pl"
    database = INSTANCE / "geo" / "demo-country.mmdb"
    if not database.exists() or database.stat().st_mtime < script.stat().st_mtime:
        database.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([shutil.which("perl") or "/usr/bin/perl", str(script), str(database)], check=True)
    return database


STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


def main() -> None:
    # Blocked, so that they wait for sigwait below instead of ending this process before it stops nginx and gunicorn
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    port = int(os.environ.get("PORT", "8080"))
    with running(port=port) as shape:
        print(f"\nProduction shape: nginx {shape.base} → gunicorn {shape.app} → PostgreSQL, Redis (ENV=production), "
              f"a job worker (pid {shape.worker.pid})")
        print(f"Player: {shape.base}/?movie_id=1   admin: {shape.base}/admin/   logs: {shape.run}/   Ctrl-C stops it")
        print(f"The first administrator: DATABASE_URL={POSTGRES} .venv/bin/flask accounts create-admin EMAIL\n",
              flush=True)
        signal.sigwait(STOP_SIGNALS)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
