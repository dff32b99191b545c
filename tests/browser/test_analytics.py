"""Analytics end to end (spec §7): the real player page from the live server, with the page's statistics function
(`window.sendStatistics`, the configured default) defined by an init script that records every call. A scripted
session (start, pause, seek, mute, fullscreen, quality, menus, share, milestones, timeupdate, the end), a pre-roll's
videoplayer_ events, an error's fields; and without the function, or with one that throws, the film still plays."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from app.models import AdPlacement, AdPosition
from tests.browser.conftest import ads_server, demo_server
from tests.browser.helpers import (
    choice,
    click_control,
    open_player,
    open_settings,
    pause,
    player,
    seek_with_range,
    start,
    title_files,
    wait_until_playing,
)

FILM = 1  # 1860 s
RECORDER = """
window.__stats = [];
window.sendStatistics = function (name, payload) {
  window.__stats.push({ name: name, payload: JSON.parse(JSON.stringify(payload)), self: this === window });
};
"""
CONTENT = ["video_id", "video_title", "duration", "player_type", "video_category", "video_thumbnail",
           "kinopoisk_raiting", "kinopoisk_id", "IMDb_raiting", "IMDb_id", "year", "countries"]
PLAYBACK = ["current_time", "playback_rate", "real_time_played_sec", "video_time_played_sec", "video_quality",
            "season", "episode", "language"]
SESSION = ["device_type", "user_id", "isTrailer"]
AD = ["ad_id", "ad_type", "ad_duration_sec", "ad_position_perc", "ad_position"]
NETWORK_TYPES = {"gprs", "2g", "3g", "4g", "wifi", "unknown"}


def calls(page: Page, name: str | None = None) -> list[dict]:
    recorded = page.evaluate("window.__stats")
    return [call for call in recorded if name is None or call["name"] == name]


def arrived(page: Page, name: str, timeout: float = 10_000, **fields: object) -> dict:
    """The first call of ``name`` whose payload has ``fields``, waiting for it."""
    page.wait_for_function(
        """([name, fields]) => window.__stats.some((c) => c.name === name
             && Object.entries(fields).every(([k, v]) => c.payload[k] === v))""",
        arg=[name, fields], timeout=timeout,
    )
    return next(c for c in calls(page, name) if all(c["payload"].get(k) == v for k, v in fields.items()))


def count_reaches(page: Page, name: str, count: int, timeout: float = 10_000) -> None:
    page.wait_for_function("([name, count]) => window.__stats.filter((c) => c.name === name).length >= count",
                           arg=[name, count], timeout=timeout)


def page_context(page: Page) -> dict:
    return json.loads(page.evaluate("document.getElementById('player-context').textContent"))


def assert_common_fields(call: dict, context: dict) -> None:
    """The content, playback and session fields of spec §7, checked against the page's own context."""
    payload, content = call["payload"], context["content"]
    missing = [field for field in CONTENT + PLAYBACK + SESSION if field not in payload]
    assert not missing, (call["name"], missing)
    assert call["self"] is True  # called on the window: fn(eventName, payload)
    assert payload["video_id"] == content["id"] and payload["video_title"] == content["title"]
    assert payload["player_type"] == "embedded" and payload["isTrailer"] == "0"
    assert payload["video_category"] == content["contentType"]["slug"]
    assert payload["kinopoisk_id"] == content["kinopoiskId"] and payload["IMDb_id"] == content["imdbId"]
    assert payload["kinopoisk_raiting"] == content["rating"]["kinopoisk"]["value"]
    assert payload["IMDb_raiting"] == content["rating"]["imdb"]["value"]
    assert payload["year"] == content["year"]
    assert payload["countries"] == ",".join(country["slug"] for country in content["countries"])
    assert payload["device_type"] == "desktop" and payload["user_id"] == context["userId"]


TIMEUPDATE_S = 3  # the spec's 60 s (clock.test.ts counts those) shortened on this server: the wait, not the rule


@pytest.fixture(scope="module")
def quick_timeupdate_server(make_database: Callable[[str], str], assets_built, demo_media) -> Iterator[str]:
    with demo_server(make_database("analytics_session"), demo_media,
                     PLAYER_TEST_TIMINGS=f"analyticsTimeupdateMs={TIMEUPDATE_S * 1000}") as origin:
        yield origin


