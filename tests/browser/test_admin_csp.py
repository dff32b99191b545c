"""The admin in Chromium under its own Content-Security-Policy (issue 30, hole 11; app/http/csp.py ADMIN_POLICY): every
admin page an administrator can open loads without a violation, and what Flask-Admin did with inline handlers still
works through the admin's script (app/admin/static/editorial.js): a bulk action with its question, a row's delete
with its question, "+ Сезон" and "+ Серия", a filter added, a related row looked up, a date range picked, the links
Flask-Admin writes as javascript:void(0). And the policy is enforced: an inline script does not run."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import upgrade
from playwright.sync_api import Browser, Dialog, Page, expect

from app import create_app
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from app.models import Content, Genre, Role
from app.services.accounts.accounts import create_account
from app.transaction import transaction
from tests.admin.test_access import admin_addresses
from tests.browser.conftest import serving, watch_errors

PASSWORD = "a long enough passphrase"
EMAIL = "admin@example.com"

# Installed before the page's own scripts: every violation the page reports.
WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => __violations.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + (e.sourceFile || '')));
"""


@pytest.fixture(scope="module")
def admin_app(make_database: Callable[[str], str], assets_built: Path, demo_media: Path,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    app = create_app({"TESTING": True, "DATABASE_URL": make_database("admin-csp"),
                      "MEDIA_ROOT": str(tmp_path_factory.mktemp("admin-csp-media"))})
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
        with transaction():
            create_account(EMAIL, "Анна Админова", PASSWORD, Role.ADMIN)
    with serving(app) as origin:
        yield app, origin


@pytest.fixture
def admin_page(browser: Browser, admin_app: tuple[Flask, str]) -> Iterator[Page]:
    _, origin = admin_app
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU")
    context.add_init_script(WATCH)
    page = watch_errors(context.new_page())
    page.console = []  # type: ignore[attr-defined]
    page.on("console", lambda message: page.console.append(message.text)  # type: ignore[attr-defined]
            if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text else None)
    page.goto(f"{origin}/admin/session/")
    clean(page)  # the sign-in page too
    page.fill("input[name=email]", EMAIL)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{origin}/admin/")
    yield page
    context.close()


def clean(page: Page) -> None:
    """No violation reported on the page, none in the console, no uncaught error."""
    assert page.evaluate("() => window.__violations") == [], page.url
    assert page.console == [], page.url  # type: ignore[attr-defined]
    assert page.errors == [], page.url  # type: ignore[attr-defined]


def test_every_admin_page_loads_without_a_violation(admin_app: tuple[Flask, str], admin_page: Page):
    app, origin = admin_app
    urls = [url for method, url in admin_addresses(app) if method == "GET" and "/ajax/" not in url
            and "/export/" not in url]
    urls += ["/admin/content/new/", "/admin/content/edit/?id=2", "/admin/account/edit/?id=1",
             "/admin/content/availability/?id=2&country=ru&domain=partner.example", "/admin/no-such-page/",
             "/admin/genre/?page=-1", "/admin/audit/?flt0_0=zzz"]
    visited = 0
    for url in urls:
        response = admin_page.goto(f"{origin}{url}")
        assert response is not None
        if "text/html" not in response.headers.get("content-type", ""):
            continue
        admin_page.wait_for_load_state("load")
        clean(admin_page)
        visited += 1
    assert visited > 40


def test_the_pages_own_javascript_works_under_the_policy(admin_app: tuple[Flask, str], admin_page: Page):
    app, origin = admin_app
    page = admin_page
    questions: list[str] = []

    def answer(dialog: Dialog, accept: bool) -> None:
        questions.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    # a bulk action: chosen in the menu, asked, done
    page.goto(f"{origin}/admin/content/")
    page.locator("input.action-checkbox[value='2']").check()
    page.once("dialog", lambda dialog: answer(dialog, True))
    page.locator("a.dropdown-toggle", has_text="С выбранным").click()
    page.locator("a[data-admin-action='unpublish']").click()
    expect(page.locator(".alert-success")).to_contain_text("Снято с публикации: 1.")
    assert questions == ["Снять выбранные с публикации?"]
    with app.app_context():
        assert db.session.get(Content, 2).published is False
        content = db.session.get(Content, 2)
        content.published = True
        db.session.commit()
    clean(page)

    # a row's delete: asked first; "no" keeps the row, "yes" deletes it
    with app.app_context(), transaction():
        db.session.add(Genre(title="Удаляемый жанр", slug="udalyaemyy"))
    page.goto(f"{origin}/admin/genre/?search=udalyaemyy")
    trash = page.locator("form.icon button[data-confirm]")
    expect(trash).to_have_count(1)
    page.once("dialog", lambda dialog: answer(dialog, False))
    trash.click()
    page.wait_for_load_state("load")
    with app.app_context():
        assert db.session.scalar(db.select(Genre).where(Genre.slug == "udalyaemyy")) is not None
    page.once("dialog", lambda dialog: answer(dialog, True))
    trash.click()
    expect(page.locator(".alert-success")).to_be_visible()
    with app.app_context():
        assert db.session.scalar(db.select(Genre).where(Genre.slug == "udalyaemyy")) is None
    assert len(questions) == 3 and questions[1] == questions[2]
    clean(page)

    # a filter added from its menu (javascript:void(0) links that are not followed), and the pager's own
    page.goto(f"{origin}/admin/audit/")
    page.locator("a.dropdown-toggle", has_text="Добавить Фильтр").click()
    page.locator("a.filter", has_text="Когда").click()
    expect(page.locator("#filter-form table tr, .filters tr").first).to_be_visible()
    page.locator("input.filter-val").first.click()  # the date range picker writes its own inline styles
    page.locator("ul.nav-tabs a.nav-link.active").click()
    assert page.url.startswith(f"{origin}/admin/audit/")
    clean(page)

    # "+ Сезон", then "+ Серия" inside the new season; a person looked up (select2 asks this origin)
    page.goto(f"{origin}/admin/content/new/")
    page.click("#seasons-button")
    page.locator("#seasons-0 a.btn", has_text="+ Серия").click()
    expect(page.locator("#seasons-0-episodes-0-title")).to_be_visible()
    page.click("#persons-button")
    with page.expect_response(lambda response: "/ajax/lookup/" in response.url) as lookup:
        page.locator("#persons-0 .select2-container").first.click()
        page.keyboard.type("а")
    assert lookup.value.status == 200
    clean(page)
    assert page.evaluate("() => window.__violations") == []


def test_the_policy_is_enforced_in_the_admin(admin_app: tuple[Flask, str], admin_page: Page):
    """So the tests above could fail: an inline script and an inline handler do not run, and each is reported."""
    _, origin = admin_app
    page = admin_page
    response = page.goto(f"{origin}/admin/genre/")
    assert response is not None and "script-src 'self'" in response.headers["content-security-policy"]
    ran = page.evaluate("""async () => {
      window.__ran = [];
      const inline = document.createElement('script');
      inline.textContent = 'window.__ran.push("inline")';
      document.body.appendChild(inline);
      const button = document.createElement('button');
      button.setAttribute('onclick', 'window.__ran.push("handler")');
      document.body.appendChild(button);
      button.click();
      await new Promise((resolve) => setTimeout(resolve, 0));
      return window.__ran;
    }""")
    assert ran == []
    reported = page.evaluate("() => window.__violations")
    assert len(reported) == 2 and all(entry.startswith("script-src") for entry in reported), reported
