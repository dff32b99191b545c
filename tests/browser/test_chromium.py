"""The tests' Chromium: Playwright's own disabled features kept, and no omnibox WebUI beside the page under test."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.browser.chromium import QUIET_FEATURES, command_line, disable_features_switch, merged_switch


def test_merged_switch_keeps_the_default_list_and_adds_each_feature_once() -> None:
    assert merged_switch("--disable-features=A,B", ["B", "C"]) == "--disable-features=A,B,C"
    assert merged_switch(None, ["C"]) == "--disable-features=C"
    assert disable_features_switch(["--x", "--disable-features=A", "--disable-features=B"]) == "--disable-features=B"
    assert disable_features_switch(["--x"]) is None


def test_one_disable_features_switch_with_playwrights_list_and_ours(browser: Browser) -> None:
    switches = [arg for arg in command_line(browser) if arg.startswith("--disable-features=")]
    assert len(switches) == 1, switches  # a second one would replace the first
    features = switches[0].split("=", 1)[1].split(",")
    assert "DestroyProfileOnBrowserClose" in features  # one of Playwright's own
    assert set(QUIET_FEATURES) <= set(features)


def test_a_new_context_loads_no_browser_webui(browser: Browser) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto("data:text/html,<h1>page</h1>")
        # No wait: a window makes its popups with itself, before new_page returns. With the features on, both
        # (omnibox-popup.top-chrome/ and its omnibox_popup_aim.html) were listed right after new_page in each of 30
        # contexts (3 browsers); the page's own target, below, says this window is there.
        cdp = browser.new_browser_cdp_session()
        targets = cdp.send("Target.getTargets")["targetInfos"]
        assert [t["url"] for t in targets if t["type"] == "browser_ui"] == []
        assert any(t["url"].startswith("data:") for t in targets if t["type"] == "page")
    finally:
        context.close()
