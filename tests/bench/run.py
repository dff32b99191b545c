"""Player benchmark: the built application against two baselines, in headless Chromium, two device profiles.

``make bench`` (bin/bench) sets everything up and runs ``python -m tests.bench.run``; ``--help`` lists the options.
What is measured and how is in docs/benchmarks.md, and in the docstrings below. A failed target is reported,
not raised: the exit code is 0 whenever the measurement itself ran.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from app.config import INSTANCE_DIR, PROJECT_ROOT
from tests.bench import data as data_use
from tests.bench.inpage import INIT_SCRIPT, VIEWPORT, wait_in_page
from tests.bench.sizes import BUDGET_FILE, DIST, Sizes, check_budget, inline_text, load_budget, measure, report
from tests.bench.wsgi import PLAYER_PATH
from tests.browser.chromium import CHROMIUM, QUIET_FEATURES, launch
from tests.browser.chromium import LAUNCH_ARGS as BROWSER_FLAGS

# The browser tests' Chromium and flags (tests/browser/chromium.py: QUIET_FEATURES off too), plus autoplay without a
# gesture (the player's auto_play=1, the bare page).
AUTOPLAY = ["--autoplay-policy=no-user-gesture-required"]
LAUNCH_ARGS = [*BROWSER_FLAGS, *AUTOPLAY]
SETTLE_MS = 1000  # after the first frame (or paint): long tasks running then are reported, late ones land

# Chrome DevTools' "Slow 4G" preset (front_end/core/sdk/NetworkManager.ts, Slow4GConditions, named "Fast 3G" before
# May 2024): 1.6 Mbit/s × 0.9 down, 750 kbit/s × 0.9 up, 150 ms × 3.75 latency; the same numbers DevTools sends.
SLOW_4G = {"offline": False, "latency": 562.5, "downloadThroughput": 180_000, "uploadThroughput": 84_375}


@dataclass(frozen=True)
class Profile:
    name: str
    cpu_rate: float | None
    network: dict[str, Any] | None
    about: str


PROFILES = {
    "unthrottled": Profile("unthrottled", None, None, "no CPU or network throttling (loopback)"),
    "slow": Profile("slow", 6, SLOW_4G, "CPU 6x slower (Emulation.setCPUThrottlingRate 6) and DevTools' Slow 4G "
                    "(latency 562.5 ms, 180000 B/s down, 84375 B/s up; Network.emulateNetworkConditions)"),
}
PAGES = ("player", "static", "hls", "ads")
PAGE_ABOUT = {
    "player": f"the player page {PLAYER_PATH}",
    "static": "/bench/static: static HTML of the player page's byte size with a heading (baseline for paint)",
    "hls": "/bench/hls: bare <video muted autoplay playsinline> + hls.min.js, same stream (baseline for frame)",
    "ads": f"the player page {PLAYER_PATH} on a second server with the ad list on: the demo's 15 s pre-roll, "
           "skipped by the harness at its 5 s offset",
}
ADS_PATH = PLAYER_PATH
VIDEO_PAGES = ("player", "hls")

COLLECT = r"""
() => {
  const b = window.__bench || {};
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  return {
    now: performance.now(),
    fcp: fcp ? fcp.startTime : null,
    firstFrame: b.firstFrame, firstFrameOf: b.firstFrameOf || {}, presentationTime: b.presentationTime,
    frame: b.frame || null, videos: b.videos,
    noRvfc: !!b.noRvfc, mountedAt: b.mountedAt, mounted: !!window.__playerMounted,
    longTasks: b.longTasks || [], frames: b.frames || [],
    longTaskError: b.longTaskError || null, mountHookError: b.mountHookError || null,
    nav: nav ? { transfer: nav.transferSize, encoded: nav.encodedBodySize, decoded: nav.decodedBodySize,
                 responseStart: nav.responseStart, responseEnd: nav.responseEnd,
                 domContentLoaded: nav.domContentLoadedEventEnd } : null,
    resources: performance.getEntriesByType('resource').map((e) => ({
      url: e.name, type: e.initiatorType, start: e.startTime, end: e.responseEnd, transfer: e.transferSize,
      encoded: e.encodedBodySize, decoded: e.decodedBodySize, blocking: e.renderBlockingStatus || null })),
    playback: [...document.querySelectorAll('video')].map((v) => {
      const q = v.getVideoPlaybackQuality();
      return { currentTime: v.currentTime, paused: v.paused, width: v.videoWidth, height: v.videoHeight,
               dropped: q.droppedVideoFrames, total: q.totalVideoFrames };
    }),
  };
}
"""


# ------------------------------------------------------------------------------------------------------ server
class Server:
    """gunicorn as bin/start runs it (2 workers × 4 threads), serving tests.bench.wsgi on a free 127.0.0.1 port."""

    def __init__(self, log_path: Path, ads: bool = False) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        # The player page measures a film without ads: no ad list. The "ads" page's server has the default list.
        env = dict(os.environ, COUNTRY_QUERY_PARAM=os.environ.get("COUNTRY_QUERY_PARAM", "country"))
        if ads:
            env.pop("AD_LIST_URL", None)
        else:
            env["AD_LIST_URL"] = ""
        self.log = log_path.open("w")
        self.process = subprocess.Popen(
            [str(PROJECT_ROOT / ".venv" / "bin" / "gunicorn"), "--bind", f"127.0.0.1:{self.port}", "--workers",
             "1" if ads else "2",
             "--threads", "4", "--access-logfile", "-", "tests.bench.wsgi:app"],
            cwd=PROJECT_ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}; see {self.log.name}")
            try:
                fetch(self.origin + "/bench/static", timeout=5)
                return
            except (OSError, urllib.error.URLError):
                time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer within {timeout:.0f} s; see {self.log.name}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # gunicorn's graceful stop, workers included
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def fetch(url: str, accept_encoding: str | None = None, timeout: float = 30) -> tuple[bytes, dict[str, str], float]:
    headers = {"Accept-Encoding": accept_encoding} if accept_encoding else {}
    started = time.perf_counter()
    request = urllib.request.Request(url, headers=headers)  # noqa: S310 - http://127.0.0.1 only, the bench's server
    with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
        body = response.read()
        return body, dict(response.headers), time.perf_counter() - started


def warm_server(server: Server, paths: list[str]) -> dict[str, Any]:
    """Each gunicorn worker compresses an asset once (brotli 11: ~1 s for hls.js): have both done it before any
    measured load. Every text asset is fetched until three fetches in a row come back fast."""
    slowest: dict[str, float] = {}
    for path in paths:
        for encoding in ("br", "gzip"):
            fast, tries = 0, 0
            while fast < 3 and tries < 24:
                _, _, seconds = fetch(server.origin + path, encoding)
                slowest[f"{encoding} {path}"] = max(slowest.get(f"{encoding} {path}", 0), seconds)
                fast = fast + 1 if seconds < 0.1 else 0
                tries += 1
    return {k: round(v * 1000) for k, v in slowest.items()}


# ------------------------------------------------------------------------------------------------ page loads
class Watchdog:
    """Ends a load that overruns its deadline. Playwright's own timeouts do not fire while a page's main thread
    never yields (tried: wait_for_function(timeout=3000) blocked for good on ``while (true) {}``), so at the
    deadline this kills, by pid, the renderer processes started since the load began: Chromium descendants of this
    very process, nothing else. The pending Playwright call then fails and the load is recorded as failed."""

    def __init__(self, seconds: float) -> None:
        self.before = renderer_pids()
        self.fired = False
        self.timer = threading.Timer(seconds, self._fire)
        self.timer.daemon = True
        self.timer.start()

    def _fire(self) -> None:
        self.fired = True
        for pid in renderer_pids() - self.before:
            with contextlib.suppress(OSError):  # gone already
                os.kill(pid, signal.SIGKILL)

    def cancel(self) -> None:
        self.timer.cancel()


def renderer_pids() -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            children.setdefault(int(stat[stat.rindex(")") + 2:].split()[1]), []).append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    found: set[int] = set()
    todo = [os.getpid()]
    while todo:
        for child in children.get(todo.pop(), []):
            todo.append(child)
            try:
                if b"--type=renderer" in Path(f"/proc/{child}/cmdline").read_bytes():
                    found.add(child)
            except OSError:
                continue
    return found


def is_js(url: str, initiator: str = "") -> bool:
    path = url.split("?")[0].lower()
    return path.endswith((".js", ".mjs")) or (initiator == "script" and not path.endswith(".css"))


def is_css(url: str) -> bool:
    return url.split("?")[0].lower().endswith(".css")


def url_path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url).split("?")[0]


def blocking_time(long_tasks: list[list[float]], start: float, end: float) -> float:
    """Lighthouse's total blocking time over [start, end]: each long task clipped to the window, minus 50 ms."""
    total = 0.0
    for task_start, duration in long_tasks:
        clipped = min(task_start + duration, end) - max(task_start, start)
        total += max(0.0, clipped - 50)
    return total


