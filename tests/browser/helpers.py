"""What the browser tests read off a page, and the viewer's moves they repeat."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TypeVar

from playwright.sync_api import Browser, Frame, Locator, Page, expect

T = TypeVar("T")

PLAYED_ENOUGH = """
(seconds) => {
  const video = document.querySelector('video.player__video');
  return !!video && video.currentTime >= seconds && !video.paused
    && video.getVideoPlaybackQuality().totalVideoFrames > 0 && video.videoWidth > 0;
}
"""

# Resolves once the compositor presents a new video frame: proof that a frame was really rendered.
NEXT_FRAME = """
() => new Promise((resolve, reject) => {
  const video = document.querySelector('video.player__video');
  const timer = setTimeout(() => reject(new Error('no video frame presented within 5 s')), 5000);
  video.requestVideoFrameCallback((now, meta) => { clearTimeout(timer); resolve(meta.presentedFrames); });
})
"""

# Sets a range input the way a drag does: the value, then the input event React's onChange listens to.
SET_RANGE = """
([selector, value]) => {
  const input = document.querySelector(selector);
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, String(value));
  input.dispatchEvent(new Event('input', { bubbles: true }));
}
"""

# Waits `frames` of the page's rendering (requestAnimationFrame), counting the frames the video presents meanwhile
# (requestVideoFrameCallback) and how far its clock moves: a playing video presents several and moves on.
STILL_OVER_FRAMES = """
([selector, frames]) => new Promise((resolve) => {
  const video = document.querySelector(selector);
  const from = video.currentTime;
  let presented = 0;
  let handle = 0;
  const count = () => { presented += 1; handle = video.requestVideoFrameCallback(count); };
  handle = video.requestVideoFrameCallback(count);
  let left = frames;
  const tick = () => {
    if (--left > 0) return void requestAnimationFrame(tick);
    video.cancelVideoFrameCallback(handle);
    resolve({ moved: video.currentTime - from, presented });
  };
  requestAnimationFrame(tick);
})
"""

# Resolves in the page's idle time (at most `timeout` ms from now), a task after the idle callbacks asked for before
# this one: work the page put off to idle time (core/timing whenIdle) has run by then.
AFTER_IDLE = """
(timeout) => new Promise((resolve) => requestIdleCallback(() => setTimeout(resolve, 0), { timeout }))
"""

SEEK_INPUT = "input.player__seek-input"
POLL_S = 0.05  # poll()'s interval: how often a record that no page event announces is read again


def wait_until_playing(page: Page, seconds: float = 1.5, timeout: float = 20_000) -> None:
    page.wait_for_function(PLAYED_ENOUGH, arg=seconds, timeout=timeout)


def still_over_frames(target: Page | Frame, frames: int = 24, selector: str = "video.player__video") -> dict:
    """The video's movement over the next `frames` rendered frames of the page (24: 0.4 s at 60 Hz):
    ``{"moved": seconds its clock advanced, "presented": video frames presented}``. For a check that a video stands
    still: the wait is the page's own rendering going on, during which a playing video would have moved."""
    return target.evaluate(STILL_OVER_FRAMES, [selector, frames])


def wait_for_idle(page: Page, timeout: float = 2000) -> None:
    """Until the page has had its idle time (at most `timeout` ms, the player's own bound for idle work,
    DEFAULTS.idleTimeoutMs), and what it had put off to then has run."""
    page.evaluate(AFTER_IDLE, timeout)


