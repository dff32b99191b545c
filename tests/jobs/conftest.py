"""The queue as it runs: an application that enqueues (this process) and real worker processes (`flask jobs worker`,
started and killed here), on the embedded default (a SQLite queue file) and on Redis (skipped when this machine has
none, as the other Redis tests are), with short heartbeats so that a killed worker's job is seen stale in a second."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from app import create_app
from app.clock import now
from app.config import PROJECT_ROOT
from app.extensions import db
from app.jobs.queue import send_after_commit
from app.models.jobs import Job
from app.services import jobs
from app.transaction import transaction

FLASK = str(PROJECT_ROOT / ".venv" / "bin" / "flask")
TIMINGS = {"JOB_HEARTBEAT_SECONDS": 0.2, "JOB_STALE_SECONDS": 1.5, "JOB_RETRY_SECONDS": 0.2,
           "JOB_PROGRESS_SECONDS": 0.05, "QUEUE_POLL_SECONDS": 0.1, "JOB_MAX_ATTEMPTS": 2}


def free_redis_url() -> str | None:
    """REDIS_URL's server (CI's) or this machine's, on a database number nothing else uses; None without Redis."""
    import redis

    base = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    server = base.rsplit("/", 1)[0]
    try:
        for number in range(15, 7, -1):
            client = redis.Redis.from_url(f"{server}/{number}", socket_connect_timeout=0.5)
            if client.dbsize() == 0:
                return f"{server}/{number}"
    except redis.RedisError:
        return None
    return None


class Workers:
    """The worker processes of one test, stopped at its end."""

    def __init__(self, config: dict[str, Any], log: Path) -> None:
        self.env = {**os.environ, "FLASK_APP": "wsgi.py", **{key: str(value) for key, value in config.items()}}
        self.env.pop("PLAYER_TEST_TIMINGS", None)
        self.log = log
        self.started: list[subprocess.Popen[bytes]] = []

    def start(self) -> subprocess.Popen[bytes]:
        with open(self.log, "ab") as output:
            process = subprocess.Popen([FLASK, "jobs", "worker"], cwd=PROJECT_ROOT, env=self.env, stdout=output,
                                       stderr=subprocess.STDOUT)
        self.started.append(process)
        return process

    def stop_all(self) -> None:
        for process in self.started:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture(scope="module", params=["sqlite", "redis"])
def queue_app(request: pytest.FixtureRequest, migrated_database: str,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """An application of the module's own and its queue (each module's workers start from an empty queue)."""
    tmp_path = tmp_path_factory.mktemp("queue")
    config: dict[str, Any] = {"DATABASE_URL": migrated_database, "MEDIA_ROOT": str(tmp_path / "media"),
                              "QUEUE_FILE": str(tmp_path / "queue.db"), "JOB_FILES_DIR": str(tmp_path / "files"),
                              "QUEUE_NAME": f"test-{uuid.uuid4().hex}", **TIMINGS}
    if request.param == "redis":
        url = free_redis_url()
        if url is None:
            pytest.skip("no Redis on this machine (CI runs one)")
        config["REDIS_URL"] = url
    else:
        config["REDIS_URL"] = ""
    app = create_app({"TESTING": True, **config})
    app.extensions["test_workers"] = Workers(config, tmp_path / "worker.log")
    yield app
    app.extensions["test_workers"].stop_all()
    from tests.conftest import empty_tables

    with app.app_context():
        empty_tables()
        db.engine.dispose()
    if config["REDIS_URL"]:
        from app.jobs.queue import broker_of

        broker_of(app).huey.flush()


@pytest.fixture(scope="module")
def workers(queue_app: Flask) -> Workers:
    found: Workers = queue_app.extensions["test_workers"]
    return found


@pytest.fixture
def empty(queue_app: Flask) -> Iterator[None]:
    """Each test's jobs are gone after it (deleted: the module's workers still run)."""
    yield
    from tests.conftest import empty_tables

    with queue_app.app_context():
        empty_tables(exclusive=False)
        db.session.remove()


def enqueue(app: Flask, kind: str, params: dict[str, Any], **options: Any) -> int:
    with app.app_context(), transaction():
        job_id = jobs.create(db.session, kind, params, now=now(), **options).id
        send_after_commit(app, job_id)
    return job_id


def read(app: Flask, job_id: int) -> Job:
    with app.app_context():
        db.session.remove()
        job = db.session.get_one(Job, job_id)
        db.session.expunge(job)
        return job


def wait_for(app: Flask, job_id: int, condition: Callable[[Job], bool], seconds: float = 20,
             log: Path | None = None) -> Job:
    deadline = time.monotonic() + seconds
    while True:
        job = read(app, job_id)
        if condition(job):
            return job
        if time.monotonic() > deadline:
            output = log.read_text(errors="replace")[-3000:] if log and log.exists() else ""
            raise AssertionError(f"job {job_id} is {job.state} {job.done}/{job.total} ({job.message}), still not "
                                 f"as awaited after {seconds} s\n{output}")
        time.sleep(0.05)
