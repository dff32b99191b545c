"""Addresses editors type (issue 30, hole 9): an http(s) address, or a path of this site where the field is one, by
one rule (app/services/editorial/addresses.py) on every field that takes an address: a redirect's target, a menu
item's, an ad creative's click-through and its files, a placement's outside VAST, a poster's, a slide's, a photo's,
an episode's frame. ``javascript:`` and its kind are refused on the field; nothing is saved."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from app.extensions import db
from app.models import AdCreative, AdMediaFile, AdPlacement, Content, MenuItem, Person, PromoSlide, Redirect, Role
from tests.admin.helpers import csrf_of, field_errors, flashes
from tests.admin.test_content_editing import edit_form, series_form

HOSTILE = ["javascript:alert(1)", "JavaScript:alert(document.cookie)", " javascript:alert(1)",
           "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "//evil.example/x", "/\\evil.example",
           "https:///nohost", "http://user:secret@evil.example/", "https://evil.example/a b", "java\tscript:alert(1)",
           "file:///etc/passwd"]
PATHS = ["/films/x"]
WEB = ["https://advertiser.example/landing?x=1", "HTTP://CDN.EXAMPLE/a.mp4"]


@pytest.fixture
def editor(app: Flask, demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> Iterator[FlaskClient]:
    yield signed_in(Role.EDITOR)


def forms(app: Flask) -> dict[str, tuple[str, dict[str, Any], Any]]:
    """Per address field: the form's address, what else it needs filled, the table that must stay unchanged."""
    return {
        "url": ("/admin/menu_item/new/", {"title": "Пункт", "position": "0"}, MenuItem),
        "to_path": ("/admin/redirect/new/", {"from_path": "/old", "status": "301"}, Redirect),
        "from_path": ("/admin/redirect/new/", {"to_path": "/new", "status": "301"}, Redirect),
        "click_through_url": ("/admin/ad_creative/new/", {"title": "Ролик", "duration": "10", "skip_offset": ""},
                              AdCreative),
        "media_files-0-url": ("/admin/ad_creative/new/", {
            "title": "Ролик", "duration": "10", "skip_offset": "", "click_through_url": "",
            "media_files-0-mime_type": "video/mp4", "media_files-0-width": "640", "media_files-0-height": "360"},
            AdMediaFile),
        "vast_url": ("/admin/ad_placement/new/", {"title": "Размещение", "position": "preroll", "order": "0",
                                                  "wrapper_depth": "0", "creative": ""}, AdPlacement),
        "image_url": ("/admin/promo_slide/new/", {"content": "2", "position": "0"}, PromoSlide),
        "photo_url": ("/admin/person/new/", {"name": "Имя", "slug": "imya"}, Person),
        "poster_url": ("/admin/content/new/", series_form(app, title="С постером"), Content),
        "seasons-0-episodes-0-poster_path": ("/admin/content/new/", series_form(app, title="С кадром"), Content),
    }


ALLOWED = {"url": PATHS + WEB, "to_path": PATHS + WEB, "from_path": PATHS, "click_through_url": WEB,
           "media_files-0-url": ["/media/ads/x.mp4", *WEB], "vast_url": WEB, "image_url": PATHS + WEB,
           "photo_url": PATHS + WEB, "poster_url": PATHS + WEB, "seasons-0-episodes-0-poster_path": PATHS + WEB}


def rows(app: Flask, model: Any) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model)) or 0


@pytest.mark.parametrize("field", sorted(ALLOWED))
def test_an_address_that_is_not_web_or_a_site_path_is_refused_on_its_field(app: Flask, editor: FlaskClient,
                                                                            field: str):
    url, needed, model = forms(app)[field]
    before = rows(app, model)
    for value in HOSTILE:
        response = editor.post(url, data={**needed, field: value, "csrf_token": csrf_of(editor, url)})
        assert response.status_code == 200, (field, value, response.status_code)
        said = field_errors(response, field)
        assert said and said[0].startswith(("Нужен", "В адресе не должно", "Адрес с именем", "Уберите")), (
            field, value, said)
        assert rows(app, model) == before, (field, value)


@pytest.mark.parametrize("field", sorted(ALLOWED))
def test_a_web_address_or_a_site_path_is_taken(app: Flask, editor: FlaskClient, field: str):
    url, needed, _ = forms(app)[field]
    for number, value in enumerate(ALLOWED[field]):
        data = {**needed, field: value, "csrf_token": csrf_of(editor, url)}
        if url == "/admin/redirect/new/":
            data["from_path"] = f"{data['from_path']}-{number}"
        if field == "photo_url":
            data["slug"] = f"imya-{number}"
        if "title" in data and url == "/admin/content/new/":
            data["title"] = f"{data['title']} {number}"
        response = editor.post(url, data=data)
        assert response.status_code == 302, (field, value, flashes(response), field_errors(response, field))


def test_a_titles_poster_address_is_checked_on_its_edit_too(app: Flask, editor: FlaskClient):
    form = edit_form(editor, 2)
    form["poster_url"] = "javascript:alert(1)"
    response = editor.post("/admin/content/edit/?id=2", data=form)
    assert response.status_code == 200 and field_errors(response, "poster_url")
    with app.app_context():
        assert db.session.get(Content, 2).poster_url == "/media/posters/series-s1e1.jpg"
