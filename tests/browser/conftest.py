"""Real Chromium (Debian's /usr/bin/chromium) driven by Playwright against a live server on 127.0.0.1.

One live server for the whole session: an application with a database of its own (never the one the other tests
empty after each test), migrated and seeded once with the demo catalogue, serving the real generated media
(generated once, then cached). Its hashed assets are compressed once, not once per test. The player does write
progress here, under its device fingerprint (X-Session-Context), which is the same in every context of this
Chromium (same hardware, locale and screen); the page only reads it back (completed episodes, for the episode
choice) from a device_fp cookie, which a fresh context has not got on its first load, so a test that navigates
once sees none of the others' progress. Every test gets a fresh browser context: its own cookies, cache and
localStorage. Tests that read progress back use a server of their own (tests/browser/test_session.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Blueprint, Flask
from flask_migrate import upgrade
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from sqlalchemy import delete
from werkzeug.serving import make_server

from app import create_app
from app.config import Settings
from app.database import unhurried
from app.demo.ads import CLICK_THROUGH, CODEC, HEIGHT, WIDTH, encode_creative, generate_creatives, seed_ads
from app.demo.media import generate
from app.demo.seed import advance_sequences, seed_demo
from app.extensions import db
from app.models import AdCreative, AdMediaFile, AdPlacement, AdTrackingHit
from tests.browser.chromium import CHROMIUM, launch

DESKTOP = {"width": 960, "height": 540}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.path):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def demo_media() -> Path:
    root = Path(Settings.from_env().MEDIA_ROOT)
    generate(root)  # cached: returns at once when the media are up to date
    return root


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package")
    with sync_playwright() as playwright:
        # partner.example is this machine: a local server plays the partner's site (tests/browser/test_screens.py)
        browser = launch(playwright, args=["--host-resolver-rules=MAP partner.example 127.0.0.1"])
        yield browser
        browser.close()


@contextmanager
def in_thread(server: Any) -> Iterator[int]:
    """A socketserver-style ``server`` answering in a thread; yields its port; stops it on exit."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        thread.join(timeout=5)


@contextmanager
def serving(app: Flask) -> Iterator[str]:
    """``app`` on a free 127.0.0.1 port in a thread; yields its origin; on exit stops it and closes its database."""
    try:
        with in_thread(make_server("127.0.0.1", 0, app, threaded=True)) as port:
            yield f"http://127.0.0.1:{port}"
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def place(app: Flask, *placements: AdPlacement) -> None:
    """Only these ad placements, and no tracking hits yet."""
    with app.app_context():
        db.session.execute(delete(AdPlacement))
        db.session.execute(delete(AdTrackingHit))
        db.session.add_all(placements)
        db.session.commit()


# Short creatives beside the demo's (15 s skippable at 5 s, 30 s not skippable): an ad's rules (skipping, quartiles,
# the film after it) hold at any length, and a test need not sit through half a minute of one. One generated file.
SHORT_AD_S = 6
SHORT_NOT_SKIPPABLE, SHORT_SKIPPABLE = 3, 4  # creative ids; the second may be skipped after 1 s
SHORT_AD_FILE = "ads/test-6s.mp4"


def add_short_creatives(media_root: Path) -> None:
    """The two short creatives, their file generated once (cached under the media root)."""
    target = media_root / SHORT_AD_FILE
    if not target.is_file():
        encode_creative(target, SHORT_AD_S, "testsrc2", 660)
    for creative_id, skip_offset in ((SHORT_NOT_SKIPPABLE, ""), (SHORT_SKIPPABLE, "00:00:01")):
        creative = AdCreative(id=creative_id, title=f"Короткая реклама {creative_id}", duration=SHORT_AD_S,
                              skip_offset=skip_offset, click_through_url=CLICK_THROUGH)
        creative.media_files.append(AdMediaFile(url=f"/media/{SHORT_AD_FILE}", mime_type="video/mp4", width=WIDTH,
                                                height=HEIGHT, bitrate=314, codec=CODEC))
        db.session.add(creative)
    db.session.commit()
    advance_sequences(("ad_creatives",))


@contextmanager
def ads_server(
    database_url: str, media_root: Path, *placements: AdPlacement, blueprints: tuple[Blueprint, ...] = (),
    **config: object,
) -> Iterator[tuple[Flask, str]]:
    """An application of its own with ``config``, the demo catalogue, the demo ads (creatives generated, cached) and
    the short creatives, served on a free port: yields the app and its origin. With ``placements``, only those."""
    generate_creatives(media_root)
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "MEDIA_ROOT": str(media_root), **config})
    for blueprint in blueprints:
        app.register_blueprint(blueprint)
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
        seed_ads()
        add_short_creatives(media_root)
    if placements:
        place(app, *placements)
    with serving(app) as origin:
        yield app, origin


@contextmanager
def demo_server(database_url: str, media_root: Path, **config: object) -> Iterator[str]:
    """The demo catalogue (no ads) on an application of its own with ``config``, served on a free port: its origin."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "MEDIA_ROOT": str(media_root), **config})
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
    with serving(app) as origin:
        yield origin


@pytest.fixture(scope="session")
def live_server(make_database: Callable[[str], str], assets_built: Path, demo_media: Path) -> Iterator[str]:
    # as behind the production nginx: a test may set the country header on its browser context
    with demo_server(make_database("browser"), demo_media, TRUSTED_PROXIES="127.0.0.1") as origin:
        yield origin


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=DESKTOP, locale="ru-RU")
    yield context
    context.close()


def watch_errors(page: Page) -> Page:
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.errors.append(str(error)))  # type: ignore[attr-defined]
    return page


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    yield watch_errors(context.new_page())


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A phone: a narrow portrait viewport, touch, the mobile viewport meta honoured."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="ru-RU"
    )
    yield watch_errors(context.new_page())
    context.close()
