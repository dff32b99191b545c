"""The session context (spec §3, §7, §9), error reporting in the browser (spec §1), and a player that keeps working
with cookies and storage blocked.

A live server of its own (its own database, so that the progress the player now sends under the device fingerprint
can be read back) with SENTRY_BROWSER_DSN pointing at a fake ingest on another port (tests/ingest.py: a real HTTP
endpoint collecting the envelopes the real @sentry/browser posts). The no-DSN case runs on the shared live server.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask, abort, request
from flask_migrate import upgrade
from playwright.sync_api import BrowserContext, Page, Request, Response, expect
from sqlalchemy import select

from app import create_app
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from app.models import WatchProgress
from tests.browser.conftest import serving
from tests.browser.helpers import (
    click_control,
    open_player,
    player,
    poll,
    start,
    wait_for_idle,
    wait_until_playing,
)
from tests.conftest import ASSETS_DIR, signed_identity
from tests.ingest import Ingest, serve_ingest

FILM = "movie_id=1"  # 1860 s, two voices
# episode 2 in its other voice, whose HLS master playlist the server is made to 404 (the default voice's comes with
# the page, app/http/media.py first_playlist)
BROKEN_EPISODE = "movie_id=2&season=1&episode=1&voice_author=Оригинал"
BROKEN_PLAYLIST = "/titles/series-s1e1/master-2.m3u8"  # at its signed address (app/http/media.py)
IDENTITY = re.compile(r"(?P<fingerprint>[A-Za-z0-9_-]{8,64})\.(?P<device>[A-Za-z0-9_-]{22})\.[A-Za-z0-9_-]{22}")
YEAR = 365 * 24 * 3600

# Cookies and both storages throw, as in a browser that blocks them for this frame (a SecurityError).
BLOCK_STORAGE = """
(() => {
  const refuse = () => { throw new DOMException('The operation is insecure.', 'SecurityError'); };
  Object.defineProperty(Document.prototype, 'cookie', { get: refuse, set: refuse, configurable: true });
  Object.defineProperty(window, 'localStorage', { get: refuse, configurable: true });
  Object.defineProperty(window, 'sessionStorage', { get: refuse, configurable: true });
})();
"""


@pytest.fixture(scope="module")
def reporting() -> Iterator[tuple[Ingest, str]]:
    with serve_ingest() as served:
        yield served


@pytest.fixture(scope="module")
def session_app(
    make_database: Callable[[str], str], assets_built, demo_media, reporting
) -> Iterator[tuple[Flask, str]]:
    _ingest, ingest_origin = reporting
    app = create_app({
        "TESTING": True,
        "DATABASE_URL": make_database("session"),
        "MEDIA_ROOT": str(demo_media),
        "SENTRY_BROWSER_DSN": ingest_origin.replace("http://", "http://publickey@") + "/3",
        "SENTRY_PROJECT": "player-e2e",
        "FAIL_PATHS": set(),
    })

    @app.before_request
    def fail_on_purpose() -> None:
        if any(request.path.endswith(path) for path in app.config["FAIL_PATHS"]):
            abort(404)

    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
    with serving(app) as origin:
        yield app, origin


def sentry_chunk() -> str:
    """The lazy Sentry chunk's file name, from the build's metafile."""
    outputs = json.loads((ASSETS_DIR / "meta.json").read_text())["outputs"]
    names = [name for name, o in outputs.items() if o.get("entryPoint") == "static_src/reporting/sentry.ts"]
    assert len(names) == 1
    return names[0].rsplit("/", 1)[-1]


def record(page: Page, part: str) -> list[Request]:
    seen: list[Request] = []
    page.on("request", lambda r: seen.append(r) if part in r.url else None)
    return seen


def fingerprint_cookie(
    page: Page, context: BrowserContext, timeout: float = 5_000, wanted: Callable[[str], bool] = lambda value: True
) -> dict[str, Any]:
    """The device_fp cookie in the context's jar once there (the page writes it when its identity comes back; no
    page event says when the browser's store has it)."""
    cookies = poll(page, lambda: [c for c in context.cookies() if c["name"] == "device_fp" and wanted(c["value"])],
                   until=bool, timeout=timeout)
    assert len(cookies) == 1, context.cookies()
    return dict(cookies[0])


def is_save(response: Response) -> bool:
    """The answer to a progress save: the server has filed it by then (its transaction is committed)."""
    return "/time-progress" in response.url and response.request.method == "POST"


def progress_of(app: Flask, viewer_key: str) -> list[tuple[int, int]]:
    with app.app_context():
        rows = db.session.scalars(select(WatchProgress).where(WatchProgress.viewer_key == viewer_key)).all()
        return [(row.episode_id, row.time) for row in rows]


