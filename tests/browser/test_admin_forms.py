"""The admin's forms in Chromium, where only a browser shows it (issue 31): a number typed with a Cyrillic letter or a
decimal comma reaches the server as typed (a number input had dropped the letter: "2О24" was saved as 224, "7,5" as
75) and comes back refused in Russian; a form left open past its CSRF token's 30 minutes says what happened and keeps
every typed value, the rows added on the page too, and the next save goes through; a change is reverted from its
history page, after a question."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine
from flask import Flask
from flask_migrate import upgrade
from playwright.sync_api import Browser, Page, expect

from app import create_app
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from app.models import Content, Role
from app.services.accounts.accounts import create_account
from app.transaction import transaction
from tests.browser.conftest import serving, watch_errors
from tests.browser.test_admin import choose

PASSWORD = "a long enough passphrase"
EMAIL = "editor@example.com"
SAVE = "input[type=submit][value='Сохранить']"


@pytest.fixture(scope="module")
def admin_app(make_database: Callable[[str], str], assets_built: Path, demo_media: Path,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    app = create_app({"TESTING": True, "DATABASE_URL": make_database("admin-forms"),
                      "MEDIA_ROOT": str(tmp_path_factory.mktemp("admin-forms-media"))})
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
        with transaction():
            create_account(EMAIL, "Ольга Редакторова", PASSWORD, Role.EDITOR)
    with serving(app) as origin:
        yield app, origin


@pytest.fixture
def editor_page(browser: Browser, admin_app: tuple[Flask, str]) -> Iterator[Page]:
    _, origin = admin_app
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU")
    page = watch_errors(context.new_page())
    page.goto(f"{origin}/admin/session/")
    page.fill("input[name=email]", EMAIL)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{origin}/admin/")
    yield page
    context.close()


def content(app: Flask, title: str) -> Content | None:
    with app.app_context():
        found = db.session.scalar(db.select(Content).where(Content.title == title))
        if found is not None:
            _ = [(season.order, [episode.title for episode in season.episodes]) for season in found.seasons]
            _ = list(found.availability_rules)
        return found


def errors_under(page: Page, field: str) -> str:
    return page.locator(f"#{field} ~ .invalid-feedback, #{field} ~ ul.text-danger").all_inner_texts().__str__()


def test_numbers_reach_the_server_as_typed(admin_app: tuple[Flask, str], editor_page: Page):
    app, origin = admin_app
    page = editor_page
    page.goto(f"{origin}/admin/content/new/")
    page.fill("#title", "Год с буквой")
    choose(page, "#content_type", "Фильм")
    page.locator("#year").press_sequentially("2О24")  # a Cyrillic О, as a Russian keyboard slips
    page.locator("#kinopoisk_rating").press_sequentially("7,5")
    page.click(SAVE)
    expect(page.locator("#year")).to_have_value("2О24")
    assert "«2О24» не целое число: введите цифрами, например 2024." in errors_under(page, "year")
    expect(page.locator("#kinopoisk_rating")).to_have_value("7,5")
    assert content(app, "Год с буквой") is None
    page.fill("#year", "2024")
    page.click(SAVE)
    expect(page.locator(".alert-success")).to_be_visible()
    saved = content(app, "Год с буквой")
    assert saved is not None and (saved.year, saved.kinopoisk_rating) == (2024, 7.5)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_form_open_past_its_token_keeps_everything_and_saves_next_time(admin_app: tuple[Flask, str],
                                                                         editor_page: Page):
    app, origin = admin_app
    page = editor_page
    page.goto(f"{origin}/admin/content/new/")
    page.fill("#title", "Долгий вечер")
    choose(page, "#content_type", "Сериал")
    page.fill("#description", "Писали весь вечер.")
    page.click("#seasons-button")
    page.fill("#seasons-0-order", "1")
    page.fill("#seasons-0-title", "Первый сезон")
    page.locator("#seasons-0 a.btn", has_text="+ Серия").click()
    page.fill("#seasons-0-episodes-0-order", "1")
    page.fill("#seasons-0-episodes-0-title", "Пилот")
    page.fill("#seasons-0-episodes-0-duration", "2700")
    page.click("#availability_rules-button")
    page.select_option("#availability_rules-0-kind", "block_country")
    page.fill("#availability_rules-0-value", "de")
    with time_machine.travel(datetime.now(UTC) + timedelta(minutes=31), tick=True):
        page.click(SAVE)
        expect(page.locator(".alert-danger")).to_contain_text(
            "Форма была открыта дольше 30 минут, и её защитный код устарел: ничего не сохранено.")
        expect(page.locator(".alert")).to_have_count(1)  # and no "correct the fields marked in red"
        assert content(app, "Долгий вечер") is None
        for field, typed in (("#title", "Долгий вечер"), ("#description", "Писали весь вечер."),
                             ("#seasons-0-order", "1"), ("#seasons-0-title", "Первый сезон"),
                             ("#seasons-0-episodes-0-title", "Пилот"), ("#seasons-0-episodes-0-duration", "2700"),
                             ("#availability_rules-0-kind", "block_country"), ("#availability_rules-0-value", "de")):
            expect(page.locator(field)).to_have_value(typed)
        page.click(SAVE)
        expect(page.locator(".alert-success")).to_be_visible()
    saved = content(app, "Долгий вечер")
    assert saved is not None
    assert [(s.title, [e.title for e in s.episodes]) for s in saved.seasons] == [("Первый сезон", ["Пилот"])]
    assert [(rule.kind.value, rule.value) for rule in saved.availability_rules] == [("block_country", "de")]
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_change_is_reverted_from_its_history(admin_app: tuple[Flask, str], editor_page: Page):
    app, origin = admin_app
    page = editor_page
    page.goto(f"{origin}/admin/content/edit/?id=3")
    page.fill("#title", "Закрытый показ (опечатка)")
    page.click(SAVE)
    expect(page.locator(".alert-success")).to_be_visible()
    page.goto(f"{origin}/admin/audit/object/contents/3")
    questions: list[str] = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.accept()))
    page.locator("button.editorial-revert").first.click()
    expect(page.locator(".alert-success")).to_have_text("× Изменение откачено.", use_inner_text=True)
    assert questions == ["Откатить это изменение? Поля вернутся к значениям «было»."]
    assert content(app, "Закрытый показ") is not None
    expect(page.locator("#history tbody tr").first).to_contain_text("Это откат изменения №")
    assert page.errors == []  # type: ignore[attr-defined]
