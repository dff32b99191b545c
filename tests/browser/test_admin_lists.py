"""The content list in Chromium (issue 31): its filters as choices always in sight, each applied by what it says
(defect 3); the page size; every content a filter finds, more than a page, selected and edited in bulk after a
confirmation with its count; a value edited in its row; Identify's values accepted field by field (a local fake of
TMDB's API, tests/admin/tmdb_fake.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from flask_migrate import upgrade
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import insert, select

from app import create_app
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from app.models import AuditEntry, Content, ContentType, Role
from app.services.accounts.accounts import create_account
from app.transaction import transaction
from tests.admin.tmdb_fake import KEY, fake_tmdb
from tests.browser.conftest import serving, watch_errors

PASSWORD = "a long enough passphrase"
DRAFTS = 130  # more than a page (50)


@pytest.fixture(scope="module")
def lists_server(make_database: Callable[[str], str], assets_built: object,
                 tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    tmdb = fake_tmdb()
    app = create_app({"TESTING": True, "DATABASE_URL": make_database("admin-lists"),
                      "MEDIA_ROOT": str(tmp_path_factory.mktemp("lists-media")), "TMDB_API_URL": tmdb.__enter__(),
                      "TMDB_API_KEY": KEY})
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
        with transaction():
            create_account("editor@example.com", "Ольга Редакторова", PASSWORD, Role.EDITOR)
            film = db.session.scalar(select(ContentType.id).where(ContentType.slug == "film"))
            db.session.execute(insert(Content), [
                {"title": f"Черновик {n:03}", "slug": f"chernovik-{n:03}", "content_type_id": film,
                 "published": False, "year": 1972, "description": ""} for n in range(DRAFTS)])
    with serving(app) as origin:
        yield app, origin
    tmdb.__exit__(None, None, None)


@pytest.fixture
def editor_page(browser: Browser, lists_server: tuple[Flask, str]) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU")
    page = watch_errors(context.new_page())
    _, origin = lists_server
    page.goto(f"{origin}/admin/content/")
    page.fill("input[name=email]", "editor@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{origin}/admin/content/")
    page.wait_for_load_state()  # the list's script listens
    yield page
    assert page.errors == []  # type: ignore[attr-defined]
    context.close()


def bar(page: Page, label: str) -> str:
    return f".editorial-filter-bar label:has-text('{label}') select"


def choose(page: Page, filter_label: str, choice: str) -> None:
    """A choice in the filter bar: the list is shown again at once."""
    with page.expect_navigation():
        page.select_option(bar(page, filter_label), label=choice)


def titles(page: Page) -> list[str]:
    return [" ".join(text.split()) for text in page.locator("table.model-list td.col-title").all_inner_texts()]


def test_the_filters_are_choices_in_sight_and_find_what_they_say(editor_page: Page):
    page = editor_page
    choose(page, "Опубликован", "Нет")  # shown at once, no button needed
    expect(page).to_have_url(re.compile(r"published_equals=0"))
    assert all(title.startswith("Черновик") for title in titles(page)) and len(titles(page)) == 50
    expect(page.locator(".nav-tabs .nav-link.active")).to_contain_text(f"({DRAFTS})")

    choose(page, "Опубликован", "Да")
    choose(page, "Год", "2019")
    assert titles(page) == ["Закрытый показ"]
    expect(page.locator(bar(page, "Год"))).to_have_value("2019")  # the bar says what is applied

    choose(page, "Год", "Все")
    choose(page, "Жанр", "Триллер")
    assert sorted(titles(page)) == ["Закрытый показ", "Потерянная плёнка"]
    choose(page, "Правило страны", "Закрыт в стране: Россия")
    assert titles(page) == ["Закрытый показ"]

    with page.expect_navigation():
        page.click(".editorial-filter-bar a:has-text('Сбросить')")
    choose(page, "Есть видео", "Нет")  # no episode with a master file (the demo's lost reel has its path)
    choose(page, "Год", "1972")
    expect(page.locator(".nav-tabs .nav-link.active")).to_contain_text(f"({DRAFTS})")
    choose(page, "Есть видео", "Да")
    assert titles(page) == []
    choose(page, "Год", "2018")
    assert titles(page) == ["Потерянная плёнка"]


def test_the_page_size_is_the_editors_choice(editor_page: Page):
    page = editor_page
    page.locator(".nav-tabs .dropdown-toggle", has_text="50").click()
    with page.expect_navigation():
        page.locator(".dropdown-menu a", has_text="100").first.click()
    expect(page.locator("table.model-list td.col-title")).to_have_count(100)
    expect(page.locator("table.model-list td.col-id").first).to_have_text(re.compile(r"^\s*\d+\s*$"))


def test_a_bulk_edit_over_every_content_a_filter_finds(editor_page: Page, lists_server: tuple[Flask, str]):
    app, _ = lists_server
    page = editor_page
    choose(page, "Опубликован", "Нет")
    choose(page, "Год", "1972")
    page.check("input.action-rowtoggle")
    banner = page.locator(".editorial-select-all")
    expect(banner).to_contain_text("Выбраны все записи на этой странице: 50.")
    banner.locator("button", has_text=f"Выбрать все подходящие: {DRAFTS}").click()
    expect(banner).to_contain_text(f"Выбраны все подходящие записи: {DRAFTS}.")

    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.locator(".nav-tabs .dropdown-toggle", has_text="С выбранным").click()
    page.locator("[data-admin-action=bulk_edit]").click()
    expect(page.locator(".editorial-bulk-count")).to_contain_text(str(DRAFTS))
    assert asked == [f"Изменить выбранные…: все подходящие записи, {DRAFTS}?"]
    page.wait_for_load_state("load")  # the admin's script (its data-confirm) runs once the page's files are in

    page.evaluate("""() => {
        const select = document.querySelector('#add_genres');
        [...select.options].find((option) => option.text === 'Комедия').selected = true;
        select.dispatchEvent(new Event('change', { bubbles: true }));
    }""")
    page.select_option("#published", label="опубликовать")
    page.locator("button[type=submit]", has_text=f"Изменить записи: {DRAFTS}").click()
    expect(page.locator(".alert-success")).to_contain_text(f"Изменено записей: {DRAFTS} из {DRAFTS}.")
    assert asked[-1] == f"Изменить записей: {DRAFTS}?"
    expect(page).to_have_url(re.compile(r"published_equals=0"))
    expect(page.locator("table.model-list td.col-title")).to_have_count(0)  # none left unpublished

    with app.app_context():
        drafts = db.session.scalars(select(Content).where(Content.title.like("Черновик %"))).all()
        assert len(drafts) == DRAFTS
        assert all(c.published and [g.slug for g in c.genres] == ["comedy"] for c in drafts)
        recorded = db.session.scalars(select(AuditEntry.object_id).where(AuditEntry.object_type == "contents")).all()
        assert sorted(map(int, recorded)) == sorted(c.id for c in drafts)


def test_a_position_is_edited_in_its_row_and_recorded(editor_page: Page, lists_server: tuple[Flask, str]):
    app, _ = lists_server
    page = editor_page
    choose(page, "Год", "2019")
    page.locator("td.col-position a[data-role=x-editable]").click()
    page.fill(".editable-input input", "9")
    page.click(".editable-submit")
    expect(page.locator("td.col-position a[data-role=x-editable]")).to_have_text("9")
    with app.app_context():
        assert db.session.scalar(select(Content.position).where(Content.id == 3)) == 9
        changes = db.session.scalars(select(AuditEntry.changes).where(
            AuditEntry.object_type == "contents", AuditEntry.object_id == "3")).all()
        assert {"position": [0, 9]} in changes


def test_identify_shows_the_providers_values_and_takes_those_ticked(editor_page: Page,
                                                                    lists_server: tuple[Flask, str]):
    app, _ = lists_server
    page = editor_page
    choose(page, "Год", "2021")
    page.locator("td.list-buttons-column a[title^='Заполнить по id']").click()
    expect(page.locator("h1")).to_contain_text("Заполнить «Долгая дорога домой» по id")
    title = page.locator("tr[data-field=title]")
    expect(title.locator(".editorial-current")).to_have_text("Долгая дорога домой")
    expect(title.locator(".editorial-fetched")).to_have_text("Долгий путь домой")
    page.get_by_label("Принять: Название").check()
    page.get_by_label("Принять: Оригинальное название").uncheck()
    page.get_by_label("Принять: Описание").check()
    page.click("button:has-text('Принять отмеченные')")
    expect(page.locator(".alert-success")).to_contain_text("Принято из TMDB: Название, Описание.")
    expect(page.locator("#title")).to_have_value("Долгий путь домой")  # back on the title's form
    with app.app_context():
        content = db.session.get(Content, 1)
        assert (content.title, content.description, content.year) == (
            "Долгий путь домой", "Отец и сын едут домой через всю страну.", 2021)
