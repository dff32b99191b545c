"""The settings menus that switch what plays (spec §4, §5, §9): quality, the audio (voices and renditions), and
subtitles with their caption style. Demo content 1: two voices (Дубляж, Оригинал), each an HLS stream with the
renditions Русский, English and Русский AC3; three video levels; ru/en subtitles with one cue every 4 s."""

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    checked_labels,
    choice,
    click_control,
    current_time,
    local_storage,
    menu,
    open_player,
    open_settings,
    pause,
    radio_labels,
    start,
    video_state,
    wait_until_playing,
)

FILM = "movie_id=1"
VIDEO_HEIGHT = "(h) => document.querySelector('video.player__video').videoHeight === h"


def main_entry(page: Page, label: str):
    return menu(page, "main").get_by_role("menuitem").filter(has_text=label)


def test_quality_menu_lists_the_levels_and_a_choice_switches_the_stream(page: Page, live_server):
    open_player(page, live_server, FILM)
    start(page)
    quality = open_settings(page, "Качество")
    expect(quality).to_have_attribute("data-menu", "quality")
    assert radio_labels(quality) == ["Auto", "480p", "360p", "240p"]
    assert checked_labels(quality) == ["Auto"]

    choice(quality, "240p").click()
    page.wait_for_function(VIDEO_HEIGHT, arg=240, timeout=8000)  # hls.js switched: the frames are 240 lines high
    expect(main_entry(page, "Качество")).to_contain_text("240p")
    main_entry(page, "Качество").click()
    assert checked_labels(menu(page, "quality")) == ["240p"]

    choice(menu(page, "quality"), "Auto").click()  # back to the automatic choice, which names what it plays
    expect(main_entry(page, "Качество")).to_contain_text(re.compile(r"Auto \(\d{3}p\)"))
    assert video_state(page)["state"] == "playing"
    assert page.errors == []  # type: ignore[attr-defined]


def audio_menu(page: Page):
    audio = open_settings(page, "Озвучка")
    expect(audio).to_have_attribute("data-menu", "audio-tracks")
    return audio


def voices(audio) -> list[str]:
    """The audio entries (the first group); the gain choices follow in a group of their own."""
    return radio_labels(audio.locator(".player__menu-group").first)


def favourite(page: Page):
    return local_storage(page, "favoriteAudioTracks")


def test_audio_menu_switches_renditions_and_voices_in_place(page: Page, live_server):
    streams = []
    page.on("request", lambda r: streams.append(r.url.rsplit("/", 1)[1]) if r.url.endswith(".m3u8") else None)
    open_player(page, live_server, FILM)
    start(page)
    audio = audio_menu(page)
    # Spec §5: with no preferred languages (lang_order is empty) the AC3 rendition is left out.
    assert voices(audio) == ["Дубляж · Русский", "Дубляж · English", "Оригинал"]
    assert checked_labels(audio)[0] == "Дубляж · Русский"
    assert favourite(page) is None

    wait_until_playing(page, 3)
    before = current_time(page)
    choice(audio, "Дубляж · English").click()
    expect(main_entry(page, "Озвучка")).to_contain_text("Дубляж · English")
    wait_until_playing(page, before + 1)
    state = video_state(page)
    assert not state["paused"] and state["time"] - before < 3  # no jump back to the start, no skip ahead
    assert "audio-en.m3u8" in streams
    assert favourite(page) == {"1": "Дубляж · English"}

    # Another voice is another stream: it is loaded at the same time and plays on.
    main_entry(page, "Озвучка").click()
    at = current_time(page)
    with page.expect_request(lambda request: request.url.endswith("/master-2.m3u8")):
        choice(menu(page, "audio-tracks"), "Оригинал").click()
    wait_until_playing(page, at + 0.5)
    state = video_state(page)
    assert abs(state["time"] - at) < 2.5 and not state["paused"] and state["state"] == "playing", (at, state)
    assert favourite(page) == {"1": "Оригинал"}
    main_entry(page, "Озвучка").click()
    assert voices(menu(page, "audio-tracks"))[0] == "Дубляж"
    assert any(label.startswith("Оригинал") for label in checked_labels(menu(page, "audio-tracks")))
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_saved_voice_is_chosen_on_the_next_visit(page: Page, live_server):
    page.add_init_script("localStorage.setItem('favoriteAudioTracks', JSON.stringify({1: 'Оригинал'}))")
    masters = []
    page.on("request", lambda r: masters.append(r.url.rsplit("/", 1)[1]) if "master" in r.url else None)
    open_player(page, live_server, FILM)
    start(page)
    assert "master-2.m3u8" in masters and "master.m3u8" not in masters
    assert checked_labels(audio_menu(page))[0].startswith("Оригинал")


