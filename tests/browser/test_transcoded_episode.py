"""Issue 35's proof from end to end: a generated 2-minute 720p source with two audio languages and a subtitle track is
uploaded by an editor in the admin (Chromium, the real tus client), which makes the episode's ``transcode`` job; a real
worker process runs it (Debian's ffmpeg, the test preset); then the
real player page plays the episode in Chromium from its signed media addresses: two qualities chosen (hls.js's levels
in the quality menu, the frames' height following), both audio renditions switched (hls.js's audio tracks in the
audio menu, the other rendition's segments fetched), the subtitle as a <track>, and the storyboard's map and sheet
reached through the signed master JSON."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask_migrate import upgrade
from playwright.sync_api import Browser, Locator, Page, expect
from sqlalchemy import select

from app import create_app
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from app.models import Episode, Role
from app.models.jobs import Job, JobState
from app.services.accounts.accounts import create_account
from app.transaction import transaction
from tests.browser.conftest import serving
from tests.browser.helpers import (
    checked_labels,
    choice,
    current_time,
    master_address,
    menu,
    open_player,
    open_settings,
    poll,
    radio_labels,
    signed_in_admin,
    start,
    wait_until_playing,
)
from tests.jobs.conftest import Workers, wait_for
from tests.jobs.test_transcode_job import TRANSCODE
from tests.video_sources import source

FILM = 1  # the demo's first film: its one episode gets the transcoded media
EDITOR, PASSWORD = "editor@example.com", "a long enough passphrase"
VIDEO_HEIGHT = "(h) => document.querySelector('video.player__video').videoHeight === h"


def main_entry(page: Page, label: str) -> Locator:
    return menu(page, "main").get_by_role("menuitem").filter(has_text=label)

# Slower beats than tests/jobs' (a 2-minute encoding on a busy machine must not look dead), quick enough polling.
TIMINGS = {"JOB_HEARTBEAT_SECONDS": 1, "JOB_STALE_SECONDS": 60, "JOB_RETRY_SECONDS": 1, "JOB_PROGRESS_SECONDS": 0.5,
           "QUEUE_POLL_SECONDS": 0.2, "JOB_MAX_ATTEMPTS": 2}


@pytest.fixture(scope="module")
def transcoded(make_database: Any, assets_built: Path, tmp_path_factory: pytest.TempPathFactory, browser: Browser,
               ) -> Iterator[tuple[Flask, Job]]:
    """An application of its own whose demo film's episode an editor gave the 2-minute source in the admin, turned
    into its media by a real worker's job."""
    tmp = tmp_path_factory.mktemp("transcoded")
    config: dict[str, Any] = {
        "DATABASE_URL": make_database("transcoded"), "MEDIA_ROOT": str(tmp / "media"),
        "QUEUE_FILE": str(tmp / "queue.db"), "JOB_FILES_DIR": str(tmp / "files"), "REDIS_URL": "",
        "VIDEO_UPLOAD_DIR": str(tmp / "uploads"), "VIDEO_UPLOAD_RESERVE_BYTES": 0,
        "QUEUE_NAME": f"test-{uuid.uuid4().hex}", "TRUSTED_PROXIES": "127.0.0.1", **TIMINGS, **TRANSCODE}
    app = create_app({"TESTING": True, **config})
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
        with transaction():
            create_account(EDITOR, "Ольга Редакторова", PASSWORD, Role.EDITOR)
        episode_id, content_id = db.session.execute(
            select(Episode.id, Episode.content_id).where(Episode.content_id == FILM)).one()
    workers = Workers(config, tmp / "worker.log")
    workers.start()
    try:
        with serving(app) as origin:
            job_id = uploaded(browser, origin, content_id, episode_id, source(120))
        with app.app_context():
            job = db.session.get_one(Job, job_id)
            assert (job.kind, job.subject) == ("transcode", f"episode:{episode_id}")
        done = wait_for(app, job_id, lambda job: job.finished, seconds=1500, log=workers.log)
    finally:
        workers.stop_all()
    assert done.state == JobState.DONE, done.message
    print(f"\ntranscode of the 2-minute source: {done.message}")  # the speed, for docs/video-transcoding.md
    yield app, done


