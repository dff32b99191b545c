"""The transcoding job (issue 35) on real worker processes and Debian's ffmpeg: a worker killed (SIGKILL) in the middle
of the encoding takes its ffmpeg with it and leaves the episode on its old media, and the run that takes over finishes
it; a re-run of the same source reuses the finished folder; a second transcode of another source removes the first's
files; a cancel stops ffmpeg and leaves the episode as it was; a file that is no video fails at once in Russian.
(The 2-minute source played in Chromium in two qualities and two languages: tests/browser/test_transcoded_episode.py.)
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select

from app.clock import now
from app.database import unhurried
from app.extensions import db
from app.models import Episode
from app.models.jobs import JobState
from app.services import jobs
from app.transaction import transaction
from tests.jobs.conftest import Workers, enqueue, read, wait_for
from tests.video_sources import source

pytestmark = pytest.mark.usefixtures("empty")

# The test preset: the ladder's two lowest rungs and x264's fastest preset, on two threads (issue 35's brief).
TRANSCODE = {"TRANSCODE_LADDER": "360:800,720:2800", "TRANSCODE_PRESET": "ultrafast", "TRANSCODE_THREADS": 2,
             "TRANSCODE_SEGMENT_SECONDS": 4}
ENCODING = 100  # progress (of 1000) past the hashing: ffmpeg is at work


@pytest.fixture(scope="module")
def transcoders(queue_app: Flask, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workers]:
    if queue_app.config["REDIS_URL"]:
        pytest.skip("the brokers are both tested by test_queue.py; the transcoding on one is enough")
    workers = Workers({}, tmp_path_factory.mktemp("transcode") / "worker.log")
    workers.env = {**queue_app.extensions["test_workers"].env, **{key: str(value) for key, value in TRANSCODE.items()}}
    yield workers
    workers.stop_all()


def upload(app: Flask, path: Path, name: str) -> str:
    """The source as the upload leaves it: a file under JOB_FILES_DIR (the job removes it when it ends)."""
    folder = Path(app.config["JOB_FILES_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / name
    shutil.copyfile(path, target)
    return str(target)


def film_episode(app: Flask) -> tuple[int, int, str]:
    """The demo's first film's episode: its id, its content's, and the master path it plays now."""
    from app.demo.seed import seed_demo

    with app.app_context(), unhurried(app, db.engine):
        seed_demo()
        episode = db.session.scalars(select(Episode).where(Episode.content_id == 1)).one()
        return episode.id, episode.content_id, str(episode.master_file_path)


def master_path(app: Flask, episode_id: int) -> str | None:
    with app.app_context():
        db.session.remove()
        return db.session.get_one(Episode, episode_id).master_file_path


def on_disk(app: Flask, link: str) -> Path:
    return Path(app.config["MEDIA_ROOT"]) / link.removeprefix(app.config["MEDIA_URL_PATH"] + "/")


