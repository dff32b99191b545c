"""An account's sessions (issue 32): sign-out ends the session's refresh family at once; the list of sessions with
its devices; ending one, ending all others; and a cookie write without its CSRF header refused like a bad token."""

import pytest

from tests.api.accounts_helpers import bearer, make_account, sign_in
from tests.api.test_catalogue_api import assert_error
from tests.conftest import signed_identity

PHONE = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 "
         "Mobile Safari/537.36")
DESKTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"


@pytest.fixture
def anna(app):
    make_account(app, "anna@example.com")
    return "anna@example.com"


def refresh(client, tokens):
    return client.post("/authentication/refresh", json={"refreshToken": tokens["refreshToken"]})


def test_sign_out_ends_the_session_and_its_tokens_at_once(app, client, anna):
    tokens = sign_in(app.test_client(), anna)
    other = sign_in(app.test_client(), anna)
    response = client.post("/authentication/sign-out", json={}, headers=bearer(tokens))
    assert response.status_code == 204
    cleared = {header.split("=")[0] for header in response.headers.getlist("Set-Cookie")}
    assert {"authToken", "refreshToken", "csrf_refresh_token"} <= cleared
    assert_error(client.get("/user/details", headers=bearer(tokens)), 401, "token_revoked")
    assert_error(refresh(client, tokens), 401, "token_revoked")
    assert client.get("/user/details", headers=bearer(other)).status_code == 200  # another sign-in goes on


def test_sign_out_with_the_refresh_token_alone(app, client, anna):
    tokens = sign_in(app.test_client(), anna)
    response = client.post("/authentication/sign-out", json={"refreshToken": tokens["refreshToken"]})
    assert response.status_code == 204
    assert_error(client.get("/user/details", headers=bearer(tokens)), 401, "token_revoked")
    assert_error(client.post("/authentication/sign-out", json={"refreshToken": tokens["accessToken"]}), 401,
                 "invalid_token")  # an access token is not a refresh token
    assert_error(client.post("/authentication/sign-out", json={"refreshToken": "x.y.z"}), 401, "invalid_token")
    assert_error(client.post("/authentication/sign-out", json={}), 401, "unauthorized")


def test_the_list_shows_each_device_and_which_is_this_one(app, client, anna, clock):
    phone = sign_in(app.test_client(), anna, headers={"User-Agent": PHONE})
    clock.shift(60)
    desktop = sign_in(app.test_client(), anna, headers={"User-Agent": DESKTOP})
    response = client.get("/user/sessions", headers=bearer(desktop))
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    listed = response.get_json()
    assert [item["device"] for item in listed] == ["Firefox 133 · Windows 10", "Chrome Mobile 131 · Android 14"]
    assert [item["current"] for item in listed] == [True, False]
    clock.shift(60)
    assert refresh(client, phone).status_code == 200  # the phone is used again: it goes first
    listed = client.get("/user/sessions", headers=bearer(desktop)).get_json()
    assert [item["current"] for item in listed] == [False, True]
    assert listed[0]["lastSeenAt"] > listed[0]["createdAt"]


def test_end_one_session_or_all_others(app, client, anna):
    first, second, third = (sign_in(app.test_client(), anna) for _ in range(3))
    ids = {item["current"]: item["id"] for item in client.get("/user/sessions", headers=bearer(first)).get_json()}
    listed = client.get("/user/sessions", headers=bearer(first)).get_json()
    assert len(listed) == 3
    someone_else = next(item["id"] for item in listed if not item["current"])
    assert client.delete(f"/user/sessions/{someone_else}", headers=bearer(first)).status_code == 204
    assert len(client.get("/user/sessions", headers=bearer(first)).get_json()) == 2
    ended = client.post("/user/sessions/end-others", headers=bearer(first))
    assert ended.status_code == 200 and ended.get_json() == {"ended": 1}
    assert [item["id"] for item in client.get("/user/sessions", headers=bearer(first)).get_json()] == [ids[True]]
    for tokens in (second, third):
        assert_error(client.get("/user/details", headers=bearer(tokens)), 401, "token_revoked")
    assert client.get("/user/details", headers=bearer(first)).status_code == 200


def test_another_accounts_session_is_not_found(app, client, anna):
    make_account(app, "boris@example.com")
    boris = sign_in(app.test_client(), "boris@example.com")
    theirs = client.get("/user/sessions", headers=bearer(boris)).get_json()[0]["id"]
    mine = sign_in(app.test_client(), anna)
    assert_error(client.delete(f"/user/sessions/{theirs}", headers=bearer(mine)), 404, "session_not_found")
    assert_error(client.delete(f"/user/sessions/{'z' * 300}", headers=bearer(mine)), 404, "session_not_found")
    assert client.get("/user/details", headers=bearer(boris)).status_code == 200


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/user/sessions"), ("delete", "/user/sessions/0f4b9e2c6d1a4f3e8b7c5a9d2e1f0c3b"),
    ("post", "/user/sessions/end-others"),
])
def test_the_sessions_calls_need_an_account(client, demo_catalogue, app, method, path):
    device = {"X-Session-Context": signed_identity(app, "ann0device000000000001")}
    assert_error(getattr(client, method)(path, headers=device), 401, "unauthorized")


def test_a_cookie_write_without_its_csrf_header_is_refused_never_filed_under_the_device(app, demo_catalogue, anna):
    browser = app.test_client()
    sign_in(browser, anna)  # the cookies: authToken, refreshToken and their CSRF values
    device = {"X-Session-Context": signed_identity(app, "ann0device000000000001")}
    path = "/contents/2/episodes/3/time-progress"
    assert_error(browser.post(path, json={"time": 5}, headers=device), 401, "csrf_failed")
    csrf = browser.get_cookie("csrf_access_token").value
    assert browser.post(path, json={"time": 5}, headers=device | {"X-CSRF-TOKEN": csrf}).status_code == 204
    mine = browser.get("/contents/2/episodes/watched/last", headers=device)  # a read needs no CSRF header
    assert mine.status_code == 200 and mine.get_json()["time"] == 5
    assert_error(app.test_client().get("/contents/2/episodes/watched/last", headers=device), 404, "nothing_watched")


def test_a_signed_in_browser_whose_access_cookie_lapsed_must_refresh(app, demo_catalogue, anna):
    browser = app.test_client()
    sign_in(browser, anna)
    browser.delete_cookie("authToken")  # the browser dropped it at its expiry; the refresh cookie stays
    device = {"X-Session-Context": signed_identity(app, "ann0device000000000001")}
    assert_error(browser.post("/contents/2/episodes/3/time-progress", json={"time": 5}, headers=device), 401,
                 "token_expired")