class WireBytes:
    """JS + CSS bytes on the wire by CDP's count (``encodedDataLength``), kept as a cross-check of Resource Timing's:
    the page's CDP session does not see requests made by its workers (hls.js's worker script)."""

    def __init__(self, cdp: Any) -> None:
        self.sizes: dict[str, int] = {}
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.loadingFinished", self._finished)

    def _response(self, event: dict[str, Any]) -> None:
        url = event["response"]["url"]
        if is_js(url) or is_css(url):
            self.sizes[event["requestId"]] = 0

    def _finished(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.sizes:
            self.sizes[event["requestId"]] = int(event["encodedDataLength"])

    @property
    def total(self) -> int:
        return sum(self.sizes.values())


def load_once(browser: Any, url: str, page_name: str, profile: Profile, heavy: bool, args: argparse.Namespace,
              sizes: Sizes, inline_own: float) -> dict[str, Any]:
    """One cold load in a new browser context (empty cache, new renderer); heavy: then 10 s of playback and heap."""
    out: dict[str, Any] = {"page": page_name, "profile": profile.name, "heavy": heavy, "ok": False}
    errors: list[str] = []
    timeout_ms = args.timeout * 1000
    wall = time.monotonic()
    deadline = args.timeout + SETTLE_MS / 1000 + 10 + (args.playback + args.timeout if heavy else 0)
    watchdog = Watchdog(deadline)
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1, locale="ru-RU")
    try:
        context.add_init_script(INIT_SCRIPT)
        context.set_default_timeout(timeout_ms)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"[:300]))
        page.on("console", lambda m: errors.append(f"console: {m.text}"[:300]) if m.type == "error" else None)
        cdp = context.new_cdp_session(page)
        network = WireBytes(cdp)
        cdp.send("Network.enable")
        if profile.network:
            cdp.send("Network.emulateNetworkConditions", profile.network)
        if profile.cpu_rate:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": profile.cpu_rate})

        page.goto(url, wait_until="commit", timeout=timeout_ms)
        remaining = max(1000, timeout_ms - (time.monotonic() - wall) * 1000)
        if page_name == "ads":
            out.update(ad_break(page, cdp, remaining))
            out["ok"] = out.get("adFirstFrame") is not None
            return out
        wait_in_page(cdp, "framed" if page_name in VIDEO_PAGES else "painted", remaining)
        page.wait_for_timeout(SETTLE_MS)
        snap = collect(page, args.timeout)
        out.update(analyse(snap, page_name, sizes, inline_own))
        out["cdpJsCssBytesTotal"] = network.total
        out["ok"] = True
        if heavy and page_name in VIDEO_PAGES:
            wait = snap["firstFrame"] + args.playback * 1000 - snap["now"]
            if wait > 0:
                page.wait_for_timeout(wait)
            after = collect(page, args.timeout)
            heap_before = cdp.send("Runtime.getHeapUsage")["usedSize"]
            cdp.send("HeapProfiler.collectGarbage")
            heap = cdp.send("Runtime.getHeapUsage")["usedSize"]
            mounted_at = after["mountedAt"]
            late = [t for t in after["longTasks"] if mounted_at is not None and t[0] >= mounted_at]
            out["playback"] = {
                "at": after["now"], "heapUsed": heap_before, "heapUsedAfterGC": heap, "videos": after["playback"],
                "longTasksAfterMount": len(late), "maxLongTaskAfterMount": max((d for _, d in late), default=0.0),
                "longTasksTotal": len(after["longTasks"]),
            }
    except Exception as error:  # a load that fails or hangs is a failed run, recorded
        out["error"] = str(error).split("\n")[0][:300]
        if not out["ok"] and not watchdog.fired:
            out["diagnosis"] = diagnose(page if "page" in locals() else None)
    finally:
        out["errors"] = errors[:10]
        try:
            context.close()
        except Exception as error:  # a wedged context must not end the run
            out.setdefault("error", f"context close: {error}"[:300])
        watchdog.cancel()
        out["wallSeconds"] = round(time.monotonic() - wall, 2)
        out["buildMtime"] = build_mtime()
        if watchdog.fired:
            out["ok"] = False
            out["error"] = f"hung: renderer killed after {deadline:.0f} s ({out.get('error', '')})"[:300]
    return out


