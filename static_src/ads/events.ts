// An ad's moments as player events (`adEvent`, core/events), for whoever listens (analytics/session sends them
// prefixed videoplayer_, spec §7): the layer's units and clicks, with the ad's history item (spec §3).
import type { AdEventName, Emitter, PlayerEvents } from '../core/events';
import type { AdLayer } from './layer';
import type { AdHistoryItem } from './scheduler';
import { isTerminal, type AdStatus, type AdUnit } from './unit';

const STATUS_EVENTS: Partial<Record<AdStatus, AdEventName>> = {
  PLAYING: 'ad_play', // the first frame and every resume
  PAUSED: 'ad_pause',
  COMPLETED: 'ad_ended', // every end says how in `status`
  SKIPPED: 'ad_ended',
  STOPPED: 'ad_ended',
  ERROR: 'ad_ended',
};

/**
 * Emits `adEvent` for every ad the layer plays: ad_init when its unit is made, ad_loaded once (at LOADED, or at its
 * start when that came first), one per later status change, an ad_timeupdate per time update while it plays
 * (throttled by the listener), and the skip and click-through clicks. `history` is the scheduler's: its last item is
 * the ad the layer is about to play. Returns the undo.
 */
export function emitAdEvents(layer: AdLayer, history: readonly AdHistoryItem[], events: Emitter<PlayerEvents>) {
  const ads = new WeakMap<AdUnit, AdHistoryItem | null>();
  const emit = (unit: AdUnit, name: AdEventName) => {
    const { status, currentTime } = unit.store.get();
    events.emit('adEvent', { name, ad: ads.get(unit) ?? null, adTime: currentTime, status });
  };
  const stops = [
    layer.events.on('unit', ({ unit }) => {
      ads.set(unit, history.at(-1) ?? null);
      emit(unit, 'ad_init');
      let last = unit.store.get();
      let loaded = false;
      const stop = unit.store.subscribe(() => {
        const now = unit.store.get();
        const name = now.status !== last.status ? STATUS_EVENTS[now.status] : null;
        const ticked = now.currentTime !== last.currentTime && now.status === 'PLAYING';
        last = now;
        // an ad that plays before the browser says can-play-through never passes LOADED: it is loaded all the same
        if (!loaded && (now.status === 'LOADED' || now.status === 'STARTED' || now.status === 'PLAYING')) {
          loaded = true;
          emit(unit, 'ad_loaded');
        }
        if (name) emit(unit, name);
        else if (ticked) emit(unit, 'ad_timeupdate');
        if (isTerminal(now.status)) stop();
      });
    }),
    layer.events.on('skipClick', ({ unit }) => emit(unit, 'ad_skip_btn_click')),
    layer.events.on('bannerClick', ({ unit }) => emit(unit, 'ad_banner_click')),
  ];
  return () => stops.forEach((stop) => stop());
}
