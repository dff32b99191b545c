"""The player page reads the viewer's completed episodes from the device_fp cookie (spec §2 rule 3, §3 isCompleted),
or a signed-in viewer's from the account's cookies.

Demo series (content 2): episodes 2, 3, 4 (season 1) and 5, 6, 7 (season 2).
"""


import pytest

from tests.api.accounts_helpers import bearer, block, make_account, sign_in
from tests.api.queries import statements
from tests.api.test_player_page import page_context
from tests.conftest import signed_identity

SERIES = [2, 3, 4, 5, 6, 7]
FINGERPRINT = ""  # this test's device identity (the device_fp cookie's value), issued for each test


@pytest.fixture(autouse=True)
def device(app):
    global FINGERPRINT
    FINGERPRINT = signed_identity(app, "page0device00000000001")


def complete(client, *episode_ids):
    for episode_id in episode_ids:
        response = client.post(f"/contents/2/episodes/{episode_id}/completed",
                               headers={"X-Session-Context": FINGERPRINT})
        assert response.status_code == 204


def completed_in(context):
    return [e["id"] for e in context["episodes"] if e["isCompleted"]]




def test_the_first_episode_not_completed_opens_and_completed_ones_are_marked(client, demo_catalogue):
    complete(client, 2)
    client.set_cookie("device_fp", FINGERPRINT)
    context = page_context(client.get("/?movie_id=2"))
    assert context["episodeId"] == 3
    assert completed_in(context) == [2]


def test_an_explicit_episode_still_wins(client, demo_catalogue):
    complete(client, 2)
    client.set_cookie("device_fp", FINGERPRINT)
    context = page_context(client.get("/?movie_id=2&season=1&episode=1"))
    assert context["episodeId"] == 2
    assert completed_in(context) == [2]


def test_everything_completed_opens_the_first_episode(client, demo_catalogue):
    complete(client, *SERIES)
    client.set_cookie("device_fp", FINGERPRINT)
    context = page_context(client.get("/?movie_id=2"))
    assert context["episodeId"] == 2
    assert completed_in(context) == SERIES


def test_another_device_or_no_cookie_sees_nothing_completed(app, client, demo_catalogue):
    complete(client, 2)
    other_device = signed_identity(app, "other0device0000000001")
    for cookie in ("other-device-01", "bad fp", FINGERPRINT.split(".")[0], other_device, None):
        if cookie:
            client.set_cookie("device_fp", cookie)
        else:
            client.delete_cookie("device_fp")
        context = page_context(client.get("/?movie_id=2"))
        assert context["episodeId"] == 2
        assert completed_in(context) == []


def test_the_cookie_costs_one_query_and_its_absence_none(app, client, demo_catalogue):
    """The catalogue's part comes from the content's snapshot (app/snapshots.py), made by the first page: after
    it, a page costs the database nothing but the identified viewer's finished episodes."""
    with statements(app) as first:
        client.get("/?movie_id=2")
    client.set_cookie("device_fp", "not valid!")
    with statements(app) as invalid:
        client.get("/?movie_id=2")
    client.set_cookie("device_fp", FINGERPRINT)
    with statements(app) as identified:
        client.get("/?movie_id=2")
    with statements(app) as kept:  # the page of this history, kept (app/http/shared.py kept_for): still the lookup
        client.get("/?movie_id=2")
    assert first and not any("watch_progress" in statement for statement in first)
    assert invalid == []
    assert len(identified) == 1 and "watch_progress" in identified[0]
    assert kept == identified


