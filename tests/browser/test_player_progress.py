"""Resume of watching (spec §3, §5): the 'stopped here' prompt from localStorage's episodesTimeProgress, and the
progress the player saves there while it plays (at most every 10 s, never on the first tick)."""

import math

from playwright.sync_api import Page, expect

from tests.browser.helpers import current_time, local_storage, open_player, pause, start, wait_until_playing

SAVED_AT_120 = "localStorage.setItem('episodesTimeProgress', JSON.stringify({1: 120, 2: 33}))"
PROMPT = ".player__resume"


def test_the_prompt_offers_the_saved_time_and_continues_there(page: Page, live_server):
    page.add_init_script(SAVED_AT_120)
    open_player(page, live_server, "movie_id=1")
    prompt = page.locator(PROMPT)
    expect(prompt).to_be_visible()
    expect(prompt.locator(".player__resume-text")).to_have_text("Вы остановились на 0:02:00")
    expect(page.locator("button[data-player-start]")).to_be_visible()

    prompt.get_by_role("button", name="Продолжить").click()
    expect(prompt).to_have_count(0)
    wait_until_playing(page, 120.3)
    assert current_time(page) < 125  # from the saved time, not from the start and not beyond


def test_the_prompt_can_start_over(page: Page, live_server):
    page.add_init_script(SAVED_AT_120)
    open_player(page, live_server, "movie_id=1")
    page.locator(PROMPT).get_by_role("button", name="Начать сначала").click()
    wait_until_playing(page, 0.3)
    assert current_time(page) < 5
    expect(page.locator(PROMPT)).to_have_count(0)


def test_a_time_code_in_the_address_wins_without_a_prompt(page: Page, live_server):
    page.add_init_script(SAVED_AT_120)
    open_player(page, live_server, "movie_id=1&t=30")
    expect(page.locator(PROMPT)).to_have_count(0)
    start(page, 30.3)
    assert current_time(page) < 35


# Records when and what the player writes to episodesTimeProgress, and when playback started.
WATCH_SAVES = """
(() => {
  const setItem = Storage.prototype.setItem;
  window.__saves = [];
  Storage.prototype.setItem = function (key, value) {
    if (key === 'episodesTimeProgress') {
      const video = document.querySelector('video.player__video');
      window.__saves.push({ at: performance.now(), value: JSON.parse(value), videoTime: video && video.currentTime });
    }
    return setItem.call(this, key, value);
  };
  document.addEventListener('playing', () => { window.__playingAt ??= performance.now(); }, true);
})();
"""


def test_progress_is_saved_after_ten_seconds_of_playback_and_on_pause(page: Page, live_server):
    """Ten seconds of the page's clock (Playwright's, which the player's performance.now() reads), not of the film: the
    clock jumps past the mark while the film plays on in real time."""
    page.clock.install()
    page.add_init_script(WATCH_SAVES)
    open_player(page, live_server, "movie_id=1&t=20")
    start(page, 20.3)
    assert local_storage(page, "episodesTimeProgress") is None  # not on the first tick
    page.clock.fast_forward(8_500)
    page.wait_for_function("() => document.querySelector('video.player__video').currentTime > 20.9")  # time updates
    assert page.evaluate("window.__saves") == []  # nor within 10 s

    page.clock.fast_forward(2_000)
    page.wait_for_function("() => window.__saves.length > 0", timeout=5_000)  # a function: the CSP forbids eval
    save = page.evaluate("window.__saves[0]")
    after = (save["at"] - page.evaluate("window.__playingAt")) / 1000
    assert 10 <= after <= 14, f"first save {after:.1f} s after playback started"
    assert save["value"] == {"1": math.floor(save["videoTime"])}
    assert save["value"]["1"] >= 20  # whole seconds of the playing position
    assert local_storage(page, "episodesTimeProgress") == save["value"]

    # A pause saves the position at once (in another whole second than the last save).
    page.wait_for_function("(t) => document.querySelector('video.player__video').currentTime > t",
                           arg=save["videoTime"] + 1.2)
    pause(page)
    paused_at = math.floor(current_time(page))
    page.wait_for_function("(t) => JSON.parse(localStorage.getItem('episodesTimeProgress'))['1'] === t", arg=paused_at)
    assert [s["value"]["1"] for s in page.evaluate("window.__saves")] == [save["value"]["1"], paused_at]

    open_player(page, live_server, "movie_id=1")  # the next visit (no t in the address) offers the saved time
    expect(page.locator(f"{PROMPT} .player__resume-text")).to_have_text(f"Вы остановились на 0:00:{paused_at:02d}")
