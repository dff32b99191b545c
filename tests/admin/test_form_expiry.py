"""A form left open longer than its CSRF token lives (issue 31, defect 6): the save is refused saying what happened, in
Russian, once; everything typed comes back, the rows added on the page too; the form carries a fresh token, and the
next save goes through."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import time_machine
from flask import Flask
from flask.testing import FlaskClient

from app.extensions import db
from app.models import Content, Role
from tests.admin.helpers import flashes, page
from tests.admin.test_content_editing import content_titled, edit_form, series_form

EXPIRED = ("Форма была открыта дольше 30 минут, и её защитный код устарел: ничего не сохранено. Всё введённое "
           "осталось на странице: проверьте и отправьте её ещё раз.")


@pytest.fixture
def editor(app: Flask, demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> FlaskClient:
    return signed_in(Role.EDITOR)


def fields_of(response: object) -> dict[str, str]:
    form = page(response)  # type: ignore[arg-type]
    return {str(field.get("name")): field.get("value") or "" for field in form.xpath(
        "//form[contains(@class, 'admin-form')]//input[@name and not(@type='checkbox')]")}


def test_an_expired_edit_form_says_so_keeps_everything_and_saves_next_time(
        app: Flask, editor: FlaskClient, clock: time_machine.Traveller):
    form = edit_form(editor, 2)
    form["title"] = "Тихая гавань, правка после обеда"
    form["seasons-0-episodes-0-title"] = "Переименованная серия"
    form["availability_rules-0-kind"] = "block_country"  # a rule added on the page
    form["availability_rules-0-value"] = "de"
    clock.shift(31 * 60)
    refused = editor.post("/admin/content/edit/?id=2", data=form)
    assert refused.status_code == 200
    assert flashes(refused) == [EXPIRED]  # and not "correct the fields marked in red"
    kept = fields_of(refused)
    assert kept["title"] == "Тихая гавань, правка после обеда"
    assert kept["seasons-0-episodes-0-title"] == "Переименованная серия"
    assert kept["availability_rules-0-value"] == "de"
    assert kept["csrf_token"] != form["csrf_token"]
    with app.app_context():
        assert db.session.get(Content, 2).title == "Тихая гавань"
    again = editor.post("/admin/content/edit/?id=2", data={**form, "csrf_token": kept["csrf_token"]})
    assert again.status_code == 302, flashes(again)
    with app.app_context():
        content = db.session.get(Content, 2)
        assert content.title == "Тихая гавань, правка после обеда"
        assert [(rule.kind.value, rule.value) for rule in content.availability_rules] == [("block_country", "de")]


def test_an_expired_new_form_keeps_its_new_rows(app: Flask, editor: FlaskClient, clock: time_machine.Traveller):
    token = page(editor.get("/admin/content/new/")).xpath("//input[@name='csrf_token']/@value")[0]
    clock.shift(45 * 60)
    refused = editor.post("/admin/content/new/", data={**series_form(app, title="Долгий черновик"),
                                                      "csrf_token": token})
    assert flashes(refused) == [EXPIRED]
    kept = fields_of(refused)
    assert kept["seasons-1-episodes-0-title"] == "Возвращение" and kept["seasons-0-episodes-1-title"] == "Буря"
    assert content_titled(app, "Долгий черновик") is None
    saved = editor.post("/admin/content/new/", data={**series_form(app, title="Долгий черновик"),
                                                    "csrf_token": kept["csrf_token"]})
    assert saved.status_code == 302, flashes(saved)
    assert content_titled(app, "Долгий черновик") is not None


def test_a_bulk_action_with_an_expired_token_says_so(app: Flask, editor: FlaskClient,
                                                     clock: time_machine.Traveller):
    token = page(editor.get("/admin/content/")).xpath("//form[@id='action_form']//input[@name='csrf_token']/@value")[0]
    clock.shift(31 * 60)
    response = editor.post("/admin/content/action/", data={"action": "unpublish", "rowid": "2", "csrf_token": token})
    said = flashes(editor.get(response.headers["Location"]))
    assert EXPIRED in said and not [line for line in said if "Не удалось" in line]
    with app.app_context():
        assert db.session.get(Content, 2).published


def test_a_form_without_a_token_says_so(app: Flask, editor: FlaskClient):
    response = editor.post("/admin/genre/new/", data={"title": "Жанр", "slug": "zhanr"})
    assert [said[:48] for said in flashes(response)] == ["Форма пришла без действующего защитного кода (на"]


def test_a_value_edited_in_a_list_without_a_token_is_refused_saying_why(app: Flask, editor: FlaskClient):
    response = editor.post("/admin/content/ajax/update/", data={"list_form_pk": "2", "position": "7"})
    assert response.status_code == 422
    assert "Форма пришла без действующего защитного кода" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Content, 2).position != 7
