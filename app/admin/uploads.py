"""«Загрузка видео» (issue 35, docs/video-upload.md): an editor brings an episode's source video in from the admin
(or an ad creative's).

The episode's page here (linked from each episode's row on its title's edit page; a creative's from its row in the
list of creatives) has the upload control
(app/admin/static/video_upload.js: tus-js-client, a progress bar with bytes and speed, resumed after a reload or a
dropped connection) and the episode's current job with its progress. The server's half of tus is the ``tus_*``
addresses below over app/services/media/uploads.py; once the file is whole, ``finish`` checks it with ffprobe
(app/services/media/probe.py: the editor reads the Russian reason of a file that cannot be used, and the file goes),
moves it under JOB_FILES_DIR and makes the ``transcode`` job (``{"episode_id", "file"}``, subject ``episode:<id>``)
in the request's one transaction; for a creative, ``transcode_ad`` (``{"creative_id", "file"}``, subject
``creative:<id>``, app/jobs/transcode_ad.py).

Editors and administrators only (``Guarded``, as every admin view); a form's page is refused as elsewhere (the sign-in
page), but a call of the upload's script (it says ``Tus-Resumable`` or ``X-Requested-With``) is answered 403 in
words, never a redirect its client would follow. Every call that changes something carries the admin's CSRF token
in ``X-CSRF-Token`` (a form's token, checked as the forms check theirs; the page fetches a fresh one, ``token``,
before the old one's 30 minutes are up)."""

from __future__ import annotations

import logging
import re
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import abort, current_app, g, jsonify, make_response, redirect, request, url_for
from flask_admin import BaseView, expose
from sqlalchemy import select
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import ClientDisconnected
from werkzeug.wrappers import Response

from app.admin.access import Guarded, signed_in
from app.admin.forms import EditorForm
from app.admin.jobs import kind_label, percent
from app.clock import now
from app.extensions import db
from app.jobs import transcode_ad
from app.jobs.queue import send_after_commit
from app.models import AdCreative, Episode
from app.models.jobs import Job, JobState
from app.services import jobs
from app.services.errors import DomainError
from app.services.media.probe import Unusable, probe
from app.services.media.uploads import (
    EXTENSIONS,
    TUS_VERSION,
    Refused,
    Store,
    Upload,
    move,
    parse_metadata,
    size_text,
    store_of,
)
from app.transaction import after_commit

log = logging.getLogger(__name__)
KIND = "transcode"  # registered and run by app/jobs/transcode.py (issue 35's transcoding)
SUFFIX = re.compile(r"^\.[a-z0-9]{1,8}$")
PATCH_SLACK = 65_536
TARGETS = "<any(episode, creative):target>/<int:target_id>"


@dataclass(frozen=True)
class Target:
    """What a video is uploaded for: an episode (the ``transcode`` job) or an ad creative (``transcode_ad``)."""

    name: str
    model: type[Episode] | type[AdCreative]
    kind: str
    key: str  # the job's params name the row by this key

    def subject(self, row_id: int) -> str:
        return f"{self.name}:{row_id}"


EPISODE = Target("episode", Episode, KIND, "episode_id")
CREATIVE = Target("creative", AdCreative, transcode_ad.KIND, "creative_id")
BY_NAME = {target.name: target for target in (EPISODE, CREATIVE)}


def subject_of(episode_id: int) -> str:
    return EPISODE.subject(episode_id)


class TokenForm(EditorForm):
    """Only its CSRF token: the upload's calls send it in a header."""


def store() -> Store:
    return store_of(current_app.config)


def latest_job(subject: str) -> Job | None:
    """The latest job of an episode's or a creative's (unfinished first)."""
    return db.session.scalars(select(Job).where(Job.subject == subject).order_by(
        Job.state.in_([JobState.QUEUED, JobState.RUNNING]).desc(), Job.id.desc()).limit(1)).first()


