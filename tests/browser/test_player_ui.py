"""The player's own controls on a desktop (spec §2, §4, §9): play and pause, seeking, the playback rate, the
keyboard, and the control bar that hides while the viewer watches."""

import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    SEEK_INPUT,
    checked_labels,
    choice,
    click_control,
    control,
    current_time,
    open_player,
    open_settings,
    pause,
    player,
    radio_labels,
    start,
    still_over_frames,
    video_state,
    wait_until_playing,
    wake_controls,
)

FILM = "movie_id=1"  # 1860 s



def paused_agrees(page: Page) -> None:
    state = video_state(page)
    assert state["state"] == ("paused" if state["paused"] else "playing"), state


def open_playing(page: Page, live_server: str) -> Page:
    open_player(page, live_server, FILM)
    expect(player(page)).to_have_attribute("data-layout", "desktop")
    expect(page.locator(".player__controls")).to_have_count(0)  # no controls before the start
    assert page.locator("video.player__video").evaluate("v => v.controls") is False  # nor the browser's own
    start(page)
    return page


@pytest.fixture
def playing(page: Page, live_server) -> Page:
    return open_playing(page, live_server)


def test_a_click_on_the_video_toggles_pause_after_the_single_tap_delay(playing: Page):
    page = playing
    surface = page.locator(".player__surface")
    box = surface.bounding_box()
    assert box
    x, y = box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.3  # the centre of the frame, above the bar

    clicked = time.monotonic()
    page.mouse.click(x, y)
    assert video_state(page)["paused"] is False  # not at once: a second click could still make it a double
    expect(player(page)).to_have_attribute("data-state", "paused", timeout=2000)
    assert time.monotonic() - clicked >= 0.25
    paused_agrees(page)
    expect(page.locator("button[data-player-start]")).to_be_visible()  # the start overlay's button shows on pause

    # No wait: the pause above was the first click's single tap, already fired; a click after it starts over
    # (ui/gestures), whenever it comes, so the second one is a single of its own, not the second half of a double.
    page.mouse.click(x, y + 20)
    expect(player(page)).to_have_attribute("data-state", "playing", timeout=2000)
    paused_agrees(page)
    wait_until_playing(page, current_time(page) + 0.3)


def test_the_play_button_in_the_bar_pauses_and_plays(playing: Page):
    page = playing
    button = control(page, "play")
    click_control(page, "play")
    expect(player(page)).to_have_attribute("data-state", "paused")
    paused_agrees(page)
    expect(button).to_have_attribute("aria-label", "Воспроизвести")
    frozen = current_time(page)
    assert still_over_frames(page) == {"moved": 0, "presented": 0}  # 0.4 s of the page's rendering, no frame
    assert current_time(page) == frozen

    click_control(page, "play")
    expect(player(page)).to_have_attribute("data-state", "playing")
    paused_agrees(page)
    expect(button).to_have_attribute("aria-label", "Пауза")
    wait_until_playing(page, frozen + 0.3)


def test_the_seek_bar_and_the_skip_buttons_move_the_time(playing: Page):
    page = playing
    pause(page)  # a still clock: every step below is exact
    wake_controls(page)
    seek = page.locator(SEEK_INPUT)
    expect(seek).to_have_attribute("max", "1860")
    box = seek.bounding_box()
    assert box
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # the middle of the bar
    middle = current_time(page)
    assert abs(middle - 930) < 20 and middle == round(middle), middle  # whole seconds: the bar's step is 1
    expect(seek).to_have_value(str(round(middle)))

    click_control(page, "forward")
    assert current_time(page) == pytest.approx(middle + 10, abs=0.01)
    click_control(page, "rewind")
    click_control(page, "rewind")
    assert current_time(page) == pytest.approx(middle - 10, abs=0.01)
    expect(control(page, "rewind")).to_have_attribute("aria-label", "Назад на 10 секунд")
    expect(control(page, "forward")).to_have_attribute("aria-label", "Вперёд на 10 секунд")

    click_control(page, "play")  # it plays on from where the bar put it
    wait_until_playing(page, middle - 9.5)
    assert page.evaluate("document.querySelector('video.player__video').seeking") is False


def test_keyboard_seeks_by_5_and_10_seconds(playing: Page):
    page = playing
    pause(page)
    at = current_time(page)
    page.keyboard.press("ArrowRight")
    assert current_time(page) == pytest.approx(at + 5, abs=0.01)
    page.keyboard.press("Shift+ArrowRight")
    assert current_time(page) == pytest.approx(at + 15, abs=0.01)
    page.keyboard.press("ArrowLeft")
    assert current_time(page) == pytest.approx(at + 10, abs=0.01)
    page.keyboard.press("Shift+ArrowLeft")
    assert current_time(page) == pytest.approx(at, abs=0.01)
    page.keyboard.press("ArrowLeft")  # never before the start
    assert current_time(page) == 0


