// The player page's one inline script (its text is hashed into the page's Content-Security-Policy, so the page is
// the same for every viewer and a cache may keep it). A click on the start button before the entry has run is
// remembered, never lost.
document.addEventListener("click", function (event) {
  var start = event.target.closest && event.target.closest("[data-player-start]");
  if (start && !window.__playerMounted) {
    window.__playerStartRequested = true;
    start.setAttribute("aria-busy", "true");
    document.documentElement.classList.add("player-starting");
  }
}, true);
// The first use of localStorage in a page loads it from the browser process, a few milliseconds the entry would
// otherwise spend on the way to the first frame (volume, resume point, voice). Done while the page waits for it.
if (window.requestIdleCallback) requestIdleCallback(function () { try { localStorage.length; } catch (e) {} });
