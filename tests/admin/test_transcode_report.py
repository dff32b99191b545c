"""A transcode job's page in the admin (templates/admin/jobs/report_transcode.html): once it ends, what the episode
plays now, from the job's result (app/jobs/transcode.py). The job itself: tests/jobs/test_transcode_job.py."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from app.clock import now
from app.extensions import db
from app.models import Role
from app.models.jobs import JobState
from app.services import jobs
from app.transaction import transaction
from tests.admin.helpers import page

RESULT = {"master": "/media/titles/content-1/0123abcd-89abcdef/master.json", "renditions": ["720p", "360p"],
          "audio": ["Русский", "Английский"], "subtitles": ["Русский"], "pictures_skipped": 1, "duration": 120.021,
          "encode_seconds": 75.0, "speed": 1.6, "removed": "/media/titles/content-1/4567cdef-89abcdef/master.json"}


def test_a_finished_transcode_reports_what_the_episode_plays(app: Flask,
                                                             signed_in: Callable[[Role], FlaskClient]):
    editor = signed_in(Role.EDITOR)
    with app.app_context(), transaction():
        job_id = jobs.create(db.session, "transcode", {"episode_id": 1, "file": "/nowhere.mkv"}, now=now(),
                             subject="episode:1").id
    with app.app_context(), transaction():
        jobs.claim(db.session, job_id, "run", now=now(), max_attempts=3)
        jobs.finish(db.session, job_id, "run", JobState.DONE, now=now(), message="Готово.", result=RESULT)
    report = page(editor.get(f"/admin/jobs/{job_id}/report"))
    cells = {name: report.xpath(f"string(//*[@data-report='{name}'])").strip()
             for name in ("renditions", "audio", "subtitles", "duration", "speed", "master")}
    assert cells == {"renditions": "720p, 360p", "audio": "Русский, Английский",
                     "subtitles": "Русский (графических пропущено: 1)", "duration": "120.0",
                     "speed": "1,6× реального времени", "master": RESULT["master"]}
    assert "Перекодирование видео" in page(editor.get(f"/admin/jobs/{job_id}/")).text_content()
