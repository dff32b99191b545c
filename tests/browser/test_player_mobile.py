"""The mobile layout on a phone (spec §2, §9): at and below 640 px the player takes the full-screen-style overlay,
a single tap shows or hides the controls instead of pausing, and a double tap on a side fifth seeks 10 s. On a portrait
screen the player page is the film's 16:9 frame in the middle of the screen."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import current_time, open_player, player, video_state, wait_until_playing

# Two taps of a finger as the surface receives them, in one task: exactly +10 s, whatever the clock does meanwhile.
DOUBLE_TAP = """
([x, y]) => {
  const surface = document.querySelector('.player__surface');
  const video = document.querySelector('video.player__video');
  const before = video.currentTime;
  for (const type of ['pointerdown', 'pointerup', 'pointerdown', 'pointerup']) {
    surface.dispatchEvent(new PointerEvent(type, {
      bubbles: true, cancelable: true, pointerType: 'touch', isPrimary: true, button: 0, clientX: x, clientY: y,
    }));
  }
  return video.currentTime - before;
}
"""


@pytest.fixture
def playing_on_phone(phone: Page, live_server) -> Page:
    open_player(phone, live_server, "movie_id=1")
    expect(player(phone)).to_have_attribute("data-layout", "mobile")
    phone.locator("button[data-player-start]").tap()
    wait_until_playing(phone, 0.1)
    return phone


def frame_of(page: Page) -> dict[str, float]:
    box = player(page).bounding_box()
    assert box
    return box


def test_the_phone_gets_the_mobile_layout(playing_on_phone: Page):
    page = playing_on_phone
    assert page.evaluate("innerWidth") == 390
    frame = frame_of(page)  # the film's 16:9 frame, in the middle of the portrait screen
    assert frame["width"] == 390 and abs(frame["height"] - 390 * 9 / 16) < 1
    assert abs(frame["y"] + frame["height"] / 2 - 422) < 1
    box = page.locator(".player__controls").bounding_box()
    assert box and box["y"] == frame["y"] and box["height"] == frame["height"]  # the overlay covers the whole player
    expect(page.locator(".player__volume-input")).to_be_hidden()  # phones use their own volume keys
    play = page.locator('[data-control="play"]').bounding_box()
    assert play and abs(play["x"] + play["width"] / 2 - 195) < 2 and abs(play["y"] + play["height"] / 2 - 422) < 2
    expect(player(page)).to_have_attribute("data-controls", "hidden", timeout=4000)


def test_a_double_tap_on_a_side_fifth_seeks_ten_seconds(playing_on_phone: Page):
    page = playing_on_phone
    expect(player(page)).to_have_attribute("data-controls", "hidden", timeout=4000)  # nothing in the way
    frame = frame_of(page)
    right, left, y = 390 * 0.9, 390 * 0.1, frame["y"] + frame["height"] * 0.3
    before = current_time(page)
    # a real double tap of a finger, made by the browser's input pipeline in one go (two touchscreen.tap calls are two
    # round trips apart, which a loaded CI machine can stretch past the double tap's 275 ms)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.synthesizeTapGesture", {"x": right, "y": y, "tapCount": 2, "gestureSourceType": "touch"})
    expect(page.locator(".player__flash--right")).to_have_text("+10 с")
    assert 9.9 <= current_time(page) - before <= 11, before

    assert page.evaluate(DOUBLE_TAP, [left, y]) == pytest.approx(-10, abs=0.01)
    expect(page.locator(".player__flash--left")).to_have_text("−10 с")
    expect(page.locator(".player__flash")).to_have_count(1)
    state = video_state(page)
    assert state["state"] == "playing" and not state["paused"]  # a double tap never pauses
    wait_until_playing(page, state["time"] + 0.2)


def test_a_tap_shows_and_hides_the_controls_instead_of_pausing(playing_on_phone: Page):
    page = playing_on_phone
    expect(player(page)).to_have_attribute("data-controls", "hidden", timeout=4000)
    frame = frame_of(page)
    y = frame["y"] + frame["height"] * 0.25
    page.touchscreen.tap(195, y)
    expect(player(page)).to_have_attribute("data-controls", "visible", timeout=1500)  # the first tap's single fired
    # Two taps, not a double: the second after the first's single has fired (above) and after the moment in which
    # the controls it showed let taps through to the video (ui/uiState tapGuard, a double tap's length): a tap of
    # its own on the controls now on screen.
    expect(page.locator("#player[data-tap-guard]")).to_have_count(0)
    page.touchscreen.tap(195, y)
    expect(player(page)).to_have_attribute("data-controls", "hidden", timeout=1500)
    state = video_state(page)
    assert state["state"] == "playing" and not state["paused"]


def test_the_seek_flash_goes_away(playing_on_phone: Page):
    page = playing_on_phone
    frame = frame_of(page)
    page.evaluate(DOUBLE_TAP, [390 * 0.9, frame["y"] + frame["height"] * 0.3])
    expect(page.locator(".player__flash--right")).to_have_text("+10 с")
    expect(page.locator(".player__flash")).to_have_count(0, timeout=2000)  # a flash: 600 ms
