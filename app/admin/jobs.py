"""The jobs in the admin (Каталог → Задачи): the recent jobs of every kind, and a job's page: its state, a progress bar
that updates itself (app/admin/static/jobs.js polls ``state``, a small JSON answer, while the job is unfinished), the
cancel, and at its end the kind's report (``report``: the fragment the page shows, fetched once the job is done).
Editors and administrators, like every admin view. The jobs themselves: app/models/jobs.py, docs/jobs.md."""

from __future__ import annotations

import logging
from typing import Any

from flask import abort, flash, jsonify, redirect, request, url_for
from flask_admin import BaseView, expose
from jinja2 import TemplateNotFound

from app.admin.access import Guarded, signed_in
from app.admin.forms import EditorForm
from app.clock import now
from app.extensions import db
from app.jobs.kinds import LABELS
from app.models.jobs import Job
from app.services import jobs
from app.services.errors import DomainError

log = logging.getLogger(__name__)
RECENT = 50


class CancelForm(EditorForm):
    """Only its CSRF token: the job is named by the address."""


def kind_label(kind: str) -> str:
    return LABELS.get(kind, kind)


def percent(job: Job) -> int | None:
    """How far, in whole percent (None while the total is not known)."""
    if not job.total:
        return 100 if job.finished and job.total == 0 else None
    return min(100, job.done * 100 // job.total)


def state_of(job: Job) -> dict[str, Any]:
    """The job page's JSON: what its progress bar and state show."""
    return {"id": job.id, "kind": job.kind, "kind_label": kind_label(job.kind), "state": job.state.value,
            "state_label": job.state_label, "done": job.done, "total": job.total, "percent": percent(job),
            "message": job.message, "attempts": job.attempts, "finished": job.finished,
            "cancel_requested": job.cancel_requested,
            "created_at": job.created_at.isoformat(), "started_at": _iso(job.started_at),
            "finished_at": _iso(job.finished_at), "result": job.result}


class JobsView(Guarded, BaseView):
    def _job(self, job_id: int) -> Job:
        job = db.session.get(Job, job_id)
        if job is None:
            abort(404)
        return job

    @expose("/")
    def index(self) -> Any:
        return self.render("admin/jobs/list.html", jobs=jobs.recent(db.session, limit=RECENT), kind_label=kind_label,
                           percent=percent)

    @expose("/<int:job_id>/")
    def job(self, job_id: int) -> Any:
        job = self._job(job_id)
        return self.render("admin/jobs/job.html", job=job, kind_label=kind_label, percent=percent,
                           report=self._report(job) if job.finished else "", form=CancelForm())

    @expose("/<int:job_id>/state")
    def state(self, job_id: int) -> Any:
        answer = jsonify(state_of(self._job(job_id)))
        answer.cache_control.no_store = True
        return answer

    @expose("/<int:job_id>/report")
    def report(self, job_id: int) -> Any:
        return self._report(self._job(job_id))

    @expose("/<int:job_id>/cancel", methods=("POST",))
    def cancel(self, job_id: int) -> Any:
        self._job(job_id)
        if not CancelForm(request.form).validate():
            flash("Форма устарела: нажмите кнопку ещё раз.", "error")
        else:
            try:
                job = jobs.cancel(db.session, job_id, now=now())
            except DomainError as refusal:
                flash(refusal.message, "error")
            else:
                account = signed_in()
                log.info("job %s cancelled from the admin by account %s", job_id, account.id if account else None)
                flash(job.message or "Задача отменена.", "success")
        return redirect(url_for(".job", job_id=job_id))

    def _report(self, job: Job) -> str:
        """The kind's report (templates/admin/jobs/report_<kind>.html), or nothing for a kind without one."""
        try:
            return self.render(f"admin/jobs/report_{job.kind}.html", job=job, result=job.result or {})
        except TemplateNotFound:
            return ""


def _iso(moment: Any) -> str | None:
    return moment.isoformat() if moment is not None else None
