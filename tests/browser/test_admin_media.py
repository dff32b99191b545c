"""The media library in Chromium (issue 31): a poster uploaded to the library, then picked into a title's form from
the "Выбрать из медиатеки" dialog with the keyboard alone, shown in the form's preview, and saved."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import upgrade
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from app import create_app
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from app.models import Content, Role
from app.services.accounts.accounts import create_account
from app.transaction import transaction
from tests.browser.conftest import serving, watch_errors

PASSWORD = "a long enough passphrase"


@pytest.fixture(scope="module")
def media_server(make_database: Callable[[str], str],
                 tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    app = create_app({"TESTING": True, "DATABASE_URL": make_database("admin-media"),
                      "MEDIA_ROOT": str(tmp_path_factory.mktemp("admin-media"))})
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
        with transaction():
            create_account("editor@example.com", "Ольга Редакторова", PASSWORD, Role.EDITOR)
    with serving(app) as origin:
        yield app, origin


@pytest.fixture
def editor_page(browser: Browser, media_server: tuple[Flask, str]) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU")
    page = watch_errors(context.new_page())
    _, origin = media_server
    page.goto(f"{origin}/admin/media/")
    page.fill("input[name=email]", "editor@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{origin}/admin/media/")
    yield page
    assert page.errors == []  # type: ignore[attr-defined]
    context.close()


def test_a_poster_is_picked_from_the_library_into_a_title_and_saved(editor_page: Page, tmp_path: Path,
                                                                     media_server: tuple[Flask, str]):
    app, origin = media_server
    page = editor_page
    poster = tmp_path / "новый постер.png"
    Image.new("RGB", (300, 450), (10, 120, 60)).save(poster, "PNG")
    page.select_option("select[name=kind]", "posters")
    page.set_input_files("input[name=picture]", str(poster))
    with page.expect_navigation():
        page.click("form.media-upload button[type=submit]")
    expect(page.locator(".alert")).to_contain_text("Картинка загружена: /media/posters/")
    address = page.locator("#media-pictures tbody tr").first.get_attribute("data-address")
    assert address and address.startswith("/media/posters/")
    thumb = page.locator("#media-pictures tbody tr img").first
    expect(thumb).to_have_js_property("naturalWidth", 160)  # the thumbnail, made and shown

    page.goto(f"{origin}/admin/content/edit/?id=2")
    field = page.locator("input[name=poster_url]")
    expect(field).to_have_value("/media/posters/series-s1e1.jpg")
    picker = field.locator("xpath=following-sibling::div[contains(@class, 'picture-field')][1]")
    picker.get_by_role("button", name="Выбрать из медиатеки").focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name="Медиатека: Постер")
    expect(dialog).to_be_visible()
    choice = dialog.get_by_role("button", name=f"Постеры: {address.rsplit('/', 1)[1]}")
    expect(choice).to_be_focused()  # the newest first, focused: Enter picks it
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    expect(field).to_have_value(address)
    expect(field).to_be_focused()  # back where the editor was
    preview = picker.locator("img.picture-preview")
    expect(preview).to_have_attribute("src", f"/admin/media/thumb/posters/{address.rsplit('/', 1)[1]}")
    expect(preview).to_have_js_property("naturalWidth", 160)

    page.locator("input[type=submit][value='Сохранить']").click()
    expect(page.locator(".alert-success")).to_be_visible()
    with app.app_context():
        assert db.session.get(Content, 2).poster_url == address
