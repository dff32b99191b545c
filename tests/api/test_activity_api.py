"""Time progress, completed marks and the last watched episode (spec §7 "Catalogue: history and progress").

The demo series is content 2: episodes 2, 3, 4 (season 1) and 5, 6, 7 (season 2); episode 1 is the film's.
"""

import secrets
from datetime import datetime, timedelta

import pytest
from flask_jwt_extended import create_access_token, create_refresh_token
from sqlalchemy import select

from app.extensions import db
from app.models import Episode, WatchProgress
from app.services.activity.progress import completed_episode_ids
from tests.api.accounts_helpers import bearer, block, make_account, sign_in
from tests.api.test_catalogue_api import assert_error
from tests.conftest import signed_identity

ANN_DEVICE, BOB_DEVICE = "ann0device000000000001", "bob0device000000000002"  # issued identities' random parts
VIEWER_KEY, OTHER_KEY = f"dev:{ANN_DEVICE}", f"dev:{BOB_DEVICE}"
VIEWER: dict[str, str] = {}  # filled for each test: the signature depends on the application's key
OTHER_VIEWER: dict[str, str] = {}
TIME = "/contents/2/episodes/{}/time-progress"
COMPLETED = "/contents/2/episodes/{}/completed"
LAST = "/contents/2/episodes/watched/last"


@pytest.fixture(autouse=True)
def jwt_key(app):
    app.config["JWT_SECRET_KEY"] = secrets.token_urlsafe(32)


@pytest.fixture(autouse=True)
def viewers(app):
    VIEWER["X-Session-Context"] = signed_identity(app, ANN_DEVICE)
    OTHER_VIEWER["X-Session-Context"] = signed_identity(app, BOB_DEVICE, "other-signals-0002")


def save_time(client, episode_id, seconds, headers=VIEWER):
    return client.post(TIME.format(episode_id), json={"time": seconds}, headers=headers)


def stored_rows(app):
    with app.app_context():
        return db.session.execute(
            select(WatchProgress.viewer_key, WatchProgress.episode_id, WatchProgress.time, WatchProgress.completed)
            .order_by(WatchProgress.id)
        ).all()


def token(app, create=create_access_token, **kwargs):
    with app.app_context():
        return {"Authorization": f"Bearer {create(identity='42', **kwargs)}"}


def test_time_progress_is_saved_and_read_back(client, demo_catalogue):
    response = save_time(client, 3, 42)
    assert response.status_code == 204
    assert response.get_data() == b""
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-RateLimit-Limit"] and "Retry-After" not in response.headers  # only a 429 says wait

    last = client.get(LAST, headers=VIEWER)
    assert last.status_code == 200
    assert last.headers["Cache-Control"] == "no-store"
    body = last.get_json()
    assert set(body) == {"episodeId", "time", "updatedAt"}
    assert (body["episodeId"], body["time"]) == (3, 42)
    updated_at = datetime.fromisoformat(body["updatedAt"])
    assert updated_at.utcoffset() == timedelta(0)


def test_saving_again_updates_the_one_row(app, client, demo_catalogue):
    assert save_time(client, 3, 10).status_code == 204
    assert save_time(client, 3, 25).status_code == 204
    assert save_time(client, 3, 0).status_code == 204
    assert stored_rows(app) == [(VIEWER_KEY, 3, 0, False)]


def test_last_is_the_episode_saved_last(client, demo_catalogue):
    for episode_id, seconds in [(2, 50), (5, 7), (2, 51)]:
        assert save_time(client, episode_id, seconds).status_code == 204
    assert client.get(LAST, headers=VIEWER).get_json()["episodeId"] == 2
    assert save_time(client, 5, 8).status_code == 204
    body = client.get(LAST, headers=VIEWER).get_json()
    assert (body["episodeId"], body["time"]) == (5, 8)


@pytest.mark.parametrize(("body", "named"), [
    ({"time": 12.5}, {"time"}), ({"time": "12"}, {"time"}), ({"time": -1}, {"time"}), ({"time": 2**31}, {"time"}),
    ({"time": None}, {"time"}), ({"time": True}, {"time"}), ({}, {"time"}), ({"seconds": 12}, {"time", "seconds"}),
    ([12], set()),
])
def test_time_must_be_whole_non_negative_seconds(client, demo_catalogue, body, named):
    response = client.post(TIME.format(3), json=body, headers=VIEWER)
    error = assert_error(response, 422, "validation_error")
    assert set(error.get("details", {}).get("fields", {})) == named
    if not named:  # a body that is no object names no field: the message says what it should be
        assert error["message"] == "Ожидается объект JSON"
    assert response.headers["Cache-Control"] == "no-store"


def test_time_sent_as_a_form_is_refused(client, demo_catalogue):
    assert_error(client.post(TIME.format(3), data={"time": "12"}, headers=VIEWER), 415, "unsupported_media_type")


