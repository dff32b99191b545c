"""Playlists through the API (app/api/playlists.py): every call, its answers, its errors and its limits. Who may do
what, call by call and role by role, is tests/api/test_playlists_access.py."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.extensions import db
from app.models import Account, Playlist, Role
from app.transaction import transaction
from tests.api.accounts_helpers import make_account, sign_in
from tests.api.playlists_helpers import add, assert_error, create, listed, set_published, viewer
from tests.conftest import reconfigure


@pytest.fixture
def owner(app, demo_catalogue):
    return viewer(app, "owner@example.com")


def test_a_new_playlist_is_private_and_the_owners(client, owner):
    response = client.post("/playlists/new", json={"title": "  Смотреть на выходных  "}, headers=owner)
    assert response.status_code == 201
    assert response.headers["Cache-Control"] == "no-store"
    shown = response.get_json()
    assert shown["title"] == "Смотреть на выходных"  # trimmed
    assert (shown["visibility"], shown["own"], shown["editorial"], shown["slug"]) == ("private", True, False, None)
    assert (shown["description"], shown["contentsCount"]) == ("", 0)
    public = client.post("/playlists/new", json={"title": "Для всех", "description": "Лучшее", "visibility": "public"},
                         headers=owner).get_json()
    assert (public["visibility"], public["description"]) == ("public", "Лучшее")


@pytest.mark.parametrize("body", [
    {}, {"title": ""}, {"title": "   "}, {"title": "x" * 201}, {"title": "ok", "description": "x" * 2001},
    {"title": "ok", "visibility": "unlisted"}, {"title": "ok", "owner": 1}, {"title": 5}, {"title": "a\u0007b"},
])
def test_a_new_playlist_needs_a_title_within_its_limits(client, owner, body):
    response = client.post("/playlists/new", json=body, headers=owner)
    assert response.status_code in (400, 422)
    assert response.get_json()["error"]["code"] in ("validation_error", "bad_request")
    assert client.post("/v2/playlists", headers=owner).get_json()["total"] == 0


def test_the_body_tells_a_read_from_a_change(client, owner, clock):
    playlist_id = create(client, owner)
    first = client.post(f"/playlists/{playlist_id}", headers=owner).get_json()
    assert client.post(f"/playlists/{playlist_id}", json={}, headers=owner).get_json() == first  # {} reads too
    clock.shift(timedelta(minutes=5))
    changed = client.post(f"/playlists/{playlist_id}", json={"title": "Новое", "visibility": "public",
                                                              "description": "Для друзей"}, headers=owner)
    assert changed.status_code == 200
    shown = changed.get_json()
    assert (shown["title"], shown["visibility"], shown["description"]) == ("Новое", "public", "Для друзей")
    assert shown["updatedAt"] > first["updatedAt"] and shown["createdAt"] == first["createdAt"]
    only_title = client.post(f"/playlists/{playlist_id}", json={"title": "Ещё новее"}, headers=owner).get_json()
    assert (only_title["title"], only_title["visibility"], only_title["description"]) == (
        "Ещё новее", "public", "Для друзей")
    assert_error(client.post(f"/playlists/{playlist_id}", json={"title": " "}, headers=owner), 422,
                 "validation_error")
    assert_error(client.post(f"/playlists/{playlist_id}", json={"name": "x"}, headers=owner), 422,
                 "validation_error")


def test_adding_is_idempotent_and_keeps_the_order(client, owner):
    playlist_id = create(client, owner)
    answers = [client.post(f"/playlists/{playlist_id}/contents/{content_id}", headers=owner).get_json()
               for content_id in (2, 1, 2, 5)]
    assert [(a["contentId"], a["inPlaylist"], a["changed"]) for a in answers] == [
        (2, True, True), (1, True, True), (2, True, False), (5, True, True)]
    assert listed(client, playlist_id, owner) == [2, 1, 5]  # the order they were added in, 2 once
    assert client.post(f"/playlists/{playlist_id}", headers=owner).get_json()["contentsCount"] == 3


def test_removing_is_a_flag_and_idempotent(client, owner):
    playlist_id = create(client, owner)
    add(client, owner, playlist_id, 2, 1)
    path = f"/playlists/{playlist_id}/contents/2"
    removed = client.post(path, json={"remove": True}, headers=owner).get_json()
    assert (removed["inPlaylist"], removed["changed"]) == (False, True)
    again = client.post(path, json={"remove": True}, headers=owner).get_json()
    assert (again["inPlaylist"], again["changed"]) == (False, False)
    assert listed(client, playlist_id, owner) == [1]
    assert client.post(path, json={"remove": False}, headers=owner).get_json()["changed"] is True  # false adds
    assert listed(client, playlist_id, owner) == [1, 2]
    assert_error(client.post(path, json={"remove": "yes"}, headers=owner), 422, "validation_error")


def test_an_unpublished_or_missing_content_cannot_be_added(app, client, owner):
    playlist_id = create(client, owner)
    set_published(app, 3, False)
    for content_id in (3, 999, 2**31):
        error = assert_error(client.post(f"/playlists/{playlist_id}/contents/{content_id}", headers=owner), 404,
                             "content_not_found")
        assert error["message"] == "Контент не доступен"
    assert listed(client, playlist_id, owner) == []


def test_a_content_unpublished_later_is_never_listed_but_kept(app, client, owner):
    playlist_id = create(client, owner, visibility="public")
    add(client, owner, playlist_id, 1, 2, 5)
    set_published(app, 2, False)
    assert listed(client, playlist_id) == [1, 5]  # anyone, the owner too
    assert listed(client, playlist_id, owner, version="/v2") == [1, 5]
    assert client.post(f"/playlists/{playlist_id}").get_json()["contentsCount"] == 2
    set_published(app, 2, True)
    assert listed(client, playlist_id) == [1, 2, 5]  # back in its place
    # and it can be taken out while unpublished
    set_published(app, 2, False)
    assert client.post(f"/playlists/{playlist_id}/contents/2", json={"remove": True},
                       headers=owner).get_json()["changed"] is True


def test_contents_are_paged_with_the_query_or_the_body(client, owner):
    playlist_id = create(client, owner)
    add(client, owner, playlist_id, 5, 4, 3, 2, 1)
    page = client.post(f"/playlists/{playlist_id}/contents?page=2&pageSize=2", headers=owner).get_json()
    assert ([card["id"] for card in page["items"]], page["total"], page["page"], page["pageSize"]) == (
        [3, 2], 5, 2, 2)
    assert {"title", "slug", "posterUrl", "contentType", "genres", "rating"} <= set(page["items"][0])
    assert listed(client, playlist_id, owner, page=3, pageSize=2) == [1]
    body_wins = client.post(f"/playlists/{playlist_id}/contents?page=1&pageSize=2", json={"page": 2},
                            headers=owner).get_json()
    assert [card["id"] for card in body_wins["items"]] == [3, 2]
    assert listed(client, playlist_id, owner, page=9) == []
    for bad in ({"pageSize": 0}, {"pageSize": 101}, {"page": "2"}, {"sort": "title"}):
        assert_error(client.post(f"/playlists/{playlist_id}/contents", json=bad, headers=owner), 422,
                     "validation_error")  # v1 has no sort or filters


def test_v2_filters_and_sorts_the_contents_with_the_catalogues_fields(client, owner):
    playlist_id = create(client, owner)
    add(client, owner, playlist_id, 5, 2, 1)
    assert listed(client, playlist_id, owner, version="/v2") == [5, 2, 1]  # position: the playlist's order
    assert listed(client, playlist_id, owner, version="/v2", order="desc") == [1, 2, 5]
    titles = client.post(f"/v2/playlists/{playlist_id}/contents", json={"sort": "title"}, headers=owner).get_json()
    names = [card["title"] for card in titles["items"]]
    assert names == sorted(names) and len(names) == 3
    series = listed(client, playlist_id, owner, version="/v2", hasMultipleEpisodes=True)
    assert series == [2]
    assert client.post(f"/v2/playlists/{playlist_id}/contents?hasMultipleEpisodes=false",
                       headers=owner).get_json()["total"] == 2
    assert_error(client.post(f"/v2/playlists/{playlist_id}/contents", json={"sort": "popular"}, headers=owner), 422,
                 "validation_error")
    assert_error(client.post(f"/v2/playlists/{playlist_id}/contents", json={"yearFrom": 2030, "yearTo": 2020},
                             headers=owner), 422, "invalid_year_range")


def test_the_viewers_own_playlists_last_changed_first(client, owner, clock):
    first = create(client, owner, "Первый")
    clock.shift(timedelta(minutes=1))
    second = create(client, owner, "Второй", visibility="public")
    clock.shift(timedelta(minutes=1))
    add(client, owner, first, 1, 2)  # an add is a change
    other = viewer(client.application, "other@example.com")
    create(client, other, "Чужой")
    mine = client.post("/v2/playlists", headers=owner).get_json()
    assert [(p["id"], p["contentsCount"]) for p in mine["items"]] == [(first, 2), (second, 0)]
    assert mine["total"] == 2 and all(p["own"] for p in mine["items"])
    paged = client.post("/v2/playlists?pageSize=1", json={"page": 2}, headers=owner).get_json()
    assert [p["id"] for p in paged["items"]] == [second]
    assert_error(client.post("/v2/playlists", json={"pageSize": 500}, headers=owner), 422, "validation_error")


def test_a_deleted_playlist_is_gone_with_its_list(app, client, owner):
    playlist_id = create(client, owner, visibility="public")
    add(client, owner, playlist_id, 1, 2)
    response = client.delete(f"/playlists/{playlist_id}", headers=owner)
    assert response.status_code == 204 and response.get_data() == b""
    assert_error(client.post(f"/playlists/{playlist_id}"), 404, "playlist_not_found")
    assert_error(client.delete(f"/playlists/{playlist_id}", headers=owner), 404, "playlist_not_found")
    assert client.get("/contents/1").status_code == 200  # the contents stay in the catalogue
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Playlist).where(
            Playlist.id == playlist_id)) == 0


def test_a_private_playlist_reads_as_one_that_does_not_exist(client, owner):
    private = create(client, owner)
    stranger = viewer(client.application, "stranger@example.com")
    hidden = assert_error(client.post(f"/playlists/{private}", headers=stranger), 404, "playlist_not_found")
    missing = assert_error(client.post("/playlists/999999", headers=stranger), 404, "playlist_not_found")
    assert hidden["message"] == missing["message"] == "Плейлист не найден"
    assert_error(client.post(f"/playlists/{private}/contents"), 404, "playlist_not_found")
    assert_error(client.post(f"/playlists/{2**31}"), 404, "playlist_not_found")  # beyond any id


def test_the_editors_playlist_by_slug_and_its_contents_in_order(app, demo_catalogue, client):
    shown = client.post("/playlists/by-slug/luchshee-v-demo")
    assert shown.status_code == 200
    playlist = shown.get_json()
    assert (playlist["id"], playlist["editorial"], playlist["own"], playlist["visibility"]) == (1, True, False,
                                                                                                "public")
    assert (playlist["title"], playlist["contentsCount"]) == ("Лучшее в демо", 3)
    assert listed(client, 1) == [2, 1, 5]
    assert client.post("/playlists/1").get_json() == playlist
    assert_error(client.post("/playlists/by-slug/no-such-list"), 404, "playlist_not_found")
    assert_error(client.post("/playlists/by-slug/Not_A_Slug"), 404, "playlist_not_found")  # no query asked


def test_an_unpublished_editors_playlist_is_seen_by_editors_only(app, demo_catalogue, client):
    with app.app_context(), transaction():
        db.session.get(Playlist, 1).published = False
    assert_error(client.post("/playlists/by-slug/luchshee-v-demo"), 404, "playlist_not_found")
    assert_error(client.post("/playlists/1/contents"), 404, "playlist_not_found")
    editor = viewer(app, "editor@example.com", role=Role.EDITOR)
    assert client.post("/playlists/by-slug/luchshee-v-demo", headers=editor).status_code == 200
    assert listed(client, 1, editor) == [2, 1, 5]


def test_caps_on_playlists_and_contents(app, client, owner):
    reconfigure(app, PLAYLIST_MAX_PER_ACCOUNT=2, PLAYLIST_MAX_CONTENTS=2)
    first = create(client, owner)
    create(client, owner)
    error = assert_error(client.post("/playlists/new", json={"title": "Третий"}, headers=owner), 422,
                         "too_many_playlists")
    assert error["details"]["limit"] == 2 and "2" in error["message"]
    add(client, owner, first, 1, 2)
    full = assert_error(client.post(f"/playlists/{first}/contents/5", headers=owner), 422, "playlist_full")
    assert full["details"] == {"limit": 2, "playlistId": first}
    assert client.post(f"/playlists/{first}/contents/2", headers=owner).get_json()["changed"] is False  # still fine
    client.post(f"/playlists/{first}/contents/1", json={"remove": True}, headers=owner)
    add(client, owner, first, 5)  # a place freed
    assert listed(client, first, owner) == [2, 5]


def test_writes_are_rate_limited_per_account(app, client, owner):
    reconfigure(app, RATE_LIMIT_PLAYLIST_WRITES="3 per minute")
    playlist_id = create(client, owner)
    add(client, owner, playlist_id, 1, 2)
    limited = assert_error(client.post(f"/playlists/{playlist_id}/contents/5", headers=owner), 429,
                           "too_many_requests")
    assert limited  # and the answer says when to come back
    assert int(client.post(f"/playlists/{playlist_id}", json={"title": "Новое"},
                           headers=owner).headers["Retry-After"]) > 0
    assert client.post(f"/playlists/{playlist_id}", headers=owner).status_code == 200  # a read is not a write
    assert client.post(f"/playlists/{playlist_id}/contents", headers=owner).status_code == 200
    other = viewer(app, "other@example.com")
    assert client.post("/playlists/new", json={"title": "Свой"}, headers=other).status_code == 201


def test_a_token_that_lapsed_is_refused_not_read_as_nobody(app, client, owner, clock):
    playlist_id = create(client, owner, visibility="public")
    clock.shift(timedelta(minutes=app.config["ACCESS_TOKEN_MINUTES"] + 1))
    assert_error(client.post(f"/playlists/{playlist_id}", headers=owner), 401, "token_expired")
    assert_error(client.post("/playlists/by-slug/luchshee-v-demo", headers=owner), 401, "token_expired")
    assert client.post(f"/playlists/{playlist_id}").status_code == 200  # without it: anyone's read
    assert_error(client.post(f"/playlists/{playlist_id}", headers={"Authorization": "Bearer x.y.z"}), 401,
                 "invalid_token")


def test_the_cookie_needs_its_csrf_header(app, client):
    make_account(app, "cookie@example.com")
    sign_in(client, "cookie@example.com")  # sets authToken and its csrf cookie on this client
    assert_error(client.post("/playlists/new", json={"title": "Без заголовка"}), 401, "csrf_failed")
    csrf = client.get_cookie("csrf_access_token").value
    response = client.post("/playlists/new", json={"title": "С заголовком"}, headers={"X-CSRF-TOKEN": csrf})
    assert response.status_code == 201 and response.get_json()["own"] is True


def test_a_blocked_account_whose_tokens_still_verify_cannot_write(app, client, owner):
    playlist_id = create(client, owner)
    with app.app_context(), transaction():
        account = db.session.scalar(db.select(Account).where(Account.email == "owner@example.com"))
        account.blocked_at = account.created_at  # blocked behind the rules' back: no session revoked
    assert_error(client.post("/playlists/new", json={"title": "x"}, headers=owner), 403, "account_blocked")
    assert_error(client.post(f"/playlists/{playlist_id}/contents/1", headers=owner), 403, "account_blocked")
    assert_error(client.delete(f"/playlists/{playlist_id}", headers=owner), 403, "account_blocked")


def test_reads_count_per_address_with_the_catalogues_list_reads(app, client, owner):
    playlist_id = create(client, owner, visibility="public")
    reconfigure(app, RATE_LIMIT_CATALOGUE_READS="3 per minute")
    assert client.post(f"/playlists/{playlist_id}").status_code == 200
    assert client.post(f"/playlists/{playlist_id}/contents").status_code == 200
    assert client.post("/playlists/by-slug/luchshee-v-demo").status_code == 200
    for path in (f"/playlists/{playlist_id}", f"/v2/playlists/{playlist_id}/contents", "/contents"):
        limited = client.post(path)
        assert_error(limited, 429, "too_many_requests")
        assert int(limited.headers["Retry-After"]) > 0
