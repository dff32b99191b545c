"""A content's other names in the admin (issue 34; app/admin/titles.py): an editor adds, edits and removes them on the
content's page, the trail records each change in Russian, the API and search see them at once; a title that is
empty, too long, the content's own or given twice, and a language that is no code, are refused in Russian, with
nothing saved."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.extensions import db
from app.models import AlternativeTitle, AuditEntry, Role
from tests.admin.helpers import field_errors, flashes, page, post_form
from tests.admin.test_content_editing import edit_form

FILM = 4  # the demo's «Потерянная плёнка», with no alternative title


@pytest.fixture
def editor(app: Flask, demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> FlaskClient:
    return signed_in(Role.EDITOR)


def saved(app: Flask, content_id: int = FILM) -> list[tuple[str, str | None, str, int]]:
    with app.app_context():
        return [(row.title, row.language, row.kind.value, row.position) for row in db.session.scalars(
            db.select(AlternativeTitle).where(AlternativeTitle.content_id == content_id)
            .order_by(AlternativeTitle.position, AlternativeTitle.id))]


def found(app: Flask, query: str) -> list[str]:
    answer = app.test_client().post("/v2/contents/search", json={"query": query})
    assert answer.status_code == 200
    return [item["title"] for item in answer.get_json()["items"]]


def shown(app: Flask, content_id: int = FILM) -> list[dict[str, Any]]:
    answer = app.test_client().get(f"/contents/{content_id}")
    assert answer.status_code == 200
    return list(answer.get_json()["alternativeTitles"])


def history(editor: FlaskClient, row_id: str) -> str:
    response = editor.get(f"/admin/audit/object/alternative_titles/{row_id}")
    assert response.status_code == 200
    return " ".join(page(response).xpath("//table")[0].text_content().split())


def with_titles(form: dict[str, Any], *rows: tuple[str, str, str]) -> dict[str, Any]:
    """The form with new alternative titles after those it has: (title, language, kind)."""
    start = sum(1 for name in form if name.startswith("alternative_titles-") and name.endswith("-title"))
    for offset, (title, language, kind) in enumerate(rows):
        prefix = f"alternative_titles-{start + offset}-"
        form.update({f"{prefix}title": title, f"{prefix}language": language, f"{prefix}kind": kind,
                     f"{prefix}position": ""})
    return form


def test_the_form_offers_the_kinds_in_russian(editor: FlaskClient):
    edit = page(editor.get("/admin/content/edit/?id=1"))
    assert edit.xpath("//input[@name='alternative_titles-0-title']/@value") == ["The Long Road Home"]
    assert edit.xpath("//select[@name='alternative_titles-1-kind']/option[@selected]/text()") == ["Прежнее"]
    assert edit.xpath("//select[@name='alternative_titles-0-kind']/option/text()") == [
        "Международное", "Оригинальное", "Прежнее", "Частая ошибка", "Другое"]
    assert "+ Другое название" in edit.xpath("//a[@data-inline-add='alternative_titles']/text()")


def test_an_editor_adds_edits_and_removes_an_alternative_title(app: Flask, editor: FlaskClient):
    assert found(app, "the lost film") == []
    form = with_titles(edit_form(editor, FILM), ("The Lost Film", " EN ", "international"),
                       ("Потеряная пленка", "", "misspelling"))
    response = editor.post(f"/admin/content/edit/?id={FILM}", data=form)
    assert response.status_code == 302, flashes(response)
    assert saved(app) == [("The Lost Film", "en", "international", 0), ("Потеряная пленка", None, "misspelling", 1)]
    assert shown(app) == [{"title": "The Lost Film", "language": "en", "kind": "international"}]  # no misspelling
    assert found(app, "the lost film") == ["Потерянная плёнка"]  # reindexed by the save
    with app.app_context():
        added = db.session.scalars(db.select(AuditEntry).where(AuditEntry.object_type == "alternative_titles")
                                   .order_by(AuditEntry.id)).all()
        assert [(entry.action.value, entry.changes["title"][1]) for entry in added] == [
            ("create", "The Lost Film"), ("create", "Потеряная пленка")]
        first_id = added[0].object_id
    assert "Язык: — → en" in history(editor, first_id) and "Какое это название: — → Международное" in history(
        editor, first_id)

    form = edit_form(editor, FILM)
    form.update({"alternative_titles-0-title": "The Lost Reel Found", "alternative_titles-0-kind": "former"})
    response = editor.post(f"/admin/content/edit/?id={FILM}", data=form)
    assert response.status_code == 302, flashes(response)
    assert saved(app)[0] == ("The Lost Reel Found", "en", "former", 0)
    assert found(app, "found") == ["Потерянная плёнка"] and found(app, "the lost film") == []
    said = history(editor, first_id)
    assert "Название: The Lost Film → The Lost Reel Found" in said
    assert "Какое это название: Международное → Прежнее" in said and "editor <editor@example.com>" in said

    form = edit_form(editor, FILM)
    form["del-alternative_titles-0"] = "y"
    response = editor.post(f"/admin/content/edit/?id={FILM}", data=form)
    assert response.status_code == 302, flashes(response)
    assert saved(app) == [("Потеряная пленка", None, "misspelling", 1)] and shown(app) == []
    assert found(app, "found") == []
    assert "удалён" in history(editor, first_id)


@pytest.mark.parametrize(("row", "field", "message"), [
    (("   ", "en", "international"), "title", "Другое название не может быть пустым: впишите его или удалите строку."),
    (("Я" * 256, "", "other"), "title", "Другое название длиннее 255 знаков."),
    (("The Lost Film", "english", "international"), "language",
     "Язык названия: код из двух-трёх латинских букв (en, ko, fr) или пусто."),
])
def test_a_bad_field_is_refused_under_it(app: Flask, editor: FlaskClient, row: tuple[str, str, str], field: str,
                                         message: str):
    response = editor.post(f"/admin/content/edit/?id={FILM}", data=with_titles(edit_form(editor, FILM), row))
    assert response.status_code == 200
    assert field_errors(response, f"alternative_titles-0-{field}") == [message]
    assert saved(app) == []
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(AuditEntry)) == 0


@pytest.mark.parametrize(("rows", "message"), [
    ((("потерянная  ПЛЕНКА", "", "misspelling"),),
     "Другое название «потерянная ПЛЕНКА» совпадает с названием фильма или сериала."),
    ((("The Lost Film", "en", "international"), ("the lost film", "", "other")),
     "Другое название «the lost film» указано дважды."),
])
def test_a_repeat_is_refused_and_what_was_typed_stays(app: Flask, editor: FlaskClient,
                                                      rows: tuple[tuple[str, str, str], ...], message: str):
    response = editor.post(f"/admin/content/edit/?id={FILM}", data=with_titles(edit_form(editor, FILM), *rows))
    assert response.status_code == 200
    assert message in flashes(response)
    typed = " ".join(rows[0][0].split())  # as the form read it
    assert page(response).xpath("//input[@name='alternative_titles-0-title']/@value") == [typed]
    assert saved(app) == []


def test_the_content_renamed_to_one_of_its_alternative_titles_is_refused(app: Flask, editor: FlaskClient):
    form = edit_form(editor, 1)
    form["title"] = "Северная трасса"
    response = editor.post("/admin/content/edit/?id=1", data=form)
    assert response.status_code == 200
    assert "Другое название «Северная трасса» совпадает с названием фильма или сериала." in flashes(response)
    assert app.test_client().get("/contents/1").get_json()["title"] == "Долгая дорога домой"


def test_a_reverted_change_is_searched_at_once(app: Flask, editor: FlaskClient):
    form = with_titles(edit_form(editor, FILM), ("The Lost Film", "en", "international"))
    assert editor.post(f"/admin/content/edit/?id={FILM}", data=form).status_code == 302
    form = edit_form(editor, FILM)
    form["alternative_titles-0-title"] = "Reel Gone"
    assert editor.post(f"/admin/content/edit/?id={FILM}", data=form).status_code == 302
    assert found(app, "the lost film") == []
    with app.app_context():
        change = db.session.scalars(db.select(AuditEntry).where(
            AuditEntry.object_type == "alternative_titles", AuditEntry.action == "update")).one()
    response = post_form(editor, f"/admin/audit/revert/{change.id}", {},
                         form_url=f"/admin/audit/object/alternative_titles/{change.object_id}")
    assert response.status_code == 302
    assert flashes(editor.get(response.headers["Location"])) == ["Изменение откачено."]
    assert found(app, "the lost film") == ["Потерянная плёнка"] and found(app, "reel gone") == []
    assert shown(app) == [{"title": "The Lost Film", "language": "en", "kind": "international"}]


def test_titles_swapped_or_removed_and_typed_again_are_saved(app: Flask, editor: FlaskClient):
    """The database checks (content, title) row by row: two titles swapped, or one removed and typed again in the
    same save, are what the editor meant, not a repeat."""
    form = edit_form(editor, 1)
    for field in ("title", "language", "kind"):
        first, second = f"alternative_titles-0-{field}", f"alternative_titles-1-{field}"
        form[first], form[second] = form[second], form[first]
    response = editor.post("/admin/content/edit/?id=1", data=form)
    assert response.status_code == 302, flashes(response)
    assert saved(app, 1) == [("Северная трасса", "ru", "former", 0), ("The Long Road Home", "en", "international", 1)]
    with app.app_context():
        renamed = db.session.scalars(db.select(AuditEntry).where(AuditEntry.object_type == "alternative_titles")
                                     .order_by(AuditEntry.object_id)).all()
        assert sorted(entry.changes["title"][1] for entry in renamed) == ["The Long Road Home", "Северная трасса"]
        assert all("\x01" not in str(entry.changes) for entry in renamed)  # the move aside is not a change
    form = with_titles(edit_form(editor, 1), ("Северная трасса", "ru", "former"))
    form["del-alternative_titles-0"] = "y"
    response = editor.post("/admin/content/edit/?id=1", data=form)
    assert response.status_code == 302, flashes(response)
    assert saved(app, 1) == [("The Long Road Home", "en", "international", 1), ("Северная трасса", "ru", "former", 1)]
