"""What the admin does with input no form would send (issue 30, hole 10): a page number out of range shows the first or
the last page, a filter value that does not fit is ignored with a message, an id that names no row says the record
does not exist, and a control character (NUL first: PostgreSQL refuses it) in any field of any admin form is refused
on that field in Russian, the form kept as typed. Never a 500, never "the database is unavailable"."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import lxml.html
import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_admin.contrib.sqla import ModelView
from sqlalchemy import insert

from app.admin.base import NO_SUCH_ROWS, SAVE_FAILED
from app.admin.forms import CONTROL_REFUSED
from app.extensions import db
from app.models import Role, Tag
from app.transaction import transaction
from tests.admin.conftest import EMAILS
from tests.admin.helpers import csrf_of, field_errors, flashes, page
from tests.admin.test_content_editing import edit_form, series_form

HUGE = "9" * 30


def model_views(app: Flask) -> list[ModelView]:
    return [view for view in app.extensions["admin"][0]._views if isinstance(view, ModelView)]


@pytest.fixture
def admin(app: Flask, demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> Iterator[FlaskClient]:
    yield signed_in(Role.ADMIN)


def rows_of(response: Any) -> list[str]:
    assert response.status_code == 200, response.status_code
    rows = page(response).xpath("//table[contains(@class, 'model-list')]//tr[td]")
    return [" ".join(row.text_content().split()) for row in rows]


def test_a_page_out_of_range_shows_the_first_or_the_last(app: Flask, admin: FlaskClient):
    with app.app_context(), transaction():
        db.session.execute(insert(Tag), [{"title": f"Метка {n:03}", "slug": f"metka-{n:03}"} for n in range(120)])
    first, last = rows_of(admin.get("/admin/tag/")), rows_of(admin.get("/admin/tag/?page=2"))
    assert len(first) == 50 and 0 < len(last) < 50
    assert rows_of(admin.get("/admin/tag/?page=-1")) == first
    assert rows_of(admin.get(f"/admin/tag/?page=-{HUGE}")) == first
    assert rows_of(admin.get("/admin/tag/?page=3")) == last
    assert rows_of(admin.get(f"/admin/tag/?page={HUGE}")) == last
    pager = page(admin.get(f"/admin/tag/?page={HUGE}")).xpath(
        "//ul[contains(@class, 'pagination')]/li[contains(@class, 'active')]/a/text()")
    assert pager == ["3"]  # the pager says where the editor is


@pytest.mark.parametrize("number", ["-1", f"-{HUGE}", HUGE, "abc"])
def test_every_list_takes_any_page_number(app: Flask, admin: FlaskClient, number: str):
    for view in model_views(app):
        response = admin.get(f"{view.url}/?page={number}")
        assert response.status_code == 200, (view.url, response.status_code)


BAD_VALUES = ("zzz", HUGE, f"-{HUGE}", "1.5", "2020-01-01 00:00:00 to 2020-13-45")


def test_every_filter_takes_any_value(app: Flask, admin: FlaskClient):
    """Ignored (with a message) or applied: never a server error."""
    tried = 0
    for view in model_views(app):
        for key in (view._filter_args or {}):
            for value in BAD_VALUES:
                response = admin.get(f"{view.url}/", query_string={f"flt0_{key}": value})
                assert response.status_code == 200, (view.url, key, value, response.status_code)
                tried += 1
    assert tried > 100


def test_a_bad_filter_value_in_the_trail_is_ignored_with_a_message(app: Flask, admin: FlaskClient):
    [view] = [view for view in model_views(app) if view.endpoint == "audit"]
    action = next(key for key, (_, flt) in (view._filter_args or {}).items() if flt.column.key == "action")
    response = admin.get("/admin/audit/", query_string={f"flt0_{action}": "zzz"})
    assert response.status_code == 200
    assert "Фильтр «Действие»: значение «zzz» не подходит, он не применён." in flashes(response)


@pytest.mark.parametrize("row_id", ["abc", "-1", HUGE, "1.5", "2,3"])
def test_an_id_that_names_no_row_is_said_so(app: Flask, admin: FlaskClient, row_id: str):
    for view in model_views(app):
        for action in ("edit", "details"):
            response = admin.get(f"{view.url}/{action}/", query_string={"id": row_id})
            assert response.status_code == 302, (view.url, action, row_id, response.status_code)
    assert "Запись не существует." in flashes(admin.get("/admin/content/edit/?id=abc", follow_redirects=True))


@pytest.mark.parametrize("object_id", ["\x00", "2\x01", "x" * 300])
def test_a_history_address_with_a_control_character_is_not_found(admin: FlaskClient, object_id: str):
    assert admin.get(f"/admin/audit/object/contents/{object_id}").status_code == 404


def form_of(client: FlaskClient, url: str) -> tuple[dict[str, Any], list[str]]:
    """The form at ``url`` as a browser would send it untouched, and the names of its text fields."""
    form: dict[str, Any] = {}
    texts = []
    for field in page(client.get(url)).xpath("//form[contains(@class, 'admin-form')]"
                                            "//*[self::input or self::textarea or self::select][@name]"):
        name, kind = field.get("name"), field.get("type")
        if field.tag == "select":
            chosen = field.xpath(".//option[@selected]/@value") or field.xpath(".//option/@value")[:1]
            form[name] = chosen[0] if chosen else ""
        elif field.tag == "textarea":
            form[name] = field.text or ""
            texts.append(name)
        elif kind not in ("checkbox", "file"):
            form[name] = field.get("value") or ""
            if kind in (None, "text", "url", "email") and name != "csrf_token":
                texts.append(name)
    return form, texts


@pytest.mark.parametrize("character", ["\x00", "\x07", "\x1b", "\x7f", "\x85"])
def test_a_control_character_is_refused_on_its_field_in_every_form(app: Flask, admin: FlaskClient, character: str):
    tried = 0
    for view in model_views(app):
        if not view.can_create:
            continue
        url = f"{view.url}/new/"
        form, texts = form_of(admin, url)
        assert texts, url
        for name in texts:
            typed = f"Было{character}набрано"
            response = admin.post(url, data={**form, name: typed})
            assert response.status_code == 200, (url, name, response.status_code)
            assert field_errors(response, name) == [CONTROL_REFUSED], (url, name, field_errors(response, name))
            assert SAVE_FAILED not in flashes(response)
            kept = page(response).xpath(f"//*[self::input or self::textarea][@name='{name}']")[0]
            assert typed.replace("\x00", "\ufffd") in (kept.get("value") or kept.text or "").replace("\x00", "\ufffd")
            tried += 1
    assert tried > 30


@pytest.mark.parametrize("field", ["title", "slug", "original_title", "description"])
def test_a_nul_in_a_titles_text_is_refused_on_its_field(app: Flask, admin: FlaskClient, field: str):
    form = edit_form(admin, 2)
    form[field] = "Тихая\x00гавань"
    response = admin.post("/admin/content/edit/?id=2", data=form)
    assert response.status_code == 200
    assert field_errors(response, field) == [CONTROL_REFUSED]
    assert SAVE_FAILED not in flashes(response)
    assert "Не удалось сохранить запись: исправьте поля, отмеченные красным." in flashes(response)


@pytest.mark.parametrize("field", ["seasons-0-title", "seasons-0-episodes-0-title", "seasons-0-episodes-0-description",
                                   "seasons-0-episodes-0-master_file_path", "availability_rules-0-value"])
def test_a_nul_in_an_inline_field_is_refused_on_it(app: Flask, admin: FlaskClient, field: str):
    form = {**series_form(app, title="Со служебным символом"), "availability_rules-0-kind": "block_country",
            "availability_rules-0-value": "de", field: "Было\x00набрано"}
    response = admin.post("/admin/content/new/", data={**form, "csrf_token": csrf_of(admin, "/admin/content/new/")})
    assert response.status_code == 200
    assert field_errors(response, field) == [CONTROL_REFUSED]
    assert page(response).xpath("//input[@name='title']/@value") == ["Со служебным символом"]


@pytest.mark.parametrize("value", ["\x00", "abc", HUGE, "-1"])
def test_a_bad_choice_in_a_lookup_field_is_refused(app: Flask, admin: FlaskClient, value: str):
    """The fields that look their row up as they read the form (a person, a slide's title)."""
    form = {**series_form(app, title="С участником"), "persons-0-person": value, "persons-0-position": "0"}
    response = admin.post("/admin/content/new/", data={**form, "csrf_token": csrf_of(admin, "/admin/content/new/")})
    assert response.status_code == 200, response.status_code
    form, _ = form_of(admin, "/admin/promo_slide/new/")
    response = admin.post("/admin/promo_slide/new/", data={**form, "content": value, "image_url": "/x.jpg"})
    assert response.status_code == 200, response.status_code


def test_a_nul_in_the_sign_in_is_refused_on_its_field(app: Flask, admin: FlaskClient):
    client = app.test_client()
    response = client.post("/admin/session/", data={"email": f"{EMAILS[Role.EDITOR]}\x00", "password": "x" * 12,
                                                    "csrf_token": csrf_of(client, "/admin/session/")})
    assert response.status_code == 200
    feedback = lxml.html.fromstring(response.get_data(as_text=True)).xpath(
        "//div[contains(@class, 'invalid-feedback')]/text()")
    assert CONTROL_REFUSED in feedback


@pytest.mark.parametrize("row_id", ["abc", "-1", HUGE])
def test_an_action_or_a_delete_on_rows_that_are_not_is_said_so(app: Flask, admin: FlaskClient, row_id: str):
    for url, action in (("/admin/content/", "publish"), ("/admin/account/", "block"), ("/admin/genre/", "delete")):
        response = admin.post(f"{url}action/", data={"action": action, "rowid": ["2", row_id],
                                                     "csrf_token": csrf_of(admin, url)})
        assert response.status_code == 302, (url, response.status_code)
        assert NO_SUCH_ROWS in flashes(admin.get(response.headers["Location"]))
        response = admin.post(f"{url}delete/", data={"id": row_id, "csrf_token": csrf_of(admin, url)})
        assert response.status_code == 302, (url, response.status_code)


@pytest.mark.parametrize("row_id", ["abc", "-1", HUGE])
def test_the_admins_own_pages_take_any_id(admin: FlaskClient, row_id: str):
    for url in ("/admin/content/availability/", "/admin/ad_placement/vast/"):
        assert admin.get(url, query_string={"id": row_id, "country": "ru"}).status_code == 404, url


@pytest.mark.parametrize(("offset", "limit"), [("-1", "-1"), (HUGE, HUGE), ("x", "0")])
def test_a_lookup_pages_within_bounds(admin: FlaskClient, offset: str, limit: str):
    for url, name in (("/admin/content/ajax/lookup/", "contentperson-person"),
                      ("/admin/promo_slide/ajax/lookup/", "content")):
        response = admin.get(url, query_string={"name": name, "query": "а", "offset": offset, "limit": limit})
        assert response.status_code == 200, (url, response.status_code)
