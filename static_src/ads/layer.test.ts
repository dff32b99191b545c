// The ad layer (ads/layer, its markup ads/bar): an ad on its own <video> over the player, played while seen or as the
// viewer chose, the embedding page's and the media session's play/pause taken meanwhile, and nothing left once it ends.
import { Emitter, type PlayerEvents } from '../core/events';
import { t } from '../i18n';
import { installFetch } from '../test/fixtures';
import { adStateOf, createAdBar, renderAdBar } from './bar';
import { AdLayer, type LayerOptions } from './layer';
import type { AdStatus, AdUnitState } from './unit';
import type { LoadedAd } from './vast';

const AD = (clickThrough: string | null = 'https://advertiser.test/', skipDelay: number | null = 5): LoadedAd => ({
  url: 'https://ads.test/vast',
  ad: { id: 'a', sequence: null, creatives: [], errorURLTemplates: [], impressionURLTemplates: [] },
  linear: {
    type: 'linear', duration: 15, skipDelay, mediaFiles: [], trackingEvents: {},
    videoClickThroughURLTemplate: clickThrough === null ? null : { url: clickThrough }, videoClickTrackingURLTemplates: [],
  },
  mediaFile: { fileURL: 'https://cdn.test/ad.mp4', mimeType: 'video/mp4', width: 640, height: 360, codec: null,
    apiFramework: null },
  errorUrls: [],
});

/** jsdom's media elements neither play nor pause: these do, as far as the layer and its unit look. */
const playing = new WeakSet<HTMLMediaElement>();
let restoreFetch: () => void;
const onScreen: Array<{ abort: AbortController; done: Promise<AdStatus> }> = []; // each test's ads, stopped after it

beforeEach(() => {
  restoreFetch = installFetch(jest.fn().mockResolvedValue({ ok: true, status: 204 }));
  Object.defineProperty(HTMLMediaElement.prototype, 'paused', {
    configurable: true,
    get(this: HTMLMediaElement) {
      return !playing.has(this);
    },
  });
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    playing.add(this);
    return Promise.resolve();
  });
  jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    playing.delete(this);
  });
  jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
});

afterEach(async () => {
  for (const { abort, done } of onScreen.splice(0)) {
    abort.abort();
    await done;
  }
  restoreFetch();
  jest.restoreAllMocks();
  delete (HTMLMediaElement.prototype as { paused?: boolean }).paused;
  document.body.innerHTML = '';
});

function setup(extra: Partial<LayerOptions> = {}) {
  const container = document.body.appendChild(document.createElement('div'));
  const events = new Emitter<PlayerEvents>();
  const adStates: Array<string | null> = [];
  const options: LayerOptions = {
    container,
    muted: () => false,
    volume: () => 0.5,
    mediaTimeoutMs: 8000,
    onPlaybackRequest: (listener) => events.on('playbackRequested', listener),
    onStart: jest.fn(),
    restoreMediaSession: jest.fn(),
    onAdState: (state) => adStates.push(state),
    ...extra,
  };
  const layer = new AdLayer(options);
  const abort = new AbortController();
  const start = (ad = AD()) => {
    const done = layer.play(ad, 'preroll', abort.signal);
    onScreen.push({ abort, done });
    const video = container.querySelector<HTMLVideoElement>('.ad-layer__video')!;
    const button = (control: string) => container.querySelector<HTMLButtonElement>(`[data-ad-control="${control}"]`)!;
    const fire = (type: string) => video.dispatchEvent(new Event(type));
    return { done, video, button, fire };
  };
  return { container, events, adStates, options, layer, abort, start };
}

