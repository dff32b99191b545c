"""«Найти заставку» as a job (issue 35): a real worker fingerprints three generated episodes that share a 20 s intro
at different offsets (tests/jobs/intro_media.py) and finds it in each within a second, kept as the episodes'
suggestions, never as their markers; a season with one episode with media fails with the editor's reason."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select

from app.extensions import db
from app.models import Content, ContentType, Episode, Season
from app.models.jobs import JobState
from app.transaction import transaction
from tests.jobs.conftest import Workers, enqueue, wait_for
from tests.jobs.intro_media import INTRO_SECONDS, make_season

pytestmark = pytest.mark.usefixtures("empty")

OFFSETS = [5, 13, 21]


@pytest.fixture(scope="module", autouse=True)
def worker(queue_app: Flask, workers: Workers) -> Iterator[subprocess.Popen[bytes]]:
    if queue_app.config["REDIS_URL"]:
        pytest.skip("the brokers are both tested by test_queue.py; the detection's wiring once is enough")
    yield workers.start()


def season_with(app: Flask, masters: list[str | None]) -> tuple[int, list[int]]:
    with app.app_context(), transaction():
        series = db.session.scalar(select(ContentType).where(ContentType.slug == "series"))
        if series is None:
            series = ContentType(title="Сериалы", slug="series")
        content = Content(title="Сериал с заставкой", content_type=series, published=True,
                          has_multiple_episodes=True)
        season = Season(order=1, title="Сезон 1", content=content)
        season.episodes = [Episode(order=n, title=f"Серия {n}", content=content, master_file_path=master)
                           for n, master in enumerate(masters, start=1)]
        db.session.add(content)
        db.session.flush()
        return season.id, [episode.id for episode in season.episodes]


def test_an_intro_shared_by_three_episodes_is_found_in_each_within_a_second(queue_app: Flask, workers: Workers):
    media_root = Path(queue_app.config["MEDIA_ROOT"])
    masters: list[str | None] = list(make_season(media_root, "intro-season", OFFSETS))
    season_id, episode_ids = season_with(queue_app, masters)
    job_id = enqueue(queue_app, "detect_intro", {"season_id": season_id}, subject=f"season:{season_id}")
    done = wait_for(queue_app, job_id, lambda job: job.finished, seconds=120, log=workers.log)
    assert done.state == JobState.DONE, done.message
    assert done.message.startswith("Заставка найдена в 3 из 3 серий")
    assert done.done == done.total == 4  # three fingerprints, then the comparison
    with queue_app.app_context():
        db.session.remove()
        episodes = [db.session.get_one(Episode, episode_id) for episode_id in episode_ids]
        for episode, offset in zip(episodes, OFFSETS, strict=True):
            assert episode.intro_suggested_start is not None and episode.intro_suggested_end is not None
            assert abs(episode.intro_suggested_start - offset) <= 1, (episode.order, episode.intro_suggested_start)
            assert abs(episode.intro_suggested_end - (offset + INTRO_SECONDS)) <= 1, (
                episode.order, episode.intro_suggested_end)
            assert episode.intro_start is None and episode.intro_end is None  # a suggestion, not applied
    found = {row["id"]: row for row in (done.result or {})["episodes"]}
    assert set(found) == set(episode_ids)
    assert abs(found[episode_ids[1]]["start"] - OFFSETS[1]) <= 1


def test_a_season_with_one_episode_of_media_fails_with_the_editors_reason(queue_app: Flask, workers: Workers):
    media_root = Path(queue_app.config["MEDIA_ROOT"])
    masters: list[str | None] = [*make_season(media_root, "lonely-season", [3]), None, "https://cdn.example/x.json"]
    season_id, _ids = season_with(queue_app, masters)
    job_id = enqueue(queue_app, "detect_intro", {"season_id": season_id}, subject=f"season:{season_id}")
    done = wait_for(queue_app, job_id, lambda job: job.finished, seconds=60, log=workers.log)
    assert done.state == JobState.FAILED
    assert done.message is not None and "хотя бы две серии" in done.message
