"""A site on its own origin calls the API from its pages' scripts (app/http/cors.py, docs/api.md "Calling from a site
on its own domain"), in real Chromium: a page of an origin in SITE_ORIGINS signs in, reads a content, refreshes its
token (read from the Authorization header, spec §7) and saves progress, by fetch() with credentials, with a bearer
token and with the cookies and their CSRF header; a page of any other origin is refused by the browser.

The site is a second local server on 127.0.0.1 (another port: another origin, the same site, so the development
cookies, SameSite=Lax over plain http, travel as a production site's SameSite=None; Secure ones do over https).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from flask import Flask
from flask_migrate import upgrade
from playwright.sync_api import Page

from app import create_app
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from tests.api.accounts_helpers import PASSWORD, make_account
from tests.browser.conftest import in_thread, serving

EMAIL = "site-reader@example.com"
SERIES, EPISODE = 2, 3


@contextmanager
def site() -> Iterator[str]:
    """A site's page, blank: its origin is what the browser judges."""
    body = b"<!doctype html><title>site</title><p>site"

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
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def sites(make_database: Callable[[str], str], assets_built, demo_media) -> Iterator[tuple[str, str, str]]:
    """(the API's origin, a listed site's, an unlisted one's)."""
    with site() as listed, site() as unlisted:
        app: Flask = create_app({"TESTING": True, "DATABASE_URL": make_database("site"),
                                 "MEDIA_ROOT": str(demo_media), "SITE_ORIGINS": listed})
        with app.app_context(), unhurried(app, db.engine):
            upgrade()
            seed_demo()
        make_account(app, EMAIL)
        with serving(app) as api:
            yield api, listed, unlisted


# What a site's script does: sign in, read a content, refresh the token as spec §7 says (the body's tokens in, the new
# one from the Authorization header), save progress as a bearer, read it back; then the cookies' way: a read by the
# authToken cookie alone, a write with the double-submit CSRF header.
SITE_FLOW = """
async ([api, email, password, series, episode]) => {
  const json = { 'Content-Type': 'application/json' };
  const out = {};
  const signIn = await fetch(`${api}/authentication`, { method: 'POST', credentials: 'include', headers: json,
                                                       body: JSON.stringify({ email, password }) });
  const tokens = await signIn.json();
  out.signIn = [signIn.status, signIn.headers.get('Authorization') === `Bearer ${tokens.accessToken}`];
  const content = await fetch(`${api}/contents/${series}`, { credentials: 'include' });
  out.content = [content.status, (await content.json()).id, Boolean(content.headers.get('ETag')),
                 Boolean(content.headers.get('X-Request-Id'))];
  const refresh = await fetch(`${api}/authentication/refresh`, { method: 'POST', credentials: 'include', headers: json,
    body: JSON.stringify({ refreshToken: tokens.refreshToken, accessToken: tokens.accessToken }) });
  const renewed = refresh.headers.get('Authorization');
  out.refresh = [refresh.status, Boolean(renewed) && renewed !== `Bearer ${tokens.accessToken}`];
  const saved = await fetch(`${api}/contents/${series}/episodes/${episode}/time-progress`, { method: 'POST',
    credentials: 'include', headers: { ...json, Authorization: renewed }, body: JSON.stringify({ time: 42 }) });
  out.saved = saved.status;
  const progress = await fetch(`${api}/contents/${series}/episodes/progress`, { credentials: 'include',
                                                                                headers: { Authorization: renewed } });
  out.progress = (await progress.json()).map((item) => [item.episodeId, item.time]);
  const details = await fetch(`${api}/user/details`, { credentials: 'include' });
  out.details = [details.status, (await details.json()).email];
  const csrf = document.cookie.split('; ').find((c) => c.startsWith('csrf_access_token=')).split('=')[1];
  const marked = await fetch(`${api}/contents/${series}/episodes/${episode}/completed`, { method: 'POST',
    credentials: 'include', headers: { 'X-CSRF-TOKEN': csrf } });
  out.marked = marked.status;
  return out;
}
"""

# The same calls from a page of an origin not listed: the browser gives the script nothing (a TypeError).
REFUSED = """
async ([api, series, episode]) => {
  const tries = {
    read: () => fetch(`${api}/contents/${series}`, { credentials: 'include' }),
    readWithoutCredentials: () => fetch(`${api}/contents/${series}`),
    signIn: () => fetch(`${api}/authentication`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
                                                   body: '{}' }),
    save: () => fetch(`${api}/contents/${series}/episodes/${episode}/completed`,
                      { method: 'POST', headers: { Authorization: 'Bearer x' } }),
  };
  const out = {};
  for (const [name, call] of Object.entries(tries)) {
    try { out[name] = `answered ${(await call()).status}`; } catch (error) { out[name] = error.name; }
  }
  return out;
}
"""


def test_a_listed_site_signs_in_reads_refreshes_and_saves_progress(sites, page: Page):
    api, listed, _ = sites
    page.goto(listed)
    out = page.evaluate(SITE_FLOW, [api, EMAIL, PASSWORD, SERIES, EPISODE])
    assert out == {
        "signIn": [200, True],  # the Authorization header readable: exposed
        "content": [200, SERIES, True, True],
        "refresh": [200, True],
        "saved": 204,
        "progress": [[EPISODE, 42]],
        "details": [200, EMAIL],  # the authToken cookie the sign-in set, sent with credentials
        "marked": 204,  # a cookie-authenticated write with its CSRF header
    }
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_page_of_another_origin_is_refused_by_the_browser(sites, page: Page):
    api, _, unlisted = sites
    page.goto(unlisted)
    out = page.evaluate(REFUSED, [api, SERIES, EPISODE])
    assert out == {"read": "TypeError", "readWithoutCredentials": "TypeError", "signIn": "TypeError",
                   "save": "TypeError"}