def test_a_scripted_session_sends_every_player_event_with_its_fields(page: Page, quick_timeupdate_server):
    page.add_init_script(RECORDER)
    open_player(page, quick_timeupdate_server, f"movie_id={FILM}&enabled_share=1&user_id=viewer-7")
    context = page_context(page)
    assert context["config"]["statisticsFunction"] == "sendStatistics"
    start(page)
    play = arrived(page, "play")
    assert_common_fields(play, context)
    assert play["payload"]["duration"] == pytest.approx(1860, abs=1)
    assert play["payload"]["user_id"] == "viewer-7" and play["payload"]["episode"] == 1
    assert play["payload"]["language"]  # the audio rendition playing

    pause(page)
    assert arrived(page, "pause")["payload"]["current_time"] > 0
    click_control(page, "play")
    count_reaches(page, "play", 2)

    # a seek past two milestones: each once, in order
    seek_with_range(page, 500)
    seek = arrived(page, "seek", seek_to=500)
    assert seek["payload"]["seek_from"] < 100
    arrived(page, "progress", progress_perc=25)
    assert [c["payload"]["progress_perc"] for c in calls(page, "progress")] == [10, 25]

    # every TIMEUPDATE_S of playing (the spec's 60 s) a timeupdate, with the time played
    wait_until_playing(page, 501)
    timeupdate = arrived(page, "timeupdate", timeout=TIMEUPDATE_S * 1000 + 10_000)
    assert_common_fields(timeupdate, context)
    assert timeupdate["payload"]["real_time_played_sec"] in (TIMEUPDATE_S, TIMEUPDATE_S + 1)
    assert TIMEUPDATE_S - 2 <= timeupdate["payload"]["video_time_played_sec"] <= TIMEUPDATE_S + 1  # not the seek's jump
    assert len(calls(page, "timeupdate")) == 1

    page.keyboard.press("m")
    arrived(page, "mute")
    page.keyboard.press("m")
    arrived(page, "unmute")
    page.keyboard.press("f")
    arrived(page, "fullscreen", fullscreen_state="enter")
    page.keyboard.press("f")
    arrived(page, "fullscreen", fullscreen_state="exit")

    quality = open_settings(page, "Качество")
    arrived(page, "menu_click", menu_name="main", menu_item="Качество")
    choice(quality, "240p").click()
    arrived(page, "menu_click", menu_name="quality", menu_item="240p")
    assert_common_fields(arrived(page, "quality_change", video_quality="240p"), context)

    click_control(page, "share")
    arrived(page, "share", share_action="open")
    page.locator(".player__share input[type=checkbox]").check()
    arrived(page, "share", share_action="timecode_on")
    page.locator(".player__share").get_by_role("button", name="Закрыть").click()
    arrived(page, "share", share_action="close")

    # past three more milestones at once, then the end: 100 %
    seek_with_range(page, 1855)
    arrived(page, "progress", progress_perc=95)
    expect(player(page)).to_have_attribute("data-state", "ended", timeout=20_000)
    hundred = arrived(page, "progress", progress_perc=100)
    assert_common_fields(hundred, context)
    assert [c["payload"]["progress_perc"] for c in calls(page, "progress")] == [10, 25, 50, 75, 95, 100]
    for name in ("play", "pause", "seek", "mute", "unmute", "fullscreen", "progress", "timeupdate", "quality_change",
                 "menu_click", "share"):
        for call in calls(page, name):
            assert_common_fields(call, context)
    assert page.errors == []


def test_an_error_sends_its_type_network_class_buffer_and_dropped_frames(page: Page, live_server):
    page.add_init_script(RECORDER)
    # the other voice's master playlist: the default one's comes with the page
    page.route(title_files("film-long/master-2.m3u8"), lambda route: route.fulfill(status=500, body="x"))
    open_player(page, live_server, f"movie_id={FILM}&voice_author=Оригинал")
    page.click("button[data-player-start]")
    error = arrived(page, "error", timeout=20_000)
    assert_common_fields(error, page_context(page))
    payload = error["payload"]
    assert payload["error_type"] == "network" and payload["error_code"] == "MEDIA_FATAL"
    shown = page.get_by_role("alert").inner_text()
    assert payload["error_id"] in shown  # the id the error screen shows
    assert payload["network_type"] in NETWORK_TYPES
    assert payload["buffer_length"] == 0 and payload["fps_drop"] == 0


