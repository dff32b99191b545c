"""The sitemaps' generation as a job (issue 36: asked from the API or the admin, it ran on a web worker's thread,
where its seconds of CPU held the interpreter from that worker's requests): a real worker process, at the lower CPU
priority of background work (BACKGROUND_NICE), generates the files, which the service then serves."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator

import pytest
from flask import Flask

from app.database import unhurried
from app.extensions import db
from app.jobs import sitemaps as sitemap_job
from app.models.jobs import JobState
from tests.jobs.conftest import Workers, enqueue, wait_for

pytestmark = pytest.mark.usefixtures("empty")
NICE = 7


@pytest.fixture(scope="module", autouse=True)
def worker(queue_app: Flask, workers: Workers) -> Iterator[subprocess.Popen[bytes]]:
    if queue_app.config["REDIS_URL"]:
        pytest.skip("the brokers are both tested by test_queue.py; this kind's wiring once is enough")
    niced = Workers({}, workers.log)
    niced.env = {**workers.env, "BACKGROUND_NICE": str(NICE)}
    yield niced.start()
    niced.stop_all()


def test_a_worker_below_the_web_s_priority_generates_the_sitemaps(queue_app: Flask, workers: Workers,
                                                                   worker: subprocess.Popen[bytes]):
    from app.demo.seed import seed_demo

    with queue_app.app_context(), unhurried(queue_app, db.engine):
        seed_demo()
    job_id = enqueue(queue_app, sitemap_job.KIND, {"base_url": "https://player.example"}, subject=sitemap_job.SUBJECT)
    done = wait_for(queue_app, job_id, lambda job: job.finished, seconds=60, log=workers.log)
    assert done.state == JobState.DONE, done.message
    assert done.message.startswith("Карта сайта собрана: адресов ")
    assert (done.result or {})["url_count"] > 0
    assert os.getpriority(os.PRIO_PROCESS, worker.pid) == os.getpriority(os.PRIO_PROCESS, 0) + NICE
    index = queue_app.test_client().get("/sitemap.xml")
    assert index.status_code == 200 and b"https://player.example/sitemap1.xml" in index.data
