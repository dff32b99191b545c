"""A worker process (``flask jobs worker``; `make start` and the production shape start one): Huey's consumer with
QUEUE_WORKERS threads taking "run job N" messages (app/jobs/runner.py), and beside it the recovery, at start and then
every half JOB_STALE_SECONDS:

- a running job whose heartbeat is stale (its worker was killed: Huey had already taken its message off the queue) is
  queued again and sent, or failed once it has used JOB_MAX_ATTEMPTS;
- a queued job whose message the broker no longer holds (taken by a worker that died before claiming it) is sent
  again;
- uploads under JOB_FILES_DIR that no unfinished job needs are removed;
- the admin's video uploads not written to for VIDEO_UPLOAD_EXPIRE_HOURS are removed (app/services/media/uploads.py).

Every worker recovers, and any may: each step is decided row by row in one statement (app/services/jobs.py). SIGTERM
stops the worker at once, its running jobs queued again; SIGINT (Ctrl-C) lets them finish first."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from datetime import timedelta
from pathlib import Path

from sqlalchemy.orm import Session

from app.clock import now
from app.database import batch_statements
from app.extensions import db
from app.jobs import queue
from app.jobs.runner import give_back_running
from app.services import jobs
from app.services.media import uploads

log = logging.getLogger(__name__)
ORPHAN_AGE = 600.0  # seconds: an upload younger than this may be waiting for its job's commit


def work(app: queue.Application) -> None:
    """Runs the worker until it is told to stop."""
    # a parent that waits for its stop signals with sigwait (deploy/production.py) hands them on blocked
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
    config = app.config
    lower_priority(int(config["BACKGROUND_NICE"]))
    with app.app_context():
        batch_statements(app, db.engine)  # type: ignore[arg-type]  # a job's statements take as long as they take
    recover(app)
    stop = threading.Event()
    every = max(float(config["JOB_STALE_SECONDS"]) / 2, 0.2)
    recovery = threading.Thread(target=_recovering, args=(app, stop, every), name="recovery", daemon=True)
    recovery.start()
    consumer = queue.broker_of(app).huey.create_consumer(
        workers=int(config["QUEUE_WORKERS"]), worker_type="thread", periodic=False, initial_delay=0.05,
        backoff=1.5, max_delay=float(config["QUEUE_POLL_SECONDS"]), check_worker_health=True)
    log.info("job worker: %s thread(s) on %s", config["QUEUE_WORKERS"],
             "Redis" if config["REDIS_URL"] else config["QUEUE_FILE"])
    try:
        consumer.run()
    finally:
        stop.set()
        given = give_back_running(app)
        if given:
            log.info("job worker: stopped; jobs %s queued again", given)


def lower_priority(nice: int) -> None:
    """This process (and the ffmpeg it starts) yields the CPU to the web workers by ``nice`` (BACKGROUND_NICE)."""
    if nice > 0:
        os.nice(nice)
        log.info("background work at nice %s", os.nice(0))


def recover(app: queue.Application) -> None:
    """One pass of the recovery (above)."""
    config = app.config
    stale = timedelta(seconds=float(config["JOB_STALE_SECONDS"]))
    with app.app_context():
        with Session(db.engine) as session, session.begin():
            requeued = jobs.recover(session, now=now(), stale_after=stale,
                                    max_attempts=int(config["JOB_MAX_ATTEMPTS"]))
        for job_id in requeued:
            queue.send(app, job_id)
        if requeued:
            log.warning("job recovery: jobs %s were running on a worker that died; queued again", requeued)
        held = queue.in_broker(app)
        with Session(db.engine) as session, session.begin():
            resent = jobs.unsent(session, now=now(), stale_after=stale, in_broker=held)
        for job_id in resent:
            queue.send(app, job_id)
        if resent:
            log.warning("job recovery: queued jobs %s had no message in the broker; sent again", resent)
        with Session(db.engine) as session:
            needed = {str(params["file"]) for params in jobs.unfinished_params(session) if params.get("file")}
        _sweep(Path(config["JOB_FILES_DIR"]), needed)
        uploads.store_of(config).expire(time.time())  # the admin's video uploads left unfinished (issue 35)


def _recovering(app: queue.Application, stop: threading.Event, every: float) -> None:
    while not stop.wait(every):
        try:
            recover(app)
        except Exception:
            log.exception("job recovery failed; trying again in %.1f s", every)


def _sweep(folder: Path, needed: set[str]) -> None:
    if not folder.is_dir():
        return
    cutoff = time.time() - ORPHAN_AGE
    for path in folder.iterdir():
        if path.is_file() and str(path) not in needed and path.stat().st_mtime < cutoff:
            path.unlink(missing_ok=True)
