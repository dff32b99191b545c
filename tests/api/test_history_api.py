"""A viewer's history and "continue watching" (spec §7 ``POST /contents/{id}/history``, ``/contents/history``,
``/contents/history/search``), and the viewer's own marks on a content's episodes (issue 32).

The demo: content 1 is a film (episode 1); content 2 a series, episodes 2, 3, 4 (season 1) and 5, 6, 7 (season 2);
content 4 a film whose file was never uploaded (episode 9).
"""

import pytest
from sqlalchemy import update

from app.extensions import db
from app.models import Content
from tests.api.accounts_helpers import bearer, make_account, sign_in
from tests.api.queries import statements
from tests.api.test_catalogue_api import assert_error
from tests.conftest import signed_identity

ANN, BOB = "ann0device000000000001", "bob0device000000000002"
SERIES_EPISODES = (2, 3, 4, 5, 6, 7)


@pytest.fixture
def ann(app):
    return {"X-Session-Context": signed_identity(app, ANN)}


@pytest.fixture
def bob(app):
    return {"X-Session-Context": signed_identity(app, BOB, "other-signals-0002")}


def view(client, headers, content_id, episode_id=None):
    body = {} if episode_id is None else {"episodeId": episode_id}
    return client.post(f"/contents/{content_id}/history", json=body, headers=headers)


def play(client, headers, episode_id, seconds, content_id=2):
    response = client.post(f"/contents/{content_id}/episodes/{episode_id}/time-progress", json={"time": seconds},
                           headers=headers)
    assert response.status_code == 204, response.get_json()


def finish(client, headers, episode_id, content_id=2):
    assert client.post(f"/contents/{content_id}/episodes/{episode_id}/completed", headers=headers).status_code == 204


def history(client, headers, **body):
    response = client.post("/contents/history", json=body, headers=headers)
    assert response.status_code == 200, response.get_json()
    assert response.headers["Cache-Control"] == "no-store"
    return response.get_json()


def item_of(page, content_id):
    return next(item for item in page["items"] if item["content"]["id"] == content_id)


def test_a_recorded_view_puts_the_content_first_with_its_card(client, demo_catalogue, clock, ann):
    assert view(client, ann, 1).status_code == 204
    clock.shift(5)
    assert view(client, ann, 2, episode_id=4).status_code == 204
    page = history(client, ann)
    assert (page["total"], page["page"], page["pageSize"]) == (2, 1, 20)
    assert [item["content"]["id"] for item in page["items"]] == [2, 1]
    series = page["items"][0]
    assert series["content"]["title"] == "Тихая гавань" and series["content"]["slug"]
    assert (series["episodeId"], series["time"], series["isCompleted"]) == (4, 0, False)
    assert (series["nextEpisodeId"], series["isFinished"]) == (4, False)
    film = page["items"][1]
    assert (film["episodeId"], film["nextEpisodeId"], film["isFinished"]) == (None, 1, False)
    clock.shift(5)
    assert view(client, ann, 1).status_code == 204  # viewed again: first again
    assert [item["content"]["id"] for item in history(client, ann)["items"]] == [1, 2]


def test_playing_puts_the_content_in_the_history_without_a_view(client, demo_catalogue, clock, ann):
    play(client, ann, 1, 30, content_id=1)
    clock.shift(5)
    play(client, ann, 3, 12)
    page = history(client, ann)
    assert [item["content"]["id"] for item in page["items"]] == [2, 1]
    assert (item_of(page, 2)["episodeId"], item_of(page, 2)["time"]) == (3, 12)
    assert item_of(page, 2)["duration"] is not None
    assert (item_of(page, 1)["episodeId"], item_of(page, 1)["time"]) == (1, 30)


def test_continue_goes_on_to_the_next_episode_and_never_back_to_a_marked_one(client, demo_catalogue, clock, ann):
    play(client, ann, 4, 20)
    finish(client, ann, 4)
    item = item_of(history(client, ann), 2)
    assert (item["episodeId"], item["isCompleted"], item["nextEpisodeId"]) == (4, True, 5)  # season 2 begins
    clock.shift(60)
    finish(client, ann, 2)  # an earlier episode marked watched later: "continue" stays
    item = item_of(history(client, ann), 2)
    assert (item["episodeId"], item["nextEpisodeId"]) == (4, 5)
    last = client.get("/contents/2/episodes/watched/last", headers=ann).get_json()
    assert last["episodeId"] == 4


