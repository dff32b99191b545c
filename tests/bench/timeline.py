"""The request timeline of the first video frame: which request starts when, on the player page and the bare hls.js
page, in the benchmark's server and browser (tests/bench/run.py's). Deterministic where the benchmark's times are
not: the order of the requests, how many come before the frame, and the gap between the entry's arrival and the
stream's first playlist request.

    .venv/bin/python -m tests.bench.timeline --loads 5 [--profile slow] [--json out.json]

Per page, each request before the first frame is named by its role (document, entry, hls.js, master JSON, master
playlist, level playlist, audio playlist, init segment, segment, worker, ...) and given as the medians over the loads
of its start, first byte and end (ms from navigation start, Resource Timing); then the frame.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import urllib.parse
from pathlib import Path
from typing import Any

from tests.bench.inpage import INIT_SCRIPT, VIEWPORT, wait_in_page
from tests.bench.run import AUTOPLAY, PROFILES, Server, stream_source
from tests.bench.wsgi import PLAYER_PATH
from tests.browser.chromium import CHROMIUM, launch

ROLES = (
    (r"/assets/player-[^/]+\.js$", "entry"),
    (r"/assets/chunks/hls-[^/]+\.js$", "hls.js chunk"),
    (r"/assets/chunks/chunk-[^/]+\.js$", "entry's chunk"),
    (r"/assets/chunks/[^/]+\.js$", "lazy chunk"),
    (r"/assets/hls\.worker-[^/]+\.js$", "hls.js worker"),
    (r"/bench/vendor/hls\.min\.js$", "hls.min.js"),
    (r"\.css$", "css"),
    (r"/master\.json$", "master JSON"),
    (r"/master(-\d+)?\.m3u8$", "master playlist"),
    (r"/video-[^/]+\.m3u8$", "level playlist"),
    (r"/audio-[^/]+\.m3u8$", "audio playlist"),
    (r"/init\.mp4$", "init segment"),
    (r"\.m4s$", "segment"),
    (r"/posters/", "poster"),
)

# Moments no request shows, noted by wrapping what the page calls at them (performance.now(), first call each): the
# entry reads its context blob (JSON.parse of the blob: the entry runs), hls.js attaches to the <video> (a MediaSource
# made), hls.js's transmuxer worker starts, the first media bytes go into a SourceBuffer.
MARKS_SCRIPT = r"""
(() => {
  const marks = (window.__marks = {});
  const note = (name) => { if (!(name in marks)) marks[name] = performance.now(); };
  const parse = JSON.parse;
  JSON.parse = function (text, ...rest) {
    if (typeof text === 'string' && text.includes('"episodes"')) note('entry reads its context');
    return parse.call(this, text, ...rest);
  };
  for (const name of ['MediaSource', 'ManagedMediaSource', 'Worker']) {
    const Real = window[name];
    if (typeof Real !== 'function') continue;
    window[name] = new Proxy(Real, { construct(target, args, newTarget) {
      note(name === 'Worker' ? 'worker made' : 'MediaSource made (hls.js attaches)');
      return Reflect.construct(target, args, newTarget);
    } });
  }
  const append = SourceBuffer.prototype.appendBuffer;
  SourceBuffer.prototype.appendBuffer = function (...args) {
    note('first SourceBuffer append');
    return append.apply(this, args);
  };
})();
"""

COLLECT = r"""
() => ({
  frame: window.__bench.firstFrame,
  marks: window.__marks || {},
  nav: (() => { const n = performance.getEntriesByType('navigation')[0];
                return { start: 0, first: n.responseStart, end: n.responseEnd }; })(),
  resources: performance.getEntriesByType('resource').map((e) => ({
    url: e.name, start: e.startTime, first: e.responseStart, end: e.responseEnd, transfer: e.transferSize })),
})
"""


def role_of(url: str) -> str:
    path = urllib.parse.urlsplit(url).path
    return next((role for pattern, role in ROLES if re.search(pattern, path)), path)


def load(browser: Any, url: str, profile: str) -> dict[str, Any]:
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1, locale="ru-RU")
    try:
        context.add_init_script(INIT_SCRIPT)
        context.add_init_script(MARKS_SCRIPT)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        settings = PROFILES[profile]
        if settings.network:
            cdp.send("Network.emulateNetworkConditions", settings.network)
        if settings.cpu_rate:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": settings.cpu_rate})
        page.goto(url, wait_until="commit")
        wait_in_page(cdp, "framed", 30_000)
        page.wait_for_timeout(300)
        snap = page.evaluate(COLLECT)
    finally:
        context.close()
    frame = snap["frame"]
    rows = [("document", snap["nav"]["start"], snap["nav"]["first"], snap["nav"]["end"], None)]
    counts: dict[str, int] = {}
    for r in sorted(snap["resources"], key=lambda r: r["start"]):
        if r["start"] > frame:
            continue
        role = role_of(r["url"])
        counts[role] = counts.get(role, 0) + 1
        name = role if counts[role] == 1 else f"{role} #{counts[role]}"
        rows.append((name, r["start"], r["first"], r["end"], r["transfer"]))
    rows += [(f"[{name}]", at, at, at, None) for name, at in snap["marks"].items() if at <= frame]
    return {"frame": frame, "rows": rows}


def summarise(loads: list[dict[str, Any]]) -> list[tuple[str, float, float, float, int]]:
    names: list[str] = []
    for one in loads:
        names += [row[0] for row in one["rows"] if row[0] not in names]
    table = []
    for name in names:
        rows = [row for one in loads for row in one["rows"] if row[0] == name]
        table.append((name, *(statistics.median(row[i] for row in rows) for i in (1, 2, 3)), len(rows)))
    return sorted(table, key=lambda row: row[1])


def render(page: str, loads: list[dict[str, Any]]) -> str:
    frames = [one["frame"] for one in loads]
    lines = [f"{page}: first frame median {statistics.median(frames):.0f} ms "
             f"({min(frames):.0f}-{max(frames):.0f}, {len(frames)} loads); requests started before it:",
             f"  {'request':<22}{'start':>8}{'1st byte':>10}{'end':>8}{'seen':>6}"]
    for name, start, first, end, seen in summarise(loads):
        lines.append(f"  {name:<22}{start:>8.1f}{first:>10.1f}{end:>8.1f}{seen:>4}/{len(loads)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--loads", type=int, default=5, help="cold loads per page, interleaved (default 5)")
    parser.add_argument("--profile", default="unthrottled", choices=sorted(PROFILES))
    parser.add_argument("--chromium", default=CHROMIUM)
    parser.add_argument("--json", type=Path, help="write every load's rows here")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    server = Server(Path(tempfile.mkstemp(prefix="timeline-", suffix=".log")[1]))
    results: dict[str, list[dict[str, Any]]] = {"player": [], "hls": []}
    try:
        server.wait_ready()
        src, _ = stream_source(server.origin)
        urls = {"player": server.origin + PLAYER_PATH,
                "hls": server.origin + "/bench/hls?src=" + urllib.parse.quote(src, safe="/")}
        with sync_playwright() as playwright:
            browser = launch(playwright, args.chromium, AUTOPLAY, headless=True)
            for page in urls:  # warm-up, discarded: the server's caches and the browser's
                load(browser, urls[page], args.profile)
            for index in range(args.loads):
                for page in (("player", "hls") if index % 2 == 0 else ("hls", "player")):
                    results[page].append(load(browser, urls[page], args.profile))
            browser.close()
    finally:
        server.stop()
    print(f"profile {args.profile}; ms from navigation start, medians over {args.loads} cold loads")
    for page, loads in results.items():
        print(render(page, loads))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
