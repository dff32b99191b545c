// The ad path's entry (a lazy chunk of its own, loaded when playback is first wanted): the scheduler, the layer and
// the VAST loader wired to the content controller. The content's engine, position, tracks and volume are never
// touched by an ad: the ad plays on the layer's own <video> while the content is paused.
import { sessionContext } from '../api/client';
import type { PlayerContext } from '../context';
import { DEFAULTS } from '../core/defaults';
import type { PlayerController } from '../player/controller';
import { AdLayer } from './layer';
import { browserCanPlay } from './rules';
import { AdScheduler } from './scheduler';
import { loadVast } from './vast';

declare global {
  interface Window {
    playerRequestHeaders?: unknown; // the embedding page's extra headers for ad requests (spec §7)
  }
}

/** Common headers (the session context) plus the window-level ones: string values only. */
export function adRequestHeaders(win: Window = window): Record<string, string> {
  const headers: Record<string, string> = {};
  const extra = win.playerRequestHeaders;
  if (extra && typeof extra === 'object' && !Array.isArray(extra)) {
    for (const [name, value] of Object.entries(extra as Record<string, unknown>)) {
      if (typeof value === 'string' && /^[A-Za-z0-9-]+$/.test(name)) headers[name] = value;
    }
  }
  const session = sessionContext(win.document);
  if (session) headers['X-Session-Context'] = session;
  return headers;
}

/** The ad list for this content: the configured URL with content_id and content_type added. */
export function adListFor(context: PlayerContext): string | null {
  const url = context.config.adListUrl;
  if (!url) return null;
  try {
    const absolute = new URL(url, document.baseURI);
    absolute.searchParams.set('content_id', String(context.content.id));
    return absolute.href;
  } catch {
    return null;
  }
}

export function startAds(context: PlayerContext, controller: PlayerController, container: HTMLElement): AdScheduler {
  const probe = document.createElement('video');
  const layer = new AdLayer({
    container,
    muted: () => controller.store.get().muted,
    volume: () => controller.store.get().volume,
    mediaTimeoutMs: DEFAULTS.adMediaTimeoutMs,
  });
  const scheduler = new AdScheduler({
    adListUrl: adListFor(context),
    headers: () => adRequestHeaders(),
    loadAd: (url, signal) =>
      loadVast(url, {
        headers: adRequestHeaders(),
        signal,
        timeoutMs: DEFAULTS.vastTimeoutMs,
        maxWrappers: DEFAULTS.vastMaxWrappers,
        canPlay: browserCanPlay(probe),
      }),
    playAd: (ad, type, signal) => layer.play(ad, type, signal),
    content: () => {
      const { currentTime, duration } = controller.store.get();
      return { currentTime, duration };
    },
    minMidrollContentS: DEFAULTS.midrollMinContentS,
    timeoutMs: DEFAULTS.vastTimeoutMs,
  });
  controller.store.subscribe(() => {
    if (controller.store.get().phase !== 'playing') return;
    const midroll = scheduler.maybeMidroll();
    if (!midroll) return;
    controller.pause();
    void midroll.then(() => controller.play());
  });
  controller.events.on('episodeChanged', () => {
    scheduler.reset(); // spec §4: a new episode stops the ad, resets the list and loads a pre-roll
    controller.holdPlayback(() => scheduler.preroll());
  });
  return scheduler;
}
