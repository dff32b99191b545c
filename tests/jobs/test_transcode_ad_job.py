"""The ad creative's transcoding as a job (issue 35, app/jobs/transcode_ad.py), run by a real worker: a 720p source
with sound becomes two progressive MP4 files, H.264 and AAC at 360p and 720p with the index at the front, named by
their content under the media root, and they replace the creative's media files in one step; a source that is no
video fails at once with the Russian reason, the creative untouched."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from app.extensions import db
from app.models import AdCreative, AdMediaFile
from app.models.jobs import JobState
from app.transaction import transaction
from tests.jobs.conftest import Workers, enqueue, wait_for

pytestmark = pytest.mark.usefixtures("empty")


@pytest.fixture(scope="module", autouse=True)
def worker(queue_app: Flask, workers: Workers) -> Iterator[subprocess.Popen[bytes]]:
    if queue_app.config["REDIS_URL"]:
        pytest.skip("the brokers are both tested by test_queue.py; this kind's wiring once is enough")
    yield workers.start()


def creative(app: Flask) -> int:
    with app.app_context(), transaction():
        made = AdCreative(title="Чай «Байкал»", advertiser="Байкал", duration=30, skip_offset="", click_through_url="")
        made.media_files.append(AdMediaFile(url="/media/ads/old.mp4", mime_type="video/mp4", width=640, height=360))
        db.session.add(made)
        db.session.flush()
        return made.id


def job_file(app: Flask, source: Path) -> Path:
    folder = Path(app.config["JOB_FILES_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"creative-{time.monotonic_ns()}{source.suffix}"
    shutil.copy(source, target)
    return target


def streams(path: Path) -> list[dict[str, object]]:
    found = subprocess.run(["ffprobe", "-v", "error", "-print_format", "json", "-show_streams", str(path)],
                           capture_output=True, check=True).stdout
    return list(json.loads(found)["streams"])


def test_a_creative_becomes_mp4_files_at_360p_and_720p(queue_app: Flask, workers: Workers, tmp_path: Path):
    source = tmp_path / "ad.mov"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-threads", "2", "-f", "lavfi", "-i",
                    "testsrc2=size=1280x720:rate=25:duration=3", "-f", "lavfi", "-i", "sine=frequency=500:duration=3",
                    "-c:v", "mpeg4", "-q:v", "5", "-c:a", "pcm_s16le", "-shortest", str(source)], check=True)
    creative_id = creative(queue_app)
    path = job_file(queue_app, source)
    job_id = enqueue(queue_app, "transcode_ad", {"creative_id": creative_id, "file": str(path)},
                     subject=f"creative:{creative_id}")
    done = wait_for(queue_app, job_id, lambda job: job.finished, seconds=120, log=workers.log)
    assert done.state == JobState.DONE, done.message
    assert done.message == "Готово: файлы ролика MP4 360p, 720p, 3 с."
    assert done.done == done.total and done.total
    assert not path.exists()  # the source went with its job
    media = Path(queue_app.config["MEDIA_ROOT"])
    with queue_app.app_context():
        found = db.session.get_one(AdCreative, creative_id)
        files = [(f.width, f.height, f.mime_type, f.codec, f.url) for f in found.media_files]
        assert found.duration == 3
    assert [(width, height, mime, codec) for width, height, mime, codec, _ in files] == [
        (640, 360, "video/mp4", "avc1.4d401f"), (1280, 720, "video/mp4", "avc1.4d401f")]
    for width, height, _, _, url in files:
        assert url.startswith("/media/ads/") and url.endswith(".mp4")
        written = media / url.removeprefix("/media/")
        kinds = {str(stream["codec_type"]): stream for stream in streams(written)}
        assert (kinds["video"]["codec_name"], kinds["video"]["width"], kinds["video"]["height"]) == (
            "h264", width, height)
        assert kinds["audio"]["codec_name"] == "aac"
        data = written.read_bytes()
        assert data.index(b"moov") < data.index(b"mdat")  # progressive: the index first
    assert not list((media / "ads").glob(".*"))  # no temporary file left


def test_a_source_that_is_no_video_fails_at_once_and_changes_nothing(queue_app: Flask, workers: Workers,
                                                                      tmp_path: Path):
    notes = tmp_path / "notes.mp4"
    notes.write_text("Не ролик.\n" * 100)
    creative_id = creative(queue_app)
    job_id = enqueue(queue_app, "transcode_ad", {"creative_id": creative_id, "file": str(job_file(queue_app, notes))},
                     subject=f"creative:{creative_id}")
    failed = wait_for(queue_app, job_id, lambda job: job.finished, seconds=60, log=workers.log)
    assert (failed.state, failed.attempts) == (JobState.FAILED, 1)
    assert failed.message == "Файл не читается как видео: его формат не распознан или он повреждён."
    with queue_app.app_context():
        assert [f.url for f in db.session.get_one(AdCreative, creative_id).media_files] == ["/media/ads/old.mp4"]
