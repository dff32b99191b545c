"""The catalogue import as a job (issue 34), as the admin queues it: a real worker runs ``import_catalogue`` on the
uploaded file, reports its progress, and keeps its report as the job's result (counts, errors by line and field);
the file goes with the job; a second run of the same file as a dry run finds every good line unchanged."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select

from app.extensions import db
from app.models import Content
from app.models.jobs import JobState
from tests.jobs.conftest import Workers, enqueue, wait_for

pytestmark = pytest.mark.usefixtures("empty")

LINES = [
    {"kinopoiskId": 5201, "type": "film", "title": "Ветер над Ладогой", "year": 1987},
    {"imdbId": "tt0105202", "type": "film", "title": "Северный маяк", "year": 2024},
    {"kinopoiskId": 5203, "type": "film", "title": "Год не тот", "year": 3000, "genres": ["драмма"]},  # two errors
]


@pytest.fixture(scope="module", autouse=True)
def worker(queue_app: Flask, workers: Workers) -> Iterator[subprocess.Popen[bytes]]:
    if queue_app.config["REDIS_URL"]:
        pytest.skip("the brokers are both tested by test_queue.py; the import's wiring once is enough")
    yield workers.start()


def catalogue_file(app: Flask, tmp_path: Path) -> Path:
    source = tmp_path / "catalogue.jsonl"
    source.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in LINES), encoding="utf-8")
    folder = Path(app.config["JOB_FILES_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{tmp_path.name}-{len(list(folder.iterdir()))}.jsonl"
    shutil.copy(source, target)
    return target


def test_an_import_job_imports_reports_by_line_and_a_dry_rerun_changes_nothing(queue_app: Flask, workers: Workers,
                                                                                tmp_path: Path):
    from app.demo.seed import seed_demo

    with queue_app.app_context():
        seed_demo()  # the types the lines name
    path = catalogue_file(queue_app, tmp_path)
    job_id = enqueue(queue_app, "catalogue_import", {"file": str(path), "name": "catalogue.jsonl", "dry_run": False},
                     subject="catalogue")
    done = wait_for(queue_app, job_id, lambda job: job.finished, seconds=60, log=workers.log)
    assert done.state == JobState.DONE, done.message
    assert (done.done, done.total) == (3, 3)
    result = done.result or {}
    assert {key: result[key] for key in ("lines", "created", "updated", "unchanged", "failed", "errors_total",
                                         "dry_run")} == {
        "lines": 3, "created": 2, "updated": 0, "unchanged": 0, "failed": 1, "errors_total": 2, "dry_run": False}
    assert [(error["line"], error["field"]) for error in result["errors"]] == [(3, "year"), (3, "genres")]
    # lines counted as lines (3 = 2 new + 1 with errors), the errors apart
    assert done.message == ("Импортировано. Строк: 3, новых: 2, изменённых: 0, без изменений: 0, с ошибками: 1 "
                            "(ошибок: 2).")
    assert not path.exists()  # the upload went with its job
    with queue_app.app_context():
        titles = set(db.session.scalars(select(Content.title).where(Content.title.in_(
            ["Ветер над Ладогой", "Северный маяк", "Год не тот"]))))
    assert titles == {"Ветер над Ладогой", "Северный маяк"}

    again = enqueue(queue_app, "catalogue_import", {"file": str(catalogue_file(queue_app, tmp_path)),
                                                    "name": "catalogue.jsonl", "dry_run": True})
    checked = wait_for(queue_app, again, lambda job: job.finished, seconds=60, log=workers.log)
    assert checked.state == JobState.DONE, checked.message
    assert {key: (checked.result or {})[key] for key in ("created", "updated", "unchanged", "failed", "errors_total")
            } == {"created": 0, "updated": 0, "unchanged": 2, "failed": 1, "errors_total": 2}
    assert checked.message.startswith("Проверено без записи. Строк: 3")


def test_a_file_that_is_no_catalogue_fails_at_once_in_russian(queue_app: Flask, workers: Workers, tmp_path: Path):
    folder = Path(queue_app.config["JOB_FILES_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "latin1.csv"
    path.write_bytes("title\nВетер\n".encode("cp1251"))
    job_id = enqueue(queue_app, "catalogue_import", {"file": str(path), "name": "latin1.csv", "dry_run": True})
    failed = wait_for(queue_app, job_id, lambda job: job.finished, seconds=30, log=workers.log)
    assert (failed.state, failed.attempts) == (JobState.FAILED, 1)  # no retry mends a file
    assert failed.message == "Файл импорта не в кодировке UTF-8"
