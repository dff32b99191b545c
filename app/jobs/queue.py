"""The job queue's broker, on Huey (docs/jobs.md says why): Redis when REDIS_URL is set, else a SQLite file
(QUEUE_FILE) for one machine. It carries one kind of message, "run job N" (``run_job``); what a job is and how it
went is its row (app/models/jobs.py), which the runner (app/jobs/runner.py) keeps.

Huey takes a message off the queue before it runs it, so a worker killed mid-job loses the message: the job's row
does not lose the job. Its heartbeat goes stale and the recovery (app/jobs/worker.py) queues it again; a message sent
twice is harmless (the second finds the job no longer queued)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from huey import Huey, RedisHuey, SqliteHuey
from redis import ConnectionPool

from app.transaction import after_commit

QUEUE = "job_queue"  # app.extensions' key
TASK = "run_job"
REDIS_TIMEOUT = 5.0  # seconds: a Redis that stops answering fails a send or a wait, never hangs a worker


class Application(Protocol):
    """What the queue needs of the Flask application (app/jobs imports no Flask)."""

    config: Any
    extensions: dict[str, Any]

    def app_context(self) -> Any: ...


@dataclass(frozen=True)
class Broker:
    huey: Huey
    task: Any  # Huey's TaskWrapper of run_job


def register_queue(app: Application, run: Callable[[Application, int], None]) -> Broker:
    """The application's broker, with its one task: ``run(app, job_id)`` in the worker that takes the message."""
    config = app.config
    if config["REDIS_URL"]:
        pool = ConnectionPool.from_url(config["REDIS_URL"], socket_timeout=REDIS_TIMEOUT,
                                       socket_connect_timeout=REDIS_TIMEOUT, health_check_interval=30)
        huey: Huey = RedisHuey(config["QUEUE_NAME"], results=False, connection_pool=pool, read_timeout=1)
    else:
        path = Path(config["QUEUE_FILE"])
        path.parent.mkdir(parents=True, exist_ok=True)
        huey = SqliteHuey(config["QUEUE_NAME"], results=False, filename=str(path), timeout=10)

    @huey.task(name=TASK)
    def run_job(job_id: int) -> None:
        run(app, job_id)

    broker = Broker(huey, run_job)
    app.extensions[QUEUE] = broker
    return broker


def broker_of(app: Application) -> Broker:
    found: Broker = app.extensions[QUEUE]
    return found


def send(app: Application, job_id: int, *, delay: float | None = None) -> None:
    """Hands job ``job_id`` to the broker now (after ``delay`` seconds: a retry)."""
    broker = broker_of(app)
    if delay:
        broker.task.schedule(args=(job_id,), delay=delay)
    else:
        broker.task(job_id)


def send_after_commit(app: Application, job_id: int) -> None:
    """Hands the job to the broker once the transaction that made it has committed: a worker never takes a message
    for a row it cannot see yet, and a request that rolled back sends nothing."""
    after_commit(lambda: send(app, job_id))


def in_broker(app: Application) -> list[int]:
    """The jobs whose messages wait in the broker, queued or scheduled (few: the admin's jobs)."""
    broker = broker_of(app)
    return [int(task.args[0]) for task in [*broker.huey.pending(), *broker.huey.scheduled()]
            if isinstance(task, broker.task.task_class) and task.args]
