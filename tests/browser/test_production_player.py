"""The production shape in Chromium, as its users meet it (deploy/production.py: Debian's nginx → gunicorn → PostgreSQL
and Redis, ENV=production): a publisher's page on its own origin embeds the player with /lib.js, the pre-roll plays
and is skipped, the film reaches its first frame; the first administrator, made with the operator's command, signs in
to /admin on nginx's port and uploads a poster of a few megabytes, which nginx then serves."""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser, expect

from deploy.production import Shape
from tests.browser.helpers import PLAYED_ENOUGH
from tests.production import create_admin, fetch, production_shape

ADMIN, PASSWORD = "operator@example.com", "a long enough passphrase for the operator"
PUBLISHER_PAGE = """<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>Кинотеатр партнёра</title></head>
<body><h1>Долгая дорога домой</h1><div id="player" style="width: 960px"></div>
<script src="{player}/lib.js"></script>
<script>
  window.player = PlayerHost.createPlayer('#player', {{ movieId: 1, autoPlay: true }});
  window.said = [];
  player.on('ready', () => window.said.push('ready'));
</script></body></html>"""


@pytest.fixture(scope="module")
def shape() -> Iterator[tuple[Shape, str]]:
    with production_shape("browser") as up:
        yield up


@pytest.fixture(scope="module")
def publisher(shape: tuple[Shape, str]) -> Iterator[str]:
    """A publisher's site on an origin of its own (localhost: not the player's 127.0.0.1), serving one page."""
    body = PUBLISHER_PAGE.format(player=shape[0].base).encode()

    class Film(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Film)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://localhost:{server.server_port}/film.html"
    finally:
        server.shutdown()


def test_a_publishers_page_plays_the_film_after_its_pre_roll(browser: Browser, publisher: str):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU")
    try:
        page = context.new_page()
        failed: list[str] = []
        page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        page.goto(publisher)
        frame = page.frame_locator("iframe")
        skip = frame.locator("button[data-ad-control='skip']")
        expect(frame.locator("video.ad-layer__video")).to_have_count(1, timeout=20_000)  # the pre-roll plays
        expect(skip).to_have_text("Пропустить", timeout=20_000)
        skip.click()
        player = next(f for f in page.frames if f != page.main_frame)
        player.wait_for_function(PLAYED_ENOUGH, arg=0.5, timeout=20_000)  # the film's own frames, past its start
        assert page.evaluate("window.said") == ["ready"]
        assert failed == []
    finally:
        context.close()


def test_the_first_administrator_signs_in_and_uploads_a_poster_of_megabytes(browser: Browser,
                                                                            shape: tuple[Shape, str], tmp_path: Path):
    up, database = shape
    create_admin(database, ADMIN, PASSWORD)
    poster = tmp_path / "poster.png"
    noise = random.Random(7).randbytes(1200 * 900 * 3)
    Image.frombytes("RGB", (1200, 900), noise).save(poster, "PNG")
    assert poster.stat().st_size > 3 * 1_048_576  # past the API's 64 KiB and nginx's default 1 MiB alike
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU")
    try:
        page = context.new_page()
        page.goto(f"{up.base}/admin")
        expect(page).to_have_url(re.compile(re.escape(f"{up.base}/admin/session/?next=/admin/")))  # nginx's port
        page.fill("input[name=email]", ADMIN)
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        expect(page).to_have_url(f"{up.base}/admin/")
        page.goto(f"{up.base}/admin/content/edit/?id=1")
        page.set_input_files("#poster", str(poster))
        page.locator("input[type=submit][value='Сохранить']").click()
        expect(page.locator(".alert-success")).to_be_visible(timeout=30_000)
        page.goto(f"{up.base}/admin/content/edit/?id=1")
        stored = page.evaluate("document.querySelector('#poster_url, [name=poster_url]')?.value")
    finally:
        context.close()
    assert stored and stored.startswith("/media/posters/"), stored
    status, headers, body, _ = fetch(up.base + stored)
    assert status == 200 and headers["Server"].startswith("nginx") and body[:8] == b"\x89PNG\r\n\x1a\n"
