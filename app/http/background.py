"""Work a request starts and does not wait for, in this process: one job at a time, on a thread of its own, in an
application context of its own, owning its transactions (app/jobs/). Its request answers 202 at once.

What runs here may die with its worker (a restart, a recycled process): a job must leave things as they were then
(the sitemaps' generation leaves the live files, and its lock goes stale after LOCK_STALE for the next run to take
over). Work that must outlive its process belongs on the job queue (app/jobs/queue.py, docs/jobs.md), not here."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait

from flask import Flask, current_app

_RUNNER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="job")
_PENDING: set[Future[None]] = set()


def start_job(work: Callable[[], object], what: str) -> Future[None]:
    """Runs ``work`` after this request, behind any job before it in this process; a failure is logged."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]

    def run() -> None:
        with app.app_context():
            try:
                work()
            except Exception:
                app.logger.exception("the background job failed: %s", what)

    future = _RUNNER.submit(run)
    _PENDING.add(future)
    future.add_done_callback(_PENDING.discard)
    return future


def drain_jobs(timeout: float = 120.0) -> None:
    """Waits for the jobs started so far (the tests; a worker's shutdown)."""
    wait(list(_PENDING), timeout=timeout)