def episode_jobs() -> dict[int, Job]:
    """The unfinished job of each episode that has one (one query a request): what an episode's row says of it."""
    if "episode_jobs" not in g:
        held = db.session.scalars(select(Job).where(Job.subject.like("episode:%"),
                                                    Job.state.in_([JobState.QUEUED, JobState.RUNNING])))
        g.episode_jobs = {int(job.subject.split(":", 1)[1]): job for job in held if job.subject}
    return dict(g.episode_jobs)


def _scripted() -> bool:
    return "Tus-Resumable" in request.headers or request.headers.get("X-Requested-With") == "XMLHttpRequest"


def _tus(response: Response) -> Response:
    response.headers["Tus-Resumable"] = TUS_VERSION
    response.cache_control.no_store = True
    return response


def _refusal(status: int, message: str) -> Response:
    """A refusal the page's script shows as it is: the Russian message as the body (tus-js-client hands the body to
    its error) and as JSON for ``finish``."""
    if request.path.endswith("/finish"):
        response = jsonify({"error": message})
    else:
        response = make_response(message)
        response.mimetype = "text/plain"
    response.status_code = status
    return _tus(response)


class VideoUploadView(Guarded, BaseView):
    def is_visible(self) -> bool:
        return False  # reached from an episode's row (the title's edit page)

    def inaccessible_callback(self, name: str, **kwargs: Any) -> Response:
        if _scripted():
            message = "Загружать видео могут только редакторы: войдите в редакцию." if signed_in() is None else \
                "Нет доступа."
            return _refusal(401 if signed_in() is None else 403, message)
        return super().inaccessible_callback(name, **kwargs)

    def _row(self, target: Target, row_id: int) -> Episode | AdCreative:
        row = db.session.get(target.model, row_id)
        if not isinstance(row, (Episode, AdCreative)):
            abort(404)
        return row

    def _csrf(self) -> None:
        form = TokenForm(formdata=MultiDict({"csrf_token": request.headers.get("X-CSRF-Token", "")}))
        if not form.validate():
            raise Refused(400, "Страница устарела: обновите её, загрузка продолжится с того же места.")

    def _account_id(self) -> int:
        account = signed_in()
        if account is None:  # Guarded let the request in: not reached
            raise Refused(401, "Войдите в редакцию.")
        return account.id

    # The pages

    @expose("/")
    def index(self) -> Any:
        """No page of its own: an episode's upload is reached from its row (the title's edit page)."""
        return redirect(url_for("content.index_view"))

    @expose(f"/{TARGETS}/")
    def page(self, target: str, target_id: int) -> Any:
        """The upload page of an episode or an ad creative."""
        kind = BY_NAME[target]
        row = self._row(kind, target_id)
        config = current_app.config
        store().expire(time.time())
        return self.render("admin/video_upload.html", target=kind.name, row=row, job=latest_job(kind.subject(row.id)),
                           kind_label=kind_label, percent=percent, token=TokenForm().csrf_token.current_token,
                           limit=size_text(int(config["VIDEO_UPLOAD_MAX_BYTES"])),
                           max_bytes=int(config["VIDEO_UPLOAD_MAX_BYTES"]),
                           chunk_bytes=int(config["VIDEO_UPLOAD_CHUNK_BYTES"]),
                           expire_hours=config["VIDEO_UPLOAD_EXPIRE_HOURS"])

    @expose("/token")
    def token(self) -> Any:
        """A fresh CSRF token for the upload's calls (a long upload outlives a token's 30 minutes)."""
        return _tus(jsonify({"token": TokenForm().csrf_token.current_token}))

    @expose(f"/{TARGETS}/job")
    def job_state(self, target: str, target_id: int) -> Any:
        """The current job of the episode or creative, as the page shows it (after an upload made one)."""
        kind = BY_NAME[target]
        self._row(kind, target_id)
        job = latest_job(kind.subject(target_id))
        if job is None:
            return _tus(jsonify({"job": None}))
        return _tus(jsonify({"job": {"id": job.id, "state_label": job.state_label, "percent": percent(job),
                                     "finished": job.finished, "message": job.message,
                                     "url": url_for("jobs.job", job_id=job.id)}}))

    # tus: creation (POST), offset (HEAD), append (PATCH), termination (DELETE)

    @expose(f"/{TARGETS}/tus/", methods=("POST", "OPTIONS"))
    def tus_create(self, target: str, target_id: int) -> Any:
        if request.method == "OPTIONS":
            response = make_response("", 204)
            response.headers["Tus-Version"] = TUS_VERSION
            response.headers["Tus-Extension"] = EXTENSIONS
            response.headers["Tus-Max-Size"] = str(current_app.config["VIDEO_UPLOAD_MAX_BYTES"])
            return _tus(response)
        try:
            self._csrf()
            self._version()
            kind = BY_NAME[target]
            row = self._row(kind, target_id)
            busy = db.session.scalar(select(Job).where(Job.subject == kind.subject(row.id),
                                                       Job.state.in_([JobState.QUEUED, JobState.RUNNING])))
            if busy is not None:
                # 403, not 409: tus-js-client takes a 409 for an offset to fetch again and retries it
                whose = "этой серии" if kind is EPISODE else "этого ролика"
                raise Refused(403, f"Для {whose} уже есть незавершённая задача №{busy.id} "
                                   f"({kind_label(busy.kind)}, {busy.state_label.lower()}): дождитесь её "
                                   "или отмените, затем загрузите файл снова.")
            if request.headers.get("Upload-Defer-Length"):
                raise Refused(400, "Нужна длина файла (Upload-Length).")
            length = _integer(request.headers.get("Upload-Length"), "Upload-Length")
            name = parse_metadata(request.headers.get("Upload-Metadata")).get("filename") or "video"
            upload = store().create(account_id=self._account_id(), target=kind.name, target_id=row.id,
                                    length=length, name=name, now=time.time())
        except Refused as refusal:
            return _refusal(refusal.status, refusal.message)
        log.info("video upload %s for %s %s (%s, %s bytes) started by account %s", upload.id, target, target_id,
                 upload.name, upload.length, upload.account_id)
        response = make_response("", 201)
        response.headers["Location"] = url_for(".tus_upload", upload_id=upload.id)
        response.headers["Upload-Expires"] = _http_date(store().expires_at(upload))
        return _tus(response)

    @expose("/tus/<upload_id>", methods=("HEAD", "GET", "PATCH", "DELETE"))
    def tus_upload(self, upload_id: str) -> Any:
        try:
            if request.method != "GET":
                self._version()
            if request.method in ("PATCH", "DELETE"):
                self._csrf()
            uploads = store()
            upload = uploads.get(upload_id, self._account_id())
            if request.method == "DELETE":
                uploads.remove(upload)
                log.info("video upload %s removed by its editor", upload.id)
                return _tus(make_response("", 204))
            if request.method == "PATCH":
                return self._patch(uploads, upload)
        except Refused as refusal:
            return _refusal(refusal.status, refusal.message)
        response = make_response("", 200) if request.method == "HEAD" else jsonify(self._described(uploads, upload))
        response.headers["Upload-Offset"] = str(upload.offset(uploads.folder))
        response.headers["Upload-Length"] = str(upload.length)
        response.headers["Upload-Expires"] = _http_date(uploads.expires_at(upload))
        return _tus(response)

    def _patch(self, uploads: Store, upload: Upload) -> Response:
        if request.mimetype != "application/offset+octet-stream":
            raise Refused(415, "Тело запроса должно быть application/offset+octet-stream.")
        offset = _integer(request.headers.get("Upload-Offset"), "Upload-Offset")
        length = request.content_length
        chunk = int(current_app.config["VIDEO_UPLOAD_CHUNK_BYTES"])
        if length is not None and length > chunk + PATCH_SLACK:
            raise Refused(413, f"Кусок больше {size_text(chunk)}.")
        db.session.close()  # no database connection held while the body arrives (seconds, on a slow line)
        # read as it arrives, a megabyte at a time, never whole (no form parsing)
        new_offset = uploads.append(upload, offset, length, _Reading(request.stream), time.time())
        response = make_response("", 204)
        response.headers["Upload-Offset"] = str(new_offset)
        response.headers["Upload-Expires"] = _http_date(uploads.expires_at(upload))
        return _tus(response)

    def _described(self, uploads: Store, upload: Upload) -> dict[str, Any]:
        return {"id": upload.id, "target": upload.target, "target_id": upload.target_id, "name": upload.name,
                "length": upload.length,
                "offset": upload.offset(uploads.folder), "received": upload.received}

    def _version(self) -> None:
        if request.headers.get("Tus-Resumable") != TUS_VERSION:
            raise Refused(412, f"Нужен протокол tus {TUS_VERSION} (заголовок Tus-Resumable).")

    # the end: probe, move, job

    @expose("/tus/<upload_id>/finish", methods=("POST",))
    def finish(self, upload_id: str) -> Any:
        try:
            self._csrf()
            uploads = store()
            upload = uploads.get(upload_id, self._account_id())
            if not upload.complete(uploads.folder):
                raise Refused(409, "Файл загружен не полностью: дождитесь конца загрузки.")
            kind = BY_NAME.get(upload.target, EPISODE)
            row = self._row(kind, upload.target_id)
            part = uploads.part(upload.id)
            try:
                source = probe(part)
            except Unusable as unusable:
                uploads.remove(upload)
                log.info("video upload %s for %s %s refused: %s", upload.id, kind.name, row.id, unusable.message)
                raise Refused(422, f"Файл «{upload.name}» не подходит: {unusable.message}") from None
            folder = Path(current_app.config["JOB_FILES_DIR"]).resolve()
            suffix = Path(upload.name).suffix.lower()
            target = folder / f"{kind.name}-{row.id}-{uuid.uuid4().hex}{suffix if SUFFIX.match(suffix) else ''}"
            account = self._account_id()
            try:
                job = jobs.create(db.session, kind.kind, {kind.key: row.id, "file": str(target)}, now=now(),
                                  account_id=account, subject=kind.subject(row.id), message="Ждёт обработчика.")
            except DomainError as refusal:  # kept: finished again once the other job has ended
                raise Refused(409, f"Видео не принято в обработку. {refusal.message}") from None
            # The job's row is flushed, not committed: the file moves now, its time set to now, so that the sweep
            # (which spares files younger than ten minutes) cannot take it before the commit makes the job need it.
            move(part, target)
            after_commit(lambda: uploads.forget(upload))
            send_after_commit(current_app._get_current_object(), job.id)  # type: ignore[attr-defined]
        except Refused as refusal:
            return _refusal(refusal.status, refusal.message)
        log.info("video upload %s for %s %s (%s, %.1f s, %s) became job %s (account %s)", upload.id, kind.name,
                 row.id, upload.name, source.duration, source.container, job.id, account)
        return _tus(jsonify({"job_id": job.id, "job_url": url_for("jobs.job", job_id=job.id),
                             "received": upload.received,  # every byte the PATCHes brought: a byte resent counts twice
                             "message": f"Файл принят: задача №{job.id} «{kind_label(kind.kind)}» поставлена в "
                                        "очередь."}))


class _Reading:
    """The request's body as ``append`` reads it; a dropped connection reads as its end (Werkzeug's own stream
    raises ClientDisconnected; gunicorn's returns less)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def read(self, size: int) -> bytes:
        try:
            return bytes(self.stream.read(size))
        except (OSError, ClientDisconnected):
            return b""


def _integer(value: str | None, header: str) -> int:
    if value is None or not value.isdigit() or len(value) > 18:
        raise Refused(400, f"Нужен заголовок {header}: целое число байт.")
    return int(value)


def _http_date(moment: float) -> str:
    from email.utils import formatdate

    return formatdate(moment, usegmt=True)