FILM_AFTER_SKIP = r"""
() => new Promise((resolve) => {
  const b = window.__bench;
  const video = document.querySelector('video.player__video');
  const timer = setTimeout(() => resolve({ skipAt: b.skipAt ?? null, filmFrame: null }), 15000);
  const check = (now) => {
    if (!video.paused && b.skipAt !== undefined && now >= b.skipAt) {
      clearTimeout(timer);
      resolve({ skipAt: b.skipAt, filmFrame: performance.now() });
    } else video.requestVideoFrameCallback(check);
  };
  video.requestVideoFrameCallback(check);
})
"""


def ad_break(page: Any, cdp: Any, timeout_ms: float) -> dict[str, Any]:
    """The "ads" page: the first ad frame (ms from navigation), then a skip at the ad's offset and the gap to the
    film's first frame played after it. Waiting for the skip button injects Playwright's script, after the first ad
    frame and before the skip: neither measurement includes it."""
    wait_in_page(cdp, "adFramed", timeout_ms)
    first = page.evaluate("() => window.__bench.firstFrameOf['ad-layer__video'] ?? null")
    page.wait_for_selector("button[data-ad-control='skip']:not([disabled])", timeout=timeout_ms)
    page.click("button[data-ad-control='skip']")
    film = page.evaluate(FILM_AFTER_SKIP)
    gap = film["filmFrame"] - film["skipAt"] if film["filmFrame"] is not None and film["skipAt"] is not None else None
    return {"adFirstFrame": first, "adGap": gap}


DIAGNOSE = r"""
() => {
  const v = document.querySelector('video');
  const p = document.getElementById('player');
  return {
    state: p ? p.dataset.state || null : null, mounted: !!window.__playerMounted, now: performance.now(),
    bench: window.__bench ? { firstFrame: window.__bench.firstFrame, videos: window.__bench.videos } : null,
    video: v ? { currentTime: v.currentTime, paused: v.paused, readyState: v.readyState,
                 src: (v.currentSrc || '').slice(0, 80), error: v.error ? v.error.code : null } : null,
    scripts: performance.getEntriesByType('resource').filter((e) => /\.js(\?|$)/.test(e.name))
      .map((e) => e.name.replace(/^https?:\/\/[^/]+/, '')),
  };
}
"""


def diagnose(page: Any) -> dict[str, Any] | None:
    """What a failed load's page looked like: the player's data-state, its video, the scripts it fetched."""
    if page is None:
        return None
    try:
        return page.wait_for_function(DIAGNOSE, timeout=5000).json_value()
    except Exception as error:  # the page may be gone
        return {"error": str(error).split("\n")[0][:200]}


