// The player entry: small and free of React. It reads the server's context and, when playback is wanted at once
// (auto_play or an early click), starts it before anything else, without touching the document. After the first paint
// it puts the <video> into the shell and serves the start button; the interface (React, its own chunk) mounts over
// the shell then, or after the first frame when playback has started.

import { createApiClient, progressApi } from './api/client';
import { readContext } from './context';
import { connectParent } from './embed/bridge';
import { setLanguage } from './i18n';
import { PlayerController } from './player/controller';
import { preloadEngine } from './player/engine';
import { DEFAULTS } from './core/defaults';
import { yieldToMain } from './core/timing';
import { createVideo, reflectPhase } from './ui/shellState';
import './styles/controls.css';

/** The controls' stylesheet, preloaded by the page without blocking its first paint, applied now. */
function applyStyles(): void {
  for (const preload of document.querySelectorAll<HTMLLinkElement>('link[data-player-styles]')) {
    const sheet = document.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.href = preload.href;
    document.head.append(sheet);
  }
}

function untilPlaybackSettles(controller: PlayerController, engine: Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const settled = () => ['playing', 'paused', 'error', 'ended'].includes(controller.store.get().phase);
    let stop = () => undefined as void;
    const done = () => {
      stop();
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, DEFAULTS.uiDeadlineMs);
    void engine.then(() => {
      if (settled()) return done();
      stop = controller.store.subscribe(() => settled() && done());
    });
  });
}

function boot(): void {
  const container = document.getElementById('player');
  const root = document.getElementById('player-ui');
  const context = readContext();
  if (!container || !root || !context || container.dataset.state === 'error') return; // server screens stay
  setLanguage(document.documentElement.lang || 'ru');

  // The first frame's path starts now, before the first paint, and writes nothing to the document: the <video> is
  // created detached (hls.js and MSE need no layout) and joins the page once the shell has painted.
  const api = progressApi(createApiClient(context.config.baseUrl || window.location.origin), context.content.id);
  const controller = new PlayerController(context, document.baseURI, api);
  const video = createVideo(context.content.title);
  controller.attach(video);
  connectParent(controller.events);
  let engine: Promise<void> | null = null;
  const startNow = Boolean(window.__playerStartRequested || context.autoPlay);
  if (startNow) {
    engine = preloadEngine(); // the page preloaded the hls.js chunk: this only evaluates it
    void controller.start();
  }

  afterFirstPaint(() => {
    container.prepend(video);
    applyStyles();
    reflectPhase(container, controller.store); // for the page's lifetime: nothing to tear down
    // Until the interface mounts, the shell's start button is served from here (the page's early script stands down).
    const onStart = (event: MouseEvent) => {
      if (!(event.target as Element | null)?.closest?.('[data-player-start]')) return;
      document.documentElement.classList.add('player-starting');
      void controller.start();
    };
    document.addEventListener('click', onStart);
    window.__playerMounted = true;
    engine ??= preloadEngine();
    const playing = startNow || window.__playerStartRequested; // a click may have come in before the paint
    if (playing && !startNow) void controller.start();

    // When playback starts at once, the first frame goes first: React's evaluation is one long task (~100 ms on a
    // fast machine, far more on a slow phone), so the interface chunk is fetched and mounted once the video plays
    // (or fails, or DEFAULTS.uiDeadlineMs passed), never while hls.js is busy producing that frame.
    const ready = playing ? untilPlaybackSettles(controller, engine) : Promise.resolve();
    void ready
      .then(() => import('./ui/mount'))
      .then(async ({ mountUi }) => {
        await yieldToMain(); // React's evaluation and the first render: two tasks, not one
        document.removeEventListener('click', onStart);
        mountUi({ context, controller, container, root });
      })
      .catch((error: unknown) => console.error('player: the interface failed to load', error));
  });
}

/**
 * Runs `fn` once the page has painted: the module would otherwise run between the end of parsing and the first paint
 * (it arrives with the HTML on a fast network), delaying the poster and the title by its whole evaluation. A hidden
 * document paints no frames, so a timer stands in for the paint there.
 */
function afterFirstPaint(fn: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    fn();
  };
  requestAnimationFrame(() => setTimeout(once, 0)); // rAF runs just before the paint, the timer just after it
  setTimeout(once, DEFAULTS.firstPaintFallbackMs);
}

boot();
