"""What the benchmark installs in the pages it loads, and how it waits on them (tests/bench/run.py, data.py)."""

from __future__ import annotations

import time
from typing import Any

VIEWPORT = {"width": 1280, "height": 720}

# Installed in every document before its own scripts (page.add_init_script).
INIT_SCRIPT = r"""
(() => {
  if (window.__bench) return;
  const b = (window.__bench = { longTasks: [], firstFrame: null, mountedAt: null, videos: 0 });
  // What the harness waits for (wait_in_page): promises, so that waiting runs no code in the page until they settle.
  b.painted = new Promise((resolve) => { b.onPaint = resolve; });
  b.framed = new Promise((resolve) => { b.onFrame = resolve; });
  b.adFramed = new Promise((resolve) => { b.onAdFrame = resolve; });
  b.firstFrameOf = {};
  addEventListener('click', (e) => {
    if (e.target && e.target.closest && e.target.closest('[data-ad-control="skip"]')) b.skipAt = performance.now();
  }, true);
  try {
    new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length) b.onPaint();
    }).observe({ type: 'paint', buffered: true });
  } catch (e) { b.paintError = String(e); }
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { b.longTaskError = String(e); }
  try { performance.setResourceTimingBufferSize(5000); } catch (e) {}
  // Long animation frames name the scripts behind a long task: kept to say what a long task after mount was.
  b.frames = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.blockingDuration <= 0) continue;
        b.frames.push({ start: e.startTime, duration: e.duration, scripts: e.scripts.map((x) => ({
          invoker: x.invoker, source: (x.sourceURL || '').replace(/^https?:\/\/[^/]+/, ''),
          function: x.sourceFunctionName, duration: Math.round(x.duration) })) });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch (e) { b.framesError = String(e); }
  // The player sets window.__playerMounted = true once React has mounted: note the moment.
  let mounted;
  try {
    Object.defineProperty(window, '__playerMounted', {
      configurable: true, enumerable: true,
      get() { return mounted; },
      set(value) { mounted = value; if (value && b.mountedAt === null) b.mountedAt = performance.now(); },
    });
  } catch (e) { b.mountHookError = String(e); }
  // First video frame: requestVideoFrameCallback on every <video>, however it gets into the document.
  const seen = new WeakSet();
  const watch = (v) => {
    if (seen.has(v)) return;
    seen.add(v);
    b.videos += 1;
    if (!('requestVideoFrameCallback' in v)) { b.noRvfc = true; return; }
    v.requestVideoFrameCallback((now, meta) => {
      if (!(v.className in b.firstFrameOf)) b.firstFrameOf[v.className] = performance.now();
      if (v.classList.contains('ad-layer__video')) b.onAdFrame();
      if (b.firstFrame !== null) return;
      b.firstFrame = performance.now();
      b.presentationTime = meta.presentationTime;
      b.frame = { width: meta.width, height: meta.height, mediaTime: meta.mediaTime,
                  src: (v.currentSrc || '').slice(0, 100) };
      b.onFrame();
    });
  };
  const scan = (node) => {
    if (node.nodeName === 'VIDEO') watch(node);
    else if (node.querySelectorAll) node.querySelectorAll('video').forEach(watch);
  };
  new MutationObserver((records) => { for (const r of records) r.addedNodes.forEach(scan); })
    .observe(document, { childList: true, subtree: true });
  for (const type of ['loadstart', 'loadedmetadata', 'play', 'playing']) {
    addEventListener(type, (e) => { if (e.target && e.target.nodeName === 'VIDEO') watch(e.target); }, true);
  }
})();
"""


def wait_in_page(cdp: Any, promise: str, timeout_ms: float) -> None:
    """Waits for INIT_SCRIPT's ``window.__bench[promise]`` with one Runtime.evaluate that awaits it.

    Not page.wait_for_function: its first call injects Playwright's selector engine into the page, ~80 ms of script
    evaluation at 6x CPU that lands wherever the call happens to land, before the first paint as often as not (seen in
    traces). Awaiting a promise runs nothing in the page until it settles."""
    expression = (f"window.__bench ? Promise.race([window.__bench.{promise}.then(() => 'done'), "
                  f"new Promise((resolve) => setTimeout(() => resolve('timeout'), {int(timeout_ms)}))]) : 'early'")
    deadline = time.monotonic() + timeout_ms / 1000
    while time.monotonic() < deadline:
        try:
            answer = cdp.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                   "returnByValue": True})
        except Exception as error:  # the context of a document being replaced: try again in the new one
            if "context" not in str(error).lower() and "navigat" not in str(error).lower():
                raise
            answer = {"result": {"value": "early"}}
        value = answer.get("result", {}).get("value")
        if value == "done":
            return
        if value == "timeout":
            break
        time.sleep(0.05)  # the init script has not run yet
    raise TimeoutError(f"no {promise} within {timeout_ms / 1000:.0f} s")