@pytest.fixture(scope="module")
def preroll_server(make_database: Callable[[str], str], assets_built, demo_media) -> Iterator[tuple[Flask, str]]:
    preroll = AdPlacement(position=AdPosition.PREROLL, creative_id=1, content_id=FILM)  # 15 s, skip at 5 s
    with ads_server(make_database("analytics"), demo_media, preroll) as served:
        yield served


def test_a_pre_roll_sends_its_videoplayer_events_with_the_ad_fields(page: Page, preroll_server):
    _, base = preroll_server
    page.add_init_script(RECORDER)
    page.context.route("https://example.com/**", lambda route: route.fulfill(body="advertiser"))
    opened = time.monotonic()
    page.goto(f"{base}/?movie_id={FILM}&auto_play=1")
    layer = page.locator(".ad-layer")
    expect(layer).to_have_attribute("data-status", "PLAYING", timeout=15_000)
    for name in ("videoplayer_ad_init", "videoplayer_ad_loaded", "videoplayer_ad_play"):
        arrived(page, name)
    toggle = page.locator("button[data-ad-control='play']")
    toggle.click()
    arrived(page, "videoplayer_ad_pause")
    toggle.click()
    expect(layer).to_have_attribute("data-status", "PLAYING")
    with page.context.expect_page():
        page.locator("button.ad-layer__click").click()
    arrived(page, "videoplayer_ad_banner_click")
    toggle.click()
    skip = page.locator("button[data-ad-control='skip']")
    expect(skip).to_be_enabled(timeout=10_000)
    skip.click()
    ad_seconds = time.monotonic() - opened  # more than the ad was on screen
    ended = arrived(page, "videoplayer_ad_ended", ad_status="SKIPPED")
    wait_until_playing(page, 0.5)
    arrived(page, "play")

    context = page_context(page)
    names = [call["name"] for call in calls(page)]
    assert names.index("videoplayer_ad_skip_btn_click") < names.index("videoplayer_ad_ended") < names.index("play")
    ad_calls = [call for call in calls(page) if call["name"].startswith("videoplayer_ad_")]
    for call in ad_calls:
        assert_common_fields(call, context)
        assert [field for field in AD if field not in call["payload"]] == []
    ad = ended["payload"]
    assert ad["ad_type"] == "preroll" and ad["ad_position"] == 1 and ad["ad_position_perc"] == 0
    assert ad["ad_duration_sec"] == 15 and ad["ad_id"]
    # ad_timeupdate at most once a second (the element's own timeupdate comes about four times a second)
    ticks = [call["payload"]["ad_current_time"] for call in calls(page, "videoplayer_ad_timeupdate")]
    assert 3 <= len(ticks) <= ad_seconds + 1, (ticks, ad_seconds)
    assert ticks == sorted(ticks) and len(set(ticks)) == len(ticks)
    assert page.errors == []


@pytest.mark.parametrize("script", [
    "",  # no statistics function on the page at all
    "window.sendStatistics = () => { window.__called = (window.__called || 0) + 1; throw new Error('publisher'); };",
])
def test_without_a_working_statistics_function_the_film_plays(page: Page, live_server, script):
    warnings: list[str] = []
    page.on("console", lambda message: warnings.append(message.text) if message.type == "warning" else None)
    page.add_init_script(script)
    open_player(page, live_server, f"movie_id={FILM}")
    start(page, 1)
    pause(page)
    click_control(page, "play")
    wait_until_playing(page, 2)
    expect(player(page)).to_have_attribute("data-state", "playing")
    analytics = [text for text in warnings if text.startswith("analytics: window.sendStatistics")]
    assert len(analytics) == 1, warnings  # said once, however many events
    if script:
        assert page.evaluate("window.__called") >= 3  # play, pause, play: each called, each caught
    else:
        # a function the page defines late gets the events from then on
        page.evaluate(f"() => {{ {RECORDER} }}")
        pause(page)
        assert arrived(page, "pause")["payload"]["current_time"] >= 2
    assert page.errors == []
