// The player entry: small and free of React. It reads the server's context and, when playback is wanted at once
// (auto_play or an early click), starts it before anything else, without touching the document. After the first paint
// it puts the <video> into the shell and serves the start button; the interface (React, its own chunk) mounts over
// the shell then, or after the first frame when playback has started.

import { recordAnalytics } from './analytics/record';
import { createApiClient, progressApi } from './api/client';
import { pageFingerprint, prepareFingerprint } from './api/fingerprint';
import { AD_LIST_MISSING, readContext } from './context';
import { connectParent } from './embed/bridge';
import { parentRequestHeaders } from './embed/requestHeaders';
import { PlayerController } from './player/controller';
import { preloadEngine } from './player/engine';
import { DEFAULTS, applyTimings } from './core/defaults';
import { yieldToMain } from './core/timing';
import { watchErrors } from './reporting/report';
import { createVideo, reflectPhase } from './shell/state';
import { serveShellStart } from './shell/start';
import { applyStyles } from './shell/styles';
import './styles/controls.css';
import './styles/ads.css';

/**
 * Resolves once playback has settled: the first frame is on screen (requestVideoFrameCallback; 'playing' alone comes
 * before it), or playback paused, failed or ended, or DEFAULTS.uiDeadlineMs passed.
 */
function untilPlaybackSettles(controller: PlayerController, video: HTMLVideoElement, engine: Promise<void>) {
  return new Promise<void>((resolve) => {
    let stop = () => undefined as void;
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      stop();
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, DEFAULTS.uiDeadlineMs);
    let awaitingFrame = false;
    const check = () => {
      const { phase } = controller.store.get();
      if (['paused', 'error', 'ended'].includes(phase)) return done();
      if (phase !== 'playing' || awaitingFrame) return;
      awaitingFrame = true; // one frame callback, however often the store changes meanwhile
      if (typeof video.requestVideoFrameCallback === 'function') video.requestVideoFrameCallback(() => done());
      else done();
    };
    void engine.then(() => {
      if (finished) return; // the deadline came first: nothing to watch
      check();
      stop = controller.store.subscribe(check);
    });
  });
}

/** Resolves at the first presented frame of a start that has not happened yet (the viewer's click). */
function firstFrame(controller: PlayerController, video: HTMLVideoElement): Promise<void> {
  return new Promise((resolve) => {
    const stop = controller.store.subscribe(() => {
      if (controller.store.get().phase !== 'playing') return;
      stop();
      if (typeof video.requestVideoFrameCallback === 'function') video.requestVideoFrameCallback(() => resolve());
      else resolve();
    });
  });
}

function boot(): void {
  const container = document.getElementById('player');
  const root = document.getElementById('player-ui');
  const context = readContext();
  if (!container || !root || !context || container.dataset.state === 'error') return; // server screens stay
  applyTimings(context.config.timings); // the test suite's (PLAYER_TEST_TIMINGS); nothing in production

  // The first frame's path starts now, before the first paint, and writes nothing to the document: the <video> is
  // created detached (hls.js and MSE need no layout) and joins the page once the shell has painted.
  const api = progressApi(createApiClient(context.config.baseUrl || window.location.origin), context.content.id);
  const controller = new PlayerController(context, document.baseURI, api);
  const video = createVideo(context.content.title);
  controller.attach(video);
  connectParent(controller, context.config.parentOrigin); // events to the embedding page, its commands to the controller
  const errors = watchErrors(context.config, controller.events); // spec §1: listens from now, loads Sentry later
  const analytics = recordAnalytics(context, controller); // spec §7: records from now, sends after the first frame
  // Ads (a lazy chunk): the first start plays once the pre-roll is over; the episode loads underneath it once the ad's
  // first frame is out, and hls.js is evaluated only then (the page preloads the ad path instead of hls.js). The ad
  // list is requested once the chunk is there (its code, ads/list, is in it: a film without ads never loads it), with
  // the device fingerprint (spec §7: on a first visit it is computed from the start, 1000 ms at most) and the headers
  // the embedding page relays, when it said it would.
  const ads = Boolean(context.config.adListUrl && context.isAvailable);
  if (ads) {
    controller.holdPlayback((contentMayLoad) => {
      const relayed = parentRequestHeaders.until(Boolean(context.awaitRequestHeaders), DEFAULTS.parentHeadersWaitMs);
      const identified = Promise.all([pageFingerprint().fingerprint(), relayed]);
      return import('./ads/boot').then((adPath) => {
        const { adListFor, adRequestHeaders, fetchAdList, startAds } = adPath;
        const list = identified.then(() =>
          fetchAdList(adListFor(context), { headers: adRequestHeaders(), timeoutMs: DEFAULTS.vastTimeoutMs }));
        list.catch(() => undefined); // the scheduler reports a failed list
        return startAds(context, controller, container, list).preroll(contentMayLoad);
      });
    });
  } else if (!context.config.adListUrl) {
    console.warn(`ads: ${AD_LIST_MISSING}`); // spec §7: no ad list, the film plays without ads
  }
  let engine: Promise<void> | null = null;
  const startNow = Boolean(window.__playerStartRequested || context.autoPlay);
  if (startNow) {
    if (!ads) engine = preloadEngine(); // the page preloaded the hls.js chunk: this only evaluates it
    void controller.start();
  }

  afterFirstPaint(() => {
    container.prepend(video);
    reflectPhase(container, controller.store); // for the page's lifetime: nothing to tear down
    // Until the interface mounts, the shell's start button is served from here (the page's early script stands down).
    const shellStart = serveShellStart(() => {
      document.documentElement.classList.add('player-starting');
      void controller.start();
    });
    window.__playerMounted = true;
    engine ??= ads ? Promise.resolve() : preloadEngine(); // with ads the controller loads hls.js under the pre-roll
    const playing = startNow || window.__playerStartRequested; // a click may have come in before the paint
    if (playing && !startNow) void controller.start();

    // When playback starts at once, the first frame goes first: React's evaluation is one long task (~100 ms on a
    // fast machine, far more on a slow phone), so the interface chunk is fetched and mounted once the video plays
    // (or fails, or DEFAULTS.uiDeadlineMs passed), never while hls.js is busy producing that frame.
    const ready = playing ? untilPlaybackSettles(controller, video, engine) : Promise.resolve();
    void ready.then(() => analytics?.load());
    // Sentry after the film's first frame, whenever the viewer starts it (or at the first error), never at page open
    void (playing ? ready : firstFrame(controller, video)).then(() => errors.load());
    // the device identity in idle time, unless an API call wants it sooner
    void ready.then(() => prepareFingerprint(context.config.baseUrl || window.location.origin));
    // React and react-dom evaluate in one task, the interface's own modules in the next, the first render in a third:
    // each well under a long task, where the three together made one.
    void ready
      .then(() => applyStyles()) // shell/styles.ts: now when the viewer is to press play, else after the first frame
      .then(() => import('react-dom/client'))
      .then(() => yieldToMain())
      .then(() => import('./ui/mount'))
      .then(async ({ mountUi }) => {
        await yieldToMain();
        // The shell's start button stays served until React's commit: the transition renders over several tasks,
        // and a click in between would find neither handler.
        mountUi({ context, controller, container, root, onCommit: () => shellStart.handOver() });
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
