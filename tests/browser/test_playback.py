"""The thin slice in real Chromium: the shell paints without JavaScript, a click plays the chosen episode."""

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, Request, Route, expect

from app.demo.catalogue import SEGMENT_SECONDS
from tests.browser.conftest import demo_server
from tests.browser.helpers import (
    NEXT_FRAME,
    current_time,
    master_address,
    poll,
    title_files,
    video_state,
    wait_until_playing,
)

SHELL = ["img.player__poster-img", "h1.player__title", "button[data-player-start]", ".player__start-icon"]
AHEAD = """() => { const v = document.querySelector('video.player__video');
  const b = v.buffered; return b.length ? b.end(b.length - 1) - v.currentTime : 0; }"""  # seconds buffered ahead


def test_shell_paints_with_javascript_disabled(browser, live_server):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 960, "height": 540})
    page = context.new_page()
    page.goto(f"{live_server}/?movie_id=2&season=2&episode=3")
    expect(page.locator("h1.player__title")).to_have_text("Тихая гавань")
    expect(page.locator(".player__subtitle")).to_have_text("Сезон 2, серия 3. Рассвет")
    expect(page.locator("button[data-player-start]")).to_be_visible()
    poster = page.locator("img.player__poster-img")
    expect(poster).to_be_visible()
    assert poster.evaluate("img => img.complete && img.naturalWidth") == 640
    expect(page.locator(".player__notice")).to_have_text("Для просмотра включите JavaScript в браузере.")
    context.close()


def boxes(page: Page) -> list[dict]:
    return [page.locator(selector).bounding_box() for selector in SHELL]


def test_the_island_mounts_over_the_shell_without_a_jump(browser, live_server, page):
    static = browser.new_context(java_script_enabled=False, viewport={"width": 960, "height": 540})
    static_page = static.new_page()
    static_page.goto(f"{live_server}/?movie_id=1")
    before = boxes(static_page)
    static.close()

    page.goto(f"{live_server}/?movie_id=1")
    page.wait_for_function("() => window.__playerMounted === true")  # a function: the CSP forbids eval
    page.wait_for_selector("#player[data-layout]", state="attached")  # the interface has mounted over the shell
    assert page.locator("video.player__video").count() == 1
    assert boxes(page) == before
    assert page.errors == []


def test_a_click_plays_the_film_through_hls_js(live_server, page):
    hls_chunks, masters = [], []
    page.on("request", lambda r: hls_chunks.append(r.url) if re.search(r"/assets/chunks/hls-\w+\.js$", r.url) else None)
    page.on("request", lambda r: masters.append(r.url) if r.url.endswith(".json") else None)
    failed = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)

    page.goto(f"{live_server}/?movie_id=1")
    page.click("button[data-player-start]")
    wait_until_playing(page)
    assert page.evaluate(NEXT_FRAME) > 0
    state = video_state(page)
    assert state["state"] == "playing"
    assert state["height"] in (240, 360, 480)
    assert len(hls_chunks) == 1, "hls.js must come as its own lazy chunk"
    assert len(masters) == 1 and title_files("film-long/master.json").match(masters[0])
    assert failed == []
    assert page.errors == []


def test_the_default_voices_master_playlist_comes_with_the_page_and_the_worker_starts_before_any_segment(
        live_server, page):
    playlists = []
    page.on("request", lambda r: playlists.append(r.url.rsplit("/", 1)[-1]) if ".m3u8" in r.url else None)
    # When each worker is made, on the page's own clock: Playwright's worker and request events come asynchronously and
    # may arrive out of order on a loaded machine; the page's clock and its resource timings do not.
    page.add_init_script("""(() => {
      const Made = window.Worker;
      window.__workersMade = [];
      window.Worker = class extends Made {
        constructor(...args) { super(...args); window.__workersMade.push(performance.now()); }
      };
    })()""")
    page.goto(f"{live_server}/?movie_id=1")
    page.click("button[data-player-start]")
    wait_until_playing(page)
    assert "master.m3u8" not in playlists, "hls.js took the page's copy (the context's firstPlaylist)"
    assert any(name.startswith("video-") for name in playlists), playlists  # its levels, resolved against its address
    # hls.js's transmuxer worker, started with hls.js (player/engine startWorker) and shared by video and audio,
    # not once the first fragment has arrived
    made = page.evaluate("window.__workersMade")
    segments = page.evaluate("""performance.getEntriesByType('resource')
      .filter((entry) => /\\.(m4s|mp4)(\\?|$)/.test(entry.name)).map((entry) => entry.startTime)""")
    assert len(made) == 1 and segments, (made, segments)
    assert made[0] < min(segments), (made, segments)
    assert page.errors == []