def test_a_films_returning_viewers_share_one_private_copy_without_the_lookup(app, client, demo_catalogue):
    """A film (content 1, one episode: 1) opens its episode whatever was finished, so its page does not ask whose it
    is: no statement for a returning viewer once the snapshot and the copy are made, the same private copy for two
    viewers (one of them finished it), and no mark on its one episode (nothing on the page reads it)."""
    other = signed_identity(app, "page0device00000000002")
    finished = client.post("/contents/1/episodes/1/completed", headers={"X-Session-Context": FINGERPRINT})
    assert finished.status_code == 204
    client.get("/?movie_id=1")  # the snapshot, made by a first-time viewer's page
    pages = []
    for identity in (FINGERPRINT, other, FINGERPRINT):
        client.set_cookie("device_fp", identity)
        with statements(app) as asked:
            response = client.get("/?movie_id=1")
        pages.append((asked, response))
    assert [asked for asked, _ in pages] == [[], [], []]  # the first made the copy, from the snapshot
    for _, response in pages:
        context = page_context(response)
        assert (context["episodeId"], completed_in(context)) == (1, [])
        assert response.headers["Cache-Control"] == "private, max-age=0"
        assert "Cookie" in response.headers["Vary"]
    assert len({response.get_data() for _, response in pages}) == 1
    client.set_cookie("device_fp", FINGERPRINT)
    assert completed_in(page_context(client.get("/?movie_id=2"))) == []  # a series still asks: nothing finished there
    complete(client, 2)
    assert completed_in(page_context(client.get("/?movie_id=2"))) == [2]


def test_a_films_copy_for_returning_viewers_is_answered_before_the_view(app, client, demo_catalogue, monkeypatch):
    """Once kept, a film's copy for returning viewers answers them before the view runs (as a first-time viewer's
    does), in a process that found it kept by another after one view; a series' page runs its view every time (its
    lookup); a change to the catalogue makes the view decide again (a film may have been given a second episode). A
    first-time viewer's page never asks (its view reads the snapshot once, for the page)."""
    from collections import OrderedDict

    import app.http.shared as shared
    import app.player.views as views
    from app.caching import invalidate_catalogue

    decided = []
    history_matters = views.history_matters
    monkeypatch.setattr(views, "history_matters", lambda content_id: decided.append(content_id) or
                        history_matters(content_id))
    client.get("/?movie_id=1")
    client.get("/?movie_id=2&season=2")  # its view runs (the first at this address), for nobody's history
    assert decided == []  # a first-time viewer's page never asks
    client.set_cookie("device_fp", FINGERPRINT)
    made, again = client.get("/?movie_id=1"), client.get("/?movie_id=1")
    assert decided == [1]
    assert again.get_data() == made.get_data() and again.headers["Cache-Control"] == "private, max-age=0"
    assert page_context(again)["episodeId"] == 1
    monkeypatch.setattr(shared, "_everyone", OrderedDict())  # a process that did not make it: its view finds it once
    assert client.get("/?movie_id=1").get_data() == made.get_data()
    assert client.get("/?movie_id=1").get_data() == made.get_data()
    assert decided == [1, 1]
    client.get("/?movie_id=2")
    client.get("/?movie_id=2")
    assert decided == [1, 1, 2, 2]
    with app.app_context():
        invalidate_catalogue()
    assert client.get("/?movie_id=1").status_code == 200
    assert decided == [1, 1, 2, 2, 1]


def test_a_signed_in_viewer_sees_the_accounts_progress_by_either_cookie_until_the_session_ends(app, client,
                                                                                                 demo_catalogue):
    """The sign-in's cookies: authToken while it lasts, then refreshToken (the page only reads; nothing rotates);
    a blocked account's cookies identify nobody."""
    account = make_account(app, "watcher@example.com")
    tokens = sign_in(client, "watcher@example.com")  # sets authToken, refreshToken and the csrf cookies
    assert client.post("/contents/2/episodes/2/completed", headers=bearer(tokens)).status_code == 204
    assert completed_in(page_context(client.get("/?movie_id=2"))) == [2]
    client.delete_cookie("authToken")  # lapsed: the browser drops it at the token's exp
    context = page_context(client.get("/?movie_id=2"))
    assert (context["episodeId"], completed_in(context)) == (3, [2])
    client.set_cookie("refreshToken", tokens["refreshToken"][:-2] + "xx")  # forged: nobody, not an error
    assert completed_in(page_context(client.get("/?movie_id=2"))) == []
    client.set_cookie("refreshToken", tokens["refreshToken"])
    block(app, account)
    assert completed_in(page_context(client.get("/?movie_id=2"))) == []