def build_mtime() -> float | None:
    try:
        return (DIST / "meta.json").stat().st_mtime
    except OSError:
        return None


def collect(page: Any, timeout_s: float) -> dict[str, Any]:
    """COLLECT's result. Through wait_for_function, not evaluate: evaluate has no timeout, and a page whose main
    thread never yields would hang the run; this raises after ``timeout_s`` instead (a failed run)."""
    return page.wait_for_function(COLLECT, timeout=timeout_s * 1000).json_value()


def analyse(snap: dict[str, Any], page_name: str, sizes: Sizes, inline_own: float) -> dict[str, Any]:
    fcp = snap["fcp"]
    html_end = snap["nav"]["responseEnd"] if snap["nav"] else None
    first_frame = snap["firstFrame"] if page_name in VIDEO_PAGES else None
    until = first_frame if first_frame is not None else snap["now"]
    before = [r for r in snap["resources"] if 0 < r["end"] <= until]
    js = [r for r in before if is_js(r["url"], r["type"])]
    css = [r for r in before if is_css(r["url"])]
    mounted_at = snap["mountedAt"]
    after_mount = [t for t in snap["longTasks"] if mounted_at is not None and t[0] >= mounted_at]
    result: dict[str, Any] = {
        "fcp": fcp,
        "fcpAfterHtml": fcp - html_end if fcp is not None and html_end else None,
        "htmlResponseEnd": html_end,
        "firstFrame": first_frame,
        "presentationTime": snap["presentationTime"],
        "frame": snap["frame"],
        "mountedAt": mounted_at,
        "jsBytes": sum(r["transfer"] for r in js),
        "cssBytes": sum(r["transfer"] for r in css),
        "jsCssRequests": len(js) + len(css),
        "jsCssBytes": sum(r["transfer"] for r in js + css),
        "jsCssBytesAll": sum(r["transfer"] for r in snap["resources"]
                             if is_js(r["url"], r["type"]) or is_css(r["url"])),
        "documentBytes": snap["nav"]["transfer"] if snap["nav"] else None,
        "documentDecodedBytes": snap["nav"]["decoded"] if snap["nav"] else None,
        "ownBytesLoaded": sizes.own_bytes_of_urls([url_path(r["url"]) for r in js + css]) + inline_own
        if page_name == "player" else None,
        "tbt": blocking_time(snap["longTasks"], fcp, first_frame) if fcp is not None and first_frame else None,
        "longTasks": snap["longTasks"],
        "longTasksAfterMount": len(after_mount),
        "longTaskScriptsAfterMount": culprits(after_mount, snap.get("frames", [])),
        "maxLongTaskAfterMount": max((d for _, d in after_mount), default=0.0) if mounted_at is not None else None,
        "renderBlocking": [url_path(r["url"]) for r in snap["resources"] if r["blocking"] == "blocking"],
        "scripts": sorted({url_path(r["url"]) for r in js}),
        "resourcesBeforeFrame": [[url_path(r["url"]), r["type"], r["transfer"], round(r["end"])] for r in before],
        "videos": snap["videos"],
        "noRvfc": snap["noRvfc"],
        "longTaskError": snap["longTaskError"],
        "mountHookError": snap["mountHookError"],
    }
    return result


def culprits(tasks: list[list[float]], frames: list[dict[str, Any]]) -> list[str]:
    """For each long task, the longest script of the long animation frame that holds it ('?' when none does)."""
    out = []
    for start, duration in tasks:
        holding = [f for f in frames if f["start"] <= start + 1 and start + duration <= f["start"] + f["duration"] + 1]
        scripts = [x for f in holding for x in f["scripts"]]
        top = max(scripts, key=lambda x: x["duration"], default=None)
        named = f"{top['invoker']} {top['source']} {top['function']} ({top['duration']} ms)" if top else None
        out.append(f"{duration:.0f} ms: " + (named or "no script (style, layout, GC or the browser)"))
    return out


# ------------------------------------------------------------------------------------------------ figures
@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    unit: str
    baseline: str | None
    pages: tuple[str, ...]
    heavy: bool = False

    def pick(self, run: dict[str, Any]) -> float | None:
        source = run.get("playback") if self.heavy else run
        if not run.get("ok") or not source:
            return None
        value = source.get(self.key)
        return float(value) if isinstance(value, int | float) else None


METRICS = [
    Metric("fcp", "first contentful paint (ms from navigation start)", "ms", "static", ("player", "static")),
    Metric("fcpAfterHtml", "  of which after the HTML arrived (ms; paint - navigation responseEnd)", "ms", "static",
           ("player", "static")),
    Metric("firstFrame", "first video frame (ms; rVFC callback's performance.now())", "ms", "hls", VIDEO_PAGES),
    Metric("adFirstFrame", "first ad frame, auto_play with a pre-roll (ms from navigation)", "ms", None, ("ads",)),
    Metric("adGap", "  skip click at the ad's offset to the film's first frame played (ms)", "ms", None, ("ads",)),
    Metric("jsCssBytes", "JS + CSS transferred before the first frame (kB, compressed, Resource Timing)", "kB",
           "hls", VIDEO_PAGES),
    Metric("ownBytesLoaded", "  of which the player's own code (kB brotli; + the inlined shell CSS)", "kB", None,
           ("player",)),
    Metric("documentBytes", "HTML document transferred (kB, compressed)", "kB", "static", PAGES),
    Metric("tbt", "total blocking time, first paint to first frame (ms)", "ms", "hls", VIDEO_PAGES),
    Metric("maxLongTaskAfterMount", "longest task after mount, until first frame + 1 s (ms; 0 = none over 50)",
           "ms", None, ("player",)),
    Metric("mountedAt", "player mounted (ms; window.__playerMounted set)", "ms", None, ("player",)),
    Metric("heapUsedAfterGC", "JS heap after 10 s of playback and a forced GC (MB)", "MB", "hls", VIDEO_PAGES,
           heavy=True),
    Metric("heapUsed", "JS heap after 10 s of playback, before GC (MB)", "MB", "hls", VIDEO_PAGES, heavy=True),
    Metric("maxLongTaskAfterMount", "longest task after mount, over 10 s of playback (ms; 0 = none over 50)", "ms",
           None, ("player",), heavy=True),
]


