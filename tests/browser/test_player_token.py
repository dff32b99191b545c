"""The access token (spec §4): a signed-in viewer whose token has expired gets it refreshed, once, before the next
progress call, which then carries the new one as a bearer header and is filed under the account; a refresh that
fails is swallowed and the calls go ahead under the device.

A server of its own (its own database, read back here), whose every answer is noted server-side: method, path,
status, the bearer a call carried and whether it was valid, the token a refresh answered with. The viewer signs in
through the real POST /authentication in the browser context (its cookies land there), and then holds an access
token that expired a minute ago, of the same session, as a browser would after 15 minutes away.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask, request
from flask_jwt_extended import create_access_token, decode_token
from flask_jwt_extended.exceptions import JWTExtendedException
from flask_migrate import upgrade
from jwt import PyJWTError
from playwright.sync_api import BrowserContext, Page
from playwright.sync_api import Response as PageResponse
from sqlalchemy import select
from werkzeug.wrappers import Response

from app import create_app
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from app.models import WatchProgress
from tests.api.accounts_helpers import PASSWORD, make_account
from tests.browser.conftest import serving
from tests.browser.helpers import open_player, pause, start, wait_until_playing

FILM = "movie_id=1&t=20"  # 1860 s; its episode is 1
REFRESH = "/authentication/refresh"
SAVE = "/time-progress"


@pytest.fixture(scope="module")
def token_app(make_database: Callable[[str], str], assets_built, demo_media) -> Iterator[tuple[Flask, str]]:
    app = create_app({"TESTING": True, "DATABASE_URL": make_database("token"), "MEDIA_ROOT": str(demo_media)})
    app.config["SEEN"] = []

    @app.after_request
    def note(response: Response) -> Response:
        header = request.headers.get("Authorization", "")
        bearer = header.removeprefix("Bearer ") if header.startswith("Bearer ") else None
        app.config["SEEN"].append({
            "method": request.method, "path": request.path, "status": response.status_code, "bearer": bearer,
            "bearer_sub": valid_subject(bearer), "cookies": bool(request.cookies),
            "csrf": request.headers.get("X-CSRF-TOKEN"), "answered": response.headers.get("Authorization"),
            "body": request.get_json(silent=True),
        })
        return response

    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
    with serving(app) as origin:
        yield app, origin


@pytest.fixture
def seen(token_app: tuple[Flask, str]) -> list[dict[str, Any]]:
    app, _ = token_app
    app.config["SEEN"].clear()
    return app.config["SEEN"]


def valid_subject(token: str | None) -> str | None:
    """The account of a token that verifies now (signature, expiry), else None."""
    try:
        return str(decode_token(token)["sub"]) if token else None
    except (JWTExtendedException, PyJWTError):
        return None


def sign_in_with_an_expired_token(app: Flask, base: str, context: BrowserContext, email: str) -> int:
    """A real sign-in in the browser context (its cookies land there); then the authToken cookie holds an access
    token of that session that expired a minute ago, with the claims the server puts (app/http/tokens.py)."""
    account_id = make_account(app, email)
    answer = context.request.post(f"{base}/authentication", data={"email": email, "password": PASSWORD})
    assert answer.status == 200, answer.text()
    names = {c["name"] for c in context.cookies()}
    assert {"authToken", "refreshToken", "csrf_access_token", "csrf_refresh_token"} <= names
    with app.app_context():
        claims = decode_token(answer.json()["accessToken"])
        expired = create_access_token(str(account_id), additional_claims={"role": claims["role"], "sid": claims["sid"]},
                                      expires_delta=timedelta(seconds=-60))
    context.add_cookies([{"name": "authToken", "value": expired, "url": base}])
    return account_id


def play_and_save_twice(page: Page, base: str, seen: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Plays the film: a save after 10 s of playback (on the page's clock), another at the pause; their records
    (noted by the server before it answers: each is there once the page has its answer)."""
    page.clock.install()
    open_player(page, base, FILM)
    start(page, 20.5)
    with page.expect_response(is_save, timeout=10_000):
        page.clock.fast_forward(10_000)
    saved = saves(seen)[0]["body"]["time"]  # the pause saves a whole second other than this one
    wait_until_playing(page, saved + 1.2)
    with page.expect_response(is_save, timeout=10_000):
        pause(page)
    return saves(seen)


def saves(seen: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in seen if r["path"].endswith(SAVE)]


def is_save(response: PageResponse) -> bool:
    return response.url.endswith(SAVE) and response.request.method == "POST"


def progress_of(app: Flask, viewer_key: str) -> list[tuple[int, int]]:
    with app.app_context():
        rows = db.session.scalars(select(WatchProgress).where(WatchProgress.viewer_key == viewer_key)).all()
        return [(row.episode_id, row.time) for row in rows]


def device_of(context: BrowserContext) -> str:
    [value] = [c["value"] for c in context.cookies() if c["name"] == "device_fp"]
    return "dev:" + value.split(".")[1]  # app/http/viewer.py: {fingerprint}.{device}.{signature}


@pytest.mark.parametrize("cookie", ["expired", "gone"])
def test_an_expired_token_is_refreshed_once_and_the_saves_go_under_the_account(
    token_app, seen, context: BrowserContext, page: Page, cookie: str
):
    app, base = token_app
    account_id = sign_in_with_an_expired_token(app, base, context, f"viewer-{cookie}@example.com")
    if cookie == "gone":  # the browser dropped the cookie at the token's exp (spec §3)
        context.clear_cookies(name="authToken")
    seen.clear()  # from here on, the player's calls only

    records = play_and_save_twice(page, base, seen)
    refreshes = [r for r in seen if r["path"] == REFRESH]
    assert [(r["method"], r["status"]) for r in refreshes] == [("POST", 200)]
    [refresh] = refreshes
    assert refresh["cookies"] and refresh["csrf"]  # the refreshToken cookie, with its double-submit header
    assert refresh["answered"] and refresh["answered"].startswith("Bearer ")
    fresh = refresh["answered"].removeprefix("Bearer ")
    assert seen.index(refresh) < seen.index(records[0])  # before the first save
    for save in records:
        assert (save["method"], save["status"]) == ("POST", 204)
        assert save["bearer"] == fresh and save["bearer_sub"] == str(account_id)
        assert not save["cookies"]  # the bearer header only: no cookie-authenticated write

    # Filed under the account, not the device; and the refresh rewrote the cookie the player reads next.
    [(episode_id, seconds)] = progress_of(app, f"user:{account_id}")
    assert episode_id == 1 and seconds >= 20
    assert progress_of(app, device_of(context)) == []
    assert [c["value"] for c in context.cookies() if c["name"] == "authToken"] == [fresh]
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_failed_refresh_is_swallowed_and_the_saves_go_under_the_device(
    token_app, seen, context: BrowserContext, page: Page
):
    app, base = token_app
    account_id = sign_in_with_an_expired_token(app, base, context, "viewer-refused@example.com")
    context.add_cookies([{"name": "csrf_refresh_token", "value": "not-the-double-submit-value", "url": base}])
    seen.clear()

    records = play_and_save_twice(page, base, seen)
    refreshes = [r for r in seen if r["path"] == REFRESH]
    assert [r["status"] for r in refreshes] == [401]  # one try: none again within the backoff, for the second save
    for save in records:
        assert (save["status"], save["bearer"]) == (204, None)
    assert progress_of(app, f"user:{account_id}") == []
    [(episode_id, seconds)] = progress_of(app, device_of(context))
    assert episode_id == 1 and seconds >= 20
    assert page.errors == []  # type: ignore[attr-defined]
