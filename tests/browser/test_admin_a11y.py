"""The admin for everyone (issue 31): axe-core (the npm package, injected from node_modules) finds nothing on the main
admin pages; every admin page has lang="ru", one <main> and an <h1>; and on a phone 360 px wide no page is wider than
the screen (defect 8: it was 1,000 px), the menu opening from its button."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import upgrade
from playwright.sync_api import Browser, Page, expect

from app import create_app
from app.clock import now
from app.config import PROJECT_ROOT
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from app.models import AdCreative, AdMediaFile, AuditAction, AuditEntry, Role
from app.services.accounts.accounts import create_account
from app.transaction import transaction
from tests.browser.conftest import serving
from tests.browser.helpers import signed_in_admin

PASSWORD = "a long enough passphrase"
EMAIL = "admin@example.com"
AXE = PROJECT_ROOT / "node_modules" / "axe-core" / "axe.min.js"
RUN_AXE = """
async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' ' + n.html.slice(0, 160)),
  }));
}
"""
WIDEST = """() => [...document.querySelectorAll('body *')]
    .filter((node) => node.getBoundingClientRect().right > 361)
    .slice(-4)
    .map((node) => node.tagName + '.' + node.className + ' ' + Math.round(node.getBoundingClientRect().right))"""
# The main admin pages (issue 31): the dashboard, a list, a film's and a series' edit pages, the trail and a history,
# the accounts, a creative's edit page; each as an administrator sees it.
MAIN_PAGES = ["/admin/", "/admin/content/", "/admin/content/edit/?id=1", "/admin/content/edit/?id=2",
              "/admin/content/new/", "/admin/audit/", "/admin/audit/object/contents/1", "/admin/account/",
              "/admin/account/new/", "/admin/ad_creative/edit/?id={creative}", "/admin/ad_placement/new/",
              "/admin/operations/", "/admin/genre/", "/admin/uploads/episode/1/",
              "/admin/uploads/creative/{creative}/"]


@pytest.fixture(scope="module")
def admin_app(make_database: Callable[[str], str], assets_built: Path, demo_media: Path,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    app = create_app({"TESTING": True, "DATABASE_URL": make_database("admin-a11y"),
                      "MEDIA_ROOT": str(tmp_path_factory.mktemp("admin-a11y-media"))})
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
        with transaction():
            create_account(EMAIL, "Анна Админова", PASSWORD, Role.ADMIN)
            creative = AdCreative(title="Ролик партнёра", duration=15, advertiser="Партнёр")
            creative.media_files.append(AdMediaFile(url="/media/ads/partner.mp4", width=640, height=360))
            db.session.add(creative)
    with serving(app) as origin:
        yield app, origin


def pages(app: Flask) -> list[str]:
    with app.app_context():
        creative = db.session.scalar(db.select(AdCreative.id).order_by(AdCreative.id))
    return [url.format(creative=creative) for url in MAIN_PAGES]


def signed_in_page(browser: Browser, origin: str, **options: object) -> Page:
    return signed_in_admin(browser, origin, EMAIL, PASSWORD, **options)


def axe_violations(page: Page) -> list[dict]:
    if not page.evaluate("typeof window.axe === 'object'"):
        # not add_script_tag: the admin's CSP refuses inline scripts; DevTools' own evaluation is exempt from it
        page.evaluate("(source) => (0, eval)(source)", AXE.read_text(encoding="utf-8"))
    return page.evaluate(RUN_AXE)


def test_axe_finds_nothing_on_the_main_admin_pages(browser: Browser, admin_app: tuple[Flask, str]):
    app, origin = admin_app
    with app.app_context(), transaction():  # a history with a change in it
        db.session.add(AuditEntry(at=now(), account_label="Анна Админова <admin@example.com>",
                                  action=AuditAction.UPDATE, object_type="contents", object_id="1",
                                  object_label="Долгая дорога домой",
                                  changes={"title": ["Дорога", "Долгая дорога домой"], "published": [False, True]}))
    page = signed_in_page(browser, origin, viewport={"width": 1280, "height": 800})
    found = {}
    for url in pages(app):
        page.goto(f"{origin}{url}")
        page.wait_for_load_state("load")
        violations = axe_violations(page)
        if violations:
            found[url] = [f"{v['id']} ({v['impact']}): {v['help']} — {', '.join(v['targets'])}" for v in violations]
    assert found == {}, "\n".join(f"{url}:\n  " + "\n  ".join(lines) for url, lines in found.items())
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_every_admin_page_says_its_language_and_has_a_main_and_a_heading(browser: Browser,
                                                                          admin_app: tuple[Flask, str]):
    app, origin = admin_app
    page = signed_in_page(browser, origin, viewport={"width": 1280, "height": 800})
    for url in [*pages(app), "/admin/session/", "/admin/ad_hit/counts/", "/admin/content/availability/?id=2"]:
        page.goto(f"{origin}{url}")
        assert page.evaluate("document.documentElement.lang") == "ru", url
        assert page.locator("main").count() == 1, url
        assert page.locator("h1").count() == 1 and page.locator("h1").inner_text().strip(), url
    page.context.close()


def test_the_admin_fits_a_phone_360_px_wide(browser: Browser, admin_app: tuple[Flask, str]):
    app, origin = admin_app
    page = signed_in_page(browser, origin, viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    wide = {}
    for url in pages(app):
        page.goto(f"{origin}{url}")
        page.wait_for_load_state("load")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 360:
            wide[url] = (width, page.evaluate(WIDEST))
    assert wide == {}, wide
    page.goto(f"{origin}/admin/")
    menu = page.locator("#admin-navbar-collapse")
    expect(menu).to_be_hidden()
    page.get_by_role("button", name="Меню разделов").click()
    expect(menu.get_by_role("link", name="Редакция")).to_be_visible()
    page.goto(f"{origin}/admin/content/edit/?id=2")  # a series' page: every field within the screen
    overflowing = page.evaluate("""() => [...document.querySelectorAll('main input, main select, main textarea')]
        .filter((field) => field.offsetParent && field.getBoundingClientRect().right > 360 + 1)
        .map((field) => field.name || field.id)""")
    assert overflowing == []
    page.context.close()
