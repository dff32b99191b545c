"""The rules of a job's life (app/models/jobs.py): made, claimed by one run, its progress and heartbeat, its end, a
retry, a cancel, and the recovery of a job whose worker died. Each rule is a statement or two on the session it is
given, which it flushes and never commits: the request commits what it made, and the queue's runner
(app/jobs/queue.py) writes a running job's reports in short transactions of their own, beside the job's work.

Every write of a run names the run (``token``): a run that lost its job (it was thought dead and queued again) changes
nothing, and learns it."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import ColumnElement, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.orm import Session, scoped_session

from app.database import dialect_insert
from app.models.jobs import FINISHED, UNFINISHED, Job, JobState
from app.services.errors import Conflict, NotFound

MAX_MESSAGE = 2_000
AnySession = Session | scoped_session[Any]  # db.session, or a short session of one's own


class Report(enum.Enum):
    """What a running job's report learns: go on, stop (cancelled), or stop without a word (another run has it)."""

    GO_ON = "go_on"
    CANCEL = "cancel"
    LOST = "lost"


def create(session: AnySession, kind: str, params: dict[str, Any], *, now: datetime, account_id: int | None = None,
           subject: str | None = None, message: str | None = None) -> Job:
    """A queued job. With a ``subject`` held by an unfinished job, a Conflict naming that job (decided in one
    statement: two requests racing for a subject cannot both get it)."""
    values = {"kind": kind, "state": JobState.QUEUED, "subject": subject, "params": params, "done": 0,
              "message": message, "account_id": account_id, "created_at": now, "heartbeat_at": now, "attempts": 0,
              "cancel_requested": False}
    statement = dialect_insert(session, Job).values(**values)
    if subject is not None:
        statement = statement.on_conflict_do_nothing(index_elements=["subject"], index_where=UNFINISHED)
    job_id = session.execute(statement.returning(Job.id)).scalar()
    if job_id is None:
        holder = session.scalar(select(Job).where(Job.subject == subject, Job.state.in_(
            [JobState.QUEUED, JobState.RUNNING])))
        number = f" №{holder.id}" if holder is not None else ""
        raise Conflict("job_running", f"Для этого уже есть незавершённая задача{number}: дождитесь её или отмените.",
                       {"job_id": holder.id if holder is not None else None})
    return session.get_one(Job, job_id)


def claim(session: AnySession, job_id: int, token: str, *, now: datetime, max_attempts: int) -> Job | None:
    """The job for this run (``token``), now running, one more attempt; None when it is not queued (done, cancelled,
    taken by another run: a repeated message) or has used up its attempts (then it fails, saying so)."""
    taken = _update(session, (Job.id == job_id) & (Job.state == JobState.QUEUED) & (Job.attempts < max_attempts)
                    & Job.cancel_requested.is_(False),
                    state=JobState.RUNNING, run_token=token, attempts=Job.attempts + 1, started_at=now,
                    heartbeat_at=now, finished_at=None)
    if not taken:
        _update(session, (Job.id == job_id) & (Job.state == JobState.QUEUED) & (Job.attempts >= max_attempts),
                state=JobState.FAILED, finished_at=now, run_token=None,
                message=f"Задача не завершилась ни за одну из {max_attempts} попыток.")
        _update(session, (Job.id == job_id) & (Job.state == JobState.QUEUED) & Job.cancel_requested.is_(True),
                state=JobState.CANCELLED, finished_at=now, run_token=None, message="Отменена.")
        return None
    session.expire_all()
    return session.get(Job, job_id)


def heartbeat(session: AnySession, job_id: int, token: str, *, now: datetime) -> bool:
    """The run is alive; False when it no longer holds the job."""
    return _update(session, _held(job_id, token), heartbeat_at=now)


def report(session: AnySession, job_id: int, token: str, done: int, total: int | None, *, now: datetime,
           message: str | None = None) -> Report:
    """How far the run got (and a heartbeat); whether it should go on."""
    values: dict[str, Any] = {"done": done, "total": total, "heartbeat_at": now}
    if message is not None:
        values["message"] = message[:MAX_MESSAGE]
    if not _update(session, _held(job_id, token), **values):
        return Report.LOST
    cancelled = session.scalar(select(Job.cancel_requested).where(Job.id == job_id))
    return Report.CANCEL if cancelled else Report.GO_ON


