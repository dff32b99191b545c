"""An episode's source video uploaded from the admin in Chromium (issue 35): the real tus-js-client (the page's
vendor/tus.min.js) against the application, the upload cut mid-way by a reload of the page, the same file chosen
again and resumed where it stopped; the server received each byte once and holds the file byte for byte; the job is
the episode's ``transcode``; a file that is not video is refused with its Russian reason."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import upgrade
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from app import create_app
from app.clock import now
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from app.models import Episode, Role
from app.models.jobs import Job
from app.services import jobs
from app.services.accounts.accounts import create_account
from app.transaction import transaction
from tests.browser.conftest import serving
from tests.browser.helpers import signed_in_admin

PASSWORD = "a long enough passphrase"
CHUNK = 524_288


@pytest.fixture(scope="module")
def upload_server(make_database: Callable[[str], str],
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    folder = tmp_path_factory.mktemp("admin-video-upload")
    app = create_app({"TESTING": True, "DATABASE_URL": make_database("admin-video-upload"),
                      "MEDIA_ROOT": str(folder / "media"), "QUEUE_FILE": str(folder / "queue.db"),
                      "JOB_FILES_DIR": str(folder / "jobs"), "VIDEO_UPLOAD_DIR": str(folder / "uploads"),
                      "VIDEO_UPLOAD_CHUNK_BYTES": CHUNK, "VIDEO_UPLOAD_RESERVE_BYTES": 0})
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
        with transaction():
            create_account("editor@example.com", "Ольга Редакторова", PASSWORD, Role.EDITOR)
    with serving(app) as origin:
        yield app, origin


@pytest.fixture
def editor_page(browser: Browser, upload_server: tuple[Flask, str]) -> Iterator[Page]:
    _, origin = upload_server
    page = signed_in_admin(browser, origin, "editor@example.com", PASSWORD, viewport={"width": 1280, "height": 800})
    yield page
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def episodes(app: Flask) -> list[tuple[int, int]]:
    with app.app_context():
        return [(row.id, row.content_id) for row in db.session.execute(
            select(Episode.id, Episode.content_id).order_by(Episode.id)).all()]


def source_video(path: Path) -> Path:
    """About 1.7 MB of real video (H.264 and AAC, 8 s at a high bitrate, small frames), by Debian's ffmpeg."""
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-threads", "2", "-f", "lavfi", "-i",
                    "testsrc2=size=320x240:rate=25:duration=8", "-f", "lavfi", "-i", "sine=frequency=330:duration=8",
                    "-c:v", "libx264", "-preset", "ultrafast", "-qp", "4", "-c:a", "aac", "-shortest", str(path)],
                   check=True)
    return path


def part_size(app: Flask) -> int:
    parts = list(Path(app.config["VIDEO_UPLOAD_DIR"]).glob("*.part"))
    return parts[0].stat().st_size if parts else 0


