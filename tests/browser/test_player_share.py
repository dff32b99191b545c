"""The share popup (spec §2 "Shared links", §6, §7): the link to this episode built from the top page's address,
optionally with the current time, and the five social services."""

import math
from urllib.parse import quote

from playwright.sync_api import Page, Route, expect

from tests.browser.helpers import click_control, control, current_time, open_player, pause, start

SERIES = "movie_id=2&season=2&episode=3&enabled_share=1&ref=a%20b&t=5"  # episode 7, from 5 s
SERVICES = ["Telegram", "WhatsApp", "Facebook", "X", "VK"]


def serve_the_player_under(page: Page, base: str, path: str) -> None:
    """The publisher's page address: the player page answered at `path` (here the top page is the player itself)."""

    def player_page(route: Route) -> None:
        query = route.request.url.split("?", 1)[1]
        route.fulfill(response=route.fetch(url=f"{base}/?{query}"))

    page.route(f"{base}{path}?*", player_page)


def encode(text: str) -> str:
    """JavaScript's encodeURIComponent."""
    return quote(text, safe="-_.!~*'()")


def test_the_share_popup_links_to_this_episode_with_an_optional_time(page: Page, live_server):
    path = "/shows/quiet-harbour/season-1/episode-2/"  # the page of another episode: its segments are replaced
    serve_the_player_under(page, live_server, path)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page.goto(f"{live_server}{path}?{SERIES}")
    page.wait_for_selector("#player[data-layout]", state="attached")
    start(page, 5.05)
    pause(page)
    seconds = math.floor(current_time(page))
    assert seconds >= 5

    click_control(page, "share")
    dialog = page.get_by_role("dialog", name="Поделиться")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_class("player__share")
    assert dialog.evaluate("e => e.getBoundingClientRect().width") == 21 * 16  # spec §2: 21rem
    link = f"{live_server}/shows/quiet-harbour/season-2/episode-3?{SERIES.removesuffix('&t=5')}"
    field = dialog.get_by_role("textbox")
    expect(field).to_have_value(link)  # the query kept, t left out
    expect(field).to_be_focused()

    checkbox = dialog.get_by_role("checkbox")
    expect(checkbox).not_to_be_checked()
    expect(dialog.locator(".player__share-check")).to_have_text(f"С таймкодом 0:00:{seconds:02d}")
    checkbox.check()
    with_time = f"{link}&t={seconds}"
    expect(field).to_have_value(with_time)

    services = dialog.get_by_role("link")
    expect(services).to_have_text(SERVICES)
    for name, service in zip(SERVICES, services.all(), strict=True):
        expect(service).to_have_attribute("target", "_blank")
        assert "noopener" in (service.get_attribute("rel") or "").split()
        expect(service).to_have_accessible_name(f"Поделиться в {name}")
        assert encode(with_time) in (service.get_attribute("href") or "")
    hosts = [s.get_attribute("href").split("/")[2] for s in services.all()]  # type: ignore[union-attr]
    assert hosts == ["t.me", "wa.me", "www.facebook.com", "x.com", "vk.com"]

    dialog.get_by_role("button", name="Копировать").click()
    expect(dialog.get_by_role("button", name="Скопировано")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == with_time

    checkbox.uncheck()
    expect(field).to_have_value(link)
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_film_link_has_no_episode_segments_and_sharing_can_be_off(page: Page, live_server):
    open_player(page, live_server, "movie_id=1&enabled_share=1")
    start(page)
    click_control(page, "share")
    field = page.get_by_role("dialog", name="Поделиться").get_by_role("textbox")
    expect(field).to_have_value(f"{live_server}/?movie_id=1&enabled_share=1")  # a top-level page: location.href

    open_player(page, live_server, "movie_id=1")  # enabled_share absent: no share button
    start(page)
    expect(control(page, "settings")).to_have_count(1)
    expect(control(page, "share")).to_have_count(0)
