"""Ordering by dragging (issue 31), as the order pages send it: the ids in the order they stand, with the page's CSRF
token. A category's titles (the API's category list and the main mart follow at once), the main mart's rows, the
menu's levels and the promo slides; a list changed meanwhile is not saved over; the trail records each move."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.extensions import db
from app.models import AuditEntry, Category, ContentType, MenuItem, PromoSlide, Role
from tests.admin.helpers import flashes, page
from tests.api.test_lists_api import FILMS_LIST, ids, mart


@pytest.fixture
def editor(app: Flask, demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> Iterator[FlaskClient]:
    yield signed_in(Role.EDITOR)


def category_id(app: Flask, slug: str, type_slug: str = "film") -> int:
    with app.app_context():
        return db.session.scalar(db.select(Category.id).join(ContentType).where(
            Category.slug == slug, ContentType.slug == type_slug))


def order_page(editor: FlaskClient, url: str) -> tuple[list[int], str]:
    shown = page(editor.get(url))
    return [int(i) for i in shown.xpath("//li[@data-sortable-item]/@data-order-id")], \
        shown.xpath("//form[contains(@class, 'order-form')]//input[@name='csrf_token']/@value")[0]


def save_order(editor: FlaskClient, url: str, order: list[int], token: str) -> object:
    return editor.post(url, data={"csrf_token": token, "ids": [str(i) for i in order]})


def test_a_categorys_titles_in_the_order_dragged_and_the_api_following(app: Flask, editor: FlaskClient, client):
    url = f"/admin/category/order/?group={category_id(app, 'drama-films')}"
    shown, token = order_page(editor, url)
    assert sorted(shown) == [1, 3, 4] and ids(client.get(FILMS_LIST)) == shown
    response = save_order(editor, url, [4, 3, 1], token)
    assert response.status_code == 302
    assert "Порядок сохранён." in flashes(editor.get(response.headers["Location"]))
    assert order_page(editor, url)[0] == [4, 3, 1]
    assert ids(client.get(FILMS_LIST)) == [4, 3, 1]  # the category's list, in the editors' order, at once
    assert ids(client.get(FILMS_LIST + "?order=desc")) == [1, 3, 4]
    drama = next(entry for entry in mart(client.get("/categories/main-mart")) if entry[0] == "drama-films")
    assert drama[2] == [4, 3, 1]  # and the main mart's leading titles
    with app.app_context():
        moved = db.session.scalars(db.select(AuditEntry).where(AuditEntry.object_type == "content_categories")).all()
    assert moved and all(set(entry.changes) == {"position"} for entry in moved)


def test_the_main_marts_rows_in_the_order_dragged(app: Flask, editor: FlaskClient, client):
    with app.app_context():
        film = db.session.scalar(db.select(ContentType.id).where(ContentType.slug == "film"))
    url = f"/admin/category/order/?group=mart-{film}"
    shown, token = order_page(editor, url)
    assert shown == [category_id(app, "new"), category_id(app, "drama-films")]
    assert save_order(editor, url, list(reversed(shown)), token).status_code == 302
    films = [entry[0] for entry in mart(client.get("/categories/main-mart")) if entry[1] == "film"]
    assert films == ["drama-films", "new"]


def test_the_menu_and_the_slides_in_the_order_dragged(app: Flask, editor: FlaskClient):
    for url, model in (("/admin/menu_item/order/", MenuItem), ("/admin/promo_slide/order/", PromoSlide)):
        shown, token = order_page(editor, url)
        assert len(shown) >= 2, url
        assert save_order(editor, url, list(reversed(shown)), token).status_code == 302
        with app.app_context():
            query = db.select(model.id).order_by(model.position, model.id)
            if model is MenuItem:
                query = query.where(MenuItem.parent_id.is_(None))
            assert list(db.session.scalars(query)) == list(reversed(shown)), url


def test_a_list_changed_meanwhile_or_a_stale_token_saves_nothing(app: Flask, editor: FlaskClient, client):
    url = f"/admin/category/order/?group={category_id(app, 'drama-films')}"
    before = ids(client.get(FILMS_LIST))
    _, token = order_page(editor, url)
    for sent, wanted in (([4, 3], "Список изменился"), ([4, 3, 1, 2], "Список изменился"),
                         (["4", "x", "1"], "Список изменился")):
        response = editor.post(url, data={"csrf_token": token, "ids": [str(i) for i in sent]})
        assert response.status_code == 200 and any(wanted in said for said in flashes(response)), sent
    response = editor.post(url, data={"csrf_token": "stale", "ids": ["4", "3", "1"]})
    assert any("Страница устарела" in said for said in flashes(response))
    assert ids(client.get(FILMS_LIST)) == before


def test_the_order_pages_are_for_editors_and_unknown_groups_are_404(app: Flask, editor: FlaskClient):
    assert editor.get("/admin/category/order/?group=99999").status_code == 404
    assert editor.get("/admin/category/order/?group=mart-x").status_code == 404
    assert editor.get("/admin/menu_item/order/?group=abc").status_code == 404
    anonymous = app.test_client().get("/admin/category/order/")
    assert anonymous.status_code == 302 and "/admin/session/" in anonymous.headers["Location"]
    assert editor.get("/admin/category/order/").status_code == 200  # the list's tab: the first main mart
    listed = page(editor.get("/admin/category/"))
    assert listed.xpath("//a[@data-order-link]")
    assert listed.xpath("//a[contains(@href, '/admin/category/order/?group=')]")