describe('AdLayer.play', () => {
  it('puts its own video and bar over the player and plays the ad while the player is seen', () => {
    const { container, start } = setup();
    const { video } = start();
    expect(container.dataset.ad).toBe('playing');
    expect(container.querySelector('[role="region"]')?.getAttribute('aria-label')).toBe(t('ad'));
    expect(container.querySelectorAll('video')).toHaveLength(1);
    expect(video.getAttribute('src')).toBe('https://cdn.test/ad.mp4');
    expect(video.volume).toBe(0.5); // the viewer's film volume, carried over
    expect(video.paused).toBe(false); // in view, the page visible: it plays
  });

  it('shows the click-through only for an http(s) address', () => {
    setup().start(AD('https://advertiser.test/'));
    setup().start(AD('javascript:alert(1)'));
    const clicks = document.querySelectorAll<HTMLButtonElement>('.ad-layer__click');
    expect([clicks[0].hidden, clicks[1].hidden]).toEqual([false, true]);
  });

  it('reports the ad to the controller as waiting, then playing, and its first frame once', () => {
    const { adStates, options, start } = setup();
    const { fire, button } = start();
    expect(adStates).toEqual(['paused']); // not started yet: the play button shows
    expect(button('play').getAttribute('aria-label')).toBe(t('play'));
    fire('playing');
    fire('timeupdate');
    expect(adStates.at(-1)).toBe('playing');
    expect(button('play').getAttribute('aria-label')).toBe(t('pause'));
    expect(options.onStart).toHaveBeenCalledTimes(1);
  });

  it("follows the viewer's clicks: play and pause, mute, the volume slider", () => {
    const { start } = setup();
    const { video, button, fire } = start();
    fire('playing');
    button('play').click();
    expect(video.paused).toBe(true);
    button('play').click();
    expect(video.paused).toBe(false);
    button('mute').click();
    expect(video.muted).toBe(true);
    const slider = document.querySelector<HTMLInputElement>('[data-ad-control="volume"]')!;
    slider.value = '0.3';
    slider.dispatchEvent(new Event('input'));
    expect([video.muted, video.volume]).toEqual([false, 0.3]);
  });

  it('waits while the page is hidden, and the viewer\'s own choice wins over it', () => {
    const { start } = setup();
    const { video, button } = start();
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(video.paused).toBe(true);
    button('play').click(); // the viewer presses play in a hidden page (a picture-in-picture window, say)
    expect(video.paused).toBe(false);
    delete (document as { hidden?: boolean }).hidden;
  });

  it('plays only while enough of the player is in view (IntersectionObserver)', async () => {
    const observers: Array<{ callback: IntersectionObserverCallback; disconnect: jest.Mock }> = [];
    (window as { IntersectionObserver?: unknown }).IntersectionObserver = class {
      disconnect = jest.fn();
      constructor(readonly callback: IntersectionObserverCallback) {
        observers.push(this);
      }
      observe() {}
    };
    const { start } = setup();
    const { video, fire, done } = start();
    const see = (ratio: number) => observers[0].callback([{ intersectionRatio: ratio } as IntersectionObserverEntry], {} as IntersectionObserver);
    see(0.3);
    expect(video.paused).toBe(true);
    see(0.8);
    expect(video.paused).toBe(false);
    fire('ended');
    await done;
    expect(observers[0].disconnect).toHaveBeenCalled();
    delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
  });

  it("takes the embedding page's play and pause while it is on, and leaves them to the film after", async () => {
    const { events, start } = setup();
    const { video, fire, done } = start();
    const request = { play: false, handled: false };
    events.emit('playbackRequested', request);
    expect(request.handled).toBe(true);
    expect(video.paused).toBe(true);
    fire('ended');
    expect(await done).toBe('COMPLETED');
    const after = { play: true, handled: false };
    events.emit('playbackRequested', after);
    expect(after.handled).toBe(false);
  });

  it("toggles by its own video: a second key right after a pause resumes the ad before the 'pause' event", () => {
    const { events, start } = setup();
    const { video, fire } = start();
    fire('playing');
    events.emit('playbackRequested', { play: 'toggle', handled: false });
    expect(video.paused).toBe(true); // its 'pause' event not dispatched yet: the status still says it plays
    const again = { play: 'toggle' as const, handled: false };
    events.emit('playbackRequested', again);
    expect([again.handled, video.paused]).toEqual([true, false]);
  });

  it("holds the media session while it is on, then gives it back to the film", async () => {
    const handlers = new Map<string, unknown>();
    const session = { metadata: null as unknown, setActionHandler: (action: string, handler: unknown) => handlers.set(action, handler) };
    Object.defineProperty(navigator, 'mediaSession', { configurable: true, value: session });
    const { options, start } = setup();
    const { video, done } = start();
    expect([...handlers.keys()]).toEqual(['play', 'pause', 'stop']);
    (handlers.get('pause') as () => void)();
    expect(video.paused).toBe(true);
    (handlers.get('stop') as () => void)();
    expect(await done).toBe('STOPPED');
    expect([...handlers.values()]).toEqual([null, null, null]);
    expect(options.restoreMediaSession).toHaveBeenCalledTimes(1);
    delete (navigator as { mediaSession?: unknown }).mediaSession;
  });

  it('counts down to the skip button and ends with it, leaving nothing behind', async () => {
    const { container, adStates, start } = setup();
    const { video, button, fire, done } = start(AD(null, 2));
    fire('playing');
    expect(button('skip').hidden).toBe(false);
    expect([button('skip').disabled, button('skip').textContent]).toEqual([true, t('adSkipIn', { n: 2 })]);
    Object.defineProperty(video, 'currentTime', { configurable: true, value: 2 });
    fire('timeupdate');
    expect([button('skip').disabled, button('skip').textContent]).toEqual([false, t('adSkip')]);
    button('skip').click();
    expect(await done).toBe('SKIPPED');
    expect(container.querySelector('.ad-layer')).toBeNull();
    expect(container.dataset.ad).toBeUndefined();
    expect(adStates.at(-1)).toBeNull();
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
    const play = jest.mocked(HTMLMediaElement.prototype.play);
    play.mockClear();
    document.dispatchEvent(new Event('visibilitychange')); // no longer heard
    expect(play).not.toHaveBeenCalled();
    delete (document as { hidden?: boolean }).hidden;
  });

  it('stops at an abort (a new episode)', async () => {
    const { abort, start } = setup();
    const { done } = start();
    abort.abort();
    expect(await done).toBe('STOPPED');
  });

  it("stops at once when the page is in another element's native fullscreen (spec §4)", async () => {
    const { container, layer, abort } = setup();
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => document.body });
    expect(await layer.play(AD(), 'midroll', abort.signal)).toBe('STOPPED');
    expect(container.children).toHaveLength(0);
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => null });
  });

  it('tells ads/events of each unit and of the viewer\'s clicks', async () => {
    const { layer, start } = setup();
    const seen: string[] = [];
    layer.events.on('unit', ({ type }) => seen.push(`unit ${type}`));
    layer.events.on('bannerClick', () => seen.push('banner'));
    layer.events.on('skipClick', () => seen.push('skip'));
    jest.spyOn(window, 'open').mockImplementation(() => null);
    const { fire, done } = start(AD('https://advertiser.test/', 0));
    fire('playing');
    document.querySelector<HTMLButtonElement>('.ad-layer__click')!.click();
    document.querySelector<HTMLButtonElement>('[data-ad-control="skip"]')!.click();
    expect(await done).toBe('SKIPPED');
    expect(seen).toEqual(['unit preroll', 'banner', 'skip']);
  });
});

