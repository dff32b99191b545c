"""A job's page in Chromium (issue 34): while a real worker runs the job, the progress bar moves on its own (jobs.js
polls the job's state), and at the end the state, the report and the hidden cancel appear without a reload."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import upgrade
from playwright.sync_api import Browser, Page, expect

from app import create_app
from app.models import Role
from app.services.accounts.accounts import create_account
from app.transaction import transaction
from tests.browser.conftest import serving, watch_errors
from tests.jobs.conftest import TIMINGS, Workers, enqueue

PASSWORD = "a long enough passphrase"


@pytest.fixture(scope="module")
def jobs_server(make_database: Callable[[str], str],
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    folder = tmp_path_factory.mktemp("admin-jobs")
    config = {"DATABASE_URL": make_database("admin-jobs"), "MEDIA_ROOT": str(folder / "media"), "REDIS_URL": "",
              "QUEUE_FILE": str(folder / "queue.db"), "QUEUE_NAME": f"test-{uuid.uuid4().hex}",
              "JOB_FILES_DIR": str(folder / "files"), **TIMINGS}
    app = create_app({"TESTING": True, **config})
    with app.app_context():
        upgrade()
        with transaction():
            create_account("editor@example.com", "Ольга Редакторова", PASSWORD, Role.EDITOR)
    workers = Workers(config, folder / "worker.log")
    workers.start()
    try:
        with serving(app) as origin:
            yield app, origin
    finally:
        workers.stop_all()


@pytest.fixture
def editor_page(browser: Browser, jobs_server: tuple[Flask, str]) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU")
    page = watch_errors(context.new_page())
    _, origin = jobs_server
    page.goto(f"{origin}/admin/jobs/")
    page.fill("input[name=email]", "editor@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{origin}/admin/jobs/")
    yield page
    assert page.errors == []  # type: ignore[attr-defined]
    context.close()


def width(page: Page) -> float:
    return float(page.eval_on_selector("[data-job-bar]", "bar => parseFloat(bar.style.width)"))


def test_the_progress_bar_moves_and_the_report_appears(editor_page: Page, jobs_server: tuple[Flask, str],
                                                       tmp_path: Path):
    app, origin = jobs_server
    page = editor_page
    job_id = enqueue(app, "probe", {"steps": 60, "step_seconds": 0.1})
    page.goto(f"{origin}/admin/jobs/{job_id}/")
    page.evaluate("window.notReloaded = true")
    page.wait_for_function("() => { const w = parseFloat(document.querySelector('[data-job-bar]').style.width);"
                           " return w > 0 && w < 100; }", timeout=30_000)
    first = width(page)
    page.wait_for_function(f"() => parseFloat(document.querySelector('[data-job-bar]').style.width) > {first}",
                           timeout=30_000)
    expect(page.locator("[data-job-state]")).to_have_text("Выполняется")
    expect(page.locator("#probe-report")).to_have_text("Шагов: 60, с попытки 1.", timeout=30_000)
    expect(page.locator("[data-job-state]")).to_have_text("Готово")
    expect(page.locator("[data-job-count]")).to_have_text("60 из 60 (100 %)")
    expect(page.locator("[data-job-message]")).to_have_text("Проверка прошла, шагов: 60.")
    expect(page.locator("form[data-job-cancel]")).to_be_hidden()
    assert width(page) == 100
    assert page.evaluate("window.notReloaded") is True  # all of it without a reload
