"""Issue 35 in Chromium: seek thumbnails from the master's storyboard (nothing of it asked for before the first hover;
then the tile for the time under the pointer, from its sprite sheet), «Пропустить заставку» inside the intro (reached
by the keyboard, a seek to the intro's end), the next-episode card from the credits' start; and the editor's aid: the
episode's preview in the admin whose buttons take the player's current time into the markers.

A series of two 40 s episodes at signed addresses (tests/browser/storyboard_media.py): the first has a storyboard and
its markers (intro 5–25 s, credits from 27 s), the second neither."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import upgrade
from playwright.sync_api import Browser, Page, Request, expect

from app import create_app
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from app.models import Content, ContentType, Episode, Role, Season
from app.services.accounts.accounts import create_account
from app.transaction import transaction
from tests.api.accounts_helpers import PASSWORD
from tests.browser.conftest import serving, watch_errors
from tests.browser.helpers import (
    control,
    current_time,
    open_player,
    pause,
    player,
    seek_with_range,
    start,
    wake_controls,
)
from tests.browser.storyboard_media import TILE_H, TILE_W, make_title, tile_of

INTRO = (5.0, 25.0)
CREDITS = 27.0
SKIP = "Пропустить заставку"


@pytest.fixture(scope="module")
def server(make_database: Callable[[str], str], assets_built: Path,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str, int]]:
    media = tmp_path_factory.mktemp("markers-media")
    first, second = make_title(media, "marked-1", storyboard=True), make_title(media, "marked-2", storyboard=False)
    app = create_app({"TESTING": True, "DATABASE_URL": make_database("player-markers-browser"),
                      "MEDIA_ROOT": str(media)})
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
        with transaction():
            create_account("editor@example.com", "Ольга Редакторова", PASSWORD, Role.EDITOR)
            series = db.session.scalar(db.select(ContentType).where(ContentType.slug == "series"))
            content = Content(title="Сериал с отметками", content_type=series, published=True,
                              has_multiple_episodes=True)
            content.seasons = [Season(order=1, episodes=[
                Episode(order=1, title="Первая", content=content, duration=40, master_file_path=first,
                        intro_start=INTRO[0], intro_end=INTRO[1], credits_start=CREDITS),
                Episode(order=2, title="Вторая", content=content, duration=40, master_file_path=second)])]
            db.session.add(content)
            db.session.flush()
            content_id = content.id
    with serving(app) as origin:
        yield app, origin, content_id


def storyboard_requests(page: Page) -> list[str]:
    asked: list[str] = []

    def note(request: Request) -> None:
        if "/storyboard/" in request.url:
            asked.append(request.url)

    page.on("request", note)
    return asked


def test_seek_thumbnails_load_at_the_first_hover_and_show_the_frame_under_the_pointer(
        page: Page, server: tuple[Flask, str, int]):
    _, origin, content_id = server
    asked = storyboard_requests(page)
    open_player(page, origin, f"movie_id={content_id}&episode=1&season=1")
    start(page, 0.5)
    pause(page)
    assert asked == []  # the page, the first frame, playback: nothing of the storyboard
    expect(page.locator(".player__thumbnail")).to_have_count(0)

    duration = page.evaluate("document.querySelector('video.player__video').duration")
    wake_controls(page)
    bar = page.locator(".player__seek-input")
    box = bar.bounding_box()
    assert box
    thumbnail = page.locator(".player__thumbnail")

    def hover_at(seconds: float) -> None:
        bar.hover(position={"x": box["width"] * seconds / duration, "y": box["height"] / 2})
        expect(thumbnail).to_be_visible()

    def shows_the_tile_of(seconds: float) -> None:
        shown = thumbnail.get_attribute("aria-label") or ""  # «Кадр на 0:00:21»
        minutes, secs = shown.rsplit(" ", 1)[1].split(":")[1:]
        time = int(minutes) * 60 + int(secs)
        assert abs(time - seconds) <= 1, shown
        expect(thumbnail).to_contain_text(shown.rsplit(" ", 1)[1])
        sheet, x, y = tile_of(time)
        frame = page.locator(".player__thumbnail-frame")
        expect(frame).to_have_css("background-position", f"{-x}px {-y}px")
        expect(frame).to_have_css("width", f"{TILE_W}px")
        expect(frame).to_have_css("height", f"{TILE_H}px")
        image = frame.evaluate("(node) => getComputedStyle(node).backgroundImage")
        assert "/media/s/" in image and image.endswith(f'/titles/marked-1/storyboard/{sheet}")'), image  # signed

    with page.expect_response(lambda r: r.url.endswith("/storyboard/sprite-0.jpg") and r.ok):
        hover_at(21.0)  # mid-tile: tile 10, sheet 0 at x 0, y 180
    shows_the_tile_of(21.0)
    hover_at(7.0)  # tile 3: x 480, y 0
    shows_the_tile_of(7.0)
    assert [url.rsplit("/", 1)[1] for url in asked] == ["map.vtt", "sprite-0.jpg"]  # once each
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] - 200)  # off the bar
    expect(page.locator(".player__thumbnail")).to_have_count(0)
    assert page.errors == []  # type: ignore[attr-defined]


def test_skip_intro_shows_inside_the_intro_and_the_keyboard_skips_to_its_end(page: Page,
                                                                             server: tuple[Flask, str, int]):
    _, origin, content_id = server
    open_player(page, origin, f"movie_id={content_id}&episode=1&season=1")
    start(page)
    skip = page.get_by_role("button", name=SKIP)
    assert current_time(page) < INTRO[0]
    expect(skip).to_have_count(0)
    seek_with_range(page, 8)
    expect(skip).to_be_visible()
    skip.focus()  # reachable by Tab, and then Enter presses it
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelector('video.player__video').currentTime >= {INTRO[1]}")
    assert current_time(page) < INTRO[1] + 3
    expect(skip).to_have_count(0)
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_skip_is_a_tab_stop(page: Page, server: tuple[Flask, str, int]):
    _, origin, content_id = server
    open_player(page, origin, f"movie_id={content_id}&episode=1&season=1")
    start(page)
    seek_with_range(page, 10)
    pause(page)
    expect(page.get_by_role("button", name=SKIP)).to_be_visible()
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement?.textContent") == SKIP:
            break
    else:
        pytest.fail("«Пропустить заставку» is not reached by Tab")
    page.keyboard.press("Space")
    page.wait_for_function(f"() => document.querySelector('video.player__video').currentTime >= {INTRO[1]}")


def test_the_next_episode_card_shows_from_the_credits(page: Page, server: tuple[Flask, str, int]):
    _, origin, content_id = server
    open_player(page, origin, f"movie_id={content_id}&episode=1&season=1")
    start(page)
    card = page.locator(".player__next:not(.player__skip)")
    seek_with_range(page, CREDITS - 2)
    pause(page)
    expect(card).to_have_count(0)
    seek_with_range(page, CREDITS + 0.5)  # 12.5 s before the end: the last 10 s would not show it yet
    expect(card).to_be_visible()
    expect(card).to_contain_text("Следующая серия")
    expect(card).to_contain_text("Вторая")
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_editors_preview_marks_the_intro_from_the_players_current_time(browser: Browser,
                                                                            server: tuple[Flask, str, int]):
    app, origin, content_id = server
    with app.app_context():
        second = db.session.scalar(db.select(Episode.id).where(Episode.title == "Вторая"))
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ru-RU")
    page = watch_errors(context.new_page())
    try:
        page.goto(f"{origin}/admin/session/")
        page.fill("input[name=email]", "editor@example.com")
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.goto(f"{origin}/admin/content/markers/?id={content_id}&episode={second}")
        frame = page.frame_locator("iframe[data-markers-frame]")
        frame.locator("#player[data-layout]").wait_for(state="attached")
        frame.locator("button[data-player-start]").click()
        player_frame = next(f for f in page.frames if f != page.main_frame)
        player_frame.wait_for_function("() => document.querySelector('video.player__video').currentTime > 0.2")
        player_frame.evaluate("""() => { const v = document.querySelector('video.player__video');
            v.pause(); v.currentTime = 12.3; }""")
        player_frame.wait_for_function("""() => { const v = document.querySelector('video.player__video');
            return v.paused && !v.seeking && Math.abs(v.currentTime - 12.3) < 0.05; }""")
        page.get_by_role("button", name="Начало заставки").click()
        expect(page.locator("#intro_start")).to_have_value("12.3")
        player_frame.evaluate("() => { document.querySelector('video.player__video').currentTime = 31.6; }")
        player_frame.wait_for_function("() => !document.querySelector('video.player__video').seeking")
        page.get_by_role("button", name="Конец заставки").click()
        page.get_by_role("button", name="Начало титров").click()
        expect(page.locator("#intro_end")).to_have_value("31.6")
        page.fill("#credits_start", "35")
        page.get_by_role("button", name="Сохранить").click()
        expect(page.locator(".alert-success")).to_contain_text("Отметки серии сохранены.")
        with app.app_context():
            saved = db.session.get_one(Episode, second)
            assert (saved.intro_start, saved.intro_end, saved.credits_start) == (12.3, 31.6, 35.0)
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()


def test_on_a_phone_the_thumbnail_follows_the_finger_dragging_the_seek_bar(phone: Page,
                                                                          server: tuple[Flask, str, int]):
    _, origin, content_id = server
    page = phone
    open_player(page, origin, f"movie_id={content_id}&episode=1&season=1")
    page.locator("button[data-player-start]").tap()
    page.wait_for_function("() => document.querySelector('video.player__video').currentTime > 0.3")
    page.locator(".player__surface").tap()  # the controls, shown by a tap
    expect(player(page)).to_have_attribute("data-controls", "visible")
    page.wait_for_timeout(400)  # past the tap guard (a double tap's length)
    control(page, "play").tap()  # paused: the controls stay
    expect(player(page)).to_have_attribute("data-state", "paused")
    bar = page.locator(".player__seek-input")
    expect(bar).to_be_visible()
    box = bar.bounding_box()
    assert box
    duration = page.evaluate("() => document.querySelector('video.player__video').duration")
    y = box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, seconds: float | None = None) -> None:
        points = [] if seconds is None else [{"x": box["x"] + box["width"] * seconds / duration, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", 9.0)
    for seconds in (11.0, 13.0, 15.0, 17.0):
        touch("touchMove", seconds)
    thumbnail = page.locator(".player__thumbnail")
    expect(thumbnail).to_be_visible()
    shown = (thumbnail.get_attribute("aria-label") or "").rsplit(":", 1)[1]
    assert abs(int(shown) - 17) <= 1, shown  # where the finger is now
    _, x, y_tile = tile_of(int(shown))
    expect(page.locator(".player__thumbnail-frame")).to_have_css("background-position", f"{-x}px {-y_tile}px")
    touch("touchEnd")
    expect(thumbnail).to_have_count(0)
    assert abs(current_time(page) - 17) < 2  # the drag seeked as before
    assert page.errors == []  # type: ignore[attr-defined]
