"""Issue 31, defect 3: every list's filters answer what they say. Flask-Admin named a filter in the URL by its label
with everything but a-z, 0-9 and spaces dropped: every Russian label became "", so "Опубликован = Нет", "Год = 1972" and
"Жанры / Название содержит" all went by the operation's name alone, and one of them took the others' place."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.extensions import db
from app.models import Content, Role
from app.transaction import transaction
from tests.admin.helpers import page
from tests.admin.test_bad_input import model_views


@pytest.fixture
def editor(demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> FlaskClient:
    return signed_in(Role.EDITOR)


def filter_arg(client: FlaskClient, url: str, group: str, operation: str) -> str:
    """The URL argument the list's own filter menu uses for ``group`` ``operation``, as the page's script reads it."""
    groups = json.loads(page(client.get(url)).xpath("//div[@id='filter-groups-data']/text()")[0])
    found = [item["arg"] for item in groups[group] if item["operation"] == operation]
    assert len(found) == 1, (group, operation, groups[group])
    return str(found[0])


def titles(client: FlaskClient, url: str, **args: str) -> set[str]:
    response = client.get(url, query_string=args)
    assert response.status_code == 200
    cells = page(response).xpath("//table[contains(@class, 'model-list')]//td[contains(@class, 'col-title')]")
    return {" ".join(cell.text_content().split()) for cell in cells}


def test_every_filter_of_every_list_has_a_name_of_its_own(app: Flask, editor: FlaskClient):
    for view in model_views(app):
        if view._filters:
            args = [view.get_filter_arg(index, flt) for index, flt in enumerate(view._filters)]
            assert len(set(args)) == len(args), (view.name, args)
            assert all(arg.isascii() and arg.replace("_", "").isalnum() for arg in args), (view.name, args)


def test_published_no_lists_the_unpublished_only(app: Flask, editor: FlaskClient):
    with app.app_context(), transaction():
        db.session.get(Content, 4).published = False
    arg = filter_arg(editor, "/admin/content/", "Опубликован", "равно")
    assert titles(editor, "/admin/content/", **{f"flt0_{arg}": "0"}) == {"Потерянная плёнка"}
    assert "Потерянная плёнка" not in titles(editor, "/admin/content/", **{f"flt0_{arg}": "1"})


def test_year_equal_is_taken_and_applied(editor: FlaskClient):
    arg = filter_arg(editor, "/admin/content/", "Год", "равно")
    response = editor.get("/admin/content/", query_string={f"flt0_{arg}": "2019"})
    assert "не подходит" not in response.get_data(as_text=True)
    assert titles(editor, "/admin/content/", **{f"flt0_{arg}": "2019"}) == {"Закрытый показ"}


def test_a_genre_filter_searches_genres_and_a_country_filter_countries(editor: FlaskClient):
    groups = json.loads(page(editor.get("/admin/content/")).xpath("//div[@id='filter-groups-data']/text()")[0])
    genre = next(name for name in groups if name.startswith("Жанр"))
    country = next(name for name in groups if name.startswith("Стран"))
    genre_arg = filter_arg(editor, "/admin/content/", genre, "равно")
    country_arg = filter_arg(editor, "/admin/content/", country, "равно")
    thrillers = titles(editor, "/admin/content/", **{f"flt0_{genre_arg}": "thriller"})
    assert thrillers == {"Закрытый показ", "Потерянная плёнка"}
    assert titles(editor, "/admin/content/", **{f"flt0_{country_arg}": "fr"}) == {"Закрытый показ"}
    both = titles(editor, "/admin/content/", **{f"flt0_{genre_arg}": "drama", f"flt1_{country_arg}": "ru"})
    assert both == {"Долгая дорога домой", "Тихая гавань"}
