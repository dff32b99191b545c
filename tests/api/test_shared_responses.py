"""Shared responses (app/http/shared.py): the embed page and the catalogue's reads, as every anonymous viewer of one
address in one country gets them, are made once, kept, and labelled for CDNs; a returning viewer's page is kept for
everyone who finished the same episodes, labelled private; nothing personal is ever shared with anyone else."""

from __future__ import annotations

import json
import re

import brotli
import pytest
from sqlalchemy import event
from sqlalchemy.orm import Session

from app.caching import invalidate_catalogue
from app.extensions import db
from app.http.viewer import FINGERPRINT_COOKIE
from app.models import Content
from tests.api.queries import statements
from tests.api.test_player_page import page_context
from tests.conftest import signed_identity

FILM, SERIES, DOMAIN_LICENSED = 1, 2, 5
SHARED = "public, max-age=0, s-maxage=60, stale-while-revalidate=300"


@pytest.fixture
def views_run(monkeypatch):
    """Counts the page's and the API's resolutions: a response from the store runs neither."""
    import app.api.catalogue as api
    import app.player.views as views

    calls: list[str] = []
    for module, name in ((views, "resolve_player_context"), (api, "get_snapshot")):
        original = getattr(module, name)

        def counting(*args, _original=original, _name=name, **kwargs):
            calls.append(_name)
            return _original(*args, **kwargs)

        monkeypatch.setattr(module, name, counting)
    return calls


def vary_of(response) -> set[str]:
    return {part.strip().lower() for part in response.headers.get("Vary", "").split(",") if part.strip()}


def test_a_first_time_viewers_page_is_shared_and_says_so(client, demo_catalogue, views_run):
    first = client.get(f"/?movie_id={FILM}", headers={"Accept-Encoding": "br"})
    assert first.status_code == 200
    assert first.headers["Cache-Control"] == SHARED
    assert vary_of(first) == {"accept-encoding", "cookie", "x-viewer-country"}  # never Referer
    assert first.headers["ETag"]
    second = client.get(f"/?movie_id={FILM}", headers={"Accept-Encoding": "br"})
    assert views_run == ["resolve_player_context"]  # the second came from the store
    assert second.get_data() == first.get_data() and second.headers["Content-Encoding"] == "br"
    assert second.headers["ETag"] == first.headers["ETag"]
    assert second.headers["Content-Security-Policy"] == first.headers["Content-Security-Policy"]
    assert second.headers["X-Request-Id"] != first.headers["X-Request-Id"]  # each request still its own
    assert "<h1 class=\"player__title\">Долгая дорога домой</h1>" in brotli.decompress(second.get_data()).decode()


def test_the_page_is_the_same_on_every_embedding_site(client, demo_catalogue, views_run):
    pages = [client.get(f"/?movie_id={FILM}", headers={"Referer": site, "Sec-Fetch-Dest": "iframe"})
             for site in ("https://one.example/a", "https://two.example/b", None)]
    assert len({page.get_data() for page in pages}) == 1
    assert page_context(pages[0])["config"]["parentOrigin"] is None  # the browser says it (static_src/embed/bridge.ts)
    assert views_run == ["resolve_player_context"]