def test_a_content_with_every_episode_finished_is_finished(client, demo_catalogue, clock, ann):
    play(client, ann, 1, 30, content_id=1)
    clock.shift(1)
    for episode in SERIES_EPISODES:
        play(client, ann, episode, 10)
        finish(client, ann, episode)
        clock.shift(1)
    item = item_of(history(client, ann), 2)
    assert (item["episodeId"], item["isCompleted"], item["nextEpisodeId"], item["isFinished"]) == (7, True, None, True)
    assert [i["content"]["id"] for i in history(client, ann, unfinished=True)["items"]] == [1]
    assert history(client, ann, unfinished=True)["total"] == 1
    assert [i["content"]["id"] for i in history(client, ann, unfinished=False)["items"]] == [2]
    assert history(client, ann, unfinished=None)["total"] == 2


def test_a_gap_left_behind_is_where_continue_goes_at_the_end(client, demo_catalogue, ann):
    for episode in (2, 4, 5, 6, 7):
        finish(client, ann, episode)
    play(client, ann, 7, 5)  # the last one played, finished: episode 3 is still unseen
    item = item_of(history(client, ann), 2)
    assert (item["episodeId"], item["nextEpisodeId"], item["isFinished"]) == (7, 3, False)


def test_continue_watching_pages_through_what_is_unfinished(client, demo_catalogue, clock, ann):
    play(client, ann, 1, 30, content_id=1)
    clock.shift(1)
    play(client, ann, 2, 30)
    clock.shift(1)
    assert view(client, ann, 4).status_code == 204
    first = history(client, ann, unfinished=True, page=1, pageSize=2)
    second = history(client, ann, unfinished=True, page=2, pageSize=2)
    assert (first["total"], second["total"]) == (3, 3)
    assert [i["content"]["id"] for i in first["items"] + second["items"]] == [4, 2, 1]
    assert history(client, ann, unfinished=True, page=3, pageSize=2)["items"] == []


def test_an_unpublished_content_leaves_the_history_and_comes_back(app, client, demo_catalogue, ann):
    assert view(client, ann, 1).status_code == 204
    play(client, ann, 3, 20)
    with app.app_context():
        db.session.execute(update(Content).where(Content.id == 2).values(published=False))
        db.session.commit()
    assert [i["content"]["id"] for i in history(client, ann)["items"]] == [1]
    assert history(client, ann)["total"] == 1
    assert_error(view(client, ann, 2), 404, "content_not_found")
    with app.app_context():
        db.session.execute(update(Content).where(Content.id == 2).values(published=True))
        db.session.commit()
    assert item_of(history(client, ann), 2)["time"] == 20  # nothing the viewer did was lost


@pytest.mark.parametrize(("content_id", "body", "status", "code"), [
    (999, {}, 404, "content_not_found"),
    (0, {}, 404, "content_not_found"),
    (1, {"episodeId": 3}, 404, "episode_not_found"),  # an episode of another content
    (1, {"episodeId": 0}, 422, "validation_error"),
    (1, {"episodeId": "one"}, 422, "validation_error"),
    (1, {"episode": 1}, 422, "validation_error"),
])
def test_a_view_of_what_is_not_there_is_refused(client, demo_catalogue, ann, content_id, body, status, code):
    assert_error(client.post(f"/contents/{content_id}/history", json=body, headers=ann), status, code)


@pytest.mark.parametrize("body", [{"page": 0}, {"pageSize": 101}, {"unfinished": "maybe"}, {"sort": "title"}])
def test_a_bad_history_request_is_refused(client, demo_catalogue, ann, body):
    assert_error(client.post("/contents/history", json=body, headers=ann), 422, "validation_error")


