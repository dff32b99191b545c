"""The audit trail read and used (issue 31): names instead of ids, Russian values, Moscow time; a revert of one change
or of an object to a point in its history, itself in the trail; refusals that change nothing (the object gone, a row
a value names gone, a field changed again since, a creation), and who may revert what."""

from __future__ import annotations

from collections.abc import Callable
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from app.extensions import db
from app.models import Account, AuditEntry, Content, ContentType, Genre, Role
from tests.admin.helpers import flashes, page, post_form
from tests.admin.test_content_editing import edit_form


@pytest.fixture
def editor(app: Flask, demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> FlaskClient:
    return signed_in(Role.EDITOR)


def edit(client: FlaskClient, content_id: int = 1, **fields: str | list[str]) -> None:
    form = edit_form(client, content_id)
    form.update(fields)
    response = client.post(f"/admin/content/edit/?id={content_id}", data=form)
    assert response.status_code == 302, flashes(response)


def entries(app: Flask, object_type: str = "contents", object_id: str = "1") -> list[AuditEntry]:
    with app.app_context():
        return list(db.session.scalars(db.select(AuditEntry).where(
            AuditEntry.object_type == object_type, AuditEntry.object_id == object_id).order_by(AuditEntry.id)))


def revert(client: FlaskClient, entry_id: int, whole: bool = False, history: str = "/admin/audit/object/contents/1"):
    data = {"whole": "1"} if whole else {}
    response = post_form(client, f"/admin/audit/revert/{entry_id}", data, form_url=history)
    assert response.status_code == 302
    return flashes(client.get(response.headers["Location"]))


def history_rows(client: FlaskClient, url: str = "/admin/audit/object/contents/1") -> list[str]:
    return [" ".join(row.text_content().split()) for row in page(client.get(url)).xpath("//tbody/tr")]


def title_of(app: Flask, content_id: int = 1) -> str:
    with app.app_context():
        return db.session.get(Content, content_id).title


def test_the_trail_names_rows_says_values_in_russian_and_moscow_time(app: Flask, editor: FlaskClient):
    with app.app_context():
        series = db.session.scalar(db.select(ContentType.id).where(ContentType.slug == "series"))
        drama = db.session.scalar(db.select(Genre.id).where(Genre.slug == "drama"))
    edit(editor, content_type=str(series), published="", age_rating="0", genres=[str(drama)])
    row = history_rows(editor)[0]
    assert "Тип: Фильм → Сериал" in row  # content_type_id 1 → 2, by name
    assert "Опубликован: да → нет" in row
    assert "Возрастная маркировка: 12+ → 0+" in row and "Жанры: Драма, Приключения → Драма" in row
    assert "content_type_id" not in row and "True" not in row and "False" not in row
    entry = entries(app)[-1]
    at = entry.at.astimezone(ZoneInfo("Europe/Moscow")).strftime("%d.%m.%Y %H:%M")
    assert row.startswith(at), (row, at)
    listing = " ".join(page(editor.get("/admin/audit/")).xpath("//table[contains(@class, 'model-list')]")[0]
                       .text_content().split())
    assert "Тип: Фильм → Сериал" in listing and "изменён" in listing and "Фильм или сериал" in listing


def test_a_change_is_reverted_and_the_revert_is_in_the_trail(app: Flask, editor: FlaskClient):
    edit(editor, title="Дорога: черновик названия")
    change = entries(app)[-1]
    assert revert(editor, change.id) == ["Изменение откачено."]
    assert title_of(app) == "Долгая дорога домой"
    last = entries(app)[-1]
    assert last.id != change.id and last.account_label.endswith("<editor@example.com>")
    assert last.changes["title"] == ["Дорога: черновик названия", "Долгая дорога домой"]
    assert "title_sort" not in change.changes and "title_sort" not in last.changes  # derived: the title says it
    with app.app_context():
        assert db.session.scalar(select(Content.title_sort).where(Content.id == 1)) == "долгая дорога домой"
    assert f"Это откат изменения №{change.id} журнала." in history_rows(editor)[0]


def test_a_change_whose_fields_changed_again_is_not_reverted(app: Flask, editor: FlaskClient):
    edit(editor, title="Второе название")
    first = entries(app)[-1]
    edit(editor, title="Третье название")
    said = revert(editor, first.id)
    assert said == ["С тех пор эти поля менялись ещё раз: «Название». Верните объект к нужной точке истории."]
    assert title_of(app) == "Третье название"


def test_an_object_is_brought_back_to_a_point_in_its_history(app: Flask, editor: FlaskClient):
    edit(editor, title="Точка А")
    point = entries(app)[-1]
    edit(editor, year="1999", description="Позже переписанное.")
    edit(editor, title="Точка В")
    assert revert(editor, point.id, whole=True) == ["Возвращено к состоянию после этой записи."]
    with app.app_context():
        content = db.session.get(Content, 1)
        assert (content.title, content.year) == ("Точка А", 2021)
        assert content.description != "Позже переписанное."
    last = entries(app)[-1]
    assert last.changes["__revert"] == [None, {"entry": point.id, "whole": True}]
    assert "Это возврат к состоянию после записи" in history_rows(editor)[0]


def test_a_many_to_many_change_is_reverted_by_names(app: Flask, editor: FlaskClient):
    with app.app_context():
        before = sorted(genre.slug for genre in db.session.get(Content, 1).genres)
        comedy = db.session.scalar(db.select(Genre.id).where(Genre.slug == "comedy"))
    edit(editor, genres=[str(comedy)])
    revert(editor, entries(app)[-1].id)
    with app.app_context():
        assert sorted(genre.slug for genre in db.session.get(Content, 1).genres) == before


def test_a_revert_naming_a_row_gone_is_refused_and_changes_nothing(app: Flask, editor: FlaskClient):
    assert post_form(editor, "/admin/content_type/new/", {"title": "Клипы", "slug": "clips", "position": "5"}
                     ).status_code == 302
    with app.app_context():
        clips = db.session.scalar(db.select(ContentType.id).where(ContentType.slug == "clips"))
        film = db.session.scalar(db.select(ContentType.id).where(ContentType.slug == "film"))
    edit(editor, content_type=str(clips))
    edit(editor, content_type=str(film), title="Снова фильм")
    back_to_film = entries(app)[-1]
    with app.app_context():
        db.session.delete(db.session.get(ContentType, clips))
        db.session.commit()
    assert f"Тип: №{clips} (удалён) → Фильм" in history_rows(editor)[0]
    said = revert(editor, back_to_film.id)
    assert said == [f"Поле «Тип»: «№{clips}» больше нет, откатить нельзя."]
    assert title_of(app) == "Снова фильм"  # the title was not reverted alone either
    assert entries(app)[-1].id == back_to_film.id  # nothing recorded


def test_a_revert_of_an_object_gone_or_of_a_creation_is_refused(app: Flask, editor: FlaskClient):
    assert post_form(editor, "/admin/genre/new/", {"title": "Нуар", "slug": "noir"}).status_code == 302
    with app.app_context():
        noir = db.session.scalar(db.select(Genre.id).where(Genre.slug == "noir"))
    made = entries(app, "genres", str(noir))[0]
    history = f"/admin/audit/object/genres/{noir}"
    assert revert(editor, made.id, history=history) == [
        "Откатить можно изменение. Созданную запись удалите на её странице, удалённую создайте заново."]
    assert post_form(editor, f"/admin/genre/edit/?id={noir}", {"title": "Неонуар", "slug": "noir"}).status_code == 302
    renamed = entries(app, "genres", str(noir))[-1]
    assert post_form(editor, "/admin/genre/delete/", {"id": str(noir)}, form_url="/admin/genre/").status_code == 302
    assert page(editor.get(history)).xpath("//button[contains(@class, 'editorial-revert')]") == []
    assert revert(editor, renamed.id, history=history) == ["Этого объекта больше нет: откатывать нечего."]


def test_who_may_revert(app: Flask, editor: FlaskClient, accounts: dict[Role, int],
                        signed_in: Callable[[Role], FlaskClient]):
    admin = signed_in(Role.ADMIN)
    viewer_id = accounts[Role.VIEWER]
    response = post_form(admin, f"/admin/account/edit/?id={viewer_id}", {"name": "Зритель Новый", "role": "viewer"})
    assert response.status_code == 302, flashes(response)
    renamed = entries(app, "accounts", str(viewer_id))[-1]
    refused = editor.post(f"/admin/audit/revert/{renamed.id}",
                          data={"csrf_token": page(editor.get("/admin/audit/")).xpath(
                              "//input[@name='csrf_token']/@value")[0]})
    assert refused.status_code == 403
    said = revert(admin, renamed.id, history=f"/admin/audit/object/accounts/{viewer_id}")
    assert said == ["Эти записи здесь не откатываются: измените их на их странице."]
    with app.app_context():
        assert db.session.get(Account, viewer_id).name == "Зритель Новый"
    edit(editor, title="Без токена не откатить")
    assert editor.post(f"/admin/audit/revert/{entries(app)[-1].id}").status_code == 302
    assert title_of(app) == "Без токена не откатить"
    assert app.test_client().post(f"/admin/audit/revert/{entries(app)[-1].id}").status_code == 302  # to sign in
    assert title_of(app) == "Без токена не откатить"