def test_another_voices_master_playlist_is_asked_for_once_while_hls_js_is_still_loading(live_server, page):
    playlists = []

    def note(request: Request) -> None:
        if ".m3u8" in request.url:
            playlists.append((request.url.rsplit("/", 1)[-1], request.resource_type))

    page.on("request", note)
    hls_chunk = re.compile(r"/assets/chunks/hls-\w+\.js$")
    held: list[Route] = []

    def slow_hls(route: Route) -> None:  # hls.js is held until the manifest has been asked for
        if playlists:
            route.continue_()
        else:
            held.append(route)

    page.route(hls_chunk, slow_hls)
    page.goto(f"{live_server}/?movie_id=1&voice_author=Оригинал")  # not the default voice the page carries
    with page.expect_request(lambda r: ".m3u8" in r.url, timeout=10_000):  # with hls.js held, if at all
        page.click("button[data-player-start]")
    for route in held:
        route.continue_()
    wait_until_playing(page)
    order = page.evaluate("""() => performance.getEntriesByType('resource')
        .filter((e) => /master-2\\.m3u8$|hls-\\w+\\.js$/.test(e.name))
        .map((e) => [e.name, e.startTime, e.responseEnd])""")
    (manifest,) = [entry for entry in order if entry[0].endswith(".m3u8")]
    (chunk,) = [entry for entry in order if entry[0].endswith(".js")]
    assert manifest[1] < chunk[2], "the manifest was asked for before the hls.js chunk had arrived"
    assert playlists[0][0] == "master-2.m3u8"
    assert [name for name, _ in playlists].count("master-2.m3u8") == 1, "hls.js took the prefetched manifest"
    assert page.errors == []


@pytest.fixture(scope="module")
def no_ads_server(make_database: Callable[[str], str], assets_built: Path, demo_media: Path) -> Iterator[str]:
    """The demo catalogue on a server without an ad list (AD_LIST_URL empty): the film is the first frame."""
    with demo_server(make_database("no-ads"), demo_media, AD_LIST_URL="") as origin:
        yield origin


def test_with_auto_play_the_interface_styles_are_asked_for_after_the_first_frame(no_ads_server, page):
    page.add_init_script("addEventListener('playing', () => { window.__playingAt ??= performance.now(); }, true)")
    page.goto(f"{no_ads_server}/?movie_id=1&auto_play=1")
    page.wait_for_selector("#player[data-layout]", state="attached")  # the interface has mounted
    timing = page.evaluate("""() => ({
        playing: window.__playingAt,
        sheets: performance.getEntriesByType('resource').filter((e) => /\\.css$/.test(e.name)).map((e) => e.startTime),
        linked: [...document.querySelectorAll('link[rel=stylesheet]')].map((l) => l.sheet !== null),
    })""")
    assert len(timing["sheets"]) == 1 and timing["sheets"][0] > timing["playing"], timing
    assert timing["linked"] == [True]
    controls = page.locator(".player__controls")
    assert controls.evaluate("el => getComputedStyle(el).position") == "absolute"  # styled by the sheet