def test_keyboard_play_pause_mute_volume_and_fullscreen(playing: Page):
    page = playing
    page.keyboard.press("k")
    expect(player(page)).to_have_attribute("data-state", "paused")
    paused_agrees(page)
    page.keyboard.press(" ")
    expect(player(page)).to_have_attribute("data-state", "playing")
    paused_agrees(page)
    page.keyboard.press(" ")
    expect(player(page)).to_have_attribute("data-state", "paused")

    volume = page.locator(".player__volume-input")
    assert video_state(page)["volume"] == 1
    for key, expected in (("ArrowDown", 0.95), ("ArrowDown", 0.9), ("ArrowUp", 0.95)):
        page.keyboard.press(key)
        expect(volume).to_have_attribute("aria-valuetext", f"{round(expected * 100)}%")  # the bar follows
        assert video_state(page)["volume"] == pytest.approx(expected)
    assert page.evaluate("localStorage.getItem('player-volume')") == "0.95"  # saved on the viewer's change

    page.keyboard.press("m")
    assert video_state(page)["muted"] is True
    expect(volume).to_have_value("0")
    page.keyboard.press("m")
    assert video_state(page)["muted"] is False
    expect(volume).to_have_value("0.95")

    page.keyboard.press("f")
    expect(player(page)).to_have_attribute("data-fullscreen", "on")
    assert page.evaluate("document.fullscreenElement && document.fullscreenElement.id") == "player"
    expect(control(page, "fullscreen")).to_have_attribute("aria-label", "Выйти из полноэкранного режима")
    page.keyboard.press("f")
    expect(player(page)).to_have_attribute("data-fullscreen", "off")
    assert page.evaluate("document.fullscreenElement") is None

    page.keyboard.press("k")
    expect(player(page)).to_have_attribute("data-state", "playing")
    paused_agrees(page)


def test_playback_rate_menu_and_keys(playing: Page):
    page = playing
    main = open_settings(page)
    expect(main.get_by_role("menuitem").filter(has_text="Скорость")).to_contain_text("Обычная")
    main.get_by_role("menuitem").filter(has_text="Скорость").click()
    rate_menu = page.locator('.player__menu[data-menu="playback-rate"]')
    expect(rate_menu).to_be_visible()
    assert radio_labels(rate_menu) == ["0.25×", "0.5×", "0.75×", "Обычная", "1.25×", "1.5×", "1.75×", "2×"]
    assert checked_labels(rate_menu) == ["Обычная"]

    choice(rate_menu, "1.5×").click()
    assert video_state(page)["rate"] == 1.5
    expect(page.locator('.player__menu[data-menu="main"]')).to_be_visible()  # a choice goes back to the main menu
    expect(page.locator('.player__menu[data-menu="main"]').get_by_role("menuitem").filter(has_text="Скорость"))\
        .to_contain_text("1.5×")
    page.keyboard.press("Escape")
    expect(page.locator(".player__menu")).to_have_count(0)

    for key in (">", ">", ">", "<"):  # in quick succession; 2 is the top of the range
        page.keyboard.press(key)
    assert video_state(page)["rate"] == 1.75
    pause(page)
    click_control(page, "play")
    expect(player(page)).to_have_attribute("data-state", "playing")
    assert video_state(page)["rate"] == 1.75  # the rate survives a pause
    open_settings(page)
    expect(page.locator('.player__menu[data-menu="main"]').get_by_role("menuitem").filter(has_text="Скорость"))\
        .to_contain_text("1.75×")


def test_a_key_acts_while_the_controls_are_hidden(playing: Page):
    page = playing
    expect(player(page)).to_have_attribute("data-controls", "hidden", timeout=4000)
    at = current_time(page)
    page.keyboard.press("ArrowRight")
    expect(player(page)).to_have_attribute("data-controls", "visible")  # the press is activity: they show
    assert current_time(page) - at >= 4.5  # and it seeks as well


def test_quick_key_presses_add_up(playing: Page):
    """Two presses handled before the video reports the first change (in one task here): each adds its step."""
    page = playing
    press_twice = """(key) => { for (let i = 0; i < 2; i++)
        document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true })); }"""
    page.evaluate(press_twice, "ArrowDown")
    page.evaluate(press_twice, ">")
    state = video_state(page)
    assert (state["volume"], state["rate"]) == (pytest.approx(0.9), 1.5)


# The time of the last pointer move over the player, and of the controls' hiding after it.
WATCH_CONTROLS = """
() => {
  const el = document.getElementById('player');
  window.__controls = {};
  el.addEventListener('pointermove', () => { window.__controls = { moved: performance.now() }; });
  new MutationObserver(() => {
    if (el.dataset.controls === 'hidden') window.__controls.hidden ??= performance.now();
  }).observe(el, { attributes: true, attributeFilter: ['data-controls'] });
}
"""


def test_the_controls_hide_two_seconds_after_the_last_activity_while_playing(page: Page, live_server):
    page.clock.install()  # before the page loads: every timer the player sets is on the page's clock (running)
    open_playing(page, live_server)
    page.evaluate(WATCH_CONTROLS)
    wake_controls(page)
    expect(player(page)).to_have_attribute("data-controls", "hidden", timeout=5000)
    times = page.evaluate("window.__controls")
    assert 1950 <= times["hidden"] - times["moved"] <= 2600, times
    expect(page.locator(".player__controls")).to_be_hidden()

    page.keyboard.press("Shift")  # any key is activity too
    expect(player(page)).to_have_attribute("data-controls", "visible")
    pause(page)
    page.clock.run_for(2300)  # 2.3 s of the page's timers, at once: a hiding timer left running has fired
    assert player(page).get_attribute("data-controls") == "visible"  # never hidden while paused