def scaled(metric: Metric, value: float) -> float:
    return value / 1000 if metric.unit == "kB" else value / 1e6 if metric.unit == "MB" else value


def summarise(runs: list[dict[str, Any]], profiles: list[str]) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for profile in profiles:
        for metric in METRICS:
            key = f"{profile}/{metric.key}" + ("/heavy" if metric.heavy else "")
            per_page: dict[str, Any] = {}
            for page in metric.pages:
                values = [v for r in runs if r["profile"] == profile and r["page"] == page
                          if (v := metric.pick(r)) is not None]
                values = [scaled(metric, v) for v in values]
                per_page[page] = ({"median": statistics.median(values), "min": min(values), "max": max(values),
                                   "n": len(values)} if values else {"n": 0})
            base = per_page.get(metric.baseline or "", {}).get("median")
            for stats in per_page.values():
                if stats["n"] and base:
                    stats["ratio"] = stats["median"] / base
            summary[key] = per_page
    return summary


def fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    return f"{value:.1f}" if unit in ("kB", "MB") else f"{value:.0f}"


def render_tables(summary: dict[str, Any], profiles: list[str], runs: list[dict[str, Any]]) -> str:
    lines: list[str] = []
    for profile in profiles:
        lines += ["", f"== {profile}: {PROFILES[profile].about}",
                  f"  {'figure / page':<14}{'median':>9}  {'min-max':<17}{'n':>3}  ratio"]
        for metric in METRICS:
            stats = summary[f"{profile}/{metric.key}" + ("/heavy" if metric.heavy else "")]
            if not any(s["n"] for s in stats.values()):
                continue
            lines.append(f"  {metric.label}")
            for page, s in stats.items():
                fails = sum(1 for r in runs if r["profile"] == profile and r["page"] == page and not r["ok"]
                            and (not metric.heavy or r["heavy"]))
                span = f"{fmt(s.get('min'), metric.unit)}-{fmt(s.get('max'), metric.unit)}" if s["n"] else "-"
                ratio = f"{s['ratio']:.2f}x {metric.baseline}" if "ratio" in s and page != metric.baseline else ""
                failed = f"  ({fails} failed)" if fails else ""
                lines.append(f"    {page:<12}{fmt(s.get('median'), metric.unit):>9}  {span:<17}{s['n']:>3}  "
                             f"{ratio}{failed}")
    return "\n".join(lines)


def targets(summary: dict[str, Any], runs: list[dict[str, Any]], sizes: Sizes, profiles: list[str]) -> list[dict]:
    """The issue's four targets, each PASS, FAIL or n/a (not measured in this run)."""
    rows: list[dict[str, Any]] = []

    def ratio(key: str, page: str) -> float | None:
        return summary.get(key, {}).get(page, {}).get("ratio")

    if "slow" in profiles:
        r = ratio("slow/fcp", "player")
        rows.append({"target": "first contentful paint, slow profile, <= 1.1x the static page",
                     "value": f"{r:.2f}x" if r else "-", "ok": r is not None and r <= 1.1 if r else None})
    for profile in profiles:
        r = ratio(f"{profile}/firstFrame", "player")
        rows.append({"target": f"first frame, {profile}, <= 1.15x the bare hls.js page",
                     "value": f"{r:.2f}x" if r else "-", "ok": r <= 1.15 if r else None})
    for profile in profiles:
        ad = summary.get(f"{profile}/adFirstFrame", {}).get("ads", {}).get("median")
        bare = summary.get(f"{profile}/firstFrame", {}).get("hls", {}).get("median")
        rows.append({"target": f"first ad frame, {profile}, <= the bare hls.js page's first frame",
                     "value": f"{ad:.0f} vs {bare:.0f} ms" if ad and bare else "-",
                     "ok": ad <= bare if ad and bare else None})
        gap = summary.get(f"{profile}/adGap", {}).get("ads", {}).get("median")
        rows.append({"target": f"ad end (skip) to the film's frame, {profile}, < 200 ms median",
                     "value": f"{gap:.0f} ms" if gap is not None else "-",
                     "ok": gap < 200 if gap is not None else None})
    own = sizes.figures["own-code"]
    loaded = [r["ownBytesLoaded"] for r in runs if r["ok"] and r["page"] == "player" and r.get("ownBytesLoaded")]
    loaded_note = f"; loaded before first frame: {max(loaded) / 1000:.1f} kB at most" if loaded else ""
    rows.append({"target": "player's own code on the path to the first frame < 35 kB brotli",
                 "value": f"{own / 1000:.1f} kB (size budget){loaded_note}", "ok": own < 35_000})
    if "unthrottled" in profiles:
        player_runs = [r for r in runs if r["ok"] and r["profile"] == "unthrottled" and r["page"] == "player"]
        longest = [r["maxLongTaskAfterMount"] for r in player_runs if r.get("maxLongTaskAfterMount") is not None]
        longest += [r["playback"]["maxLongTaskAfterMount"] for r in player_runs if r.get("playback")]
        with_tasks = sum(1 for r in player_runs if r.get("longTasksAfterMount") or
                         (r.get("playback") or {}).get("longTasksAfterMount"))
        rows.append({"target": "no long task (> 50 ms) after mount, unthrottled",
                     "value": (f"longest {max(longest):.0f} ms; {with_tasks}/{len(player_runs)} loads had one"
                               if longest else "-"),
                     "ok": (max(longest) == 0) if longest else None})
    return rows


