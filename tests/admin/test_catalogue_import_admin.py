"""«Импорт каталога» and the jobs' pages in the admin (app/admin/imports.py, app/admin/jobs.py): who may use them, the
upload's checks (each refusal in Russian, nothing queued, nothing left on disk), a good upload queued as a job, the
job's JSON as its run reports through the queue's rules, its report at the end, and the cancel. The queue's worker
itself: tests/jobs/."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.clock import now
from app.extensions import db
from app.models import Role
from app.models.jobs import Job, JobState
from app.services import jobs
from app.transaction import transaction
from tests.admin.helpers import csrf_of, flashes, page, sign_in

IMPORT = "/admin/import/"
UPLOAD = "/admin/import/upload"
LINES = '{"title": "Тихая гавань", "year": 2023, "kinopoisk_id": 1}\n'.encode()


def upload(client: FlaskClient, name: str, body: bytes, dry_run: bool = False, token: str | None = None) -> Any:
    data: dict[str, Any] = {"csrf_token": token if token is not None else csrf_of(client, IMPORT),
                            "file": (io.BytesIO(body), name)}
    if dry_run:
        data["dry_run"] = "y"
    return client.post(UPLOAD, data=data, content_type="multipart/form-data")


def all_jobs(app: Flask) -> list[Job]:
    with app.app_context():
        found = list(db.session.scalars(db.select(Job).order_by(Job.id)))
        db.session.expunge_all()
        return found


def files(app: Flask) -> list[Path]:
    folder = Path(app.config["JOB_FILES_DIR"])
    return sorted(folder.iterdir()) if folder.is_dir() else []


@pytest.fixture
def editor(signed_in: Callable[[Role], FlaskClient]) -> FlaskClient:
    return signed_in(Role.EDITOR)


@pytest.fixture(autouse=True)
def own_files(app: Flask, tmp_path: Path) -> None:
    app.config["JOB_FILES_DIR"] = str(tmp_path / "job-files")


@pytest.mark.parametrize("address", [IMPORT, "/admin/jobs/", "/admin/jobs/1/", "/admin/jobs/1/state"])
def test_editors_and_admins_only(app: Flask, accounts: dict[Role, int], signed_in: Callable[[Role], FlaskClient],
                                 address: str):
    with app.app_context(), transaction():
        jobs.create(db.session, "probe", {}, now=now())
    anonymous = app.test_client().get(address)
    assert anonymous.status_code == 302 and anonymous.headers["Location"].startswith("/admin/session/")
    viewer = app.test_client()
    assert sign_in(viewer, "viewer@example.com").status_code == 200  # refused: no session opened
    assert viewer.get(address).headers["Location"].startswith("/admin/session/")
    for role in (Role.EDITOR, Role.ADMIN):
        answer = signed_in(role).get(address)
        assert answer.status_code == 200, (role, answer.status_code)


def test_anonymous_upload_is_sent_to_sign_in_and_queues_nothing(app: Flask, accounts: dict[Role, int]):
    client = app.test_client()
    answer = client.post(UPLOAD, data={"file": (io.BytesIO(LINES), "c.jsonl")}, content_type="multipart/form-data")
    assert answer.status_code == 302 and answer.headers["Location"].startswith("/admin/session/")
    assert all_jobs(app) == [] and files(app) == []


@pytest.mark.parametrize(("name", "body", "message"), [
    ("", b"", "Файл не загружен: выберите файл каталога."),
    ("catalogue.txt", LINES, "Файл не загружен: нужен файл JSON Lines (.jsonl, .ndjson) или CSV (.csv)."),
    ("catalogue.xlsx", b"PK\x03\x04", "Файл не загружен: нужен файл JSON Lines (.jsonl, .ndjson) или CSV (.csv)."),
    ("catalogue.csv", b"", "Файл не загружен: файл пуст."),
    ("catalogue.jsonl", b"\x89PNG\r\n\x1a\n\x00\x00", "Файл не загружен: это не текстовый файл: каталог — это JSON "
                                                       "Lines или CSV в UTF-8."),
    ("catalogue.jsonl", LINES * 40, "Файл не загружен: он больше 1 КБ."),
])
def test_a_wrong_upload_is_refused_in_russian(app: Flask, editor: FlaskClient, name: str, body: bytes, message: str):
    app.config["CATALOGUE_IMPORT_MAX_BYTES"] = 1024  # LINES * 40 is over it, LINES is not
    answer = upload(editor, name, body)
    assert answer.status_code == 302 and answer.headers["Location"] == IMPORT
    assert flashes(editor.get(IMPORT)) == [message]
    assert all_jobs(app) == [] and files(app) == []


def test_a_body_far_over_the_limit_is_refused_before_it_is_read(app: Flask, editor: FlaskClient):
    app.config["CATALOGUE_IMPORT_MAX_BYTES"] = 1024
    answer = upload(editor, "big.jsonl", LINES * 100_000)  # 6 MB: past the limit and the form's slack
    assert answer.status_code == 302
    assert flashes(editor.get(IMPORT)) == ["Файл не загружен: он больше 1 КБ."]
    assert all_jobs(app) == [] and files(app) == []


def test_a_stale_form_queues_nothing(app: Flask, editor: FlaskClient):
    upload(editor, "catalogue.jsonl", LINES, token="not-a-token")
    assert flashes(editor.get(IMPORT)) == ["Форма устарела: загрузите файл ещё раз."]
    assert all_jobs(app) == [] and files(app) == []


def test_an_upload_is_queued_as_a_job_and_its_page_follows_it(app: Flask, editor: FlaskClient,
                                                              accounts: dict[Role, int]):
    answer = upload(editor, "каталог.ndjson", LINES, dry_run=True)
    [job] = all_jobs(app)
    assert answer.status_code == 302 and answer.headers["Location"] == f"/admin/jobs/{job.id}/"
    assert (job.kind, job.state, job.subject, job.account_id) == ("catalogue_import", JobState.QUEUED, None,
                                                                  accounts[Role.EDITOR])
    assert job.params["name"] == "каталог.ndjson" and job.params["dry_run"] is True
    assert [str(path) for path in files(app)] == [job.params["file"]] and Path(job.params["file"]).read_bytes() == LINES
    shown = page(editor.get(f"/admin/jobs/{job.id}/"))
    assert shown.xpath("string(//*[@data-job-state])") == "В очереди"
    assert shown.xpath("//section[@id='job']/@data-state-url") == [f"/admin/jobs/{job.id}/state"]
    assert shown.xpath("//script[contains(@src, 'jobs.js')]") and not shown.xpath("//script[not(@src)]")
    state = editor.get(f"/admin/jobs/{job.id}/state")
    assert state.headers["Cache-Control"] == "no-store"
    assert {key: state.json[key] for key in ("state", "state_label", "done", "total", "percent", "finished")} == {
        "state": "queued", "state_label": "В очереди", "done": 0, "total": None, "percent": None, "finished": False}

    with app.app_context(), transaction():  # a worker's run, through the rules it writes with
        jobs.claim(db.session, job.id, "run", now=now(), max_attempts=3)
        jobs.report(db.session, job.id, "run", 3, 4, now=now())
    state = editor.get(f"/admin/jobs/{job.id}/state").json
    assert (state["state"], state["done"], state["total"], state["percent"], state["attempts"]) == (
        "running", 3, 4, 75, 1)
    result = {"lines": 4, "created": 1, "updated": 1, "unchanged": 0, "failed": 2, "errors_total": 2, "dry_run": True,
              "errors": [{"line": 3, "field": "year", "message": "Год — число от 1900 до 2099"},
                         {"line": 4, "field": "title", "message": "Нет названия"}]}
    with app.app_context(), transaction():
        jobs.finish(db.session, job.id, "run", JobState.DONE, now=now(), message="Проверено без записи.",
                    result=result)
    state = editor.get(f"/admin/jobs/{job.id}/state").json
    assert (state["finished"], state["state_label"], state["result"]) == (True, "Готово", result)
    report = page(editor.get(f"/admin/jobs/{job.id}/report"))
    assert report.xpath("string(//*[@data-count='created'])") == "1"
    assert (report.xpath("string(//*[@data-count='failed'])"), report.xpath("string(//*[@data-count='errors'])")) == (
        "2", "2")
    assert [[cell.text_content() for cell in row.xpath("td")] for row in report.xpath(
        "//table[@id='import-errors']/tbody/tr")] == [["3", "year", "Год — число от 1900 до 2099"],
                                                      ["4", "title", "Нет названия"]]
    finished = page(editor.get(f"/admin/jobs/{job.id}/"))  # opened later: the report is in the page
    assert finished.xpath("//table[@id='import-errors']") and finished.xpath("//form[@data-job-cancel]/@hidden")


def test_one_import_that_writes_at_a_time_and_a_dry_run_beside_it(app: Flask, editor: FlaskClient):
    upload(editor, "one.jsonl", LINES)
    [first] = all_jobs(app)
    upload(editor, "two.jsonl", LINES)
    assert flashes(editor.get(IMPORT)) == [f"Импорт не начат. Для этого уже есть незавершённая задача №{first.id}: "
                                           "дождитесь её или отмените."]
    assert len(all_jobs(app)) == 1 and len(files(app)) == 1
    upload(editor, "three.csv", b"title,year\n", dry_run=True)
    assert [job.params["name"] for job in all_jobs(app)] == ["one.jsonl", "three.csv"]


def test_cancel_from_the_page(app: Flask, editor: FlaskClient):
    upload(editor, "one.jsonl", LINES)
    [job] = all_jobs(app)
    address = f"/admin/jobs/{job.id}/"
    answer = editor.post(f"{address}cancel", data={"csrf_token": csrf_of(editor, address)})
    assert answer.status_code == 302 and answer.headers["Location"] == address
    assert flashes(editor.get(address)) == ["Отменена до начала."]
    assert all_jobs(app)[0].state == JobState.CANCELLED
    editor.post(f"{address}cancel", data={"csrf_token": csrf_of(editor, address)})
    assert flashes(editor.get(address)) == ["Задача уже завершена: отменять нечего."]
    listed = page(editor.get(IMPORT)).xpath("//table[@id='jobs']/tbody/tr/@data-state")
    assert listed == ["cancelled"]
