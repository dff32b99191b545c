"""One run of a job, in the worker that took its message (app/jobs/queue.py): claim the row (or drop the message when
the job is no longer queued), beat its heart on a thread of its own while the kind works, and write how it ended:
done with the kind's result; cancelled at a report; failed with the editor's message; or, for an unexpected error with
attempts left, queued again after JOB_RETRY_SECONDS. Each of these writes is a short transaction of its own; the kind
owns its transactions (app/jobs/context.py)."""

from __future__ import annotations

import logging
import secrets
import threading
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

from app.clock import now
from app.extensions import db
from app.jobs import queue
from app.jobs.context import JobCancelled, JobContext, JobFailed, JobLost, Outcome
from app.jobs.kinds import KINDS
from app.models.jobs import JobState
from app.services import jobs

log = logging.getLogger(__name__)
RUNNING: dict[int, str] = {}  # this process's runs: job id → token (given back when the worker is told to stop)
_RUNNING_LOCK = threading.Lock()


def run_job(app: queue.Application, job_id: int) -> None:
    """The broker's task: runs job ``job_id`` once, if it is still queued."""
    with app.app_context():
        config = app.config
        engine = db.engine
        token = secrets.token_hex(16)
        context = JobContext(job_id, token, {}, 0, engine, float(config["JOB_PROGRESS_SECONDS"]), config)
        max_attempts = int(config["JOB_MAX_ATTEMPTS"])
        job = context.short(lambda session: _claimed(session, job_id, token, max_attempts))
        if job is None:
            log.info("job %s: not queued any more, its message dropped", job_id)
            return
        kind, context.params, context.attempt = job
        log.info("job %s (%s): attempt %s of %s", job_id, kind, context.attempt, max_attempts)
        with _RUNNING_LOCK:
            RUNNING[job_id] = token
        heart = _Heart(context, float(config["JOB_HEARTBEAT_SECONDS"]))
        heart.start()
        try:
            _run(app, context, kind, max_attempts)
        finally:
            heart.stop()
            with _RUNNING_LOCK:
                RUNNING.pop(job_id, None)
            db.session.remove()


def _claimed(session: Any, job_id: int, token: str, max_attempts: int) -> tuple[str, dict[str, Any], int] | None:
    job = jobs.claim(session, job_id, token, now=now(), max_attempts=max_attempts)
    return None if job is None else (job.kind, dict(job.params or {}), job.attempts)


def _run(app: queue.Application, context: JobContext, kind: str, max_attempts: int) -> None:
    job_id, token = context.job_id, context.token

    def end(state: JobState, message: str, result: dict[str, Any] | None = None) -> None:
        if context.short(lambda session: jobs.finish(session, job_id, token, state, now=now(), message=message,
                                                     result=result)):
            remove_files(app, context.params)

    work = KINDS.get(kind)
    if work is None:
        end(JobState.FAILED, f"Этот обработчик не знает задач вида «{kind}».")
        return
    try:
        db.session.remove()  # the kind starts on a session of its own
        outcome: Outcome = work(context)
    except JobCancelled:
        log.info("job %s: cancelled", job_id)
        end(JobState.CANCELLED, "Отменена.")
    except JobLost:
        log.warning("job %s: taken over by another run; this one stops", job_id)
    except JobFailed as failure:
        log.info("job %s: failed: %s", job_id, failure.message)
        end(JobState.FAILED, failure.message)
    except Exception as error:
        log.exception("job %s (%s): attempt %s failed", job_id, kind, context.attempt)
        reason = f"{type(error).__name__}: {error}"[:500]
        if context.attempt < max_attempts:
            delay = float(app.config["JOB_RETRY_SECONDS"])
            if context.short(lambda session: jobs.give_back(
                    session, job_id, token, now=now() + timedelta(seconds=delay),
                    message=f"Попытка {context.attempt} из {max_attempts} не удалась ({reason}); повтор через "
                            f"{delay:g} с.")):
                queue.send(app, job_id, delay=delay)
        else:
            end(JobState.FAILED, f"Не удалась ни в одной из {max_attempts} попыток. Последняя ошибка: {reason}")
    else:
        end(JobState.DONE, outcome.message, outcome.result)


def give_back_running(app: queue.Application) -> list[int]:
    """When the worker is told to stop: this process's running jobs are queued again at once (their runs end with
    the process), rather than after their heartbeat goes stale."""
    given: list[int] = []
    with app.app_context(), _RUNNING_LOCK:
        for job_id, token in list(RUNNING.items()):
            context = JobContext(job_id, token, {}, 0, db.engine, 0)
            if context.short(partial(jobs.give_back, job_id=job_id, token=token, now=now(),
                                     message="Обработчик остановлен: задача поставлена в очередь снова.")):
                queue.send(app, job_id)
                given.append(job_id)
    return given


def remove_files(app: queue.Application, params: dict[str, Any]) -> None:
    """A finished job's file (an upload under JOB_FILES_DIR) goes with it."""
    name = params.get("file")
    if not name:
        return
    path = Path(str(name))
    root = Path(app.config["JOB_FILES_DIR"]).resolve()
    if path.resolve().parent == root:
        path.unlink(missing_ok=True)


class _Heart:
    """The run's heartbeat, every JOB_HEARTBEAT_SECONDS on a thread of its own, so that a long step with no progress
    to report (a transcode's) does not look dead; it stops beating once the run lost the job."""

    def __init__(self, context: JobContext, every: float) -> None:
        self.context = context
        self.every = every
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._beat, name=f"heartbeat-{context.job_id}", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=5)

    def _beat(self) -> None:
        context = self.context
        while not self.stopped.wait(self.every):
            try:
                alive = context.short(lambda session: jobs.heartbeat(session, context.job_id, context.token,
                                                                     now=now()))
            except Exception:
                log.exception("job %s: the heartbeat could not be written", context.job_id)
                continue
            if not alive:
                context.lost = True
                return