def test_the_largest_time_an_integer_column_holds_is_accepted(app, client, demo_catalogue):
    with app.app_context():  # an episode whose length the catalogue does not know: nothing else bounds the time
        db.session.get(Episode, 3).duration = None
        db.session.commit()
    assert save_time(client, 3, 2**31 - 1).status_code == 204
    assert client.get(LAST, headers=VIEWER).get_json()["time"] == 2**31 - 1


def test_completed_is_set_and_cleared_idempotently(app, client, demo_catalogue):
    for _ in range(2):
        response = client.post(COMPLETED.format(4), headers=VIEWER)
        assert response.status_code == 204
        assert response.headers["Cache-Control"] == "no-store"
    with app.app_context():
        assert completed_episode_ids(VIEWER_KEY, 2) == {4}
    for _ in range(2):
        assert client.delete(COMPLETED.format(4), headers=VIEWER).status_code == 204
    with app.app_context():
        assert completed_episode_ids(VIEWER_KEY, 2) == frozenset()
    assert stored_rows(app) == [(VIEWER_KEY, 4, 0, False)]


def test_clearing_what_was_never_marked_stores_nothing(app, client, demo_catalogue):
    assert client.delete(COMPLETED.format(4), headers=VIEWER).status_code == 204
    assert stored_rows(app) == []
    assert_error(client.get(LAST, headers=VIEWER), 404, "nothing_watched")


def test_completing_keeps_the_time(app, client, demo_catalogue):
    save_time(client, 6, 80)
    client.post(COMPLETED.format(6), headers=VIEWER)
    assert stored_rows(app) == [(VIEWER_KEY, 6, 80, True)]


def test_viewers_do_not_see_each_other(app, client, demo_catalogue):
    save_time(client, 3, 30)
    client.post(COMPLETED.format(3), headers=VIEWER)
    assert_error(client.get(LAST, headers=OTHER_VIEWER), 404, "nothing_watched")
    save_time(client, 3, 5, headers=OTHER_VIEWER)
    assert client.get(LAST, headers=VIEWER).get_json()["time"] == 30
    assert client.get(LAST, headers=OTHER_VIEWER).get_json()["time"] == 5
    with app.app_context():
        assert completed_episode_ids(OTHER_KEY, 2) == frozenset()


@pytest.mark.parametrize(("method", "path"), [
    ("post", TIME.format(3)), ("post", COMPLETED.format(3)), ("delete", COMPLETED.format(3)), ("get", LAST),
])
@pytest.mark.parametrize("headers", [
    {},
    {"X-Session-Context": ""},
    {"X-Session-Context": "short"},  # fewer than 8 characters
    {"X-Session-Context": "with space 123"},
    {"X-Session-Context": "x" * 129},
    {"X-Session-Context": "fp-viewer-0001"},  # a fingerprint alone: what any caller could choose
    {"X-Session-Context": "signals-hash-0001.ann0device000000000001.AAAAAAAAAAAAAAAAAAAAAA"},  # forged signature
    {"X-Session-Context": "signals-hash-0001.ann0device000000000001"},  # no signature
])
def test_a_caller_without_identity_is_refused(client, demo_catalogue, method, path, headers):
    # the body is invalid too: the missing viewer is reported first
    response = getattr(client, method)(path, headers=headers, json={"time": "bad"})
    error = assert_error(response, 401, "viewer_unknown")
    assert error["message"] == "Нужен заголовок X-Session-Context или токен доступа"
    assert response.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize(("path", "code"), [
    ("/contents/999/episodes/3/{}", "content_not_found"),
    ("/contents/2/episodes/999/{}", "episode_not_found"),
    ("/contents/2/episodes/1/{}", "episode_not_found"),  # the film's episode, not the series'
    ("/contents/2147483648/episodes/3/{}", "content_not_found"),
    ("/contents/99999999999999999999/episodes/3/{}", "content_not_found"),
    ("/contents/2/episodes/2147483648/{}", "episode_not_found"),
    ("/contents/0/episodes/3/{}", "content_not_found"),
])
def test_unknown_contents_and_foreign_episodes_are_404(app, client, demo_catalogue, path, code):
    assert_error(client.post(path.format("time-progress"), json={"time": 1}, headers=VIEWER), 404, code)
    assert_error(client.post(path.format("completed"), headers=VIEWER), 404, code)
    assert_error(client.delete(path.format("completed"), headers=VIEWER), 404, code)
    assert stored_rows(app) == []


@pytest.mark.parametrize("content_id", [999, 0, 2147483648, 99999999999999999999])
def test_last_watched_of_an_unknown_content_is_404(client, demo_catalogue, content_id):
    response = client.get(f"/contents/{content_id}/episodes/watched/last", headers=VIEWER)
    assert_error(response, 404, "content_not_found")


def test_a_bearer_token_identifies_the_user_on_every_device(app, client, demo_catalogue):
    account_id = make_account(app, "anna@example.com")
    user = bearer(sign_in(app.test_client(), "anna@example.com"))
    assert save_time(client, 3, 50, headers=user | VIEWER).status_code == 204
    assert client.get(LAST, headers=user | OTHER_VIEWER).get_json()["time"] == 50
    assert client.get(LAST, headers=user).get_json()["time"] == 50
    assert_error(client.get(LAST, headers=VIEWER), 404, "nothing_watched")
    assert stored_rows(app) == [(f"user:{account_id}", 3, 50, False)]


