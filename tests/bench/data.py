"""Data use: the film's bytes a viewer's device fetches, the player against bare hls.js (its defaults) in one run.

Each round opens, in a new browser context (empty cache) on loopback with no throttling (the network never limits
what the buffer policy asks for, so the figures are the policy's):

- the player page (auto_play) and the bare hls.js page, both on the same stream: the film's bytes on the wire
  (CDP's ``encodedDataLength`` of every playlist, init segment and media segment of the title) 10 s, 15 s and
  ``--data-seconds`` (60) after the first frame, and the seconds buffered ahead of the playhead then;
- the player page on the ads server (the demo's 15 s pre-roll, played to its end): the film's bytes fetched before
  the ad's end, that is under the pre-roll. Its baseline is bare hls.js's first 15 s: what loading the
  film under the ad with hls.js's defaults costs (paused or playing, hls.js fills the same buffer).

Called by tests/bench/run.py after its timing rounds (``--data-rounds``, 0 skips it).
"""

from __future__ import annotations

import re
import statistics
import time
from typing import Any

from tests.bench.inpage import INIT_SCRIPT, VIEWPORT, wait_in_page

FILM = re.compile(r"/titles/[^?]*\.(?:m3u8|m4s|mp4|ts|aac|vtt)(?:\?|$)")  # the title's media, never an ad's
MARKS = (10, 15)  # seconds after the first frame, besides --data-seconds
AHEAD = """() => { const v = document.querySelector('video.player__video') || document.querySelector('video');
  if (!v || !v.buffered.length) return 0;
  return v.buffered.end(v.buffered.length - 1) - v.currentTime; }"""
AD_GONE = "() => !document.querySelector('.ad-layer')"  # the player removes its ad layer when the break is over


class FilmBytes:
    """The film's bytes on the wire, as CDP reports each finished request of the page."""

    def __init__(self, cdp: Any) -> None:
        self.urls: dict[str, str] = {}
        self.total = 0
        self.requests = 0
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.loadingFinished", self._finished)

    def _response(self, event: dict[str, Any]) -> None:
        if FILM.search(event["response"]["url"]):
            self.urls[event["requestId"]] = event["response"]["url"]

    def _finished(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.urls:
            self.total += int(event["encodedDataLength"])
            self.requests += 1


def _session(browser: Any, url: str, timeout_s: float) -> tuple[Any, Any, Any, FilmBytes]:
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1, locale="ru-RU")
    context.add_init_script(INIT_SCRIPT)
    context.set_default_timeout(timeout_s * 1000)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    film = FilmBytes(cdp)
    cdp.send("Network.enable")
    page.goto(url, wait_until="commit")
    return context, page, cdp, film


def playback(browser: Any, url: str, seconds: float, timeout_s: float) -> dict[str, Any]:
    """Film bytes and seconds ahead at each mark after the first frame of a page that plays at once."""
    context, page, cdp, film = _session(browser, url, timeout_s)
    try:
        wait_in_page(cdp, "framed", timeout_s * 1000)
        start = time.monotonic()
        marks: dict[str, Any] = {}
        for mark in sorted({*MARKS, seconds}):
            page.wait_for_timeout(max(0, (start + mark - time.monotonic()) * 1000))  # CDP events flow meanwhile
            marks[str(int(mark))] = {"bytes": film.total, "requests": film.requests,
                                     "ahead": round(page.evaluate(AHEAD), 1)}
        return {"ok": True, "marks": marks}
    except Exception as error:  # a failed load is a failed run, recorded
        return {"ok": False, "error": str(error).split("\n")[0][:300]}
    finally:
        context.close()