def ffmpegs_writing_to(folder: Path) -> list[int]:
    """The ffmpeg processes on this machine whose command line names ``folder``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if "ffmpeg" in command and str(folder) in command:
                found.append(int(entry.name))
    return found


def test_a_killed_worker_leaves_the_old_media_the_rerun_publishes_and_a_second_source_replaces_it(
        queue_app: Flask, transcoders: Workers):
    episode_id, content_id, old = film_episode(queue_app)
    media_root = Path(queue_app.config["MEDIA_ROOT"])
    first = transcoders.start()
    job_id = enqueue(queue_app, "transcode", {"episode_id": episode_id,
                                              "file": upload(queue_app, source(30, hue=90), "first.mkv")},
                     subject=f"episode:{episode_id}")
    wait_for(queue_app, job_id, lambda job: job.done >= ENCODING, seconds=120, log=transcoders.log)
    folder = media_root / "titles" / f"content-{content_id}"
    parts = list(folder.glob(".*.work/job*"))
    assert len(parts) == 1 and ffmpegs_writing_to(parts[0])  # ffmpeg is at work in the run's own part
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=5)
    deadline = time.monotonic() + 5
    while ffmpegs_writing_to(parts[0]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ffmpegs_writing_to(parts[0]) == []  # its ffmpeg died with it (setpriv --pdeathsig)
    assert read(queue_app, job_id).state == JobState.RUNNING
    assert master_path(queue_app, episode_id) == old  # nothing published
    assert [path for path in folder.iterdir() if not path.name.startswith(".")] == []

    transcoders.start()
    done = wait_for(queue_app, job_id, lambda job: job.finished, seconds=400, log=transcoders.log)
    assert done.state == JobState.DONE, done.message
    assert done.attempts == 2
    result = done.result or {}
    assert result["renditions"] == ["720p", "360p"] and result["audio"] == ["Русский", "Английский"]
    assert result["subtitles"] == ["Русский"] and result["duration"] == pytest.approx(30, abs=0.2)
    assert done.message.startswith("Готово: качества 720p, 360p; звук: Русский, Английский; субтитры: Русский; "
                                   "длительность 0:30; скорость ")
    link = result["master"]
    assert master_path(queue_app, episode_id) == link and link.startswith(f"/media/titles/content-{content_id}/")
    published = on_disk(queue_app, link).parent
    assert sorted(path.name for path in folder.iterdir()) == [published.name]  # the work folder went
    master = json.loads(on_disk(queue_app, link).read_text("utf-8"))
    assert [source["link"] for source in master["sources"]] == [link.replace("master.json", "media/master.m3u8")]
    assert master["subtitles"] == [{"label": "Русский", "language": "ru",
                                    "src": link.replace("master.json", "subs/1-ru.vtt")}]
    assert master["duration"] == pytest.approx(30, abs=0.2)
    playlist = (published / "media" / "master.m3u8").read_text("utf-8")
    assert 'NAME="Русский",LANGUAGE="ru",DEFAULT=YES' in playlist and 'NAME="Английский",LANGUAGE="en"' in playlist
    assert "RESOLUTION=1280x720" in playlist and "RESOLUTION=640x360" in playlist
    for rendition in ("720p", "360p", "audio-1", "audio-2"):  # 4 s segments, the same boundaries in each
        lines = (published / "media" / rendition / "index.m3u8").read_text("utf-8").splitlines()
        durations = [float(line[8:].rstrip(",")) for line in lines if line.startswith("#EXTINF:")]
        assert [round(seconds) for seconds in durations[:7]] == [4] * 7, (rendition, durations)
    storyboard = (published / "storyboard" / "storyboard.vtt").read_text("utf-8")
    assert storyboard.count(" --> ") == 15  # a tile every 2 s of 30 s
    assert re.search(r"00:00:28\.000 --> 00:00:30\.0\d\d\nsheet-001\.jpg#xywh=640,90,160,90\n$", storyboard)

    # The same source again: the finished folder is reused, nothing encoded, nothing removed.
    again = enqueue(queue_app, "transcode", {"episode_id": episode_id,
                                             "file": upload(queue_app, source(30, hue=90), "again.mkv")},
                    subject=f"episode:{episode_id}")
    reused = wait_for(queue_app, again, lambda job: job.finished, seconds=120, log=transcoders.log)
    assert reused.state == JobState.DONE, reused.message
    assert "перекодировать не пришлось" in reused.message and (reused.result or {})["removed"] is None
    assert published.is_dir()

    # Another source: the episode moves to it, and the first folder, which nothing plays now, goes.
    second = enqueue(queue_app, "transcode", {"episode_id": episode_id, "file": upload(
        queue_app, source(8, width=640, height=360, hue=180), "second.mkv")}, subject=f"episode:{episode_id}")
    replaced = wait_for(queue_app, second, lambda job: job.finished, seconds=200, log=transcoders.log)
    assert replaced.state == JobState.DONE, replaced.message
    assert (replaced.result or {})["renditions"] == ["360p"] and (replaced.result or {})["removed"] == link
    assert "прежние файлы удалены" in replaced.message
    assert master_path(queue_app, episode_id) == (replaced.result or {})["master"]
    assert not published.exists()
    assert sorted(path.name for path in folder.iterdir()) == [on_disk(queue_app, (replaced.result or {})["master"])
                                                               .parent.name]


def test_a_cancel_stops_ffmpeg_and_leaves_the_episode_as_it_was(queue_app: Flask, transcoders: Workers):
    episode_id, content_id, old = film_episode(queue_app)
    folder = Path(queue_app.config["MEDIA_ROOT"]) / "titles" / f"content-{content_id}"
    before = sorted(folder.iterdir()) if folder.exists() else []  # what an earlier test of the module left
    worker = transcoders.start()
    job_id = enqueue(queue_app, "transcode", {"episode_id": episode_id,
                                              "file": upload(queue_app, source(30, hue=90), "cancelled.mkv")},
                     subject=f"episode:{episode_id}")
    wait_for(queue_app, job_id, lambda job: job.done >= ENCODING, seconds=120, log=transcoders.log)
    assert len(list(folder.glob(".*.work/job*"))) == 1
    with queue_app.app_context(), transaction():
        jobs.cancel(db.session, job_id, now=now())
    cancelled = wait_for(queue_app, job_id, lambda job: job.finished, seconds=30, log=transcoders.log)
    assert cancelled.state == JobState.CANCELLED
    assert master_path(queue_app, episode_id) == old
    assert sorted(folder.iterdir()) == before  # the run's part went with it, and nothing was published
    assert ffmpegs_writing_to(folder) == []
    worker.send_signal(signal.SIGTERM)
    worker.wait(timeout=10)


def test_a_file_that_is_no_video_fails_at_once_in_russian(queue_app: Flask, transcoders: Workers, tmp_path: Path):
    episode_id, _, old = film_episode(queue_app)
    text = tmp_path / "notes.mkv"
    text.write_text("это не видео", "utf-8")
    worker = transcoders.start()
    job_id = enqueue(queue_app, "transcode", {"episode_id": episode_id, "file": upload(queue_app, text, "notes.mkv")},
                     subject=f"episode:{episode_id}")
    failed = wait_for(queue_app, job_id, lambda job: job.finished, seconds=60, log=transcoders.log)
    assert (failed.state, failed.attempts) == (JobState.FAILED, 1)
    assert failed.message == "Файл не читается как видео: его формат не распознан или он повреждён."
    assert master_path(queue_app, episode_id) == old
    # the upload goes with the job: the worker removes it once the job's end is committed (app/jobs/runner.py: never
    # before, or a run that lost the job would take another run's file), so a moment after the state is seen
    upload_left = Path(queue_app.config["JOB_FILES_DIR"]) / "notes.mkv"
    deadline = time.monotonic() + 5
    while os.path.exists(upload_left) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(upload_left)
    worker.send_signal(signal.SIGTERM)
    worker.wait(timeout=10)
