"""The player's own error screens (spec §4, §8): content blocked in the viewer's country, a master JSON that does not
load, and the reload button that takes the player back to its start overlay."""

import re

from playwright.sync_api import Page, Route, expect

from app import texts
from tests.browser.helpers import current_time, master_address, open_player, player, start, title_files

ERROR_ID_LINE = re.compile(r"^Идентификатор ошибки: [0-9a-f]{8,}$")

# When the video starts and ends playing, and when the error screen appears (performance.now() ms).
RECORD_TIMES = """
window.__times = {};
for (const type of ['playing', 'ended']) {
  document.addEventListener(type, () => { window.__times[type] ??= performance.now(); }, true);
}
new MutationObserver(() => {
  if (document.querySelector('[role=alert]')) window.__times.alert ??= performance.now();
}).observe(document, { childList: true, subtree: true });
"""


def test_blocked_content_plays_the_placeholder_then_shows_the_blocked_text(page: Page, live_server):
    clips, media = [], []
    page.on("request", lambda r: clips.append(r.url) if "/clips/" in r.url else None)
    page.on("request", lambda r: media.append(r.url) if "/media/titles/" in r.url else None)
    page.add_init_script(RECORD_TIMES)
    response = page.goto(f"{live_server}/?movie_id=3")
    assert response and response.status == 451  # the default country is RU, where content 3 is blocked
    page.wait_for_selector("#player[data-layout]", state="attached")
    expect(page.locator("h1.player__title")).to_have_text("Закрытый показ")
    expect(page.get_by_role("alert")).to_have_count(0)

    page.click("button[data-player-start]")
    # The tiny clip really plays (frames on screen), and only its end raises the blocked screen.
    page.wait_for_function(
        "() => { const v = document.querySelector('video.player__video');"
        " return v.currentTime > 0.3 && v.getVideoPlaybackQuality().totalVideoFrames > 0; }"
    )
    expect(player(page)).to_have_attribute("data-state", "playing")
    alert = page.get_by_role("alert")
    expect(alert.locator(".player__error-text")).to_have_text(texts.BLOCKED_IN_COUNTRY, timeout=10_000)
    expect(alert.locator(".player__error-id")).to_have_count(0)  # a licence's answer: no error id to quote
    expect(alert.get_by_role("button")).to_have_count(0)  # nothing to retry
    expect(player(page)).to_have_attribute("data-state", "error")

    assert set(clips) == {f"{live_server}/clips/not-available.mp4"}
    assert media == []  # the real media are never asked for
    times = page.evaluate("window.__times")
    assert times["ended"] - times["playing"] > 1500, times  # the 2 s clip played to its end
    assert times["alert"] >= times["ended"], times  # and only then the text
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_master_json_that_fails_to_load_shows_its_address(page: Page, live_server):
    page.route(title_files("film-long/master.json"), lambda route: route.fulfill(status=500, body="boom"))
    open_player(page, live_server, "movie_id=1")
    address = master_address(page)
    page.click("button[data-player-start]")
    alert = page.get_by_role("alert")
    expect(alert.locator(".player__error-text")).to_have_text(f"Ошибка в загрузке: {address}")
    expect(alert.locator(".player__error-id")).to_have_text(ERROR_ID_LINE)
    expect(alert.get_by_role("button")).to_have_count(0)  # spec §8: the reload button is for 'any other error'
    expect(player(page)).to_have_attribute("data-state", "error")
    expect(page.locator(".player__controls")).to_have_count(0)


def test_any_other_error_offers_reload_which_returns_to_the_start_overlay(page: Page, live_server):
    stream = title_files("film-long/master-2.m3u8")  # the default voice's comes with the page: the other one's
    broken = {"on": True}

    def maybe_fail(route: Route) -> None:
        if broken["on"]:
            route.fulfill(status=500, body="boom")
        else:
            route.continue_()

    page.route(stream, maybe_fail)
    open_player(page, live_server, "movie_id=1&voice_author=Оригинал")
    page.click("button[data-player-start]")
    alert = page.get_by_role("alert")
    generic = re.compile(r"^К сожалению, произошла ошибка, попробуйте перезагрузите страницу\. "
                         r"Идентификатор ошибки: [0-9a-f]{8,}$")
    expect(alert.locator(".player__error-text")).to_have_text(generic, timeout=15_000)
    expect(alert.locator(".player__error-id")).to_have_count(0)  # the id is in the text already
    expect(player(page)).to_have_attribute("data-state", "error")

    broken["on"] = False
    alert.get_by_role("button", name=texts.RELOAD_PAGE).click()
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(player(page)).to_have_attribute("data-state", "idle")
    expect(page.locator("button[data-player-start]")).to_be_visible()
    expect(page.locator("img.player__poster-img")).to_be_visible()
    assert page.evaluate("document.querySelector('video.player__video').paused") is True

    # Nothing of the failed attempt is left behind: the next start plays from the beginning.
    start(page)
    assert current_time(page) < 5
