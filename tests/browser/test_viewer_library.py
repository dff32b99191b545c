"""A viewer's library end to end (issue 32): an anonymous viewer watches an episode of the series to its end in the
player, signs in on that browser, and then the player page opens the next unwatched episode for the account, and the
account's history lists the title with where the viewer is. Nothing the device recorded is lost at the sign-in.

The demo series is content 2: episodes 2, 3, 4 (season 1; episode 2 is 52 s long) and 5, 6, 7 (season 2).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from flask_migrate import upgrade
from playwright.sync_api import Page

from app import create_app
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from tests.api.accounts_helpers import PASSWORD, make_account
from tests.browser.conftest import serving
from tests.browser.helpers import open_player, start

FIRST_EPISODE_NEAR_ITS_END = "movie_id=2&season=1&episode=1&t=48"  # episode 2, 52 s long


@pytest.fixture(scope="module")
def library_app(make_database: Callable[[str], str], assets_built, demo_media) -> Iterator[tuple[Flask, str]]:
    app = create_app({"TESTING": True, "DATABASE_URL": make_database("library"), "MEDIA_ROOT": str(demo_media)})
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
    with serving(app) as origin:
        yield app, origin


def chosen_episode(page: Page) -> int:
    """The episode the server chose for the page (its player context)."""
    return json.loads(page.locator("#player-context").text_content() or "{}")["episodeId"]


def test_what_an_anonymous_viewer_watched_follows_them_into_their_account(page: Page, library_app):
    app, base = library_app
    make_account(app, "anna@example.com")
    open_player(page, base, FIRST_EPISODE_NEAR_ITS_END)
    assert chosen_episode(page) == 2
    with page.expect_response(lambda r: r.url.endswith("/contents/2/episodes/2/completed")
                              and r.request.method == "POST", timeout=30_000) as finished:
        start(page, 48.2)  # plays to its end: the player marks it finished, then goes on to the next episode
    assert finished.value.status == 204
    device = next(c["value"] for c in page.context.cookies() if c["name"] == "device_fp")

    signed_in = page.context.request.post(f"{base}/authentication", headers={"X-Session-Context": device},
                                          data={"email": "anna@example.com", "password": PASSWORD})
    assert signed_in.status == 200, signed_in.text()
    account = {"Authorization": f"Bearer {signed_in.json()['accessToken']}"}

    open_player(page, base, "movie_id=2")  # no episode asked for: the first one the account has not finished
    assert chosen_episode(page) == 3

    history = page.context.request.post(f"{base}/contents/history", headers=account, data={})
    assert history.status == 200, history.text()
    [item] = [i for i in history.json()["items"] if i["content"]["id"] == 2]
    assert item["content"]["title"] == "Тихая гавань"
    assert item["isFinished"] is False
    # where the viewer is: episode 2 finished and "continue" at episode 3, or already a few seconds into episode 3
    # when the player went on to it before the page was left
    assert (item["episodeId"], item["isCompleted"], item["nextEpisodeId"]) in ((2, True, 3), (3, False, 3))
    marks = page.context.request.get(f"{base}/contents/2/episodes/progress", headers=account).json()
    assert {mark["episodeId"]: mark["isCompleted"] for mark in marks}[2] is True