def under_preroll(browser: Any, url: str, timeout_s: float) -> dict[str, Any]:
    """Film bytes fetched from the navigation to the end of a pre-roll played to its end (its layer removed)."""
    context, page, cdp, film = _session(browser, url, timeout_s)
    try:
        wait_in_page(cdp, "adFramed", timeout_s * 1000)
        ad_started = time.monotonic()
        while not page.evaluate(AD_GONE):
            if time.monotonic() - ad_started > timeout_s + 15:
                raise TimeoutError("the pre-roll never ended")
            page.wait_for_timeout(20)
        return {"ok": True, "bytes": film.total, "requests": film.requests,
                "adSeconds": round(time.monotonic() - ad_started, 1)}
    except Exception as error:
        return {"ok": False, "error": str(error).split("\n")[0][:300]}
    finally:
        context.close()


def measure(browser: Any, urls: dict[str, str], rounds: int, seconds: float, timeout_s: float) -> list[dict]:
    """Interleaved rounds: player, bare hls.js and (with an ads server) the pre-roll, the order turning each round."""
    kinds = [k for k in ("player", "hls", "ads") if k in urls]
    runs = []
    for index in range(rounds):
        for kind in kinds[index % len(kinds):] + kinds[:index % len(kinds)]:
            run = (under_preroll(browser, urls[kind], timeout_s) if kind == "ads"
                   else playback(browser, urls[kind], seconds, timeout_s))
            run |= {"page": kind, "round": index + 1}
            runs.append(run)
            print(f"[data {index + 1}/{rounds}] {kind:<7} {describe(run)}", flush=True)
    return runs


def describe(run: dict[str, Any]) -> str:
    if not run["ok"]:
        return f"FAILED: {run['error']}"
    if run["page"] == "ads":
        return f"{run['bytes'] / 1e6:.2f} MB of film under the pre-roll ({run['adSeconds']} s)"
    marks = run["marks"].items()
    return ", ".join(f"{mark} s: {m['bytes'] / 1e6:.2f} MB, {m['ahead']:.0f} s ahead" for mark, m in marks)


def _median(values: list[float]) -> tuple[float, float, float] | None:
    return (statistics.median(values), min(values), max(values)) if values else None


def summarise(runs: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    """Medians (with min and max) per page and mark; the pre-roll row against hls.js's first 15 s."""
    ok = [r for r in runs if r["ok"]]
    rows: dict[str, Any] = {}
    for mark in sorted({*MARKS, seconds}):
        key = str(int(mark))
        rows[f"first {key} s of playback"] = {
            page: {"bytes": _median([r["marks"][key]["bytes"] for r in ok if r["page"] == page]),
                   "ahead": _median([r["marks"][key]["ahead"] for r in ok if r["page"] == page])}
            for page in ("player", "hls")}
    if any(r["page"] == "ads" for r in ok):
        rows["under a 15 s pre-roll (hls.js: its first 15 s)"] = {
            "player": {"bytes": _median([r["bytes"] for r in ok if r["page"] == "ads"]), "ahead": None},
            "hls": rows["first 15 s of playback"]["hls"]}
    return {"rows": rows, "failed": len(runs) - len(ok), "runs": len(runs)}


def render(summary: dict[str, Any], rounds: int) -> str:
    def cell(value: dict[str, Any]) -> str:
        if not value["bytes"]:
            return "—"
        median, low, high = value["bytes"]
        ahead = f", {value['ahead'][0]:.0f} s ahead" if value.get("ahead") else ""
        return f"{median / 1e6:.2f} MB ({low / 1e6:.2f}-{high / 1e6:.2f}){ahead}"

    lines = [f"data use: the film's bytes on the wire, loopback, no throttling; medians of {rounds} rounds (min-max); "
             f"ratio = player / bare hls.js ({summary['failed']} of {summary['runs']} loads failed)",
             f"  {'':<48}{'player':<40}{'bare hls.js':<40}ratio"]
    for name, row in summary["rows"].items():
        player, hls = row["player"], row["hls"]
        ratio = (f"{player['bytes'][0] / hls['bytes'][0]:.2f}"
                 if player["bytes"] and hls["bytes"] and hls["bytes"][0] else "—")
        lines.append(f"  {name:<48}{cell(player):<40}{cell(hls):<40}{ratio}")
    return "\n".join(lines)