def test_a_kept_page_answers_a_revalidation_with_304(client, demo_catalogue):
    etag = client.get(f"/?movie_id={FILM}").headers["ETag"]
    again = client.get(f"/?movie_id={FILM}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""


def test_each_address_country_and_compression_is_kept_apart(behind_proxy, client, demo_catalogue, views_run):
    client.get(f"/?movie_id={FILM}")
    client.get(f"/?movie_id={FILM}&auto_play=1")  # another address
    client.get(f"/?movie_id={FILM}", headers={"X-Viewer-Country": "de"})  # another country
    client.get(f"/?movie_id={FILM}", headers={"Accept-Encoding": "gzip"})  # another encoding
    assert len(views_run) == 4
    client.get(f"/?movie_id={FILM}", headers={"X-Viewer-Country": "DE"})
    assert len(views_run) == 4  # the same country, kept


def complete(client, viewer, *episode_ids):
    for episode_id in episode_ids:
        response = client.post(f"/contents/{SERIES}/episodes/{episode_id}/completed",
                               headers={"X-Session-Context": viewer})
        assert response.status_code == 204


def finished_in(context):
    return [episode["id"] for episode in context["episodes"] if episode["isCompleted"]]


def test_a_returning_viewers_page_is_private_and_kept_for_everyone_with_the_same_history(app, client, demo_catalogue,
                                                                                        views_run):
    """Their page depends on them only through the episodes they finished (app/player/views.py history_variant):
    made once for all who finished the same ones, labelled private (it depends on the cookie), never the
    first-time viewers' copy."""
    client.get(f"/?movie_id={SERIES}", headers={"Accept-Encoding": "br"})  # the first-time viewers' page, kept
    one, two = signed_identity(app, "returning0viewer000001"), signed_identity(app, "returning0viewer000002")
    complete(client, one, 2)
    complete(client, two, 2)
    client.set_cookie(FINGERPRINT_COOKIE, one)
    first = client.get(f"/?movie_id={SERIES}", headers={"Accept-Encoding": "br"})
    assert first.status_code == 200 and first.headers["Cache-Control"] == "private, max-age=0"
    assert vary_of(first) == {"accept-encoding", "cookie", "x-viewer-country"}
    assert first.headers["ETag"] and first.headers["Content-Encoding"] == "br"
    client.set_cookie(FINGERPRINT_COOKIE, two)
    second = client.get(f"/?movie_id={SERIES}", headers={"Accept-Encoding": "br"})
    assert views_run == ["resolve_player_context"] * 2  # the second viewer's came from the store
    assert second.get_data() == first.get_data() and second.headers["Cache-Control"] == "private, max-age=0"
    assert second.headers["ETag"] == first.headers["ETag"]
    assert vary_of(second) == {"accept-encoding", "cookie", "x-viewer-country"}
    revalidated = client.get(f"/?movie_id={SERIES}", headers={"Accept-Encoding": "br",
                                                              "If-None-Match": first.headers["ETag"]})
    assert revalidated.status_code == 304 and revalidated.headers["Cache-Control"] == "private, max-age=0"
    page = brotli.decompress(second.get_data()).decode()
    blob = json.loads(re.search(r'<script id="player-context" type="application/json">(.*?)</script>', page).group(1))
    assert (blob["episodeId"], finished_in(blob)) == (3, [2])  # their next unfinished episode
    assert "Сезон 1, серия 2." in page  # in the shell too


def test_a_returning_viewers_kept_page_costs_one_statement_and_no_transaction(app, client, demo_catalogue):
    """The personal part of a kept page is one indexed lookup of the episodes finished, on a connection of its own:
    nothing else is asked of the database, and the request's session, never used, commits nothing."""
    viewer = signed_identity(app, "returning0viewer000009")
    complete(client, viewer, 2)
    client.set_cookie(FINGERPRINT_COOKIE, viewer)
    assert client.get(f"/?movie_id={SERIES}").status_code == 200  # made and kept
    commits: list[object] = []

    def committed(session):
        commits.append(session)

    event.listen(Session, "after_commit", committed)
    try:
        with statements(app) as seen:
            again = client.get(f"/?movie_id={SERIES}")
    finally:
        event.remove(Session, "after_commit", committed)
    assert again.status_code == 200 and page_context(again)["episodeId"] == 3
    assert len(seen) == 1 and "FROM watch_progress" in seen[0]
    assert commits == []


def test_a_returning_viewer_of_a_series_gets_their_next_unfinished_episode_from_the_kept_pages(
        app, client, demo_catalogue, views_run):
    """Each history its own copy: a kept page never answers a viewer whose finished episodes differ, nor a first-time
    viewer, nor another address; finishing an episode shows on the next page at once."""
    viewer = signed_identity(app, "returning0viewer000003")
    client.set_cookie(FINGERPRINT_COOKIE, viewer)
    nothing_yet = client.get(f"/?movie_id={SERIES}")
    assert page_context(nothing_yet)["episodeId"] == 2 and finished_in(page_context(nothing_yet)) == []
    assert nothing_yet.headers["Cache-Control"] == "private, max-age=0"
    complete(client, viewer, 2)
    assert (page_context(client.get(f"/?movie_id={SERIES}"))["episodeId"], len(views_run)) == (3, 2)
    complete(client, viewer, 3)
    context = page_context(client.get(f"/?movie_id={SERIES}"))
    assert (context["episodeId"], finished_in(context)) == (4, [2, 3])
    explicit = page_context(client.get(f"/?movie_id={SERIES}&season=2&episode=1"))
    assert (explicit["episodeId"], finished_in(explicit)) == (5, [2, 3])  # an explicit episode wins (rule 2)
    assert len(views_run) == 4

    other = signed_identity(app, "returning0viewer000004")  # the same history: every page from the store
    complete(client, other, 3, 2)
    client.set_cookie(FINGERPRINT_COOKIE, other)
    assert page_context(client.get(f"/?movie_id={SERIES}"))["episodeId"] == 4
    assert page_context(client.get(f"/?movie_id={SERIES}&season=2&episode=1"))["episodeId"] == 5
    assert len(views_run) == 4
    client.set_cookie(FINGERPRINT_COOKIE, "not a valid identity")  # nobody: the page of no history, private
    invalid = client.get(f"/?movie_id={SERIES}")
    assert (page_context(invalid)["episodeId"], invalid.headers["Cache-Control"]) == (2, "private, max-age=0")
    assert len(views_run) == 4  # the first viewer's page before they finished anything

    client.delete_cookie(FINGERPRINT_COOKIE)
    first_time = client.get(f"/?movie_id={SERIES}")
    assert first_time.headers["Cache-Control"] == SHARED
    assert (page_context(first_time)["episodeId"], finished_in(page_context(first_time))) == (2, [])
    assert len(views_run) == 5  # its own copy, never a returning viewer's


def test_a_title_licensed_to_some_sites_is_never_shared(app, client, demo_catalogue, views_run):
    for cookie in (None, None, signed_identity(app, "returning0viewer000005"), "not a valid identity"):
        if cookie:
            client.set_cookie(FINGERPRINT_COOKIE, cookie)
        page = client.get(f"/?movie_id={DOMAIN_LICENSED}",
                          headers={"Referer": "https://partner.example/x", "Sec-Fetch-Dest": "iframe"})
        assert page.status_code == 200 and page.headers["Cache-Control"] == "private, max-age=0"
    assert len(views_run) == 4


@pytest.mark.parametrize("returning", [False, True])
def test_a_catalogue_change_reaches_the_next_request(app, client, demo_catalogue, returning):
    if returning:
        client.set_cookie(FINGERPRINT_COOKIE, signed_identity(app, "returning0viewer000007"))
    assert "Долгая дорога домой" in client.get(f"/?movie_id={FILM}").get_data(as_text=True)
    with app.app_context():
        db.session.get(Content, FILM).title = "Новое название"
        db.session.commit()
        assert "Долгая дорога домой" in client.get(f"/?movie_id={FILM}").get_data(as_text=True)  # kept, until told
        invalidate_catalogue()
    assert "Новое название" in client.get(f"/?movie_id={FILM}").get_data(as_text=True)


def test_error_screens_are_not_kept(client, demo_catalogue, views_run):
    for _ in range(2):
        missing = client.get("/?movie_id=999999")
        assert missing.status_code == 404 and missing.headers["Cache-Control"] == "private, max-age=0"
    assert len(views_run) == 2


def test_the_catalogue_reads_are_shared_with_every_caller(client, demo_catalogue, views_run, viewer_headers):
    """Their answers never depend on who asks (a content, its seasons, its episodes, whether it plays here): an
    identified caller gets the same kept answer."""
    for path in (f"/contents/{FILM}", f"/contents/{SERIES}/seasons", f"/episodes?content-id={SERIES}",
                 f"/contents/{FILM}/available?domain=site.example"):
        first = client.get(path)
        assert first.status_code == 200 and first.headers["Cache-Control"] == SHARED, path
        assert vary_of(first) == {"accept-encoding", "x-viewer-country"}, path
        identified = client.get(path, headers=viewer_headers())
        assert identified.get_json() == first.get_json() and identified.headers["Cache-Control"] == SHARED, path
    assert len(views_run) == 4  # one made and kept per address


def test_episodes_of_a_title_with_domain_rules_are_shared_without_their_addresses(client, demo_catalogue):
    response = client.get(f"/episodes?content-id={DOMAIN_LICENSED}", headers={"Referer": "https://partner.example/"})
    assert response.status_code == 200 and response.headers["Cache-Control"] == SHARED
    assert [episode["m3u8MasterFilePath"] for episode in response.get_json()] == [None]


def test_nothing_is_kept_when_sharing_is_off(app, client, demo_catalogue, views_run):
    app.config["SHARED_CACHE_SECONDS"] = 0
    for _ in range(2):
        assert client.get(f"/?movie_id={FILM}").headers["Cache-Control"] == "private, max-age=0"
    client.set_cookie(FINGERPRINT_COOKIE, signed_identity(app, "returning0viewer000006"))
    for _ in range(2):
        assert client.get(f"/?movie_id={FILM}").headers["Cache-Control"] == "private, max-age=0"
    assert len(views_run) == 4


def test_with_sharing_off_the_reads_come_from_the_titles_snapshot(app, client, demo_catalogue):
    """The snapshot (app/snapshots.py) is what a read is made from: after the first, none costs a query, and each
    says what the database says."""
    app.config["SHARED_CACHE_SECONDS"] = 0
    paths = (f"/contents/{SERIES}", f"/contents/{SERIES}/seasons", f"/episodes?content-id={SERIES}",
             f"/contents/{SERIES}/available")
    first = [client.get(path).get_json() for path in paths]
    with statements(app) as queries:
        again = [client.get(path).get_json() for path in paths]
    assert queries == [] and again == first
    assert first[0]["title"] == "Тихая гавань" and [s["order"] for s in first[1]] == [1, 2]
    assert first[2][0]["season"]["order"] == 1 and first[3] == {"available": True}


def test_an_answers_etag_is_the_hash_of_its_body_not_of_a_second_encoding(client, demo_catalogue, monkeypatch):
    """app/api/arguments.py: the ETag is made from the body as sent; flask-smorest's own encodes the data again as
    sorted JSON to hash it (0.75 ms of a page of 100 cards)."""
    import hashlib

    from app.api.arguments import Blueprint

    def encoded_again(*args, **kwargs):
        raise AssertionError("the answer's data was encoded a second time for its ETag")

    monkeypatch.setattr(Blueprint, "_generate_etag", staticmethod(encoded_again))
    search = "/v2/contents/search?query=%D0%B4%D0%BE%D1%80%D0%BE%D0%B3%D0%B8"
    for path in ("/contents/1", "/categories/main-mart", search):
        answer = client.get(path)
        assert answer.status_code == 200, path
        body = hashlib.sha1(answer.get_data(), usedforsecurity=False).hexdigest()
        assert answer.headers["ETag"] == f'"{body}"', path
        assert client.get(path, headers={"If-None-Match": answer.headers["ETag"]}).status_code == 304, path