def render_targets(rows: list[dict[str, Any]]) -> str:
    lines = ["", "== targets"]
    for row in rows:
        verdict = "n/a " if row["ok"] is None else "PASS" if row["ok"] else "FAIL"
        lines.append(f"  {verdict}  {row['target']:<66} {row['value']}")
    return "\n".join(lines)


def notes(runs: list[dict[str, Any]], meta: dict[str, Any]) -> list[str]:
    out = []
    for page in PAGES:
        rs = [r for r in runs if r["page"] == page]
        if not rs:
            continue
        failed = [r for r in rs if not r["ok"]]
        ok = [r for r in rs if r["ok"]]
        line = f"{page}: {len(ok)}/{len(rs)} loads measured"
        states = sorted({str(r["diagnosis"].get("state")) for r in failed if r.get("diagnosis")})
        if failed:
            if states:
                line += f"; failed loads' player data-state: {', '.join(states)}"
            line += "; FAILED: " + " | ".join(sorted({f"{r['profile']}: {r.get('error')}" for r in failed}))[:600]
        partly = [r for r in ok if r.get("error")]
        if partly:
            line += f"; {len(partly)} loads measured but failed later (playback/heap): " + " | ".join(
                sorted({str(r["error"]) for r in partly}))[:400]
        blocking = sorted({p for r in ok for p in r.get("renderBlocking", [])})
        line += f"; render-blocking resources: {', '.join(blocking) if blocking else 'none'}"
        frames = sorted({f"{r['frame']['width']}x{r['frame']['height']}" for r in ok if r.get("frame")})
        if frames:
            line += f"; first frame size {', '.join(frames)}"
        gaps = [r["firstFrame"] - r["presentationTime"] for r in ok
                if r.get("firstFrame") and r.get("presentationTime")]
        if gaps:
            line += f"; rVFC callback ran {statistics.median(gaps):.0f} ms (median) after the frame's presentationTime"
        playback = [r["playback"] for r in ok if r.get("playback")]
        if playback:
            times = [max((v["currentTime"] for v in p["videos"]), default=0) for p in playback]
            line += f"; currentTime after the playback period: {', '.join(f'{t:.1f}' for t in times)} s"
        entries = {s for r in ok for s in r.get("scripts", []) if re.search(r"/assets/player-\w+\.js$", s)}
        if page == "player" and len(entries) > 1:  # a hashed entry name changes only with a rebuild
            line += f"; the entry script changed during the run ({len(entries)} names): someone rebuilt the front end"
        lazy = sum(1 for r in ok if any("/mount-" in s for s in r.get("scripts", [])))
        if page == "player" and lazy:
            line += f"; the interface chunk arrived before the first frame in {lazy}/{len(ok)} loads"
        errors = sorted({e for r in rs for e in r.get("errors", [])})
        if errors:
            line += "; page errors: " + " | ".join(errors[:3])
        out.append(line)
    builds = {float(b) for b in [meta.get("buildMtime"), *(r.get("buildMtime") for r in runs)] if b is not None}
    if len(builds) > 1:
        out.insert(0, f"THE FRONT END WAS REBUILT DURING THE RUN ({len(builds)} builds seen, app/static/dist/meta.json "
                   "changed): figures mix builds, and loads during a rebuild may have failed; run again")
    sizes = meta.get("htmlSizes", {})
    if sizes:
        out.append("HTML sizes (raw / brotli as served): " + ", ".join(
            f"{k} {v['raw']} / {v['br']} B" for k, v in sizes.items()))
    return out