def test_the_chosen_episode_plays_and_subtitles_come_from_the_master(live_server, page):
    playlists = []
    page.on("request", lambda r: playlists.append(r.url) if r.url.endswith(".m3u8") else None)
    page.goto(f"{live_server}/?movie_id=2&season=2&episode=3&t=40")
    page.click("button[data-player-start]")
    wait_until_playing(page, seconds=41)  # t=40 started it at 40 s
    # its master playlist came with the page (the context's firstPlaylist); the levels it names are that episode's
    assert any(re.search(r"/titles/series-s2e3/video-\d+p\.m3u8$", url) for url in playlists), playlists
    assert not any(re.search(r"/titles/(?!series-s2e3/)", url) for url in playlists), playlists
    tracks = page.eval_on_selector_all("video track", "ts => ts.map(t => [t.srclang, t.label])")
    assert tracks == [["ru", "Русские"], ["en", "English"]]


def test_a_click_before_the_script_mounts_is_not_lost(live_server, page):
    held: list[Route] = []
    page.route(re.compile(r"/assets/player-\w+\.js$"), lambda route: held.append(route))  # until after the click
    page.goto(f"{live_server}/?movie_id=1", wait_until="commit")
    page.locator("button[data-player-start]").click()
    assert page.evaluate("window.__playerMounted === true") is False, "the click must come before the mount"
    assert page.evaluate("window.__playerStartRequested") is True
    assert poll(page, lambda: held, until=bool, timeout=10_000), "the bundle was never asked for"
    held[0].continue_()
    wait_until_playing(page)


def test_a_press_that_spans_the_interface_mount_still_starts(live_server, page):
    """React's commit swaps the shell's button for its own: a press begun on one and released on the other makes no
    click (Chromium sends it to their common ancestor), so its release is what starts the film."""
    held: list[Route] = []
    page.route(re.compile(r"/assets/chunks/mount-\w+\.js$"), lambda route: held.append(route))
    page.goto(f"{live_server}/?movie_id=1")
    page.wait_for_function("() => window.__playerMounted === true")
    # the entry asks for the interface chunk right after the first paint
    assert poll(page, lambda: held, until=bool, timeout=10_000), "the interface chunk was never asked for"
    box = page.locator("button[data-player-start]").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    held[0].continue_()
    expect(page.locator("button[data-player-start='true']")).to_be_attached()  # React's own button now
    page.mouse.up()
    wait_until_playing(page)


def test_auto_play_starts_without_a_click(live_server, page):
    page.goto(f"{live_server}/?movie_id=2&auto_play=1")
    wait_until_playing(page)


def test_a_missing_media_file_shows_the_load_error(live_server, page):
    page.goto(f"{live_server}/?movie_id=4")
    page.click("button[data-player-start]")
    address = master_address(page)  # signed, as for any title (app/http/media.py): the file was never uploaded
    assert title_files("never-uploaded/master.json").match(address)
    alert = page.get_by_role("alert")
    expect(alert.locator(".player__error-text")).to_have_text(f"Ошибка в загрузке: {address}")
    expect(alert.locator(".player__error-id")).to_have_text(re.compile(r"^Идентификатор ошибки: \S+$"))
    assert page.locator("#player").get_attribute("data-state") == "error"


def test_the_film_is_buffered_half_a_minute_ahead(live_server, page):
    """core/defaults HLS_CONFIG: on a fast network hls.js would fetch 600 s of a low-bitrate film at once (its 60 MB
    budget); the player keeps 30 s ahead of the playhead, no more."""
    page.goto(f"{live_server}/?movie_id=1")
    page.click("button[data-player-start]")
    wait_until_playing(page, 1)
    page.wait_for_function(f"() => ({AHEAD})() >= 25")  # the buffer has filled up to its target
    # Then a segment's length of film more: the buffer is topped up as the film plays on, never past 30 s; on
    # loopback, a player allowed more would have fetched minutes ahead by then (it fetches on without a pause).
    wait_until_playing(page, current_time(page) + SEGMENT_SECONDS)
    ahead = page.evaluate(AHEAD)
    assert 25 <= ahead <= 30 + SEGMENT_SECONDS, ahead  # whole segments: the last may end past the target