def uploaded(browser: Browser, origin: str, content_id: int, episode_id: int, video: Path) -> int:
    """The editor's way in: signed in, the episode's row on its title's page, «Загрузить видео», the file; the id of
    the job the finished upload made."""
    page = signed_in_admin(browser, origin, EDITOR, PASSWORD, viewport={"width": 1280, "height": 800})
    page.goto(f"{origin}/admin/content/edit/?id={content_id}")
    page.locator(f"a[data-video-upload][href$='/episode/{episode_id}/']").click()
    expect(page.locator("#video-upload")).to_have_attribute("data-ready", "true")
    page.set_input_files("[data-upload-file]", str(video))
    page.click("[data-upload-start]")
    expect(page.locator("[data-upload-status]")).to_contain_text("Файл принят: задача №", timeout=120_000)
    received = int(page.eval_on_selector("#video-upload", "section => section.dataset.received"))
    assert received == video.stat().st_size
    link = page.locator("[data-episode-job] a[data-job-link]")
    job_id = int(link.inner_text().split("№")[1])
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
    return job_id


def test_the_transcoded_episode_plays_in_two_qualities_and_both_languages(page: Page,
                                                                         transcoded: tuple[Flask, Job]):
    app, done = transcoded
    result = done.result or {}
    assert result["renditions"] == ["720p", "360p"] and result["audio"] == ["Русский", "Английский"]
    assert result["duration"] == pytest.approx(120, abs=0.2)
    with serving(app) as origin:
        segments: list[str] = []
        page.on("request", lambda request: segments.append(request.url) if request.url.endswith(".m4s") else None)
        open_player(page, origin, f"movie_id={FILM}")
        assert "/titles/content-1/" in master_address(page)  # the episode's new master JSON, signed
        start(page)

        quality = open_settings(page, "Качество")
        assert radio_labels(quality) == ["Auto", "720p", "360p"]  # hls.js's levels: the ladder's two rungs
        choice(quality, "360p").click()
        page.wait_for_function(VIDEO_HEIGHT, arg=360, timeout=20_000)  # hls.js switched: frames 360 lines high
        expect(main_entry(page, "Качество")).to_contain_text("360p")
        main_entry(page, "Качество").click()
        choice(menu(page, "quality"), "720p").click()
        page.wait_for_function(VIDEO_HEIGHT, arg=720, timeout=20_000)
        expect(main_entry(page, "Качество")).to_contain_text("720p")
        assert any("/media/720p/seg_" in url for url in segments) and any("/media/360p/seg_" in url for url in segments)

        main_entry(page, "Озвучка").click()
        audio = menu(page, "audio-tracks")
        assert radio_labels(audio.locator(".player__menu-group").first) == ["Русский", "Английский"]  # hls.js's tracks
        assert checked_labels(audio)[0] == "Русский"
        assert not any("/media/audio-2/" in url for url in segments)
        at = current_time(page)
        choice(audio, "Английский").click()
        expect(main_entry(page, "Озвучка")).to_contain_text("Английский")
        assert poll(page, lambda: [url for url in segments if "/media/audio-2/seg_" in url], bool, timeout=20_000)
        wait_until_playing(page, at + 1)  # played on in English, the other rendition's segments fetched
        main_entry(page, "Озвучка").click()
        choice(menu(page, "audio-tracks"), "Русский").click()
        expect(main_entry(page, "Озвучка")).to_contain_text("Русский")
        at = current_time(page)
        wait_until_playing(page, at + 1)

        tracks = page.evaluate("() => [...document.querySelectorAll('video.player__video track')]"
                               ".map((t) => [t.label, t.srclang])")
        assert tracks == [["Русский", "ru"]]
        master = page.request.get(master_address(page)).json()
        storyboard = page.request.get(origin + master["storyboard"])
        assert storyboard.ok and "/media/s/" in storyboard.url  # signed like the sources
        cues = storyboard.text()
        assert cues.startswith("WEBVTT") and cues.count(" --> ") == 60  # a tile every 2 s of 120 s
        sheet = page.request.get(storyboard.url.rsplit("/", 1)[0] + "/sheet-001.jpg")
        assert sheet.ok and sheet.headers["content-type"] == "image/jpeg"
        assert page.errors == []  # type: ignore[attr-defined]
