"""Editing the catalogue in the admin: a series with its seasons and episodes on one page, what the API and the player
show at once, the audit trail of each change, clear refusals that keep what the editor typed, text shown escaped."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.extensions import db
from app.models import AuditEntry, Content, ContentType, Role, Tag
from tests.admin.helpers import flashes, page, post_form


def series_form(app: Flask, title: str = "Северный ветер", **fields: Any) -> dict[str, Any]:
    """The new-content form as an editor fills it: two seasons, the first with two episodes, the second with one."""
    with app.app_context():
        series = db.session.scalar(db.select(ContentType.id).where(ContentType.slug == "series"))
    form = {"title": title, "original_title": "North Wind", "slug": "", "content_type": str(series),
            "published": "y", "position": "0", "description": "Маяк и шторм.", "year": "2024", "age_rating": "16",
            "seasons-0-order": "1", "seasons-0-title": "Сезон 1",
            "seasons-0-episodes-0-order": "1", "seasons-0-episodes-0-title": "Начало",
            "seasons-0-episodes-0-duration": "60", "seasons-0-episodes-0-master_file_path": "",
            "seasons-0-episodes-1-order": "2", "seasons-0-episodes-1-title": "Буря",
            "seasons-1-order": "2", "seasons-1-title": "Сезон 2",
            "seasons-1-episodes-0-order": "1", "seasons-1-episodes-0-title": "Возвращение"}
    return {**form, **fields}


def create(client: FlaskClient, form: dict[str, Any]) -> Any:
    return post_form(client, "/admin/content/new/", form)


def content_titled(app: Flask, title: str) -> Content | None:
    with app.app_context():
        content = db.session.scalar(db.select(Content).where(Content.title == title))
        if content is not None:
            _ = [(season.order, [(e.order, e.title, e.content_id) for e in season.episodes])
                 for season in content.seasons]
        return content


def edit_form(client: FlaskClient, content_id: int) -> dict[str, Any]:
    """The edit form of the content as the browser would send it untouched (its token included)."""
    edit = page(client.get(f"/admin/content/edit/?id={content_id}"))
    form: dict[str, Any] = {field.get("name"): field.get("value") or "" for field in edit.xpath(
        "//form[contains(@class, 'admin-form')]//input[@name and not(@type='checkbox')]")}
    form.update({name: "y" for name in edit.xpath(
        "//form[contains(@class, 'admin-form')]//input[@type='checkbox' and @checked]/@name")})
    for select in edit.xpath("//form[contains(@class, 'admin-form')]//select[@name]"):
        chosen = select.xpath(".//option[@selected]/@value")
        if chosen:
            form[select.get("name")] = chosen if select.get("multiple") is not None else chosen[0]
    for area in edit.xpath("//form[contains(@class, 'admin-form')]//textarea[@name]"):
        form[area.get("name")] = (area.text or "").removeprefix("\n")  # as a browser reads a textarea
    return form


@pytest.fixture
def editor(app: Flask, demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> FlaskClient:
    return signed_in(Role.EDITOR)


def test_a_series_with_seasons_and_episodes_is_made_on_one_page(app: Flask, editor: FlaskClient):
    response = create(editor, series_form(app))
    assert response.status_code == 302, flashes(response)
    with app.app_context():
        content = db.session.scalar(db.select(Content).where(Content.title == "Северный ветер"))
        assert content is not None and content.slug.startswith("severnyy-veter-")
        assert content.has_multiple_episodes and content.age_rating == 16
        seasons = [(s.order, s.title, [(e.order, e.title, e.content_id) for e in s.episodes])
                   for s in content.seasons]
        assert seasons == [(1, "Сезон 1", [(1, "Начало", content.id), (2, "Буря", content.id)]),
                           (2, "Сезон 2", [(1, "Возвращение", content.id)])]
        created = db.session.scalars(db.select(AuditEntry.object_type).where(AuditEntry.action == "create")).all()
        assert sorted(created) == ["contents", "episodes", "episodes", "episodes", "seasons", "seasons"]


def test_an_edit_shows_in_the_api_and_on_the_player_page_at_once(app: Flask, editor: FlaskClient):
    assert "Тихая гавань" in app.test_client().get("/?movie_id=2").get_data(as_text=True)  # the page, kept
    before = app.test_client().get("/contents/2")
    assert before.status_code == 200 and before.get_json()["title"] == "Тихая гавань"
    assert app.test_client().get("/contents/2").headers.get("Cache-Control", "").startswith("public")
    form = edit_form(editor, 2)
    form["title"] = "Тихая гавань: новая редакция"
    response = editor.post("/admin/content/edit/?id=2", data=form)
    assert response.status_code == 302, flashes(response)
    assert app.test_client().get("/contents/2").get_json()["title"] == "Тихая гавань: новая редакция"
    assert "Тихая гавань: новая редакция" in app.test_client().get("/?movie_id=2").get_data(as_text=True)
    history = editor.get("/admin/audit/object/contents/2")
    assert history.status_code == 200
    text = " ".join(page(history).xpath("//table")[0].text_content().split())
    assert "изменён Название: Тихая гавань → Тихая гавань: новая редакция" in text  # that field alone
    assert "editor <editor@example.com>" in text


@pytest.mark.parametrize(("fields", "message"), [
    ({"seasons-0-episodes-1-order": "1"}, "Номер серии 1 повторяется в сезоне «Сезон 1»."),
    ({"seasons-1-order": "1"}, "Номер сезона 1 повторяется."),
    ({"slug": "tikhaya-gavan"}, "Уже существует."),  # under the slug field
])
def test_a_refused_form_says_why_and_keeps_what_was_typed(app: Flask, editor: FlaskClient, fields: dict[str, str],
                                                          message: str):
    response = create(editor, series_form(app, title="Черновик редактора", description="Долго писал.", **fields))
    assert response.status_code == 200
    said = flashes(response) + [" ".join(text.split()) for text in page(response).xpath(
        "//*[contains(@class, 'help-block') or contains(@class, 'invalid-feedback')]//text()") if text.strip()]
    assert message in said, said
    form = page(response)
    assert form.xpath("//input[@name='title']/@value") == ["Черновик редактора"]
    assert [text.strip() for text in form.xpath("//textarea[@name='description']/text()")] == ["Долго писал."]
    assert form.xpath("//input[@name='seasons-1-episodes-0-title']/@value") == ["Возвращение"]
    assert content_titled(app, "Черновик редактора") is None
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(AuditEntry)) == 0


HOSTILE = """<script>alert("x")</script> O'Brien & "Co" <b>"""