@pytest.mark.parametrize(("method", "path"), [
    ("post", "/contents/1/history"), ("post", "/contents/history"), ("post", "/contents/history/search"),
    ("get", "/contents/2/episodes/progress"),
])
def test_every_history_call_needs_a_viewer(client, demo_catalogue, method, path):
    body = {"query": "гавань"} if path.endswith("search") else {}
    response = getattr(client, method)(path, json=body) if method == "post" else client.get(path)
    assert_error(response, 401, "viewer_unknown")


def test_viewers_see_their_own_history_only(client, demo_catalogue, ann, bob):
    assert view(client, ann, 1).status_code == 204
    assert history(client, bob)["items"] == []
    assert_error(client.get("/contents/history", headers=ann), 405, "method_not_allowed")


def test_the_search_finds_within_the_history_only(client, demo_catalogue, clock, ann):
    assert view(client, ann, 1).status_code == 204
    play(client, ann, 3, 25)
    response = client.post("/contents/history/search", json={"query": "гавани"}, headers=ann)  # inflected
    assert response.status_code == 200
    found = response.get_json()
    assert [i["content"]["id"] for i in found["items"]] == [2]
    assert (found["items"][0]["episodeId"], found["items"][0]["time"], found["total"]) == (3, 25, 1)
    typo = client.post("/contents/history/search", json={"query": "дорга"}, headers=ann).get_json()
    assert [i["content"]["id"] for i in typo["items"]] == [1] and typo["corrected"] == "дорога"
    # in the catalogue, not in this viewer's history:
    assert client.post("/contents/history/search", json={"query": "плёнка"}, headers=ann).get_json()["items"] == []
    assert_error(client.post("/contents/history/search", json={"query": ""}, headers=ann), 422, "validation_error")


def test_a_history_page_costs_the_same_few_queries_however_long(app, client, demo_catalogue, clock, ann):
    def count() -> int:
        with statements(app) as seen:
            history(client, ann)
        return len(seen)

    play(client, ann, 1, 10, content_id=1)
    one = count()
    for episode in SERIES_EPISODES:
        play(client, ann, episode, 10)
    assert view(client, ann, 4).status_code == 204
    assert count() == one <= 6


def test_the_devices_history_joins_the_account_at_sign_in(app, client, demo_catalogue, clock, ann):
    make_account(app, "anna@example.com")
    elsewhere = bearer(sign_in(app.test_client(), "anna@example.com"))
    assert view(client, elsewhere, 4).status_code == 204  # the account, on another device
    clock.shift(5)
    assert view(client, ann, 1).status_code == 204  # this device, before signing in
    play(client, ann, 5, 40)
    clock.shift(5)
    user = bearer(sign_in(app.test_client(), "anna@example.com", headers=ann))
    page = history(client, user)
    assert [i["content"]["id"] for i in page["items"]] == [2, 1, 4]
    assert (item_of(page, 2)["episodeId"], item_of(page, 2)["time"]) == (5, 40)
    assert history(client, ann)["total"] == 2  # the device keeps its own
    sign_in(app.test_client(), "anna@example.com", headers=ann)  # again: nothing doubles
    assert history(client, user)["total"] == 3


def test_the_viewers_marks_on_a_contents_episodes(client, demo_catalogue, clock, ann, bob):
    play(client, ann, 3, 45)
    finish(client, ann, 2)
    response = client.get("/contents/2/episodes/progress", headers=ann)
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    marks = {mark["episodeId"]: mark for mark in response.get_json()}
    assert set(marks) == {2, 3}
    assert (marks[3]["time"], marks[3]["isCompleted"]) == (45, False) and marks[3]["watchedAt"]
    assert (marks[2]["isCompleted"], marks[2]["watchedAt"]) == (True, None)
    assert client.get("/contents/2/episodes/progress", headers=bob).get_json() == []
    assert_error(client.get("/contents/999/episodes/progress", headers=ann), 404, "content_not_found")
    shared = client.get("/episodes?content-id=2", headers=ann)
    assert "public" in shared.headers["Cache-Control"]  # the catalogue's answer stays one for everyone
