// The ad path's entry (a lazy chunk of its own, loaded when playback is first wanted): the scheduler, the layer and
// the VAST loader wired to the content controller. The content's engine, position, tracks and volume are never
// touched by an ad: the ad plays on the layer's own <video> while the content is paused.
import type { PlayerContext } from '../context';
import { DEFAULTS } from '../core/defaults';
import { Disposer } from '../core/dispose';
import type { Hold, PlayerController } from '../player/controller';
import { bindContentMediaSession } from '../player/platform';
import { applyStyles } from '../ui/styles';
import { emitAdEvents } from './events';
import { AdLayer } from './layer';
import { adListFor, adRequestHeaders, type AdList } from './list';
import { browserCanPlay } from './rules';
import { AdScheduler } from './scheduler';
import { loadVast } from './vast';

export interface Ads {
  scheduler: AdScheduler;
  preroll: Hold; // lets the episode load once the pre-roll's first frame is out
}

/** `list`: the first pre-roll's ad list when the entry requested it already (ads/list.ts). */
export function startAds(
  context: PlayerContext, controller: PlayerController, container: HTMLElement, list?: Promise<AdList>,
): Ads {
  applyStyles(); // the ad layer's styles, before its first ad (ui/styles.ts)
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
    restoreMediaSession: () => bindContentMediaSession(context, controller, new Disposer()), // for the page's life
    onPlaybackRequest: (listener) => controller.events.on('playbackRequested', listener), // embed/bridge, keys
    onAdState: (state) => controller.setAd(state),
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
    list,
  });
  emitAdEvents(layer, scheduler.history, controller.events); // adEvent for analytics (spec §7)
  controller.store.subscribe(() => {
    if (controller.store.get().phase !== 'playing') return;
    const midroll = scheduler.maybeMidroll();
    if (!midroll) return;
    controller.pause();
    void midroll.then(() => controller.play());
  });
  const preroll: Hold = (mayLoad) => {
    contentMayLoad = mayLoad;
    return scheduler.preroll();
  };
  controller.events.on('episodeChanged', () => {
    scheduler.reset(); // spec §4: a new episode stops the ad, resets the list and loads a pre-roll
    controller.holdPlayback(preroll);
  });
  return { scheduler, preroll };
}