def finish(session: AnySession, job_id: int, token: str, state: JobState, *, now: datetime, message: str | None,
           result: dict[str, Any] | None = None) -> bool:
    """The run's end: done, failed or cancelled, with its message and result; False when it no longer held the job."""
    if state not in FINISHED:
        raise ValueError(f"{state} is not an end")
    values: dict[str, Any] = {"state": state, "finished_at": now, "heartbeat_at": now, "run_token": None,
                              "message": (message or "")[:MAX_MESSAGE] or None}
    if result is not None:
        values["result"] = result
    return _update(session, _held(job_id, token), **values)


def give_back(session: AnySession, job_id: int, token: str, *, now: datetime, message: str) -> bool:
    """The run stops and the job waits for another (a failure with attempts left, a worker told to stop): queued,
    handed to the broker ``now`` (the caller sends it)."""
    return _update(session, _held(job_id, token), state=JobState.QUEUED, run_token=None, heartbeat_at=now,
                   message=message[:MAX_MESSAGE])


def cancel(session: AnySession, job_id: int, *, now: datetime) -> Job:
    """A queued job never starts; a running one stops at its next report. A finished one: a Conflict."""
    job = session.get(Job, job_id)
    if job is None:
        raise NotFound("not_found", "Такой задачи нет.")
    if not _update(session, (Job.id == job_id) & (Job.state == JobState.QUEUED), state=JobState.CANCELLED,
                   finished_at=now, message="Отменена до начала.") and not _update(
            session, (Job.id == job_id) & (Job.state == JobState.RUNNING), cancel_requested=True,
            message="Отменяется: задача остановится при следующем отчёте о ходе."):
        raise Conflict("job_finished", "Задача уже завершена: отменять нечего.")
    session.refresh(job)
    return job


def recover(session: AnySession, *, now: datetime, stale_after: timedelta, max_attempts: int) -> list[int]:
    """Running jobs not heard of for ``stale_after`` (their worker died): queued again while attempts are left (the
    ids returned, for the caller to send), failed otherwise. Each decided in one statement, so two workers recovering
    at once never both take one."""
    cutoff = now - stale_after
    requeued: list[int] = []
    stale = session.execute(select(Job.id, Job.attempts).where(
        Job.state == JobState.RUNNING, Job.heartbeat_at < cutoff)).all()
    for job_id, attempts in stale:
        condition = (Job.id == job_id) & (Job.state == JobState.RUNNING) & (Job.heartbeat_at < cutoff)
        if attempts < max_attempts:
            if _update(session, condition, state=JobState.QUEUED, run_token=None, heartbeat_at=now,
                       message=f"Обработчик задачи пропал (попытка {attempts} из {max_attempts}): задача "
                               f"поставлена в очередь снова."):
                requeued.append(job_id)
        else:
            _update(session, condition, state=JobState.FAILED, run_token=None, finished_at=now,
                    message=f"Обработчик задачи пропал во всех {max_attempts} попытках: задача не выполнена.")
    return requeued


def unsent(session: AnySession, *, now: datetime, stale_after: timedelta, in_broker: Sequence[int]) -> list[int]:
    """Queued jobs handed to the broker over ``stale_after`` ago that the broker no longer holds (a worker took the
    message and died before it claimed the job): marked as sent again ``now``, their ids returned to send. A message
    sent twice does no harm: the second finds the job no longer queued (``claim``)."""
    cutoff = now - stale_after
    waiting = session.scalars(select(Job.id).where(Job.state == JobState.QUEUED, Job.heartbeat_at < cutoff)).all()
    held = set(in_broker)
    return [job_id for job_id in waiting if job_id not in held and _update(
        session, (Job.id == job_id) & (Job.state == JobState.QUEUED) & (Job.heartbeat_at < cutoff), heartbeat_at=now)]


def recent(session: AnySession, *, kind: str | None = None, limit: int = 30) -> list[Job]:
    """The newest jobs first (of one kind)."""
    query = select(Job).order_by(Job.id.desc()).limit(limit)
    if kind is not None:
        query = query.where(Job.kind == kind)
    return list(session.scalars(query))


def unfinished_params(session: AnySession) -> list[dict[str, Any]]:
    """The parameters of every unfinished job (the files they still need)."""
    return [params or {} for params in session.scalars(select(Job.params).where(Job.state.in_(
        [JobState.QUEUED, JobState.RUNNING])))]


def _held(job_id: int, token: str) -> ColumnElement[bool]:
    return (Job.id == job_id) & (Job.run_token == token) & (Job.state == JobState.RUNNING)


def _update(session: AnySession, condition: ColumnElement[bool], **values: Any) -> bool:
    result = session.execute(update(Job).where(condition).values(**values).execution_options(
        synchronize_session=False))
    return cast(CursorResult[Any], result).rowcount == 1
