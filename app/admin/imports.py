"""«Импорт каталога» (Каталог → Импорт каталога, issue 34): an editor uploads a catalogue file (JSON Lines or CSV, the
format of docs/import.md), optionally «Проверить без записи» (a dry run), and the import runs as a job on the
queue (app/jobs/catalogue_import.py); the page then shows the job (app/admin/jobs.py: its progress bar, cancel, the
report). The upload is checked here first, with a Russian message for each refusal: a file chosen, its type by name,
not empty, not binary, at most CATALOGUE_IMPORT_MAX_BYTES. It waits under JOB_FILES_DIR for the worker."""

from __future__ import annotations

import logging
import uuid
from pathlib import Path
from typing import Any

from flask import current_app, flash, redirect, request, url_for
from flask_admin import BaseView, expose
from werkzeug.datastructures import FileStorage
from wtforms import BooleanField, FileField

from app.admin.access import Guarded, signed_in
from app.admin.forms import EditorForm
from app.admin.jobs import kind_label, percent
from app.clock import now
from app.extensions import db
from app.jobs.catalogue_import import KIND, SUBJECT
from app.jobs.queue import send_after_commit
from app.services import jobs
from app.services.errors import DomainError

log = logging.getLogger(__name__)
TYPES = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}
CHUNK = 1_048_576
FORM_SLACK = 1_048_576  # the form's other fields and the multipart framing around the file
SNIFF = 65_536


class ImportForm(EditorForm):
    file = FileField("Файл каталога", render_kw={"accept": ".jsonl,.ndjson,.csv"})
    dry_run = BooleanField("Проверить без записи")


class Refused(Exception):
    """The upload is not taken; the message says why (in Russian)."""


class CatalogueImportView(Guarded, BaseView):
    def _limit(self) -> int:
        return int(current_app.config["CATALOGUE_IMPORT_MAX_BYTES"])

    @expose("/")
    def index(self) -> Any:
        form = ImportForm()
        form.file.render_kw = {**form.file.render_kw, "data-max-bytes": self._limit()}
        return self.render("admin/catalogue_import.html", form=form, limit=_size(self._limit()),
                           jobs=jobs.recent(db.session, kind=KIND, limit=20), kind_label=kind_label, percent=percent)

    @expose("/upload", methods=("POST",))
    def upload(self) -> Any:
        limit = self._limit()
        if request.content_length is not None and request.content_length > limit + FORM_SLACK:
            flash(f"Файл не загружен: он больше {_size(limit)}.", "error")  # the body is not even read
            return redirect(url_for(".index"))
        request.max_content_length = max(request.max_content_length or 0, limit + FORM_SLACK)
        request.max_form_memory_size = FORM_SLACK
        form = ImportForm(request.form)
        if not form.validate():
            flash("Форма устарела: загрузите файл ещё раз.", "error")
            return redirect(url_for(".index"))
        upload = request.files.get("file")
        folder = Path(current_app.config["JOB_FILES_DIR"])
        try:
            path, name = _store(upload, folder, limit)
        except Refused as refusal:
            flash(f"Файл не загружен: {refusal}", "error")
            return redirect(url_for(".index"))
        dry_run = bool(form.dry_run.data)
        account = signed_in()
        try:
            job = jobs.create(db.session, KIND, {"file": str(path), "name": name, "dry_run": dry_run}, now=now(),
                              account_id=account.id if account else None, subject=None if dry_run else SUBJECT,
                              message="Ждёт обработчика.")
        except DomainError as refusal:
            path.unlink(missing_ok=True)
            flash(f"Импорт не начат. {refusal.message}", "error")
            return redirect(url_for(".index"))
        send_after_commit(current_app._get_current_object(), job.id)  # type: ignore[attr-defined]
        log.info("catalogue import %s (%s, %s bytes%s) queued by account %s", job.id, name, path.stat().st_size,
                 ", dry run" if dry_run else "", account.id if account else None)
        return redirect(url_for("jobs.job", job_id=job.id))


def _store(upload: FileStorage | None, folder: Path, limit: int) -> tuple[Path, str]:
    """The upload, checked and written under ``folder``; its path and the name it came with."""
    if not isinstance(upload, FileStorage) or not upload.filename:
        raise Refused("выберите файл каталога.")
    name = Path(upload.filename).name[:200]
    suffix = Path(name).suffix.lower()
    if suffix not in TYPES:
        raise Refused("нужен файл JSON Lines (.jsonl, .ndjson) или CSV (.csv).")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{uuid.uuid4().hex}{suffix}"
    written = 0
    try:
        with path.open("wb") as target:
            while chunk := upload.stream.read(CHUNK):
                if written == 0 and b"\0" in chunk[:SNIFF]:
                    raise Refused("это не текстовый файл: каталог — это JSON Lines или CSV в UTF-8.")
                written += len(chunk)
                if written > limit:
                    raise Refused(f"он больше {_size(limit)}.")
                target.write(chunk)
        if written == 0:
            raise Refused("файл пуст.")
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return path, name


def _size(size: int) -> str:
    """«64 МБ», «512 КБ» (rounded, with a decimal comma when it has a fraction)."""
    value, unit = (size / 1_048_576, "МБ") if size >= 1_048_576 else (size / 1024, "КБ")
    return f"{round(value, 1):g} {unit}".replace(".", ",")
