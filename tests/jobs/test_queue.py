"""The job queue end to end (issues 34, 35), on each broker: a real worker process (one for the module, started once)
takes jobs from it, reports progress, retries a failure and then gives up with its message, drops a job cancelled
while queued, and stops one cancelled while running. A killed worker: test_recovery.py."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest
from flask import Flask

from app.clock import now
from app.extensions import db
from app.jobs.queue import send_after_commit
from app.models.jobs import JobState
from app.services import jobs
from app.transaction import transaction
from tests.jobs.conftest import Workers, enqueue, read, wait_for

pytestmark = pytest.mark.usefixtures("empty")


@pytest.fixture(scope="module", autouse=True)
def worker(workers: Workers) -> Iterator[subprocess.Popen[bytes]]:
    yield workers.start()


def cancel(app: Flask, job_id: int) -> None:
    with app.app_context(), transaction():
        jobs.cancel(db.session, job_id, now=now())


def test_a_job_is_run_its_progress_seen_and_done(queue_app: Flask, workers: Workers):
    job_id = enqueue(queue_app, "probe", {"steps": 20, "step_seconds": 0.1})
    midway = wait_for(queue_app, job_id, lambda job: job.state == JobState.RUNNING and 0 < job.done < 20,
                      log=workers.log)
    assert midway.total == 20 and midway.attempts == 1 and midway.started_at is not None
    done = wait_for(queue_app, job_id, lambda job: job.finished, log=workers.log)
    assert done.state == JobState.DONE, done.message
    assert (done.done, done.total) == (20, 20)
    assert done.message == "Проверка прошла, шагов: 20."
    assert done.result == {"steps": 20, "attempt": 1}
    assert done.finished_at is not None and done.finished_at >= done.started_at
    assert done.run_token is None


def test_a_failure_is_retried_then_the_job_fails_with_its_message(queue_app: Flask, workers: Workers):
    mended = enqueue(queue_app, "probe", {"steps": 4, "step_seconds": 0.02, "fail_attempts": 1, "fail_at": 2})
    failing = enqueue(queue_app, "probe", {"steps": 4, "step_seconds": 0.02, "fail_attempts": 9, "fail_at": 3})
    refused = enqueue(queue_app, "probe", {"steps": 4, "step_seconds": 0.02, "fail_attempts": 9, "fail_at": 1,
                                           "permanent": True})
    second = wait_for(queue_app, mended, lambda job: job.finished, log=workers.log)
    assert second.state == JobState.DONE and second.attempts == 2 and second.result == {"steps": 4, "attempt": 2}
    failed = wait_for(queue_app, failing, lambda job: job.finished, log=workers.log)
    assert failed.state == JobState.FAILED and failed.attempts == 2  # JOB_MAX_ATTEMPTS
    assert failed.message.startswith("Не удалась ни в одной из 2 попыток. Последняя ошибка: RuntimeError: the probe "
                                      "fails at step 3 of attempt 2")
    assert failed.done < 4  # where the last attempt stopped
    once = wait_for(queue_app, refused, lambda job: job.finished, log=workers.log)
    assert (once.state, once.attempts) == (JobState.FAILED, 1)  # a refusal no retry would mend is not retried
    assert once.message == "Проверка остановлена на шаге 1, как просили."


def test_a_job_cancelled_while_queued_never_starts(queue_app: Flask, workers: Workers):
    with queue_app.app_context(), transaction():  # cancelled before its message reaches the worker
        cancelled = jobs.create(db.session, "probe", {"steps": 3, "step_seconds": 0.01}, now=now()).id
        send_after_commit(queue_app, cancelled)
        jobs.cancel(db.session, cancelled, now=now())
    after = enqueue(queue_app, "probe", {"steps": 3, "step_seconds": 0.01})
    wait_for(queue_app, after, lambda job: job.state == JobState.DONE, log=workers.log)
    job = read(queue_app, cancelled)  # its message came first and was dropped
    assert (job.state, job.attempts, job.started_at, job.done) == (JobState.CANCELLED, 0, None, 0)
    assert job.message == "Отменена до начала."


def test_a_job_cancelled_while_running_stops_at_its_next_report(queue_app: Flask, workers: Workers):
    job_id = enqueue(queue_app, "probe", {"steps": 200, "step_seconds": 0.05})
    wait_for(queue_app, job_id, lambda job: job.done >= 3, log=workers.log)
    cancel(queue_app, job_id)
    stopped = wait_for(queue_app, job_id, lambda job: job.finished, seconds=5, log=workers.log)
    assert stopped.state == JobState.CANCELLED and stopped.message == "Отменена."
    assert 3 <= stopped.done < 200