def poll(page: Page, read: Callable[[], T], until: Callable[[T], bool], timeout: float = 5_000) -> T:
    """What `read()` gives once `until` holds for it, or at the deadline (`timeout` ms) what it gave last: the
    caller's assertion then says what is missing. For records that no page event announces (a test server's list or
    table that the page's fire-and-forget requests fill, the context's cookie jar, a route this process holds), read
    again every POLL_S while Playwright hands the page's events to their listeners. Never for a check that something
    did NOT happen: that would be a fixed wait."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        value = read()
        if until(value) or time.monotonic() >= deadline:
            return value
        page.wait_for_timeout(POLL_S * 1000)


def video_state(page: Page) -> dict:
    return page.evaluate(
        """() => { const v = document.querySelector('video.player__video');
          return {time: v.currentTime, paused: v.paused, width: v.videoWidth, height: v.videoHeight,
                  frames: v.getVideoPlaybackQuality().totalVideoFrames, rate: v.playbackRate,
                  volume: v.volume, muted: v.muted, duration: v.duration, ended: v.ended,
                  state: document.getElementById('player').dataset.state}; }"""
    )


def current_time(page: Page) -> float:
    return page.evaluate("document.querySelector('video.player__video').currentTime")


def player(page: Page) -> Locator:
    return page.locator("#player")


UI_MOUNTED = "#player[data-layout]"  # the interface sets the layout on the container when it mounts


def open_player(page: Page, base: str, query: str) -> None:
    """Loads the player page and waits for the interface to mount over the shell."""
    page.goto(f"{base}/?{query}")
    page.wait_for_selector(UI_MOUNTED, state="attached")


def start(page: Page, seconds: float = 0.05) -> None:
    """The start button, then real playback (frames on screen, the clock past `seconds`)."""
    page.click("button[data-player-start]")
    wait_until_playing(page, seconds)
    expect(player(page)).to_have_attribute("data-state", "playing")


def pause(page: Page) -> None:
    """The control bar's pause button; the clock then stands still (and the controls stay)."""
    click_control(page, "play")
    expect(player(page)).to_have_attribute("data-state", "paused")
    assert page.evaluate("document.querySelector('video.player__video').paused") is True


def wake_controls(page: Page) -> None:
    """A pointer move over the player, as a viewer reaching for the controls; they show (and stay for 2 s)."""
    box = player(page).bounding_box()
    assert box
    page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.4)
    page.mouse.move(box["x"] + box["width"] * 0.5 + 7, box["y"] + box["height"] * 0.4 + 3)
    expect(player(page)).to_have_attribute("data-controls", "visible")


def control(page: Page, name: str) -> Locator:
    return page.locator(f'.player__controls [data-control="{name}"]')


def click_control(page: Page, name: str) -> None:
    wake_controls(page)
    control(page, name).click()


def menu(page: Page, name: str) -> Locator:
    return page.locator(f'.player__menu[data-menu="{name}"]')


def open_settings(page: Page, item: str | None = None) -> Locator:
    """Settings, then the main menu's entry `item` (Качество, Скорость, Субтитры, Озвучка, Серии): that menu."""
    click_control(page, "settings")
    main = menu(page, "main")
    expect(main).to_be_visible()
    if item is None:
        return main
    main.get_by_role("menuitem").filter(has_text=item).click()
    opened = page.locator(".player__menu")
    expect(opened).to_have_count(1)
    expect(opened).not_to_have_attribute("data-menu", "main")
    return opened


def choice(menu_locator: Locator, label: str) -> Locator:
    return menu_locator.get_by_role("menuitemradio", name=label, exact=True)


def radio_labels(menu_locator: Locator) -> list[str]:
    return [text.strip() for text in menu_locator.get_by_role("menuitemradio").all_inner_texts()]


def checked_labels(menu_locator: Locator) -> list[str]:
    checked = menu_locator.locator('[role=menuitemradio][aria-checked="true"]')
    return [text.strip() for text in checked.all_inner_texts()]


def seek_with_range(page: Page, seconds: float) -> None:
    """The seek bar, dragged to `seconds` (its onChange seeks)."""
    wake_controls(page)
    page.evaluate(SET_RANGE, [SEEK_INPUT, seconds])


def local_storage(page: Page, key: str) -> object:
    return page.evaluate("(key) => JSON.parse(localStorage.getItem(key) ?? 'null')", key)


def title_files(path: str) -> re.Pattern[str]:
    """A title's file at its signed address (app/http/media.py: signature, expiry, country, content id), for
    page.route and request filters: ``title_files("film-long/master.json")``."""
    return re.compile(rf"^https?://[^/]+/media/s/[\w-]+/\d+/[a-z]{{2}}/\d+/titles/{re.escape(path)}$")


def master_address(page: Page) -> str:
    """The chosen episode's master JSON as the page was given it (signed), as an absolute address."""
    return page.evaluate("""() => { const c = JSON.parse(document.getElementById('player-context').textContent);
      const e = c.episodes.find((x) => x.id === c.episodeId);
      return new URL(e.m3u8MasterFilePath, document.baseURI).href; }""")


def signed_in_admin(browser: Browser, origin: str, email: str, password: str, **options: object) -> Page:
    """A page of a new browser context signed in to the admin at ``origin`` (its errors watched: ``page.errors``)."""
    from tests.browser.conftest import watch_errors

    context = browser.new_context(locale="ru-RU", **options)  # type: ignore[arg-type]
    page = watch_errors(context.new_page())
    page.goto(f"{origin}/admin/session/")
    page.fill("input[name=email]", email)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{origin}/admin/")
    return page
