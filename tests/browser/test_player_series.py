"""A series (spec §4): the episodes and seasons menus, the next-episode card over an episode's last seconds, and
the automatic move to the next episode at its end. Demo content 2: season 1 = episodes 2, 3, 4 (52, 60, 68 s),
season 2 = episodes 5, 6, 7 (76, 84, 92 s)."""

from playwright.sync_api import Page, Request, expect

from tests.browser.helpers import (
    checked_labels,
    choice,
    click_control,
    current_time,
    menu,
    open_player,
    player,
    radio_labels,
    seek_with_range,
    start,
    video_state,
    wait_until_playing,
)

SUBTITLE = ".player__subtitle"


def record_streams(page: Page) -> list[str]:
    """The episodes whose HLS playlists the page asks for, in order (the slug of each episode's title). The first
    episode's master playlist comes with the page (the context's firstPlaylist): its levels name it."""
    streams: list[str] = []

    def note(request: Request) -> None:
        slug = request.url.split("/")[-2]
        if request.url.endswith(".m3u8") and (not streams or streams[-1] != slug):
            streams.append(slug)

    page.on("request", note)
    return streams


def test_episodes_and_seasons_menus_choose_what_plays(page: Page, live_server):
    streams = record_streams(page)
    open_player(page, live_server, "movie_id=2")
    expect(page.locator(SUBTITLE)).to_have_text("Сезон 1, серия 1. Прибытие")
    start(page)

    click_control(page, "episodes")
    episodes = menu(page, "episodes")
    expect(episodes).to_be_visible()
    assert radio_labels(episodes) == ["1. Прибытие", "2. Шторм", "3. Маяк"]  # the current season's
    assert checked_labels(episodes) == ["1. Прибытие"]
    episodes_button = page.locator('[data-control="episodes"]')
    expect(episodes_button).to_have_attribute("aria-expanded", "true")

    episodes.get_by_role("menuitem").filter(has_text="Сезоны").click()
    seasons = menu(page, "seasons")
    assert radio_labels(seasons) == ["Сезон 1", "Сезон 2"]
    assert checked_labels(seasons) == ["Сезон 1"]
    choice(seasons, "Сезон 2").click()
    episodes = menu(page, "episodes")
    assert radio_labels(episodes) == ["1. Возвращение", "2. Туман", "3. Рассвет"]
    assert checked_labels(episodes) == []  # the playing episode is in the other season

    choice(episodes, "1. Возвращение").click()
    expect(page.locator(".player__menu")).to_have_count(0)
    expect(page.locator(SUBTITLE)).to_have_text("Сезон 2, серия 1. Возвращение")
    page.wait_for_function("() => document.querySelector('video.player__video').duration === 76")
    wait_until_playing(page, 0.5)
    assert current_time(page) < 5
    assert streams == ["series-s1e1", "series-s2e1"]
    expect(episodes_button).to_have_attribute("aria-expanded", "false")

    click_control(page, "episodes")
    assert checked_labels(menu(page, "episodes")) == ["1. Возвращение"]
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_next_episode_card_and_the_move_to_the_next_episode_at_the_end(page: Page, live_server):
    streams = record_streams(page)
    open_player(page, live_server, "movie_id=2&season=1&episode=1")  # episode 2, 52 s
    start(page)
    next_card = page.locator(".player__next")
    expect(next_card).to_have_count(0)

    seek_with_range(page, 52 - 8)
    expect(next_card).to_be_visible()
    expect(next_card).to_contain_text("Следующая серия")
    expect(next_card).to_contain_text("Сезон 1, серия 2. Шторм")
    expect(next_card.get_by_role("button", name="Смотреть следующую серию")).to_be_visible()

    # The card's button: the next episode at once.
    next_card.get_by_role("button", name="Смотреть следующую серию").click()
    expect(page.locator(SUBTITLE)).to_have_text("Сезон 1, серия 2. Шторм")
    page.wait_for_function("() => document.querySelector('video.player__video').duration === 60")
    wait_until_playing(page, 0.3)
    assert current_time(page) < 5
    expect(next_card).to_have_count(0)

    # Left to end, episode 3 (60 s) moves on to episode 4 by itself, from its start.
    seek_with_range(page, 60 - 3)
    expect(next_card).to_contain_text("Сезон 1, серия 3. Маяк")
    expect(page.locator(SUBTITLE)).to_have_text("Сезон 1, серия 3. Маяк", timeout=10_000)
    page.wait_for_function("() => document.querySelector('video.player__video').duration === 68")
    wait_until_playing(page, 0.3)
    state = video_state(page)
    assert state["state"] == "playing" and state["time"] < 5, state
    assert streams == ["series-s1e1", "series-s1e2", "series-s1e3"]
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_last_episode_has_no_next_card_and_ends(page: Page, live_server):
    open_player(page, live_server, "movie_id=2&season=2&episode=3")  # episode 7, the series' last
    start(page)
    seek_with_range(page, 92 - 2)
    expect(player(page)).to_have_attribute("data-state", "ended", timeout=8000)
    expect(page.locator(".player__next")).to_have_count(0)
    expect(page.locator(SUBTITLE)).to_have_text("Сезон 2, серия 3. Рассвет")
