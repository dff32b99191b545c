"""Safe publishing, the series editor and ordering by dragging, in Chromium as an editor works (issue 31): a draft
series is made, previewed in the real player (which plays it) while the public gets 'Контент не доступен', scheduled
in Moscow time and public at its second (the server's clock moved, not waited for); its episodes reordered by
dragging and by the keyboard's buttons, numbered anew and saved; a category's titles reordered by dragging and the
API's list following; leaving a form with unsaved changes asks first. And a 300-episode series' page: its load and
its save, timed (the figures are printed; the bounds are generous, for a loaded machine)."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import time_machine
from flask import Flask
from flask_migrate import upgrade
from playwright.sync_api import Browser, Locator, Page, expect

from app import create_app
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from app.models import Category, Content, ContentType, Episode, Role, Season
from app.services.accounts.accounts import create_account
from app.transaction import transaction
from tests.browser.conftest import serving, watch_errors
from tests.browser.helpers import start

PASSWORD = "a long enough passphrase"
MOSCOW = ZoneInfo("Europe/Moscow")
TITLE = "Полярная ночь"
EPISODES = ("Отплытие", "Льды", "Маяк")


@pytest.fixture(scope="module")
def server(make_database: Callable[[str], str], assets_built: Path, demo_media: Path,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    media = tmp_path_factory.mktemp("publishing-media")
    for number in (1, 2, 3):  # a folder of its own per episode, copies of the demo's (a folder is one title's)
        folder = media / "titles" / f"polar-{number}"
        shutil.copytree(demo_media / "titles" / f"series-s1e{number}", folder)
        master = folder / "master.json"
        master.write_text(master.read_text().replace(f"/titles/series-s1e{number}/", f"/titles/polar-{number}/"))
    app = create_app({"TESTING": True, "DATABASE_URL": make_database("admin-publishing-browser"),
                      "MEDIA_ROOT": str(media)})
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
        with transaction():
            create_account("editor@example.com", "Ольга Редакторова", PASSWORD, Role.EDITOR)
    with serving(app) as origin:
        yield app, origin


@pytest.fixture
def editor(browser: Browser, server: tuple[Flask, str]) -> Iterator[Page]:
    _, origin = server
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU")
    page = watch_errors(context.new_page())
    page.goto(f"{origin}/admin/session/")
    page.fill("input[name=email]", "editor@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator(".editorial-account")).to_have_text("Ольга Редакторова")
    yield page
    context.close()


def save(page: Page) -> None:
    page.locator("input[type=submit][value='Сохранить']").click()
    expect(page.locator(".alert-success")).to_be_visible()


def drag(page: Page, handle: Locator, target: Locator, above: bool = True) -> None:
    """A mouse drag by the handle onto the upper (or lower) part of the target row, in small steps as a hand does,
    once the list's script has made it sortable (editing.js marks it), and until SortableJS has dropped the row (its
    dragged copy gone)."""
    expect(handle.locator("xpath=ancestor::*[@data-sortable][1]")).to_have_attribute("data-sortable-ready", "1")
    target.scroll_into_view_if_needed()
    handle.scroll_into_view_if_needed()
    start_box, end_box = handle.bounding_box(), target.bounding_box()
    assert start_box and end_box
    page.mouse.move(start_box["x"] + start_box["width"] / 2, start_box["y"] + start_box["height"] / 2)
    page.mouse.down()
    y = end_box["y"] + (end_box["height"] * (0.25 if above else 0.75))
    page.mouse.move(start_box["x"] + 5, y, steps=15)
    page.mouse.move(start_box["x"] + 6, y + (-2 if above else 2), steps=3)
    page.mouse.up()
    expect(page.locator(".sortable-fallback")).to_have_count(0)


def row_titles(page: Page) -> list[str]:
    return page.locator("[data-episode-row] [data-sort-title]").evaluate_all("inputs => inputs.map(i => i.value)")


def row_numbers(page: Page) -> list[str]:
    return page.locator("[data-episode-row] [data-sort-number]").evaluate_all("inputs => inputs.map(i => i.value)")


def public_page(browser: Browser, origin: str, content_id: int) -> tuple[int, str]:
    context = browser.new_context()
    try:
        page = context.new_page()
        response = page.goto(f"{origin}/?movie_id={content_id}")
        assert response is not None
        return response.status, page.content()
    finally:
        context.close()


def test_a_draft_series_made_previewed_scheduled_and_published_at_its_time(
        server: tuple[Flask, str], editor: Page, browser: Browser):
    app, origin = server
    page = editor
    page.goto(f"{origin}/admin/content/new/")
    expect(page.locator("h1")).to_contain_text("Новый фильм или сериал")
    expect(page.locator("#published")).not_to_be_checked()  # a draft
    page.fill("#title", TITLE)
    page.evaluate("""() => { const type = document.querySelector('#content_type');
        type.value = [...type.options].find((o) => o.text === 'Сериал').value;
        type.dispatchEvent(new Event('change', { bubbles: true })); }""")
    page.click("#seasons-button")
    page.fill("#seasons-0-order", "1")
    for number, title in enumerate(EPISODES, 1):
        page.locator("#seasons-0 a.btn", has_text="+ Серия").click()
        prefix = f"#seasons-0-episodes-{number - 1}"
        expect(page.locator(f"{prefix}-order")).to_have_value(str(number))  # numbered as added
        page.fill(f"{prefix}-title", title)
        page.fill(f"{prefix}-master_file_path", f"/media/titles/polar-{number}/master.json")
    save(page)

    with app.app_context():
        content = db.session.scalar(db.select(Content).where(Content.title == TITLE))
        assert content is not None and content.published is False
        content_id = content.id
        first_episode = db.session.scalar(db.select(Episode.id).where(Episode.content_id == content_id,
                                                                       Episode.order == 1))
    assert public_page(browser, origin, content_id)[0] == 404

    # the preview, from the title's page: a new tab with the real player, which plays the draft
    page.goto(f"{origin}/admin/content/edit/?id={content_id}")
    expect(page.locator("h1")).to_contain_text(f"«{TITLE}»")
    expect(page.locator("h1")).to_contain_text(f"id {content_id}")
    expect(page.locator("[data-publishing-status]")).to_have_text("Черновик: не опубликован")
    masters: list[int] = []  # the master JSON's answers, from the page's first preload on
    page.context.on("response", lambda answer: masters.append(answer.status) if "master.json" in answer.url else None)
    with page.expect_popup() as popup_info:
        page.click("[data-preview]")
    preview = watch_errors(popup_info.value)
    preview.wait_for_load_state()
    assert preview.url.startswith(f"{origin}/preview?")
    expect(preview.locator(".player__subtitle")).to_contain_text("Отплытие")
    start(preview)
    assert masters and all(status == 200 for status in masters)
    status, html = public_page(browser, origin, content_id)
    assert status == 404 and "Контент не доступен" in html  # the public, meanwhile
    with page.expect_popup() as episode_info:  # an episode's own preview
        page.click(f"a[href*='/admin/content/preview/?id={content_id}&episode={first_episode}']")
    expect(episode_info.value.locator(".player__subtitle")).to_contain_text("Отплытие")
    episode_info.value.close()
    preview.close()

    # scheduled: tomorrow at 10:00 Moscow time, typed as such
    with time_machine.travel(datetime.now(UTC), tick=False) as clock:
        tomorrow = (datetime.now(MOSCOW) + timedelta(days=1)).replace(hour=10, minute=0, second=0, microsecond=0)
        page.fill("#publish_at", tomorrow.strftime("%Y-%m-%dT%H:%M"))
        save(page)
        notice = page.locator(".alert-info.alert-dismissable")
        expect(notice).to_contain_text(f"появится {tomorrow:%d.%m.%Y} 10:00 (МСК)")
        with app.app_context():
            stored = db.session.get(Content, content_id)
            assert stored.published and stored.publish_at == tomorrow.astimezone(UTC)
        assert public_page(browser, origin, content_id)[0] == 404
        clock.move_to(tomorrow - timedelta(seconds=1))
        assert public_page(browser, origin, content_id)[0] == 404
        clock.move_to(tomorrow)
        status, html = public_page(browser, origin, content_id)
        assert status == 200 and TITLE in html  # at its second
        answer = page.request.get(f"{origin}/contents/{content_id}")
        assert answer.status == 200 and answer.json()["title"] == TITLE
    assert page.errors == []  # type: ignore[attr-defined]


def test_episodes_reordered_by_dragging_and_by_the_keyboard(server: tuple[Flask, str], editor: Page):
    app, origin = server
    with app.app_context(), unhurried(app, db.engine), transaction():  # 300 rows: the set-up's, not a request's (CI)
        series = db.session.scalar(db.select(ContentType).where(ContentType.slug == "series"))
        content = Content(title="Три серии", content_type=series, published=True)
        content.seasons = [Season(order=1, episodes=[Episode(order=n, title=t, content=content)
                                                     for n, t in enumerate(EPISODES, 1)])]
        db.session.add(content)
        db.session.flush()
        content_id = content.id
    page = editor
    page.goto(f"{origin}/admin/content/edit/?id={content_id}")
    rows = page.locator("[data-episode-row]")
    assert row_titles(page) == list(EPISODES)
    drag(page, rows.nth(2).locator(".sort-handle"), rows.nth(0))  # «Маяк» first
    assert row_titles(page) == ["Маяк", "Отплытие", "Льды"]
    assert row_numbers(page) == ["1", "2", "3"]  # numbered anew in the order they stand
    page.locator("[data-episode-row]").nth(1).locator("button[data-move='down']").focus()
    page.keyboard.press("Enter")  # the keyboard's way: «Отплытие» one down
    assert row_titles(page) == ["Маяк", "Льды", "Отплытие"]
    assert row_numbers(page) == ["1", "2", "3"]
    expect(page.locator("[data-episode-row]").nth(2).locator("button[data-move='down']")).to_be_focused()
    save(page)
    with app.app_context():
        assert list(db.session.scalars(db.select(Episode.title).where(Episode.content_id == content_id)
                                       .order_by(Episode.order))) == ["Маяк", "Льды", "Отплытие"]
    answer = page.request.get(f"{origin}/episodes?content-id={content_id}")
    assert [e["title"] for e in answer.json()] == ["Маяк", "Льды", "Отплытие"]  # the player's order
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_categorys_titles_reordered_by_dragging_and_the_api_following(server: tuple[Flask, str], editor: Page):
    app, origin = server
    with app.app_context():
        drama = db.session.scalar(db.select(Category.id).join(ContentType).where(
            Category.slug == "drama-films", ContentType.slug == "film"))
    api = f"{origin}/types/film/categories/drama-films/contents"
    before = [item["id"] for item in editor.request.get(api).json()["items"]]
    page = editor
    page.goto(f"{origin}/admin/category/")
    page.click(f"a[href*='/admin/category/order/?group={drama}']")
    items = page.locator("[data-sortable-item]")
    shown = [int(i) for i in items.evaluate_all("rows => rows.map(r => r.dataset.orderId)")]
    assert shown == before
    drag(page, items.nth(len(shown) - 1).locator(".sort-handle"), items.nth(0))
    moved = [shown[-1], *shown[:-1]]
    assert [int(i) for i in items.evaluate_all("rows => rows.map(r => r.dataset.orderId)")] == moved
    expect(items.nth(0).locator("[data-sort-label]")).to_have_text("1")
    page.click(".order-form button[type=submit]")
    expect(page.locator(".alert-success")).to_contain_text("Порядок сохранён.")
    assert [item["id"] for item in page.request.get(api).json()["items"]] == moved
    assert page.errors == []  # type: ignore[attr-defined]


def test_leaving_a_form_with_unsaved_changes_asks_first(server: tuple[Flask, str], editor: Page):
    _, origin = server
    page = editor
    page.goto(f"{origin}/admin/content/edit/?id=1")
    asked: list[str] = []

    def dismiss(dialog) -> None:  # type: ignore[no-untyped-def]
        asked.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", dismiss)
    page.click("a.nav-link:has-text('Список')")  # nothing changed yet: it goes
    expect(page).to_have_url(f"{origin}/admin/content/")
    page.goto(f"{origin}/admin/content/edit/?id=1")
    page.fill("#title", "Долгая дорога домой, правка")
    page.click("a.nav-link:has-text('Список')")
    page.wait_for_timeout(300)  # (the dialog's round trip, not a wait for the application)
    assert asked == ["beforeunload"]
    assert "/admin/content/edit/" in page.url and page.input_value("#title") == "Долгая дорога домой, правка"
    page.remove_listener("dialog", dismiss)


def test_a_300_episode_series_loads_and_saves_in_seconds(server: tuple[Flask, str], editor: Page,
                                                        capsys: pytest.CaptureFixture[str]):
    app, origin = server
    with app.app_context(), unhurried(app, db.engine), transaction():  # 300 rows: the set-up's, not a request's (CI)
        series = db.session.scalar(db.select(ContentType).where(ContentType.slug == "series"))
        content = Content(title="Долгий сериал", content_type=series, published=True)
        content.seasons = [Season(order=s, episodes=[
            Episode(order=n, title=f"Серия {n}", duration=2400, content=content) for n in range(1, 101)])
            for s in (1, 2, 3)]
        db.session.add(content)
        db.session.flush()
        content_id = content.id
    page = editor
    began = time.perf_counter()
    page.goto(f"{origin}/admin/content/edit/?id={content_id}", wait_until="load")
    loaded = time.perf_counter() - began
    assert page.locator("[data-episode-row]").count() == 300
    seasons = page.locator("details.season-block")
    assert seasons.count() == 3 and seasons.evaluate_all("all => all.filter(d => d.open).length") == 0  # folded
    height = page.evaluate("document.documentElement.scrollHeight")
    seasons.nth(0).locator(":scope > summary").click()
    rows = page.locator("#seasons-0 [data-episode-row]")
    drag(page, rows.nth(1).locator(".sort-handle"), rows.nth(0))  # a swap of 1 and 2 by dragging
    began = time.perf_counter()
    save(page)
    saved = time.perf_counter() - began
    with app.app_context():
        assert db.session.scalar(db.select(Episode.title).join(Season).where(
            Season.content_id == content_id, Season.order == 1, Episode.order == 1)) == "Серия 2"
    with capsys.disabled():
        print(f"\n300-episode series: page loaded in {loaded:.2f} s ({height} px folded), saved in {saved:.2f} s")
    assert loaded < 10 and saved < 15