def test_preferred_languages_put_their_renditions_first_ac3_included(page: Page, live_server):
    open_player(page, live_server, f"{FILM}&lang_order=en")
    start(page)
    # Spec §5: tracks in a preferred language first; with a preferred match nothing is excluded.
    assert voices(audio_menu(page)) == [
        "Дубляж · English", "Дубляж · Русский", "Дубляж · Русский AC3", "Оригинал",
    ]
    assert checked_labels(menu(page, "audio-tracks"))[0] == "Дубляж · English"


def cue_text(media: Path, slug: str, language: str, seconds: float) -> str:
    """The text of the cue active at `seconds` in the title's subtitles, read from the file itself."""
    vtt = (media / "titles" / slug / "subs" / f"{language}.vtt").read_text(encoding="utf-8")
    stamp = r"(\d+):(\d\d):(\d\d)\.(\d\d\d)"
    for block in vtt.split("\n\n"):
        match = re.search(rf"{stamp} --> {stamp}\n(.+)", block, re.S)
        if not match:
            continue
        g = [int(x) for x in match.groups()[:8]]
        begin = g[0] * 3600 + g[1] * 60 + g[2] + g[3] / 1000
        end = g[4] * 3600 + g[5] * 60 + g[6] + g[7] / 1000
        if begin <= seconds < end:
            return match.group(9).strip()
    raise AssertionError(f"no cue at {seconds}")


CAPTIONS = ".player__captions"


def test_subtitles_show_the_current_cue_and_turn_off(page: Page, live_server, demo_media):
    open_player(page, live_server, f"{FILM}&t=42")
    start(page, 42.5)
    pause(page)  # a still clock: exactly one cue is active
    at = current_time(page)
    subs = open_settings(page, "Субтитры")
    expect(subs).to_have_attribute("data-menu", "subs")
    assert radio_labels(subs.locator(".player__menu-group").first) == ["Выключены", "Русские", "English"]
    assert checked_labels(subs)[0] == "Выключены"
    expect(page.locator(CAPTIONS)).to_have_count(0)

    choice(subs, "Русские").click()
    captions = page.locator(CAPTIONS)
    expect(captions).to_have_text(cue_text(demo_media, "film-long", "ru", at))
    expect(captions).to_be_visible()
    assert "Субтитры" in captions.inner_text()  # the Russian file, not the English one
    assert checked_labels(subs)[0] == "Русские"

    page.keyboard.press("Escape")
    click_control(page, "play")  # the text follows playback into the next cue
    next_cue = (at // 4 + 1) * 4 + 0.3
    page.wait_for_function("(t) => document.querySelector('video.player__video').currentTime > t", arg=next_cue)
    pause(page)
    expect(captions).to_have_text(cue_text(demo_media, "film-long", "ru", current_time(page)))

    subs = open_settings(page, "Субтитры")
    choice(subs, "English").click()
    expect(captions).to_have_text(cue_text(demo_media, "film-long", "en", current_time(page)))
    choice(subs, "Выключены").click()
    expect(page.locator(CAPTIONS)).to_have_count(0)
    assert page.locator("video.player__video").evaluate(
        "v => Array.from(v.textTracks).every(t => t.mode !== 'showing')"  # never drawn by the browser itself
    )


# When the captions box appears and when it goes again.
WATCH_SAMPLE = """
() => {
  window.__sample = {};
  new MutationObserver(() => {
    const box = document.querySelector('.player__captions');
    if (box) window.__sample.shown ??= performance.now();
    else if (window.__sample.shown) window.__sample.gone ??= performance.now();
  }).observe(document.getElementById('player'), { childList: true, subtree: true });
}
"""


def test_a_caption_style_change_shows_a_sample_for_two_and_a_half_seconds(page: Page, live_server):
    open_player(page, live_server, FILM)
    start(page)
    subs = open_settings(page, "Субтитры")
    assert checked_labels(subs)[0] == "Выключены"  # no cue on screen: the sample has the place to itself
    size = subs.get_by_role("group", name="Размер текста")
    assert radio_labels(size) == ["75%", "100%", "150%", "200%"]

    page.evaluate(WATCH_SAMPLE)
    choice(size, "150%").click()
    sample = page.locator(CAPTIONS)
    expect(sample).to_have_text("Captions look like this.")
    assert sample.evaluate("e => getComputedStyle(e).getPropertyValue('--caption-scale').trim()") == "1.5"
    expect(sample).to_have_count(0, timeout=4000)
    times = page.evaluate("window.__sample")
    assert 2450 <= times["gone"] - times["shown"] <= 2900, times
    assert checked_labels(size) == ["150%"]
    assert local_storage(page, "player-caption-style") == {"size": 1.5, "color": "white", "background": "semi"}
