"""axe-core (the npm devDependency, injected from node_modules) over the player in each of its states: no
violation of serious or critical impact. Each failure names the rule, its impact and the elements."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from app.config import PROJECT_ROOT
from tests.browser.conftest import DESKTOP, watch_errors
from tests.browser.helpers import click_control, menu, open_player, open_settings, player, start, wake_controls

AXE = PROJECT_ROOT / "node_modules" / "axe-core" / "axe.min.js"
GRAVE = ("serious", "critical")

RUN_AXE = """
async () => {
  const result = await axe.run('#player', { resultTypes: ['violations'] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')),
  }));
}
"""


def grave_violations(page: Page) -> list[dict]:
    if not page.evaluate("typeof window.axe === 'object'"):
        # not add_script_tag: the player's CSP refuses inline scripts; DevTools' own evaluation is exempt from it
        page.evaluate("(source) => (0, eval)(source)", AXE.read_text(encoding="utf-8"))
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in GRAVE]


def assert_accessible(page: Page) -> None:
    violations = grave_violations(page)
    assert not violations, "axe-core found:\n" + "\n".join(
        f"  {v['id']} ({v['impact']}): {v['help']} — {', '.join(v['targets'])}" for v in violations
    )


@pytest.fixture(scope="session", autouse=True)
def axe_installed() -> Path:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm install` (axe-core is a devDependency)")
    return AXE


def test_the_start_screen(page: Page, live_server):
    open_player(page, live_server, "movie_id=2&enabled_share=1")
    expect(player(page)).to_have_attribute("data-state", "idle")
    assert_accessible(page)


def test_the_error_screen(page: Page, live_server):
    page.route("**/master.json", lambda route: route.fulfill(status=500))
    open_player(page, live_server, "movie_id=1")
    page.click("button[data-player-start]")
    expect(page.get_by_role("alert")).to_be_visible()
    assert_accessible(page)


@pytest.fixture(scope="module")
def series(browser: Browser, live_server) -> Iterator[Page]:
    """One playing series page for the states below: each only opens what it scans."""
    context = browser.new_context(viewport=DESKTOP, locale="ru-RU")
    page = watch_errors(context.new_page())
    open_player(page, live_server, "movie_id=2&enabled_share=1")
    start(page)
    yield page
    context.close()


def close_everything(page: Page) -> None:
    for _ in range(2):
        if page.locator(".player__menu, .player__share").count():
            page.keyboard.press("Escape")
    expect(page.locator(".player__menu, .player__share")).to_have_count(0)


def open_seasons(page: Page) -> None:
    click_control(page, "episodes")
    menu(page, "episodes").get_by_role("menuitem").filter(has_text="Сезоны").click()


STATES = {
    "playing-with-controls": lambda page: None,
    "menu-main": lambda page: open_settings(page),
    "menu-quality": lambda page: open_settings(page, "Качество"),
    "menu-playback-rate": lambda page: open_settings(page, "Скорость"),
    "menu-subs": lambda page: open_settings(page, "Субтитры"),
    "menu-audio-tracks": lambda page: open_settings(page, "Озвучка"),
    "menu-episodes": lambda page: click_control(page, "episodes"),
    "menu-seasons": open_seasons,
    "share-popup": lambda page: click_control(page, "share"),
}
OPENED = {
    "playing-with-controls": ".player__controls",
    "share-popup": ".player__share",
}


@pytest.mark.parametrize("state", list(STATES))
def test_the_playing_player(series: Page, state: str):
    page = series
    close_everything(page)
    STATES[state](page)
    wake_controls(page)
    expect(page.locator(OPENED.get(state, f'.player__menu[data-menu="{state.removeprefix("menu-")}"]'))).to_be_visible()
    expect(player(page)).to_have_attribute("data-controls", "visible")
    assert_accessible(page)
    assert page.errors == []  # type: ignore[attr-defined]
