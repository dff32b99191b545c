"""The job queue's messages run in the test's own process, as a worker would take them (app/jobs/runner.py): for the
tests of calls that queue a job, where no worker process runs (tests/jobs/ starts real ones)."""

from __future__ import annotations

from flask import Flask

from app.jobs.queue import broker_of
from app.jobs.runner import run_job


def work_off_queue(app: Flask) -> list[int]:
    """Takes every message the broker holds, oldest first, and runs its job; the jobs' ids."""
    huey = broker_of(app).huey
    ran: list[int] = []
    while (task := huey.dequeue()) is not None:
        job_id = int(task.args[0])
        run_job(app, job_id)
        ran.append(job_id)
    return ran
