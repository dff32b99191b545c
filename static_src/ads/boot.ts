// The ad path's entry (a lazy chunk of its own, loaded when playback is first wanted): the scheduler, the layer and
// the VAST loader wired to the content controller. The content's engine, position, tracks and volume are never
// touched by an ad: the ad plays on the layer's own <video> while the content is paused.
import type { PlayerContext } from '../context';
import { DEFAULTS } from '../core/defaults';
import { Disposer } from '../core/dispose';
import type { PlayerController } from '../player/controller';
import type { Hold } from '../player/hold';
import { applyStyles } from '../shell/styles';
import { emitAdEvents } from './events';
import { AdLayer } from './layer';
import { adListFor, adRequestHeaders, vastRequestHeaders, type AdList } from './list';
import { browserCanPlay } from './rules';
import { AdScheduler } from './scheduler';
import { loadVastAds } from './vast';

// The entry requests the first pre-roll's ad list with these once this chunk is there (player.tsx): ads/list rides in
// this chunk, off the first frame of a film without ads.
export { adListFor, adRequestHeaders, fetchAdList } from './list';

export interface Ads {
  scheduler: AdScheduler;
  preroll: Hold; // lets the episode load once the pre-roll's first frame is out
  dispose(): void; // no more breaks: the break on screen stops, every subscription to the controller goes
}

/** `list`: the first pre-roll's ad list when the entry requested it already (ads/list.ts). */
export function startAds(
  context: PlayerContext, controller: PlayerController, container: HTMLElement, list?: Promise<AdList>,
): Ads {
  applyStyles(); // the ad layer's styles, before its first ad (shell/styles.ts)
  const probe = document.createElement('video');
  let contentMayLoad: (() => void) | null = null;
  const layer = new AdLayer({
    onStart: () => {
      contentMayLoad?.();
      contentMayLoad = null;
    },
    container,
    muted: () => controller.store.get().muted,
    volume: () => controller.store.get().volume,
    mediaTimeoutMs: DEFAULTS.adMediaTimeoutMs,
    restoreMediaSession: () => controller.platform.restoreMediaSession(),
    onPlaybackRequest: (listener) => controller.events.on('playbackRequested', listener), // embed/bridge, keys
    onAdState: (state) => controller.setAd(state),
  });
  const scheduler = new AdScheduler({
    adListUrl: adListFor(context),
    headers: () => adRequestHeaders(),
    loadAd: (url, signal) =>
      loadVastAds(url, {
        pods: Boolean(context.config.adPods),
        headersFor: (documentUrl) => vastRequestHeaders(documentUrl, context.config.adHeaderOrigins ?? []),
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
    list,
  });
  const disposer = new Disposer();
  disposer.add(emitAdEvents(layer, scheduler.history, controller.events)); // adEvent for analytics (spec §7)
  // The mid-roll (spec §4): the film's hold, as the pre-roll's; the controller pauses the film and plays it after.
  disposer.add(controller.store.subscribe(() => {
    if (controller.store.get().phase !== 'playing') return;
    const midroll = scheduler.maybeMidroll();
    if (midroll) controller.holdPlayback(() => midroll);
  }));
  const preroll: Hold = (mayLoad) => {
    contentMayLoad = mayLoad;
    return scheduler.preroll();
  };
  disposer.add(controller.events.on('episodeChanged', () => {
    scheduler.reset(); // spec §4: a new episode stops the ad, resets the list and loads a pre-roll
    controller.holdPlayback(preroll);
  }));
  disposer.add(() => scheduler.reset()); // first: whatever break is on screen ends
  return { scheduler, preroll, dispose: () => disposer.dispose() };
}