def test_an_upload_cut_by_a_reload_resumes_and_becomes_the_episodes_job(
        editor_page: Page, upload_server: tuple[Flask, str], tmp_path: Path):
    app, origin = upload_server
    page = editor_page
    episode_id, content_id = episodes(app)[0]
    source = source_video(tmp_path / "Серия 1.mp4")
    size = source.stat().st_size
    assert size > 2.5 * CHUNK

    # the episode's row on its title's page leads to the upload
    page.goto(f"{origin}/admin/content/edit/?id={content_id}")
    page.locator(f"a[data-video-upload][href$='/episode/{episode_id}/']").click()
    expect(page).to_have_url(f"{origin}/admin/uploads/episode/{episode_id}/")
    expect(page.locator("[data-no-job]")).to_be_visible()
    expect(page.locator("#video-upload")).to_have_attribute("data-ready", "true")

    # a slow line: the upload is under way when the page goes
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1,
                                                  "uploadThroughput": 600_000})
    page.set_input_files("[data-upload-file]", str(source))
    page.click("[data-upload-start]")
    expect(page.locator("[data-upload-status]")).to_contain_text("Загружено", timeout=20_000)
    expect(page.locator("[data-upload-status]")).to_contain_text("/с")  # the speed
    deadline = time.monotonic() + 30
    while part_size(app) < 1.3 * CHUNK and time.monotonic() < deadline:  # into the second chunk
        time.sleep(0.05)
    page.reload()
    cut = part_size(app)
    assert CHUNK < cut < size, cut
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1,
                                                  "uploadThroughput": -1})
    expect(page.locator("[data-upload-status]")).to_contain_text("Есть незаконченная загрузка файла «Серия 1.mp4»")

    # the same file chosen again: resumed at the server's offset, not from the start
    page.set_input_files("[data-upload-file]", str(source))
    page.click("[data-upload-start]")
    status = page.locator("[data-upload-status]")
    expect(status).to_contain_text("Файл принят: задача №", timeout=60_000)
    received = int(page.eval_on_selector("#video-upload", "section => section.dataset.received"))
    assert received == size  # each byte once: the part sent before the reload was not sent again
    link = page.locator("[data-episode-job] a[data-job-link]")
    expect(link).to_contain_text("Задача №")
    job_id = int(link.inner_text().split("№")[1])
    expect(page.locator("[data-new-job]")).to_have_text(f"Задача №{job_id}: В очереди. Ждёт обработчика.")
    with app.app_context():
        job = db.session.get_one(Job, job_id)
        assert (job.kind, job.subject, job.params["episode_id"]) == ("transcode", f"episode:{episode_id}", episode_id)
        assert Path(job.params["file"]).read_bytes() == source.read_bytes()
    assert list(Path(app.config["VIDEO_UPLOAD_DIR"]).glob("*.part")) == []

    # the page again: the job's state, linked; a second upload for the episode is refused in words
    page.reload()
    expect(page.locator("#job a[data-job-link]")).to_have_attribute("href", f"/admin/jobs/{job_id}/")
    expect(page.locator("[data-job-state]")).to_have_text("В очереди")
    expect(page.locator("#video-upload")).to_have_attribute("data-ready", "true")
    page.set_input_files("[data-upload-file]", str(source))
    page.click("[data-upload-start]")
    expect(page.locator("[data-upload-error]")).to_contain_text(
        f"Для этой серии уже есть незавершённая задача №{job_id}")

    # the job's state follows on the page without a reload (jobs.js polls it)
    with app.app_context(), transaction():
        jobs.cancel(db.session, job_id, now=now())
    expect(page.locator("[data-job-state]")).to_have_text("Отменена", timeout=15_000)


def test_a_file_that_is_not_video_is_refused_with_the_reason(editor_page: Page, upload_server: tuple[Flask, str],
                                                             tmp_path: Path):
    app, origin = upload_server
    episode_id, _ = episodes(app)[1]
    notes = tmp_path / "notes.mkv"
    notes.write_text("Это не фильм, а заметки.\n" * 2000)
    page = editor_page
    page.goto(f"{origin}/admin/uploads/episode/{episode_id}/")
    expect(page.locator("#video-upload")).to_have_attribute("data-ready", "true")
    page.set_input_files("[data-upload-file]", str(notes))
    page.click("[data-upload-start]")
    expect(page.locator("[data-upload-error]")).to_have_text(
        "Файл «notes.mkv» не подходит: Файл не читается как видео: его формат не распознан или он повреждён.",
        timeout=30_000)
    expect(page.locator("[data-upload-start]")).to_be_enabled()
    assert list(Path(app.config["VIDEO_UPLOAD_DIR"]).glob("*.part")) == []


def test_a_connection_lost_mid_upload_resumes_on_the_same_page(editor_page: Page, upload_server: tuple[Flask, str],
                                                               tmp_path: Path):
    """The line goes (the browser offline mid-chunk): the page says so; back online, «Загрузить» goes on from the
    server's offset, without a reload and without sending again what had arrived."""
    app, origin = upload_server
    episode_id, _ = episodes(app)[2]
    source = source_video(tmp_path / "Серия 3.mp4")
    size = source.stat().st_size
    page = editor_page
    page.goto(f"{origin}/admin/uploads/episode/{episode_id}/")
    expect(page.locator("#video-upload")).to_have_attribute("data-ready", "true")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1,
                                                  "uploadThroughput": 600_000})
    page.set_input_files("[data-upload-file]", str(source))
    page.click("[data-upload-start]")
    deadline = time.monotonic() + 30
    while part_size(app) < 0.5 * CHUNK and time.monotonic() < deadline:
        time.sleep(0.05)
    cdp.send("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1,
                                                  "uploadThroughput": -1})
    expect(page.locator("[data-upload-error]")).to_have_text(
        "Нет связи с сервером. Когда она вернётся, нажмите «Загрузить»: загрузка продолжится с того же места.",
        timeout=30_000)
    cut = part_size(app)
    assert 0 < cut < size
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1,
                                                  "uploadThroughput": -1})
    page.click("[data-upload-start]")
    expect(page.locator("[data-upload-status]")).to_contain_text("Файл принят: задача №", timeout=60_000)
    assert int(page.eval_on_selector("#video-upload", "section => section.dataset.received")) == size
    with app.app_context():
        job = db.session.scalars(select(Job).where(Job.subject == f"episode:{episode_id}")).one()
        assert Path(job.params["file"]).read_bytes() == source.read_bytes()
