"""Real Chromium (Debian's /usr/bin/chromium) driven by Playwright against a live server on 127.0.0.1.

Every test gets a fresh app and database (the ``app`` fixture), seeded with the demo catalogue, served by a
threaded Werkzeug server on a free port, and the real generated media (generated once, then cached).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from werkzeug.serving import make_server

from app.config import Settings
from app.demo.media import generate

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# The flags this machine needs: no sandbox as root, and no calls home (the network is closed).
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--mute-audio",
]


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
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def live_server(app: Flask, demo_catalogue: Flask, demo_media: Path) -> Iterator[str]:
    app.config["MEDIA_ROOT"] = str(demo_media)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport={"width": 960, "height": 540}, locale="ru-RU")
    yield context
    context.close()


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.errors.append(str(error)))  # type: ignore[attr-defined]
    yield page
