"""The menu's entries in the admin say the list they open (issue 33; GET /menu's ``list``): a type, or a category, whose
type is its own; a category of another type than the one chosen beside it is refused, nothing saved."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from app.extensions import db
from app.models import Category, ContentType, MenuItem, Role
from tests.admin.helpers import csrf_of, flashes, page

NEW = "/admin/menu_item/new/"


@pytest.fixture
def editor(app: Flask, demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> Iterator[FlaskClient]:
    yield signed_in(Role.EDITOR)


def ids(app: Flask) -> tuple[int, int, int]:
    with app.app_context():
        film = db.session.scalar(select(ContentType.id).where(ContentType.slug == "film"))
        series = db.session.scalar(select(ContentType.id).where(ContentType.slug == "series"))
        comedies = db.session.scalar(select(Category.id).where(Category.slug == "comedies"))
        return film, series, comedies


def add(editor: FlaskClient, **fields: str):
    data = {"title": "Комедии", "url": "/films/comedies", "position": "3", "content_type": "", "category": "",
            **fields, "csrf_token": csrf_of(editor, NEW)}
    return editor.post(NEW, data=data, follow_redirects=True)


def test_the_form_names_the_list_in_russian(editor: FlaskClient):
    labels = [" ".join(label.text_content().split()) for label in page(editor.get(NEW)).xpath("//label")]
    assert "Список: тип" in labels and "Список: категория" in labels


def test_an_entry_opens_a_category_of_its_own_type(app: Flask, editor: FlaskClient, client: FlaskClient):
    film, _series, comedies = ids(app)
    add(editor, category=str(comedies))  # the type left empty: the category's own
    with app.app_context():
        made = db.session.scalars(select(MenuItem).where(MenuItem.url == "/films/comedies")).one()
        assert (made.content_type_id, made.category_id) == (film, comedies)
    entry = next(item for item in client.get("/menu").get_json() if item["url"] == "/films/comedies")
    assert entry["list"] == {"type": "film", "category": "comedies"}


def test_a_category_of_another_type_is_refused(app: Flask, editor: FlaskClient):
    _film, series, comedies = ids(app)
    with app.app_context():
        before = db.session.scalar(select(func.count()).select_from(MenuItem))
    response = add(editor, content_type=str(series), category=str(comedies))
    assert "Категория «Комедии» не из типа «Сериал»." in " ".join(flashes(response))
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(MenuItem)) == before