def test_a_first_visit_sets_device_fp_and_every_api_call_carries_it(session_app, context: BrowserContext, page: Page):
    app, base = session_app
    ad_lists, saves = record(page, "/ad-list.json"), record(page, "/time-progress")
    before = time.time()
    page.clock.install()  # the progress save's 10 s pass on the page's clock (below), the film plays in real time
    open_player(page, base, f"{FILM}&t=20")
    start(page, 20.5)

    cookie = fingerprint_cookie(page, context)
    value = cookie["value"]
    identity = IDENTITY.fullmatch(value)  # issued by the service (POST /session-context) after the first frame
    assert identity
    assert cookie["path"] == "/" and cookie["domain"] == "127.0.0.1"
    assert before + YEAR - 60 < cookie["expires"] < time.time() + YEAR + 60  # 365 days
    assert cookie["sameSite"] == "None" and cookie["secure"] is True and cookie["httpOnly"] is False
    # CHIPS: Chromium keys a Partitioned cookie by the top-level site (here the page itself, as a publisher's frame
    # would get the publisher's). http://127.0.0.1 counts as a secure context, so Secure cookies are kept on it.
    assert cookie.get("partitionKey") == base.rsplit(":", 1)[0]

    # The ad list (ads are on: the application's own list) went out on the first start with what the device had then:
    # the identity, asked for in idle time once the page had painted, or the fingerprint if it was not back yet
    assert len(ad_lists) == 1
    assert ad_lists[0].headers.get("x-session-context") in (value, identity["fingerprint"])

    # Progress goes to the API after 10 s of playback, and the server files it under the fingerprint.
    assert saves == []
    with page.expect_response(is_save, timeout=5_000):  # else: no progress was sent after 10 s of playback
        page.clock.fast_forward(10_000)
    assert {r.headers.get("x-session-context") for r in saves} == {value}
    assert all(r.method == "POST" for r in saves)
    [(episode_id, seconds)] = progress_of(app, f"dev:{identity['device']}")
    assert episode_id == 1 and 20 <= seconds <= 24
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_device_fp_cookie_already_there_is_reused(session_app, context: BrowserContext, page: Page):
    app, base = session_app
    earlier = signed_identity(app, "earlier0visit000000001")  # what the service issued on an earlier visit
    context.add_cookies([{"name": "device_fp", "value": earlier, "url": base}])
    saves, issued = record(page, "/time-progress"), record(page, "/session-context")
    open_player(page, base, f"{FILM}&t=40")
    start(page, 41)
    with page.expect_response(is_save):
        click_control(page, "play")  # a pause saves the position at once
    expect(player(page)).to_have_attribute("data-state", "paused")
    assert [r.headers.get("x-session-context") for r in saves] == [earlier]
    assert [c["value"] for c in context.cookies() if c["name"] == "device_fp"] == [earlier]
    assert issued == []  # nothing asked for: the identity was there
    assert progress_of(app, "dev:earlier0visit000000001")


def test_an_older_plain_fingerprint_cookie_is_replaced_by_an_issued_identity(
    session_app, context: BrowserContext, page: Page
):
    _app, base = session_app
    context.add_cookies([{"name": "device_fp", "value": "plainSha256HashOfSignals_0123456789abcdef", "url": base}])
    open_player(page, base, f"{FILM}&t=40")
    start(page, 40.3)
    cookie = fingerprint_cookie(page, context, wanted=lambda value: IDENTITY.fullmatch(value) is not None)
    assert IDENTITY.fullmatch(cookie["value"])


def test_with_cookies_and_storage_throwing_the_film_plays_and_progress_still_goes_out(
    session_app, reporting, context: BrowserContext, page: Page
):
    app, base = session_app
    ingest, _ = reporting
    page.add_init_script(BLOCK_STORAGE)
    saves, chunks = record(page, "/time-progress"), record(page, sentry_chunk())
    open_player(page, base, f"{FILM}&t=60&user_id=blocked-storage")
    assert page.evaluate("() => { try { return document.cookie; } catch (e) { return e.name; } }") == "SecurityError"
    start(page, 61)
    wait_until_playing(page, 62.5)
    with page.expect_response(is_save):
        click_control(page, "play")  # a pause saves at once
    expect(player(page)).to_have_attribute("data-state", "paused")
    click_control(page, "play")
    wait_until_playing(page, 63)

    # The identity lived in memory: the save carried it, and the server filed it; no cookie was stored.
    assert len(saves) >= 1
    [value] = {r.headers.get("x-session-context") for r in saves}
    identity = IDENTITY.fullmatch(value or "")
    assert identity
    assert progress_of(app, f"dev:{identity['device']}")
    assert [c for c in context.cookies() if c["name"] == "device_fp"] == []
    # Nothing broke: no page error, and nothing was reported by the error reporting that loaded meanwhile. An error
    # thrown now is reported and arrives: had anything been reported before it, that would have arrived first.
    assert len(chunks) == 1
    assert page.errors == []  # type: ignore[attr-defined]
    marker = "thrown on purpose, after the film"
    page.evaluate("(marker) => { setTimeout(() => { throw new Error(marker); }, 0); }", marker)

    def from_this_page(events: list[dict]) -> list[str]:
        return [e["exception"]["values"][-1]["value"] for e in events
                if "blocked-storage" in e.get("request", {}).get("url", "")]

    reported = from_this_page(ingest.wait_for_events(lambda events: marker in from_this_page(events), seconds=10))
    assert reported == [marker]