describe('the ad bar', () => {
  const state = (status: AdStatus, extra: Partial<AdUnitState> = {}): AdUnitState => ({
    status, currentTime: 0, duration: 15, skip: { visible: false, enabled: false, left: 0 }, muted: false, volume: 1,
    pip: false, error: null, ...extra,
  });

  it('tells the controller whether the ad waits or plays, and nothing once it is over', () => {
    expect(['CREATED', 'LOADED', 'PAUSED'].map((s) => adStateOf(s as AdStatus))).toEqual(['paused', 'paused', 'paused']);
    expect(['STARTED', 'PLAYING'].map((s) => adStateOf(s as AdStatus))).toEqual(['playing', 'playing']);
    expect(['COMPLETED', 'SKIPPED', 'STOPPED', 'ERROR'].map((s) => adStateOf(s as AdStatus))).toEqual([null, null, null, null]);
  });

  it('draws the state: play or pause, silent or not, the volume, the skip button, the status', () => {
    const bar = createAdBar('');
    renderAdBar(bar, state('PAUSED', { muted: true, volume: 0.7, skip: { visible: true, enabled: false, left: 3 } }));
    expect(bar.toggleIcon.dataset.icon).toBe('play');
    expect(bar.muteIcon.dataset.icon).toBe('muted');
    expect([bar.mute.getAttribute('aria-label'), bar.volume.value]).toEqual([t('unmute'), '0']);
    expect([bar.skip.hidden, bar.skip.disabled, bar.skipText.textContent]).toEqual([false, true, t('adSkipIn', { n: 3 })]);
    expect(bar.root.dataset.status).toBe('PAUSED');
    renderAdBar(bar, state('PLAYING', { volume: 0.7 }));
    expect([bar.toggleIcon.dataset.icon, bar.muteIcon.dataset.icon, bar.volume.value]).toEqual(['pause', 'volume', '0.7']);
    expect(bar.skip.hidden).toBe(true);
    expect(bar.click.hidden).toBe(true); // no click-through address
  });
});