# ------------------------------------------------------------------------------------------------ main
def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="make bench ARGS=… / bin/bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--heavy-rounds", type=int, default=2,
                        help="of those, how many also play 10 s and read the heap, spread over the run (default 2)")
    parser.add_argument("--profiles", default="unthrottled,slow", help="comma-separated: unthrottled, slow")
    parser.add_argument("--pages", default=",".join(PAGES), help="comma-separated: player, static, hls, ads")
    parser.add_argument("--timeout", type=float, default=30, help="seconds per load before it counts as failed")
    parser.add_argument("--playback", type=float, default=10, help="seconds of playback before the heap reading")
    parser.add_argument("--data-rounds", type=int, default=3,
                        help="data-use rounds after the timing rounds (tests/bench/data.py; 0: none; default 3)")
    parser.add_argument("--data-seconds", type=float, default=60, help="seconds of playback it follows (default 60)")
    parser.add_argument("--chromium", default=CHROMIUM, help=f"browser binary (default {CHROMIUM})")
    parser.add_argument("--out", type=Path, default=INSTANCE_DIR / "bench", help="results folder (instance/bench)")
    parser.add_argument("--report", type=Path, help="re-print the tables of a saved results JSON; run nothing")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.heavy_rounds < 0:
        parser.error("--rounds must be >= 1 and --heavy-rounds >= 0")
    for name in args.profiles.split(","):
        if name not in PROFILES:
            parser.error(f"unknown profile {name!r}")
    for name in args.pages.split(","):
        if name not in PAGES:
            parser.error(f"unknown page {name!r}")
    return args


def stream_source(origin: str) -> tuple[str, dict[str, Any]]:
    """The stream the player plays: the JSON blob's first episode's master JSON, then its default source."""
    html = fetch(origin + PLAYER_PATH)[0].decode()
    match = re.search(r'<script id="player-context" type="application/json">(.*?)</script>', html, re.S)
    if not match:
        raise RuntimeError(f"no <script id=player-context> on {PLAYER_PATH}")
    context = json.loads(match.group(1))
    master_path = context["episodes"][0]["m3u8MasterFilePath"]
    master = json.loads(fetch(origin + master_path)[0])
    sources = master["sources"]
    default = next((s for s in sources if s.get("isDefault")), sources[0])
    return default["link"], {"masterJson": master_path, "source": default}


def render_all(result: dict[str, Any]) -> str:
    meta = result["meta"]
    profiles = meta["options"]["profiles"]
    lines = [f"player bench, {meta['started']}: {meta['options']['rounds']} rounds (heavy: rounds "
             f"{', '.join(map(str, meta['heavyRounds'])) or 'none'}), medians with min-max over the rounds; "
             f"ratio = median / the baseline's median in this run"]
    for page in meta["options"]["pages"]:
        lines.append(f"  {page:<8}{PAGE_ABOUT[page]}")
    lines.append(render_tables(result["summary"], profiles, result["runs"]))
    lines.append(render_targets(result["targets"]))
    if "data" in result:
        lines += ["", data_use.render(result["data"]["summary"], result["data"]["rounds"])]
    lines += ["", "notes:"] + [f"  - {n}" for n in result["notes"]]
    lines += ["", result["sizes"]]
    return "\n".join(lines)


