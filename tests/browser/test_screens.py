"""Server-rendered error screens, and the demo publisher page receiving the player's messages."""

from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

from app import texts
from tests.browser.conftest import in_thread


@pytest.mark.parametrize(("query", "referer", "text"), [
    ("/", None, texts.MISSING_MOVIE_ID),
    ("/?movie_id=abc", None, texts.CONTENT_NOT_AVAILABLE),
    ("/?movie_id=404404", None, texts.CONTENT_NOT_AVAILABLE),
    ("/?movie_id=5", "https://elsewhere.example/films/5", texts.CONTENT_NOT_AVAILABLE),  # a blocked domain
])
def test_error_screens(browser, live_server, query, referer, text):
    context = browser.new_context()
    page = context.new_page()
    stylesheets = []
    page.on("request", lambda r: stylesheets.append(r.url) if r.resource_type == "stylesheet" else None)
    page.goto(live_server + query, referer=referer)
    expect(page.get_by_role("alert")).to_have_text(text)
    assert page.locator("button[data-player-start]").count() == 0
    assert page.locator("script[type=module]").count() == 0  # an error screen needs no script
    assert stylesheets == []  # nor a stylesheet: the shell's styles are inline
    assert page.locator(".player__error").evaluate("e => getComputedStyle(e).display") == "flex"  # and applied
    context.close()


@contextmanager
def partner_site(player_url: str) -> Iterator[str]:
    """The partner's site (partner.example, which the test browser resolves to this machine) with a page that frames
    ``player_url``: the browser itself says where the player is embedded (Referer, Sec-Fetch-Dest)."""
    body = f'<!doctype html><iframe src="{player_url}" width="640" height="360"></iframe>'.encode()

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    with in_thread(ThreadingHTTPServer(("127.0.0.1", 0), Page)) as port:
        yield f"http://partner.example:{port}/films/5"


def test_the_partner_domain_gets_the_player(live_server, page):
    with partner_site(f"{live_server}/?movie_id=5") as address:
        page.goto(address)
        frame = page.frame_locator("iframe")
        expect(frame.locator("h1.player__title")).to_have_text("Только для партнёров")
        expect(frame.locator("button[data-player-start]")).to_be_visible()


def test_blocked_content_plays_in_another_country(browser, live_server):
    context = browser.new_context(extra_http_headers={"X-Viewer-Country": "DE"})
    page = context.new_page()
    page.goto(f"{live_server}/?movie_id=3")
    expect(page.locator("h1.player__title")).to_have_text("Закрытый показ")
    context.close()


DEMO_PLAYER = "[data-demo-frame] iframe"  # made by /lib.js


def test_demo_page_shows_the_players_messages_and_sends_it_commands(live_server, page):
    page.goto(f"{live_server}/demo")
    expect(page.locator(DEMO_PLAYER)).to_have_attribute(
        "allow", "autoplay; fullscreen; picture-in-picture; encrypted-media")
    player = page.frame_locator(DEMO_PLAYER)
    expect(page.locator('[data-demo-messages] li[data-type="ready"]')).to_have_count(1, timeout=10_000)
    player.locator("button[data-player-start]").click()
    message = page.locator('[data-demo-messages] li[data-type="timeProgressChanged"]').first
    expect(message).to_contain_text('"currentTime"', timeout=20_000)
    expect(message).to_contain_text('"duration":1860')
    page.click('[data-demo-command="pause"]')
    expect(player.locator("#player")).to_have_attribute("data-state", "paused")


def test_demo_form_reloads_the_frame_with_parameters(live_server, page):
    page.goto(f"{live_server}/demo")
    page.select_option('select[name="movie_id"]', "2")
    page.fill('input[name="season"]', "2")
    page.fill('input[name="episode"]', "2")
    page.click("button[type=submit]")
    player = page.frame_locator(DEMO_PLAYER)
    expect(player.locator(".player__subtitle")).to_have_text("Сезон 2, серия 2. Туман")
    expect(page.locator(DEMO_PLAYER)).to_have_count(1)  # the old frame is gone