def test_what_a_device_watched_before_sign_in_is_the_accounts_after(app, client, demo_catalogue):
    account_id = make_account(app, "anna@example.com")
    elsewhere = bearer(sign_in(app.test_client(), "anna@example.com"))
    assert save_time(client, 3, 30, headers=elsewhere).status_code == 204  # the account, on another device
    assert save_time(client, 4, 20, headers=VIEWER).status_code == 204  # this device, not signed in yet
    assert client.post(COMPLETED.format(5), headers=VIEWER).status_code == 204
    assert save_time(client, 3, 15, headers=VIEWER).status_code == 204  # newer than the account's save of episode 3
    user = bearer(sign_in(app.test_client(), "anna@example.com", headers=VIEWER))  # signs in on this device
    rows = {(key, episode): (time, done) for key, episode, time, done in stored_rows(app)}
    key = f"user:{account_id}"
    assert rows[(key, 4)] == (20, False) and rows[(key, 5)] == (0, True) and rows[(key, 3)] == (15, False)
    assert rows[(VIEWER_KEY, 4)] == (20, False)  # the device keeps its own
    assert client.get(LAST, headers=user).get_json()["episodeId"] == 3  # the last position saved; a mark is none


def test_a_revoked_token_is_refused_never_taken_for_the_device(app, client, demo_catalogue):
    account_id = make_account(app, "anna@example.com")
    user = bearer(sign_in(app.test_client(), "anna@example.com"))
    block(app, account_id)
    assert_error(save_time(client, 3, 9, headers=user | VIEWER), 401, "token_revoked")
    assert_error(client.get(LAST, headers=user | VIEWER), 401, "token_revoked")
    assert stored_rows(app) == []


@pytest.mark.parametrize(("unusable", "code"), [
    (lambda app: token(app, expires_delta=timedelta(seconds=-1)), "token_expired"),
    (lambda app: token(app, create=create_refresh_token), "invalid_token"),  # a refresh token is no access token
    (lambda app: token(app), "token_revoked"),  # well signed, but naming no session (revoked, or never issued)
    (lambda app: {"Authorization": "Bearer not.a.jwt"}, "invalid_token"),
    (lambda app: {"Authorization": "Bearer"}, "invalid_token"),
    (lambda app: {"Authorization": "Bearer a b"}, "invalid_token"),
], ids=["expired", "refresh", "no-session", "garbage", "empty", "three-parts"])
def test_an_unusable_token_is_refused_never_taken_for_the_device(app, client, demo_catalogue, unusable, code):
    """The viewer is never guessed (issue 32): a token that is sent speaks for the caller, and one that does not
    verify is a 401 saying why, so the client refreshes or signs in again instead of saving on the device."""
    headers = unusable(app)
    assert_error(save_time(client, 3, 9, headers=headers | VIEWER), 401, code)
    assert_error(client.post(COMPLETED.format(3), headers=headers | VIEWER), 401, code)
    assert_error(client.get(LAST, headers=headers | VIEWER), 401, code)
    assert stored_rows(app) == []


def test_another_scheme_than_bearer_is_no_token(app, client, demo_catalogue):
    basic = {"Authorization": "Basic dXNlcjpwYXNz"}
    assert save_time(client, 3, 9, headers=basic | VIEWER).status_code == 204
    assert stored_rows(app) == [(VIEWER_KEY, 3, 9, False)]


def test_a_token_signed_with_another_key_is_refused(app, client, demo_catalogue):
    key = app.config["JWT_SECRET_KEY"]
    app.config["JWT_SECRET_KEY"] = secrets.token_urlsafe(32)
    forged = token(app)
    app.config["JWT_SECRET_KEY"] = key
    assert_error(client.get(LAST, headers=forged), 401, "invalid_token")
    assert_error(client.get(LAST, headers=forged | VIEWER), 401, "invalid_token")


def test_at_sign_in_the_accounts_newer_position_and_its_marks_stay(app, client, demo_catalogue, clock):
    account_id = make_account(app, "anna@example.com")
    assert save_time(client, 3, 15, headers=VIEWER).status_code == 204  # this device, earlier
    clock.shift(60)
    elsewhere = bearer(sign_in(app.test_client(), "anna@example.com"))
    assert save_time(client, 3, 40, headers=elsewhere).status_code == 204  # the account, later, elsewhere
    assert client.post(COMPLETED.format(3), headers=elsewhere).status_code == 204
    sign_in(app.test_client(), "anna@example.com", headers=VIEWER)
    rows = {(key, episode): (time, done) for key, episode, time, done in stored_rows(app)}
    assert rows[(f"user:{account_id}", 3)] == (40, True)  # not the device's older 15, and still finished