class Build:
    """The built front end's sizes, measured again whenever app/static/dist/meta.json changes (a rebuild)."""

    def __init__(self, player_url: str) -> None:
        self.player_url = player_url
        self.mtime: float | None = None
        self.sizes: Sizes = measure(DIST)
        self.inline_own = 0.0

    def current(self) -> tuple[Sizes, float]:
        mtime = build_mtime()
        if mtime != self.mtime:
            try:
                self.sizes = measure(DIST)
                player_html = fetch(self.player_url)[0].decode()
                self.inline_own = sum(o.own_brotli for o in self.sizes.by_role("inline-css")  # the page's <style>
                                      if inline_text(DIST / o.name) in player_html)
                self.mtime = mtime
            except (OSError, ValueError, RuntimeError):
                pass  # mid-rebuild: keep the last complete one, try again next load
        return self.sizes, self.inline_own


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.report:
        print(render_all(json.loads(args.report.read_text())))
        return 0
    from playwright.sync_api import sync_playwright

    if not Path(args.chromium).exists():
        print(f"bench: {args.chromium} is missing (apt-get install chromium)", file=sys.stderr)
        return 2
    profiles = args.profiles.split(",")
    pages = args.pages.split(",")
    started = datetime.now(UTC)
    stamp = started.strftime("%Y-%m-%dT%H-%M-%S")
    args.out.mkdir(parents=True, exist_ok=True)
    start_build = build_mtime()
    heavy_rounds = sorted({round(i * (args.rounds - 1) / (args.heavy_rounds - 1)) if args.heavy_rounds > 1 else 0
                           for i in range(min(args.heavy_rounds, args.rounds))})
    server = Server(args.out / f"{stamp}-server.log")
    ads_server = Server(args.out / f"{stamp}-ads-server.log", ads=True) if "ads" in pages else None
    t0 = time.monotonic()
    runs: list[dict[str, Any]] = []
    data_runs: list[dict[str, Any]] = []
    try:
        build = Build(server.origin + PLAYER_PATH)
        server.wait_ready()
        if ads_server:
            ads_server.wait_ready()
        src, stream = stream_source(server.origin)
        urls = {"player": server.origin + PLAYER_PATH, "static": server.origin + "/bench/static",
                "hls": server.origin + "/bench/hls?src=" + urllib.parse.quote(src, safe="/")}
        if ads_server:
            urls["ads"] = ads_server.origin + ADS_PATH
        html_sizes = {}
        for page in ("player", "static"):
            html_sizes[page] = {"raw": len(fetch(urls[page])[0]), "br": len(fetch(urls[page], "br")[0])}
        build.current()
        assets = [o.url_path for o in build.sizes.outputs.values()] + ["/bench/vendor/hls.min.js"]
        assets += [f"/assets/{p.name}" for p in DIST.glob("hls.worker-*.js")]
        slowest = warm_server(server, assets)
        if ads_server:
            slowest |= {f"ads {k}": v for k, v in warm_server(ads_server, assets).items()}
        print(f"bench: server {server.origin} (gunicorn, 2 workers x 4 threads); stream {src}; "
              f"{args.rounds} rounds, heavy {', '.join(str(r + 1) for r in heavy_rounds) or 'none'}; "
              f"profiles {', '.join(profiles)}", flush=True)
        with sync_playwright() as playwright:
            browser = launch(playwright, args.chromium, AUTOPLAY, headless=True)
            chromium_version = browser.version
            print("warm-up (discarded):", end="", flush=True)
            for profile in profiles:
                for page in pages:
                    run = load_once(browser, urls[page], page, PROFILES[profile], False, args, *build.current())
                    print(f" {profile}/{page} {'ok' if run['ok'] else 'FAILED'}", end="", flush=True)
            print(flush=True)
            for round_index in range(args.rounds):
                heavy = round_index in heavy_rounds
                profile_order = profiles if round_index % 2 == 0 else profiles[::-1]
                for profile in profile_order:
                    order = [pages[(i + round_index) % len(pages)] for i in range(len(pages))]
                    for page in order:
                        run = load_once(browser, urls[page], page, PROFILES[profile], heavy, args,
                                        *build.current())
                        run["round"] = round_index + 1
                        runs.append(run)
                        print(progress_line(run, args.rounds), flush=True)
            if args.data_rounds:
                data_runs = data_use.measure(browser, {k: v for k, v in urls.items() if k in ("player", "hls", "ads")},
                                             args.data_rounds, args.data_seconds, args.timeout)
            browser.close()
    finally:
        server.stop()
        if ads_server:
            ads_server.stop()
    elapsed = time.monotonic() - t0

    summary = summarise(runs, profiles)
    sizes = build.sizes  # the last build seen
    budget_checks = check_budget(sizes, load_budget(BUDGET_FILE))
    meta = {
        "started": started.isoformat(timespec="seconds"), "elapsedSeconds": round(elapsed),
        "options": {"rounds": args.rounds, "dataRounds": args.data_rounds, "dataSeconds": args.data_seconds,
                    "heavyRounds": args.heavy_rounds, "profiles": profiles, "pages": pages,
                    "timeoutSeconds": args.timeout, "playbackSeconds": args.playback, "settleMs": SETTLE_MS,
                    "viewport": VIEWPORT},
        "heavyRounds": [r + 1 for r in heavy_rounds], "chromium": chromium_version, "launchArgs": LAUNCH_ARGS,
        "disabledFeatures": QUIET_FEATURES,
        "profiles": {p: PROFILES[p].__dict__ for p in profiles}, "urls": urls, "stream": stream,
        "htmlSizes": html_sizes, "warmupSlowestMs": slowest, "buildMtime": start_build,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "load": os.getloadavg()},
    }
    result = {"meta": meta, "summary": summary, "targets": targets(summary, runs, sizes, profiles),
              "notes": [], "sizes": report(sizes, budget_checks), "runs": runs}
    if data_runs:
        result["data"] = {"summary": data_use.summarise(data_runs, args.data_seconds), "runs": data_runs,
                          "rounds": args.data_rounds}
    result["notes"] = notes(runs, meta)
    load = "/".join(f"{x:.1f}" for x in os.getloadavg())
    text = render_all(result) + (f"\n\nchromium {chromium_version}; {os.cpu_count()} CPUs; load average at the end "
                                 f"{load} (1/5/15 min; other work skews the figures); elapsed {elapsed:.0f} s\n")
    print("\n" + "=" * 110 + "\n" + text)
    json_path = args.out / f"{stamp}.json"
    json_path.write_text(json.dumps(result, indent=1, ensure_ascii=False))
    json_path.with_suffix(".txt").write_text(text)
    print(f"wrote {json_path.relative_to(PROJECT_ROOT)} and .txt")
    return 0


def progress_line(run: dict[str, Any], rounds: int) -> str:
    head = f"[{run['round']}/{rounds}] {run['profile']:<11} {run['page']:<7}"
    if not run["ok"]:
        return f"{head} FAILED after {run['wallSeconds']} s: {run.get('error')}"
    if run["page"] == "ads":
        return f"{head} first ad frame {fmt(run.get('adFirstFrame'), 'ms')}, skip to film {fmt(run.get('adGap'), 'ms')}"
    parts = [f"fcp {fmt(run['fcp'], 'ms')}"]
    if run.get("firstFrame") is not None:
        parts += [f"frame {fmt(run['firstFrame'], 'ms')}", f"js+css {run['jsCssBytes'] / 1000:.1f} kB",
                  f"tbt {fmt(run['tbt'], 'ms')}"]
    if run.get("maxLongTaskAfterMount") is not None:
        parts.append(f"longest task after mount {run['maxLongTaskAfterMount']:.0f} ms")
        parts += [f"[{c}]" for c in run.get("longTaskScriptsAfterMount", [])]
    if run.get("playback"):
        parts.append(f"heap {run['playback']['heapUsedAfterGC'] / 1e6:.1f} MB after GC")
    return f"{head} " + ", ".join(parts)


if __name__ == "__main__":
    sys.exit(main())
