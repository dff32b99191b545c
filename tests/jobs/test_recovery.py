"""A worker killed (SIGKILL) in the middle of a job, on each broker: Huey had taken the message off the queue, so only
the job's row knows of it; a new worker sees its heartbeat stale and runs it again to the end. And the recovery's
other half: a queued job whose message was lost is sent again."""

from __future__ import annotations

import signal
from datetime import timedelta

import pytest
from flask import Flask

from app.clock import now
from app.extensions import db
from app.models.jobs import JobState
from app.services import jobs
from app.transaction import transaction
from tests.jobs.conftest import Workers, enqueue, read, wait_for

pytestmark = pytest.mark.usefixtures("empty")


def test_a_job_whose_worker_is_killed_is_run_again_to_the_end(queue_app: Flask, workers: Workers):
    first = workers.start()
    job_id = enqueue(queue_app, "probe", {"steps": 40, "step_seconds": 0.1})
    wait_for(queue_app, job_id, lambda job: job.done >= 5, log=workers.log)
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=5)
    orphan = read(queue_app, job_id)
    assert orphan.state == JobState.RUNNING and orphan.attempts == 1 and orphan.done < 40  # as the dead worker left it
    workers.start()
    done = wait_for(queue_app, job_id, lambda job: job.finished, seconds=30, log=workers.log)
    assert done.state == JobState.DONE, done.message
    assert done.attempts == 2 and done.result == {"steps": 40, "attempt": 2} and done.done == 40


def test_a_queued_job_whose_message_was_lost_is_sent_again(queue_app: Flask, workers: Workers):
    with queue_app.app_context(), transaction():  # a row whose message never reached the broker
        job = jobs.create(db.session, "probe", {"steps": 2, "step_seconds": 0.01}, now=now() - timedelta(seconds=5))
        job_id = job.id
    process = workers.start()
    done = wait_for(queue_app, job_id, lambda job: job.finished, seconds=30, log=workers.log)
    assert (done.state, done.attempts) == (JobState.DONE, 1)
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=10)
