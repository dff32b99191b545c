"""What a job kind is handed (``JobContext``) and what it hands back (``Outcome``), and how it stops: a kind is a
function ``run(context) -> Outcome`` (app/jobs/kinds.py) that reports its progress through ``context.progress``, which
writes it at most every JOB_PROGRESS_SECONDS in a transaction of its own (never the kind's), and stops the job there
when an editor cancelled it (``JobCancelled``) or another run took it over (``JobLost``). A kind raises ``JobFailed``
for a failure that another attempt would not mend (a file that is not a catalogue), with the editor's message;
anything else it raises is retried."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from app.clock import now
from app.services import jobs


class JobCancelled(Exception):
    """An editor cancelled the job: it stops at this report."""


class JobLost(Exception):
    """Another run holds the job now (this one was thought dead): it stops without writing."""


class JobFailed(Exception):
    """A failure no retry would mend; ``message`` is for the editor, in Russian."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class Outcome:
    message: str = "Готово."
    result: dict[str, Any] | None = None


@dataclass
class JobContext:
    job_id: int
    token: str
    params: dict[str, Any]
    attempt: int
    engine: Engine
    every: float  # seconds between progress writes
    config: Mapping[str, Any] = field(default_factory=dict)  # the application's (MEDIA_ROOT, PUBLIC_URL, …)
    lost: bool = False
    _written_at: float = field(default=-1e9)

    def progress(self, done: int, total: int | None = None, message: str | None = None) -> None:
        """``done`` of ``total`` (None: not known); written when JOB_PROGRESS_SECONDS passed since the last write, or
        at the end (``done == total``). Raises JobCancelled or JobLost when the job must stop."""
        if self.lost:
            raise JobLost()
        moment = time.monotonic()
        if moment - self._written_at < self.every and done != total and message is None:
            return
        self._written_at = moment
        answer = self.short(lambda session: jobs.report(session, self.job_id, self.token, done, total, now=now(),
                                                        message=message))
        if answer is jobs.Report.LOST:
            self.lost = True
            raise JobLost()
        if answer is jobs.Report.CANCEL:
            raise JobCancelled()

    def short(self, work: Callable[[Session], Any]) -> Any:
        """``work`` in a short transaction of its own, beside whatever the kind's session holds open."""
        with Session(self.engine) as session, session.begin():
            return work(session)