def test_a_fatal_hls_error_reaches_sentry_with_the_error_id_on_screen(session_app, reporting, page: Page):
    app, base = session_app
    ingest, _ = reporting
    chunks = record(page, sentry_chunk())
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    app.config["FAIL_PATHS"] = {BROKEN_PLAYLIST}
    try:
        open_player(page, base, BROKEN_EPISODE)
        assert chunks == []  # not on the way to the first frame
        page.click("button[data-player-start]")
        alert = page.get_by_role("alert")
        expect(alert.locator(".player__error-text")).to_have_text("Контент не доступен", timeout=15_000)
        error_id = alert.get_attribute("data-error-id")
        assert error_id and re.fullmatch(r"[0-9a-f]{16}", error_id)
        expect(alert.locator(".player__error-id")).to_have_text(f"Идентификатор ошибки: {error_id}")
    finally:
        app.config["FAIL_PATHS"] = set()

    def with_id(wanted: str) -> Callable[[list[dict]], bool]:
        return lambda events: any(e.get("tags", {}).get("error_id") == wanted for e in events)

    events = ingest.wait_for_events(with_id(error_id), seconds=15)
    [event] = [e for e in events if e.get("tags", {}).get("error_id") == error_id]
    # Playwright hands its request events to Python only while a call of ours runs: waiting on the ingest server
    # runs none, so the chunk's request may not be recorded yet though it came first
    page.wait_for_function("() => performance.getEntriesByType('resource').some((e) => e.name.includes(arguments[0]))"
                           .replace("arguments[0]", json.dumps(sentry_chunk())), timeout=5_000)
    assert len(chunks) == 1  # Sentry loaded because of the error, after it: the report waited in the queue
    assert event["environment"] == "production"
    assert event["tags"]["project_label"] == "player-e2e"
    assert event["tags"]["error_code"] == "HTTP_404"
    assert event["extra"]["address"].endswith(BROKEN_PLAYLIST)
    assert event["exception"]["values"][-1]["type"] == "HTTP_404"
    assert event["exception"]["values"][-1]["value"].endswith(f"(error id {error_id})")
    # Session replay on every error (spec §1): the replay recorded in the background is sent with it.
    replay_id = event["tags"]["replayId"]
    replays = ingest.wait_for("replay_event", lambda found: any(r["replay_id"] == replay_id for r in found), 15)
    assert any(r["replay_id"] == replay_id and event["event_id"] in r.get("error_ids", []) for r in replays)

    # An unhandled error from here on is reported too, with the id the player logged for it.
    logged = re.compile(r"player: unhandled error, id ([0-9a-f]{16})")
    with page.expect_console_message(lambda message: logged.search(message.text) is not None, timeout=5_000):
        page.evaluate("setTimeout(() => { throw new Error('unhandled on purpose'); }, 0)")
    [unhandled_id] = [m.group(1) for line in console if (m := logged.search(line))]
    events = ingest.wait_for_events(with_id(unhandled_id), seconds=10)
    [event] = [e for e in events if e.get("tags", {}).get("error_id") == unhandled_id]
    assert event["exception"]["values"][-1]["value"] == "unhandled on purpose"
    assert event["exception"]["values"][-1]["mechanism"]["handled"] is False


def test_without_a_dsn_no_sentry_code_is_requested(live_server, page: Page):
    requested = record(page, "/")
    open_player(page, live_server, f"{FILM}&auto_play=1")
    wait_until_playing(page, 1.5)
    page.evaluate("setTimeout(() => { throw new Error('unhandled on purpose'); }, 0)")
    # With a DSN, Sentry loads in idle time (at most 2 s) after the first frame, or after the first error: the
    # page's idle time after both has come, and its idle work run (the chunk would have been asked for).
    wait_for_idle(page)
    page.goto(f"{live_server}/?movie_id=4")  # a master JSON that never loads: a fatal error with its screen
    page.click("button[data-player-start]")
    expect(page.get_by_role("alert")).to_be_visible(timeout=15_000)
    wait_for_idle(page)  # and after this error
    chunk = sentry_chunk()
    assert any(r.url.endswith(".js") for r in requested)
    assert [r.url for r in requested if chunk in r.url or "sentry" in r.url.lower()] == []


def test_two_fresh_profiles_on_one_machine_get_two_identities(session_app, browser):
    """The same hardware, locale and screen hash alike; the identity each profile keeps does not (spec §3 device_fp)."""
    _app, base = session_app
    identities = []
    for _ in range(2):
        context = browser.new_context(viewport={"width": 960, "height": 540}, locale="ru-RU")
        page = context.new_page()
        fingerprints = record(page, "/session-context")
        open_player(page, base, FILM)
        identity = IDENTITY.fullmatch(fingerprint_cookie(page, context)["value"])
        assert identity and len(fingerprints) == 1
        identities.append(identity)
        context.close()
    assert identities[0]["fingerprint"] == identities[1]["fingerprint"]  # one machine
    assert identities[0]["device"] != identities[1]["device"]  # two viewers
