"""Debian's Chromium, launched for the browser tests and the benchmark (tests/bench) alike."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from playwright.sync_api import Browser, Playwright

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# The flags this machine needs: no sandbox as root, and no calls home (the network is closed).
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--mute-audio",
]
# Headless Chromium builds a browser window for every context, and each window loads the omnibox's WebUI popups
# (chrome://omnibox-popup.top-chrome/) into a renderer of its own: about 1.2 s of CPU, traced, right when the context's
# first page loads. On two cores that ran beside every page a test drives and every load the benchmark measures.
QUIET_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
DISABLE_FEATURES = "--disable-features="


def disable_features_switch(command_line: Sequence[str]) -> str | None:
    """The --disable-features switch of a command line (Chromium honours only its last one), or None."""
    found = [arg for arg in command_line if arg.startswith(DISABLE_FEATURES)]
    return found[-1] if found else None


def merged_switch(default: str | None, extra: Sequence[str]) -> str:
    """One --disable-features switch: the default's features, then `extra`, each once, in that order."""
    features = default[len(DISABLE_FEATURES) :].split(",") if default else []
    return DISABLE_FEATURES + ",".join(dict.fromkeys(name for name in [*features, *extra] if name))


def command_line(browser: Browser) -> list[str]:
    """The browser process's switches, as chrome://version shows them."""
    page = browser.new_page()
    try:
        page.goto("chrome://version")
        return page.inner_text("#command_line").split()
    finally:
        page.close()


def launch(playwright: Playwright, executable: str = CHROMIUM, args: Sequence[str] = (), **options: Any) -> Browser:
    """Chromium with LAUNCH_ARGS and `args`, and QUIET_FEATURES off.

    Playwright passes a --disable-features list of its own, and a second switch would replace it, not add to it: the
    first launch reads Playwright's list off chrome://version, the second runs with that list plus QUIET_FEATURES in
    its place."""
    flags = [*LAUNCH_ARGS, *args]
    probe = playwright.chromium.launch(executable_path=executable, args=flags, **options)
    try:
        default = disable_features_switch(command_line(probe))
    finally:
        probe.close()
    return playwright.chromium.launch(
        executable_path=executable,
        args=[*flags, merged_switch(default, QUIET_FEATURES)],
        ignore_default_args=[default] if default else None,
        **options,
    )
