"""The progress functions on their own: upserts, completed marks, the last watched episode, and their 404s.

Demo series (content 2): episodes 2, 3, 4 (season 1) and 5, 6, 7 (season 2); episode 1 is the film's (content 1).
"""

import threading

import pytest
from sqlalchemy import func, select

from app.extensions import db
from app.models import WatchProgress
from app.services.activity.progress import completed_episode_ids, last_watched, record_time, set_completed
from app.services.errors import NotFound
from app.transaction import transaction

ANN, BOB = "fp:ann-device", "user:bob"


@pytest.fixture
def ctx(demo_catalogue):
    with demo_catalogue.app_context():
        yield


def rows():
    return db.session.execute(
        select(WatchProgress.viewer_key, WatchProgress.episode_id, WatchProgress.time, WatchProgress.completed)
        .order_by(WatchProgress.id)
    ).all()


def test_record_time_inserts_then_updates(ctx):
    record_time(ANN, 2, 3, 15)
    first = last_watched(ANN, 2)
    record_time(ANN, 2, 3, 40)
    assert rows() == [(ANN, 3, 40, False)]
    second = last_watched(ANN, 2)
    assert (second.episode_id, second.time) == (3, 40)
    assert second.updated_at > first.updated_at
    assert second.updated_at.tzinfo is not None


def test_completed_marks_are_per_viewer_and_per_content(ctx):
    set_completed(ANN, 2, 2, True)
    set_completed(ANN, 2, 5, True)
    set_completed(ANN, 1, 1, True)
    set_completed(BOB, 2, 3, True)
    assert completed_episode_ids(ANN, 2) == {2, 5}
    assert completed_episode_ids(ANN, 1) == {1}
    assert completed_episode_ids(BOB, 2) == {3}
    assert completed_episode_ids("fp:nobody-here", 2) == frozenset()


def test_unmarking_keeps_the_time_and_touches_nothing_else(ctx):
    record_time(ANN, 2, 4, 33)
    set_completed(ANN, 2, 4, True)
    set_completed(ANN, 2, 4, False)
    set_completed(ANN, 2, 6, False)  # never watched: no row appears
    assert rows() == [(ANN, 4, 33, False)]


def test_last_watched_follows_the_latest_position_saved_never_a_mark(ctx):
    assert last_watched(ANN, 2) is None
    record_time(ANN, 2, 7, 10)
    record_time(ANN, 2, 2, 20)
    assert last_watched(ANN, 2)[:2] == (2, 20)
    set_completed(ANN, 2, 7, True)  # marking another episode watched does not move it there
    assert last_watched(ANN, 2)[:2] == (2, 20)
    record_time(ANN, 2, 7, 15)
    assert last_watched(ANN, 2)[:2] == (7, 15)
    set_completed(ANN, 2, 5, True)  # an episode only marked, never played, is never the last watched
    assert last_watched(ANN, 2)[:2] == (7, 15)
    assert last_watched(BOB, 2) is None


@pytest.mark.parametrize(("content_id", "episode_id", "code"), [
    (2, 1, "episode_not_found"),  # an episode of another content
    (2, 999, "episode_not_found"),
    (2, 2**31, "episode_not_found"),
    (999, 2, "content_not_found"),
    (2**31, 2, "content_not_found"),
    (-1, 2, "content_not_found"),
])
def test_writes_need_an_episode_of_the_content(ctx, content_id, episode_id, code):
    for write in (lambda: record_time(ANN, content_id, episode_id, 1),
                  lambda: set_completed(ANN, content_id, episode_id, True),
                  lambda: set_completed(ANN, content_id, episode_id, False)):
        with pytest.raises(NotFound) as raised:
            write()
        assert raised.value.code == code
    assert rows() == []


@pytest.mark.parametrize("content_id", [999, 2**31, 0])
def test_last_watched_of_an_unknown_content_is_404(ctx, content_id):
    with pytest.raises(NotFound) as raised:
        last_watched(ANN, content_id)
    assert raised.value.code == "content_not_found"


@pytest.mark.parametrize("write", [
    lambda: record_time(ANN, 2, 3, 12),
    lambda: set_completed(ANN, 2, 3, True),
], ids=["time", "completed"])
def test_two_requests_writing_one_new_row_at_once_both_succeed(demo_catalogue, write):
    """Both find no row and both insert: ON CONFLICT turns the second insert into an update."""
    start = threading.Barrier(4)
    errors = []

    def request():
        with demo_catalogue.app_context():
            start.wait()
            try:
                with transaction():  # as a request's
                    write()
            except Exception as error:  # reported by the assertion below
                errors.append(error)
            finally:
                db.session.remove()

    threads = [threading.Thread(target=request) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with demo_catalogue.app_context():
        assert db.session.scalar(select(func.count()).select_from(WatchProgress)) == 1
