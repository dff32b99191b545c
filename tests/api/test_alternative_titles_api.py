"""A content's other names in its read (issue 34): ``GET /contents/{id}`` and by slug carry ``alternativeTitles``,
in the editors' order, misspellings left out (they are for search: tests/api/test_search_alternative_titles.py), an
empty list when there are none; documented in the OpenAPI document; the cards of the lists carry none."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from app.caching import invalidate_catalogue
from app.extensions import db
from app.models import AlternativeTitle, Content
from app.transaction import transaction

CLOSED = [{"title": "Huis clos", "language": "fr", "kind": "original"}]  # the demo's «Закрытый показ» (3)


def test_the_read_carries_the_shown_titles_in_order(client: FlaskClient, demo_catalogue: Flask):
    assert client.get("/contents/1").get_json()["alternativeTitles"] == [
        {"title": "The Long Road Home", "language": "en", "kind": "international"},
        {"title": "Северная трасса", "language": "ru", "kind": "former"}]
    assert client.get("/contents/3").get_json()["alternativeTitles"] == CLOSED  # «Закрытый паказ» is not shown
    assert client.get("/contents/by-slug/zakrytyy-pokaz").get_json()["alternativeTitles"] == CLOSED
    assert client.get("/kinopoisk/contents/1000003").get_json()["alternativeTitles"] == CLOSED
    assert client.get("/contents/4").get_json()["alternativeTitles"] == []


def test_an_edit_is_read_at_once_in_its_order(app: Flask, client: FlaskClient, demo_catalogue: Flask):
    assert client.get("/contents/4").get_json()["alternativeTitles"] == []
    with app.app_context():
        with transaction():
            content = db.session.get(Content, 4)
            content.alternative_titles = [
                AlternativeTitle(title="Lost Reel", language=None, kind="other", position=2),
                AlternativeTitle(title="Потеряная пленка", kind="misspelling", position=0),
                AlternativeTitle(title="The Missing Reel", language="en", kind="former", position=1)]
        invalidate_catalogue()
    assert client.get("/contents/4").get_json()["alternativeTitles"] == [
        {"title": "The Missing Reel", "language": "en", "kind": "former"},
        {"title": "Lost Reel", "language": None, "kind": "other"}]


def test_cards_carry_none(client: FlaskClient, demo_catalogue: Flask):
    page = client.get("/contents/most-relevant").get_json()
    assert page["items"] and all("alternativeTitles" not in card for card in page["items"])


def test_the_document_describes_them(client: FlaskClient):
    document = client.get("/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    content = schemas["Content"]
    assert "alternativeTitles" in content["required"]
    field = content["properties"]["alternativeTitles"]
    assert field["type"] == "array" and "misspellings" in field["description"]
    item = schemas[field["items"]["$ref"].rsplit("/", 1)[-1]]
    assert set(item["required"]) == {"title", "language", "kind"}
    assert item["properties"]["kind"]["enum"] == ["international", "original", "former", "other"]
    assert item["properties"]["language"]["nullable"] is True
