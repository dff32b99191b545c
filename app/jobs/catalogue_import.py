"""The catalogue's import as a job (issue 34; the admin's «Импорт каталога», app/admin/imports.py): the uploaded file
through ``import_catalogue`` (app/services/catalogue/imports.py, which owns its transactions and upserts by external
id, so a re-run after a killed worker changes nothing it already wrote), its progress reported, its report kept as
the job's result: the counts and the errors by line and field (the first MAX_ERRORS of them, and how many in all)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.jobs.context import JobContext, JobFailed, Outcome

KIND = "catalogue_import"
SUBJECT = "catalogue"  # one import that writes at a time (a dry run holds nothing)
MAX_ERRORS = 1_000


def run(context: JobContext) -> Outcome:
    from app.services.catalogue.imports import import_catalogue

    path = Path(str(context.params["file"]))
    if not path.is_file():
        raise JobFailed("Файл импорта не найден на сервере: загрузите его снова.")
    dry_run = bool(context.params.get("dry_run"))
    report = import_catalogue(path, progress=context.progress, dry_run=dry_run)
    result = report_of(report)
    result["dry_run"] = dry_run
    errors = f", ошибок: {result['errors_total']}" if result["errors_total"] else ""
    verb = "Проверено без записи" if dry_run else "Импортировано"
    return Outcome(f"{verb}: строк {result['lines']}, новых {result['created']}, изменённых {result['updated']}, "
                   f"без изменений {result['unchanged']}{errors}.", result)


def report_of(report: Any) -> dict[str, Any]:
    """The ImportReport as the job's JSON result."""
    errors = list(report.errors)
    return {"lines": report.lines, "created": report.created, "updated": report.updated,
            "unchanged": report.unchanged, "errors_total": len(errors),
            "errors": [{"line": error.line, "field": error.field, "message": error.message}
                       for error in errors[:MAX_ERRORS]]}
