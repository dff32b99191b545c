"""The admin in Chromium, as an editor works in it: sign in, make a series with two seasons and three episodes on one
page (the nested "+ Серия" buttons are the page's own JavaScript), upload a poster, set where it plays; the player
page shows it with the episode asked for; an edit of the title shows on the player page and in the API at once; the
history has both changes."""

from __future__ import annotations

import shutil
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
from tests.browser.helpers import open_player

PASSWORD = "a long enough passphrase"
MASTER = "/media/titles/north-wind-{}/master.json"  # copies of the demo's generated media: the player plays them
SUBTITLE = ".player__subtitle"


def own_media(demo_media: Path, root: Path) -> Path:
    """A media root of the test's own with the new series' three folders, copies of the demo's first three episodes
    (a title's folder is one content's: the demo's «Тихая гавань» has those)."""
    for number in (1, 2, 3):
        folder = root / "titles" / f"north-wind-{number}"
        shutil.copytree(demo_media / "titles" / f"series-s1e{number}", folder)
        master = folder / "master.json"
        master.write_text(master.read_text().replace(f"/titles/series-s1e{number}/", f"/titles/north-wind-{number}/"))
    return root


@pytest.fixture(scope="module")
def admin_server(make_database: Callable[[str], str], assets_built: Path, demo_media: Path,
                 tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    media = own_media(demo_media, tmp_path_factory.mktemp("admin-media"))
    app = create_app({"TESTING": True, "DATABASE_URL": make_database("admin-browser"), "MEDIA_ROOT": str(media),
                      "TRUSTED_PROXIES": "127.0.0.1"})
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
        with transaction():
            create_account("editor@example.com", "Ольга Редакторова", PASSWORD, Role.EDITOR)
    with serving(app) as origin:
        yield app, origin


@pytest.fixture
def editor_page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU")
    yield watch_errors(context.new_page())
    context.close()


def choose(page: Page, select: str, label: str) -> None:
    """A select that select2 dresses: its own options, as select2 sets them."""
    page.evaluate("""([select, label]) => {
        const element = document.querySelector(select);
        element.value = [...element.options].find((option) => option.text === label).value;
        element.dispatchEvent(new Event('change', { bubbles: true }));
    }""", [select, label])


def fill_episode(page: Page, prefix: str, order: int, title: str, master: str) -> None:
    page.fill(f"#{prefix}-order", str(order))
    page.fill(f"#{prefix}-title", title)
    page.fill(f"#{prefix}-master_file_path", master)


def history_rows(page: Page) -> list[str]:
    return [" ".join(row.split()) for row in page.locator("table tbody tr").all_inner_texts()]


def test_an_editor_makes_a_series_and_the_player_shows_it(admin_server: tuple[Flask, str], editor_page: Page,
                                                          tmp_path: Path):
    app, origin = admin_server
    page = editor_page
    poster = tmp_path / "poster.png"
    Image.new("RGB", (300, 450), (20, 60, 200)).save(poster, "PNG")

    page.goto(f"{origin}/admin/content/new/")
    expect(page.locator("h1")).to_have_text("Вход в редакцию")  # sent to sign in, and back after it
    page.fill("input[name=email]", "editor@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{origin}/admin/content/new/")

    page.fill("#title", "Северный ветер")
    page.check("#published")  # a new title is a draft until this is ticked
    choose(page, "#content_type", "Сериал")
    page.fill("#description", "Маяк, шторм и двое смотрителей.")
    page.set_input_files("#poster", str(poster))
    page.click("#seasons-button")
    expect(page.locator("#seasons-0-order")).to_be_visible()  # (the form has moved: the second click aims anew)
    page.click("#seasons-button")
    page.fill("#seasons-0-order", "1")
    page.fill("#seasons-1-order", "2")
    page.locator("#seasons-0 a.btn", has_text="+ Серия").click()
    page.locator("#seasons-0 a.btn", has_text="+ Серия").click()
    page.locator("#seasons-1 a.btn", has_text="+ Серия").click()
    fill_episode(page, "seasons-0-episodes-0", 1, "Начало", MASTER.format(1))
    fill_episode(page, "seasons-0-episodes-1", 2, "Буря", MASTER.format(2))
    fill_episode(page, "seasons-1-episodes-0", 1, "Возвращение", MASTER.format(3))
    page.click("#availability_rules-button")
    page.select_option("#availability_rules-0-kind", "block_country")
    page.fill("#availability_rules-0-value", "de")
    page.locator("input[type=submit][value='Сохранить']").click()
    expect(page.locator(".alert-success")).to_contain_text("Запись была создана.")

    with app.app_context():
        content = db.session.scalar(db.select(Content).where(Content.title == "Северный ветер"))
        assert content is not None
        content_id, poster_url = content.id, content.poster_url
        assert [(s.order, [e.title for e in s.episodes]) for s in content.seasons] == [
            (1, ["Начало", "Буря"]), (2, ["Возвращение"])]
        assert [(rule.kind.value, rule.value) for rule in content.availability_rules] == [("block_country", "de")]
    assert poster_url.startswith("/media/posters/") and poster_url.endswith(".png")

    viewer = page.context.new_page()
    open_player(viewer, origin, f"movie_id={content_id}&season=2&episode=1")
    expect(viewer.locator(SUBTITLE)).to_have_text("Сезон 2, серия 1. Возвращение")
    assert "Северный ветер" in viewer.title()
    assert poster_url in viewer.content()
    in_germany = page.context.browser.new_context(  # type: ignore[union-attr]
        extra_http_headers={"X-Viewer-Country": "DE"})  # as the CDN in front says (TRUSTED_PROXIES)
    response = in_germany.new_page().goto(f"{origin}/?movie_id={content_id}")
    assert response is not None and response.status == 451  # the blocked screen's page (spec: the clip, then it)
    in_germany.close()

    page.goto(f"{origin}/admin/content/edit/?id={content_id}")
    page.fill("#title", "Северный ветер: режиссёрская версия")
    page.locator("input[type=submit][value='Сохранить']").click()
    expect(page.locator(".alert-success")).to_be_visible()
    open_player(viewer, origin, f"movie_id={content_id}")
    assert "Северный ветер: режиссёрская версия" in viewer.title()
    answer = viewer.request.get(f"{origin}/contents/{content_id}")
    assert answer.json()["title"] == "Северный ветер: режиссёрская версия"

    page.goto(f"{origin}/admin/audit/object/contents/{content_id}")
    rows = history_rows(page)
    assert len(rows) == 2, rows
    assert "изменён" in rows[0] and "Название: Северный ветер → Северный ветер: режиссёрская версия" in rows[0]
    assert "Ольга Редакторова <editor@example.com>" in rows[0]
    assert "создан" in rows[1] and "Название: — → Северный ветер" in rows[1]
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_poster_too_large_is_refused_before_the_form_is_sent(admin_server: tuple[Flask, str], editor_page: Page):
    """A 2 GB file would end in the server's 413 and lose the page: the page refuses it, the typing stays."""
    _, origin = admin_server
    page = editor_page
    page.goto(f"{origin}/admin/session/")
    page.fill("input[name=email]", "editor@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.goto(f"{origin}/admin/content/new/")
    page.fill("#title", "Черновик с большим постером")
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.method) if request.method == "POST" else None)
    page.set_input_files("#poster", files=[{"name": "огромный.jpg", "mimeType": "image/jpeg",
                                            "buffer": b"\xff" * (5 * 1_048_576 + 1)}])
    expect(page.locator(".editorial-file-error")).to_have_text("Файл «огромный.jpg» больше 5 МБ: выберите другой.")
    assert page.eval_on_selector("#poster", "input => input.files.length") == 0
    assert page.input_value("#title") == "Черновик с большим постером"
    assert sent == []