def test_hostile_text_is_shown_escaped_in_the_admin_the_api_and_the_player(app: Flask, editor: FlaskClient):
    assert post_form(editor, "/admin/tag/new/", {"title": HOSTILE, "slug": "hostile"}).status_code == 302
    with app.app_context():
        tag_id = db.session.scalar(db.select(Tag.id).where(Tag.slug == "hostile"))
    response = create(editor, series_form(app, title=HOSTILE, description=HOSTILE, tags=str(tag_id)))
    assert response.status_code == 302, flashes(response)
    content = content_titled(app, HOSTILE)
    assert content is not None
    listing = editor.get("/admin/content/?search=Brien").get_data(as_text=True)
    edit = editor.get(f"/admin/content/edit/?id={content.id}").get_data(as_text=True)
    player = app.test_client().get(f"/?movie_id={content.id}").get_data(as_text=True)
    history = editor.get(f"/admin/audit/object/contents/{content.id}").get_data(as_text=True)
    tags = editor.get("/admin/tag/").get_data(as_text=True)
    for html in (listing, edit, player, history, tags):
        assert '<script>alert("x")' not in html and "<b>\"" not in html
        assert "&lt;script&gt;alert(" in html
    answer = app.test_client().get(f"/contents/{content.id}").get_json()
    assert answer["title"] == HOSTILE and {"slug": "hostile", "title": HOSTILE} in answer["tags"]


def test_bulk_publish_and_unpublish_record_each_content(app: Flask, editor: FlaskClient):
    response = post_form(editor, "/admin/content/action/", {"action": "unpublish", "rowid": ["2", "3"]},
                         form_url="/admin/content/")
    assert response.status_code == 302
    assert "Снято с публикации: 2." in flashes(editor.get("/admin/content/"))
    assert app.test_client().get("/contents/2").status_code == 404
    with app.app_context():
        entries = db.session.execute(db.select(AuditEntry.object_id, AuditEntry.changes)
                                     .where(AuditEntry.action == "update")).all()
        assert sorted((object_id, changes["published"]) for object_id, changes in entries) == [
            ("2", [True, False]), ("3", [True, False])]
    post_form(editor, "/admin/content/action/", {"action": "publish", "rowid": ["2"]}, form_url="/admin/content/")
    assert app.test_client().get("/contents/2").status_code == 200
