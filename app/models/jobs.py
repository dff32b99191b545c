"""Jobs: work that outlives the request that asked for it (a catalogue import; video transcoding next), run by the
queue's workers (app/jobs/queue.py, docs/jobs.md). The queue's broker (Redis, or a SQLite file) only carries "run job
N"; what a job is, how far it got and how it ended is this row, which every worker and the admin read.

A job is queued, then running (claimed by one worker run, its ``run_token``), then done, failed or cancelled. A
running job's worker writes ``heartbeat_at`` while it runs; one whose heartbeat goes stale (the worker was killed) is
queued again, up to the retry limit. A queued job's ``heartbeat_at`` is when it was last handed to the broker.
``subject`` names what a job works on ("catalogue", "episode:12"): two unfinished jobs never share one."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Enum, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.extensions import db
from app.models.accounts import Account
from app.models.moments import Moment

MAX_KIND = 32
MAX_SUBJECT = 64
UNFINISHED = text("state IN ('queued', 'running')")


class JobState(enum.StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


STATE_LABELS = {JobState.QUEUED: "В очереди", JobState.RUNNING: "Выполняется", JobState.DONE: "Готово",
                JobState.FAILED: "Не удалась", JobState.CANCELLED: "Отменена"}
FINISHED = frozenset({JobState.DONE, JobState.FAILED, JobState.CANCELLED})


class Job(db.Model):  # type: ignore[name-defined]
    __tablename__ = "jobs"
    __table_args__ = (
        Index("ix_jobs_kind_created", "kind", "created_at"),
        Index("ix_jobs_state_heartbeat", "state", "heartbeat_at"),
        # one unfinished job per subject (an episode's transcoding, the catalogue's import)
        Index("ux_jobs_unfinished_subject", "subject", unique=True, sqlite_where=UNFINISHED,
              postgresql_where=UNFINISHED),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(MAX_KIND))  # a name of app/jobs/kinds.py KINDS
    state: Mapped[JobState] = mapped_column(
        Enum(JobState, name="job_state", values_callable=lambda members: [m.value for m in members],
             native_enum=False, length=16, validate_strings=True, create_constraint=True),
        default=JobState.QUEUED)
    subject: Mapped[str | None] = mapped_column(String(MAX_SUBJECT))
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # what the kind needs (a file, a flag)
    done: Mapped[int] = mapped_column(Integer, default=0)  # progress: done of total (total None: not known yet)
    total: Mapped[int | None] = mapped_column(Integer)
    message: Mapped[str | None] = mapped_column(Text)  # in Russian, for the editor: what happens, or what went wrong
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # the kind's report (an import's counts and errors)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), index=True)
    created_at: Mapped[datetime] = mapped_column(Moment())
    started_at: Mapped[datetime | None] = mapped_column(Moment())  # of the latest run
    finished_at: Mapped[datetime | None] = mapped_column(Moment())
    heartbeat_at: Mapped[datetime | None] = mapped_column(Moment())
    attempts: Mapped[int] = mapped_column(Integer, default=0)  # runs started, a killed worker's too
    cancel_requested: Mapped[bool] = mapped_column(Boolean, default=False)  # a running job stops at its next report
    run_token: Mapped[str | None] = mapped_column(String(32))  # the run that holds it; others' writes change nothing

    account: Mapped[Account | None] = relationship()

    @property
    def state_label(self) -> str:
        return STATE_LABELS[self.state]

    @property
    def finished(self) -> bool:
        return self.state in FINISHED
