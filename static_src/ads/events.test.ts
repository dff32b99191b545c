import { Emitter, type PlayerEvents } from '../core/events';
import { emitAdEvents } from './events';
import type { AdLayer, AdLayerEvents } from './layer';
import type { AdHistoryItem } from './scheduler';
import { AdUnit } from './unit';
import type { LoadedAd } from './vast';

/** The part of a media element an AdUnit drives; the test dispatches its events. */
class FakeVideo extends EventTarget {
  currentTime = 0;
  duration = 15;
  muted = false;
  volume = 1;
  ended = false;
  paused = true;
  src = '';
  play = jest.fn(() => {
    this.paused = false;
    return Promise.resolve();
  });
  pause = jest.fn(() => {
    this.paused = true;
  });
  load = jest.fn();
  removeAttribute = jest.fn();
  fire(type: string) {
    this.dispatchEvent(new Event(type));
  }
}

const AD: LoadedAd = {
  url: 'https://ads.test/vast',
  ad: { id: 'a', sequence: null, creatives: [], errorURLTemplates: [], impressionURLTemplates: [] },
  linear: {
    type: 'linear', duration: 15, skipDelay: 0, mediaFiles: [], trackingEvents: {},
    videoClickThroughURLTemplate: null, videoClickTrackingURLTemplates: [],
  },
  mediaFile: { fileURL: 'https://cdn.test/ad.mp4', mimeType: 'video/mp4', width: 640, height: 360, codec: null,
    apiFramework: null },
  errorUrls: [],
} as unknown as LoadedAd;

function setup() {
  const layerEvents = new Emitter<AdLayerEvents>();
  const layer = { events: layerEvents } as unknown as AdLayer;
  const history: AdHistoryItem[] = [{ id: 'a', type: 'preroll', position: 1, duration: 15, perc: 0 }];
  const events = new Emitter<PlayerEvents>();
  const seen: Array<PlayerEvents['adEvent']> = [];
  events.on('adEvent', (event) => seen.push(event));
  const stop = emitAdEvents(layer, history, events);
  const video = new FakeVideo();
  const unit = new AdUnit(AD, video as unknown as HTMLVideoElement, {
    muted: false, volume: 1, mediaTimeoutMs: 8000, fetcher: jest.fn(() => Promise.resolve(new Response())),
  });
  layerEvents.emit('unit', { unit, type: 'preroll' });
  return { layerEvents, unit, video, seen, stop, names: () => seen.map((event) => event.name), history };
}

afterEach(() => jest.useRealTimers());

describe('emitAdEvents', () => {
  it("turns an ad's life into ad events with its history item", async () => {
    jest.useFakeTimers();
    const { unit, video, seen, names, layerEvents } = setup();
    unit.begin();
    video.fire('canplaythrough');
    await unit.play();
    video.fire('playing');
    video.currentTime = 0.5;
    video.fire('timeupdate');
    video.currentTime = 1;
    video.fire('timeupdate');
    video.fire('pause');
    video.fire('playing');
    layerEvents.emit('skipClick', { unit });
    unit.skip();
    expect(names()).toEqual(['ad_init', 'ad_loaded', 'ad_play', 'ad_timeupdate', 'ad_timeupdate', 'ad_pause', 'ad_play',
      'ad_skip_btn_click', 'ad_ended']);
    expect(seen.every((event) => event.ad?.id === 'a' && event.ad.position === 1)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ status: 'SKIPPED', adTime: 1 });
    expect(seen[3].adTime).toBe(0.5);
  });

  it('says how an ad ended, and sends nothing after its end', () => {
    jest.useFakeTimers();
    const { unit, video, seen, names } = setup();
    unit.begin();
    video.fire('playing');
    video.ended = true;
    video.fire('ended');
    video.fire('timeupdate');
    expect(names()).toEqual(['ad_init', 'ad_loaded', 'ad_play', 'ad_ended']);
    expect(seen.at(-1)?.status).toBe('COMPLETED');
  });

  it('passes the click-through on, and stops on its undo', () => {
    const { unit, layerEvents, names, stop } = setup();
    layerEvents.emit('bannerClick', { unit });
    stop();
    layerEvents.emit('bannerClick', { unit });
    expect(names()).toEqual(['ad_init', 'ad_banner_click']);
  });
});

describe('emitAdEvents, an ad that starts before can-play-through', () => {
  it('still says it loaded, once, before it plays', () => {
    jest.useFakeTimers();
    const { unit, video, names } = setup();
    unit.begin();
    video.fire('playing');
    video.fire('canplaythrough');
    expect(names()).toEqual(['ad_init', 'ad_loaded', 'ad_play']);
  });
});
