"""No raw English or internal value on an admin page (issue 31, defect 8): an empty choice says "не выбрано", not
"__None"; a filter on a related table says "Тип / Название", not "Content Types / Title"; a placement's place, a
trail entry's action and an account's role are words in the list and in the filters' choices; a yes/no column says
"Да"/"Нет", not "main_mart: false"; the menu's button is named in Russian. Times are Moscow's."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.models import Role
from tests.admin.helpers import page
from tests.admin.test_access import admin_addresses

# (the roles' values are the test accounts' names too: their words are checked in the filters below)
RAW = re.compile(r"__None|Content Types|\bpreroll\b|\bmidroll\b|\b\w+_\w+: (?:true|false)\b|Toggle navigation|"
                 r"\b(?:create|update|delete)\b")


@pytest.fixture
def admin(app: Flask, demo_catalogue: Flask, accounts: dict[Role, int],
          signed_in: Callable[[Role], FlaskClient]) -> FlaskClient:
    return signed_in(Role.ADMIN)


def page_of(html: str):  # type: ignore[no-untyped-def]
    import lxml.html

    tree = lxml.html.fromstring(html)
    for hidden in tree.xpath("//script | //style | //*[@id='filter-groups-data'] | //*[@id='active-filters-data']"
                             " | //div[contains(@class, 'inline-field-template')]"
                             " | //*[@id='actions-confirmation-data'] | //*[@id='message-data']"):
        hidden.getparent().remove(hidden)
    return tree


def test_no_admin_page_shows_a_raw_value(app: Flask, admin: FlaskClient):
    raw = {}
    for method, url in admin_addresses(app):
        if method != "GET" or "/ajax/" in url or "/export/" in url:
            continue
        response = admin.get(url)
        if response.status_code != 200 or "text/html" not in response.content_type:
            continue
        html = response.get_data(as_text=True)
        tree = page_of(html)
        words = [tree.xpath("string(//body)"), *tree.xpath("//option/text() | //@title | //@aria-label")]
        for data in page(response).xpath("//div[@id='filter-groups-data']/text()"):
            for name, filters in json.loads(data).items():
                words.append(name)
                words += [label for flt in filters for _value, label in (flt.get("options") or [])]
        hits = sorted({hit.group(0) for text in words for hit in RAW.finditer(text)})
        if hits:
            raw[url] = hits
    assert raw == {}


def test_filters_and_lists_say_words(admin: FlaskClient):
    placements = page(admin.get("/admin/ad_placement/"))
    groups = json.loads(placements.xpath("//div[@id='filter-groups-data']/text()")[0])
    assert [label for _value, label in groups["Место"][0]["options"]] == ["Перед фильмом", "В середине фильма"]
    categories = json.loads(page(admin.get("/admin/category/")).xpath("//div[@id='filter-groups-data']/text()")[0])
    assert any(name.startswith("Тип / ") for name in categories), list(categories)
    form = page(admin.get("/admin/ad_placement/new/"))
    assert form.xpath("//select[@name='content_type']/option[@value='__None']/text()") == ["— не выбрано —"]
    roles = json.loads(page(admin.get("/admin/account/")).xpath("//div[@id='filter-groups-data']/text()")[0])
    assert [label for _value, label in roles["Роль"][0]["options"]] == ["Зритель", "Редактор", "Администратор"]
    trail = json.loads(page(admin.get("/admin/audit/")).xpath("//div[@id='filter-groups-data']/text()")[0])
    assert [label for _value, label in trail["Действие"][0]["options"]] == ["создан", "изменён", "удалён"]
    listing = page(admin.get("/admin/category/"))
    assert set(listing.xpath("//td[contains(@class, 'col-main_mart')]//span[@class='sr-only']/text()")) <= {"Да", "Нет"}
    assert listing.xpath("//button[contains(@class, 'navbar-toggler')]/@aria-label") == ["Меню разделов"]
