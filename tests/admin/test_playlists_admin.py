"""The editors' playlists in the admin (app/admin/playlists.py): an editor makes one with its contents in order and
publishes it, the API shows it by its slug, every change is in the audit trail; viewers' own playlists are not the
admin's to list or open."""

from __future__ import annotations

from flask import Flask

from app.extensions import db
from app.models import AuditEntry, Playlist, Role
from tests.admin.helpers import field_errors, flashes, page, post_form
from tests.api.playlists_helpers import create, viewer

NEW = "/admin/playlist/new/"


def form(**fields: str) -> dict[str, str]:
    return {"title": "Сериалы на вечер", "slug": "serialy-na-vecher", "description": "Подборка редакции",
            "published": "y", "items-0-content": "5", "items-0-position": "2", "items-1-content": "2",
            "items-1-position": "1", **fields}


def test_an_editor_makes_a_playlist_the_api_shows_in_its_order(app: Flask, demo_catalogue, signed_in):
    editor = signed_in(Role.EDITOR)
    response = post_form(editor, NEW, form())
    assert response.status_code == 302, flashes(response)
    api = app.test_client()
    shown = api.post("/playlists/by-slug/serialy-na-vecher").get_json()
    assert (shown["title"], shown["editorial"], shown["visibility"], shown["contentsCount"]) == (
        "Сериалы на вечер", True, "public", 2)
    cards = api.post(f"/playlists/{shown['id']}/contents").get_json()["items"]
    assert [card["id"] for card in cards] == [2, 5]  # by position
    with app.app_context():
        logged = set(db.session.scalars(db.select(AuditEntry.object_type).where(AuditEntry.action == "create")))
    assert {"playlists", "playlist_items"} <= logged
    history = editor.get(f"/admin/audit/object/playlists/{shown['id']}")
    assert history.status_code == 200 and "Сериалы на вечер" in history.get_data(as_text=True)  # editors read it


def test_an_unpublished_playlist_is_a_preview(app: Flask, demo_catalogue, signed_in):
    editor = signed_in(Role.EDITOR)
    assert post_form(editor, NEW, form(published="")).status_code == 302
    assert app.test_client().post("/playlists/by-slug/serialy-na-vecher").status_code == 404
    with app.app_context():
        playlist = db.session.scalar(db.select(Playlist).where(Playlist.slug == "serialy-na-vecher"))
        assert (playlist.published, playlist.visibility.value, playlist.account_id) == (False, "private", None)


def test_the_form_refuses_a_bad_slug_a_blank_title_and_a_content_twice(app: Flask, demo_catalogue, signed_in):
    editor = signed_in(Role.EDITOR)
    for fields in ({"slug": "Не слаг"}, {"slug": ""}, {"title": "  "}, {"items-1-content": "5"}):
        response = post_form(editor, NEW, form(**fields), form_url=NEW)
        assert response.status_code == 200, fields  # the form again, with what was typed
        shown = " ".join(flashes(response) + field_errors(response, "title") + field_errors(response, "slug"))
        assert shown, fields
    assert post_form(editor, NEW, form()).status_code == 302
    taken = post_form(editor, NEW, form(title="Другая"))
    assert taken.status_code == 200 and field_errors(taken, "slug")  # taken
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Playlist)) == 2  # the demo's and one


def test_viewers_playlists_are_not_the_admins(app: Flask, demo_catalogue, signed_in):
    owner = viewer(app, "owner@example.com")
    private = create(app.test_client(), owner, "Мой личный список")
    admin = signed_in(Role.ADMIN)
    listing = admin.get("/admin/playlist/")
    assert listing.status_code == 200
    text = page(listing).text_content()
    assert "Лучшее в демо" in text and "Мой личный список" not in text
    assert admin.get(f"/admin/playlist/edit/?id={private}").status_code == 302  # no such row here
    assert admin.get("/admin/playlist/?search=личный").status_code == 200
    assert "Мой личный список" not in page(admin.get("/admin/playlist/?search=личный")).text_content()
