"""Numbers in the admin (issue 31, defects 1, 2 and 5): a 0+ title keeps its mark, ratings take a decimal comma and
0–10, years 1888 to next year, orders and durations from 1, every refusal in Russian on its field with the form kept
as typed; a house creative's duration is optional on the page."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.clock import now
from app.extensions import db
from app.models import AdCreative, Content, Role
from tests.admin.helpers import field_errors, flashes, page, post_form
from tests.admin.test_content_editing import content_titled, create, edit_form, series_form


@pytest.fixture
def editor(app: Flask, demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> FlaskClient:
    return signed_in(Role.EDITOR)


def test_a_0_plus_title_keeps_its_age_rating_on_any_save(app: Flask, editor: FlaskClient):
    with app.app_context():
        db.session.get(Content, 2).age_rating = 0
        db.session.commit()
    form = edit_form(editor, 2)
    assert form["age_rating"] == "0", "the edit page shows 0+ chosen"
    form["description"] = "Только описание поменялось."
    response = editor.post("/admin/content/edit/?id=2", data=form)
    assert response.status_code == 302, flashes(response)
    with app.app_context():
        assert db.session.get(Content, 2).age_rating == 0


@pytest.mark.parametrize(("typed", "stored"), [("7,5", 7.5), ("7.5", 7.5), (" 10 ", 10.0), ("0", 0.0)])
def test_a_rating_takes_a_decimal_comma(app: Flask, editor: FlaskClient, typed: str, stored: float):
    response = create(editor, series_form(app, title="Рейтинг", kinopoisk_rating=typed, imdb_rating=typed))
    assert response.status_code == 302, flashes(response)
    content = content_titled(app, "Рейтинг")
    assert content is not None and content.kinopoisk_rating == stored and content.imdb_rating == stored


def test_a_saved_rating_is_shown_with_a_comma(app: Flask, editor: FlaskClient):
    with app.app_context():
        db.session.get(Content, 2).kinopoisk_rating = 8.2
        db.session.commit()
    assert page(editor.get("/admin/content/edit/?id=2")).xpath("//input[@name='kinopoisk_rating']/@value") == ["8,2"]


@pytest.mark.parametrize(("field", "typed", "message"), [
    ("kinopoisk_rating", "75", "Допустимо от 0 до 10."),
    ("kinopoisk_rating", "-1", "Допустимо от 0 до 10."),
    ("imdb_rating", "7,55", "Не больше 1 знака после запятой."),
    ("imdb_rating", "семь", "«семь» не число: введите цифрами, дробную часть через запятую, например 7,5."),
    ("year", "2О24", "«2О24» не целое число: введите цифрами, например 2024."),  # a Cyrillic О
    ("year", "٢٠٢٤", "«٢٠٢٤» не целое число: введите цифрами, например 2024."),  # digits Python's int() takes
    ("year", "224", "Допустимо от 1888 до {next_year}."),
    ("year", "{in_two_years}", "Допустимо от 1888 до {next_year}."),
    ("position", "-3", "Допустимо от 0 до 2\u00a0147\u00a0483\u00a0647."),
    ("position", "99999999999", "Допустимо от 0 до 2\u00a0147\u00a0483\u00a0647."),
    ("seasons-0-order", "0", "Допустимо от 1 до 10\u00a0000."),
    ("seasons-0-episodes-0-order", "-1", "Допустимо от 1 до 100\u00a0000."),
    ("seasons-0-episodes-0-duration", "0", "Допустимо от 1 до 604\u00a0800."),
    ("seasons-0-episodes-0-duration", "1,5", "«1,5» не целое число: введите цифрами, например 5400."),
])
def test_a_number_out_of_its_range_or_not_a_number_is_refused_in_russian_and_kept(
        app: Flask, editor: FlaskClient, field: str, typed: str, message: str):
    year = now().year
    typed = typed.format(in_two_years=year + 2)
    response = create(editor, series_form(app, title="Черновик с числами", **{field: typed}))
    assert response.status_code == 200
    assert field_errors(response, field) == [" ".join(message.format(next_year=year + 1).split())]
    form = page(response)
    assert form.xpath(f"//input[@name='{field}']/@value") == [typed]  # kept as typed
    assert form.xpath("//input[@name='title']/@value") == ["Черновик с числами"]
    assert content_titled(app, "Черновик с числами") is None


def test_next_year_is_a_year_and_numbers_are_typed_in_text_inputs(app: Flask, editor: FlaskClient):
    """Text inputs (a numeric keyboard on a phone): a number input would drop the letters the server should see."""
    response = create(editor, series_form(app, title="Анонс", year=str(now().year + 1)))
    assert response.status_code == 302, flashes(response)
    inputs = page(editor.get("/admin/content/new/"))
    for name, mode in (("year", "numeric"), ("position", "numeric"), ("kinopoisk_rating", "decimal")):
        assert inputs.xpath(f"//input[@name='{name}']/@type") == ["text"], name
        assert inputs.xpath(f"//input[@name='{name}']/@inputmode") == [mode], name


@pytest.mark.parametrize(("url", "data", "field", "message"), [
    ("/admin/ad_placement/new/", {"title": "Х", "position": "preroll", "order": "1", "wrapper_depth": "6",
                                  "vast_url": "https://ads.example/v.xml"}, "wrapper_depth", "Допустимо от 0 до 5."),
    ("/admin/content_type/new/", {"title": "Т", "slug": "t", "position": "1e3"}, "position",
     "«1e3» не целое число: введите цифрами, например 10."),
    ("/admin/category/new/", {"title": "К", "slug": "k", "content_type": "1", "position": "-1"}, "position",
     "Допустимо от 0 до 2\u00a0147\u00a0483\u00a0647."),
    ("/admin/ad_creative/new/", {"title": "Р", "duration": "0"}, "duration", "Допустимо от 1 до 86\u00a0400."),
])
def test_every_view_reads_its_numbers_by_the_one_rule(app: Flask, editor: FlaskClient, url: str,
                                                      data: dict[str, str], field: str, message: str):
    response = post_form(editor, url, data)
    assert response.status_code == 200
    assert " ".join(message.split()) in field_errors(response, field)


def test_a_house_creatives_duration_is_optional_on_the_page(app: Flask, editor: FlaskClient):
    form = page(editor.get("/admin/ad_creative/new/"))
    assert form.xpath("//input[@name='duration']/@required") == []  # the browser lets it be sent empty
    assert form.xpath("//label[@for='duration']//*[contains(@class, 'text-danger')]") == []  # no asterisk
    response = post_form(editor, "/admin/ad_creative/new/", {
        "title": "Без длительности", "duration": "", "media_files-0-url": "https://cdn.example/ad.mp4",
        "media_files-0-mime_type": "video/mp4", "media_files-0-width": "640", "media_files-0-height": "360"})
    assert "Укажите длительность ролика в секундах или загрузите файл." in flashes(response)
    assert page(response).xpath("//input[@name='media_files-0-url']/@value") == ["https://cdn.example/ad.mp4"]
    response = post_form(editor, "/admin/ad_creative/new/", {
        "title": "С длительностью", "duration": "20", "media_files-0-url": "https://cdn.example/ad.mp4",
        "media_files-0-mime_type": "video/mp4", "media_files-0-width": "640", "media_files-0-height": "360"})
    assert response.status_code == 302, flashes(response)
    with app.app_context():
        assert db.session.scalar(db.select(AdCreative.duration).where(AdCreative.title == "С длительностью")) == 20
