import { AdUnit } from './unit';
import type { LoadedAd } from './vast';

/** A media element jsdom can drive: events are dispatched by the test, play() and pause() do what a browser would. */
class FakeVideo extends EventTarget {
  currentTime = 0;
  duration = Number.NaN;
  muted = false;
  volume = 1;
  ended = false;
  paused = true;
  src = '';
  playResult: Promise<void> = Promise.resolve();
  play = jest.fn(() => {
    this.paused = false;
    return this.playResult;
  });
  pause = jest.fn(() => {
    if (!this.paused) {
      this.paused = true;
      this.fire('pause');
    }
  });
  load = jest.fn();
  removeAttribute = jest.fn((name: string) => {
    if (name === 'src') this.src = '';
  });
  fire(type: string) {
    this.dispatchEvent(new Event(type));
  }
  at(seconds: number) {
    this.currentTime = seconds;
    this.fire('timeupdate');
  }
}

const pixel = (event: string) => `https://t.test/${event}?ph=[ADPLAYHEAD]&c=[ERRORCODE]`;

function loaded(skipDelay: number | null = 5, duration = 20): LoadedAd {
  const events = ['loaded', 'start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete', 'pause', 'resume', 'mute',
    'unmute', 'skip'];
  return {
    url: 'https://ads.test/vast',
    ad: {
      id: 'a', sequence: null, creatives: [], errorURLTemplates: [pixel('error')],
      impressionURLTemplates: [{ url: 'https://t.test/impression' }],
    },
    linear: {
      type: 'linear', duration, skipDelay,
      mediaFiles: [{ fileURL: 'https://cdn.test/ad.mp4', mimeType: 'video/mp4', width: 640, height: 360, codec: null,
        apiFramework: null }],
      trackingEvents: Object.fromEntries(events.map((event) => [event, [pixel(event)]])),
      videoClickThroughURLTemplate: { url: 'https://advertiser.test/landing' },
      videoClickTrackingURLTemplates: [{ url: 'https://t.test/click' }],
    },
    mediaFile: { fileURL: 'https://cdn.test/ad.mp4', mimeType: 'video/mp4', width: 640, height: 360, codec: null,
      apiFramework: null },
    errorUrls: [pixel('error')],
  };
}

function setup(ad = loaded(), options: Partial<ConstructorParameters<typeof AdUnit>[2]> = {}) {
  const video = new FakeVideo();
  const fetcher = jest.fn().mockResolvedValue(undefined);
  const opened: string[] = [];
  const unit = new AdUnit(ad, video as unknown as HTMLVideoElement, {
    muted: false, volume: 1, mediaTimeoutMs: 1000, fetcher, open: (url) => opened.push(url), ...options,
  });
  const statuses: string[] = [];
  unit.store.subscribe(() => {
    const status = unit.store.get().status;
    if (statuses.at(-1) !== status) statuses.push(status);
  });
  const sent = () => fetcher.mock.calls.map(([url]) => String(url).replace(/^https:\/\/t\.test\//, ''));
  return { unit, video, sent, statuses, opened };
}

async function playThrough(video: FakeVideo, until: number) {
  video.fire('canplaythrough');
  video.duration = 20;
  video.fire('durationchange');
  video.paused = false;
  video.fire('playing');
  for (let t = 0.25; t <= until + 1e-9; t += 0.25) video.at(Number(t.toFixed(2)));
}

describe('AdUnit', () => {
  afterEach(() => jest.useRealTimers());

  it('goes CREATED, LOADED, STARTED, PLAYING, COMPLETED and fires each pixel once, in order, at its moment', async () => {
    const { unit, video, sent, statuses } = setup();
    unit.begin();
    expect(video.src).toBe('https://cdn.test/ad.mp4');
    await playThrough(video, 20);
    video.ended = true;
    video.fire('ended');
    expect(await unit.done).toBe('COMPLETED');
    expect(statuses).toEqual(['LOADED', 'STARTED', 'PLAYING', 'COMPLETED']);
    const events = sent().map((url) => url.split('?')[0]);
    expect(events).toEqual(['loaded', 'impression', 'start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete']);
    const playheads = Object.fromEntries(sent().map((url) => [url.split('?')[0], new URL(`https://x/${url}`).searchParams.get('ph')]));
    expect(playheads.firstQuartile).toBe('00:00:05.000');
    expect(playheads.midpoint).toBe('00:00:10.000');
    expect(playheads.thirdQuartile).toBe('00:00:15.000');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(video.src).toBe(''); // released, after the film's moment to start
    expect(video.load).toHaveBeenCalled();
    video.fire('playing');
    expect(sent()).toHaveLength(7); // nothing after the end
  });

  it.each([[40, 'longer'], [12, 'shorter']])(
    'times quartiles and percentage progress on the file, not a declared Duration %is (%s than the file)',
    async (declared) => {
      const ad = loaded(null, declared);
      ad.linear.trackingEvents['progress-50%'] = ['https://t.test/half?ph=[ADPLAYHEAD]'];
      const { unit, video, sent } = setup(ad);
      unit.begin();
      await playThrough(video, 20); // the file is 20 s
      video.ended = true;
      video.fire('ended');
      await unit.done;
      const at = Object.fromEntries(sent().map((url) => [url.split('?')[0], new URL(`https://x/${url}`).searchParams.get('ph')]));
      expect([at.firstQuartile, at.midpoint, at['half'], at.thirdQuartile]).toEqual(
        ['00:00:05.000', '00:00:10.000', '00:00:10.000', '00:00:15.000']);
      const events = sent().map((url) => url.split('?')[0]);
      expect(['firstQuartile', 'midpoint', 'thirdQuartile', 'complete'].map((e) => events.filter((x) => x === e).length))
        .toEqual([1, 1, 1, 1]);
    },
  );

  it('sends the viewability verdict the layer reaches to the ad\'s <ViewableImpression> URLs, once', async () => {
    const ad = loaded();
    Object.assign(ad.ad, { viewableImpression: [{ id: null, viewable: ['https://t.test/viewable?ph=[ADPLAYHEAD]'],
      notViewable: ['https://t.test/not-viewable'], viewUndetermined: ['https://t.test/undetermined'] }] });
    const { unit, video, sent } = setup(ad);
    unit.begin();
    await playThrough(video, 2.5);
    expect(unit.impressed).toBe(true);
    unit.trackViewability('viewable');
    unit.trackViewability('viewable');
    expect(sent().filter((url) => url.startsWith('viewable'))).toEqual(['viewable?ph=00%3A00%3A02.500']);
    expect(sent().some((url) => /not-viewable|undetermined/.test(url))).toBe(false);
  });

  it('counts the skip button down and skips only from the offset', async () => {
    const { unit, video, sent } = setup();
    unit.begin();
    await playThrough(video, 3);
    expect(unit.store.get().skip).toEqual({ visible: true, enabled: false, left: 2 });
    expect(unit.skip()).toBe(false);
    for (let t = 3.25; t <= 5; t += 0.25) video.at(t);
    expect(unit.store.get().skip).toEqual({ visible: true, enabled: true, left: 0 });
    expect(unit.skip()).toBe(true);
    expect(await unit.done).toBe('SKIPPED');
    expect(sent().filter((url) => url.startsWith('skip'))).toHaveLength(1);
    expect(unit.skip()).toBe(false);
  });

  it('has no skip button without an offset', () => {
    const { unit } = setup(loaded(null));
    expect(unit.store.get().skip.visible).toBe(false);
  });

  it('pauses and resumes with their pixels, and a pause at the end is COMPLETED', async () => {
    const { unit, video, sent, statuses } = setup();
    unit.begin();
    await playThrough(video, 2);
    unit.pause();
    expect(unit.status).toBe('PAUSED');
    video.fire('playing');
    expect(unit.status).toBe('PLAYING');
    expect(sent().map((u) => u.split('?')[0])).toEqual(expect.arrayContaining(['pause', 'resume']));
    video.paused = false;
    video.ended = true;
    video.fire('pause');
    expect(await unit.done).toBe('COMPLETED');
    expect(statuses.slice(-3)).toEqual(['PAUSED', 'PLAYING', 'COMPLETED']);
  });

  it('a media error is ERROR 405 with the file, pinged to the error URLs', async () => {
    const { unit, video, sent } = setup();
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    unit.begin();
    video.fire('error');
    expect(await unit.done).toBe('ERROR');
    expect(unit.store.get().error?.message).toBe('Media file error: https://cdn.test/ad.mp4');
    expect(sent()).toEqual(['error?ph=00%3A00%3A00.000&c=405']);
  });

  it("carries the ad's own IAB values (its break position) into every pixel, tracking and error alike", async () => {
    const ad = loaded();
    ad.linear.trackingEvents.start = ['https://t.test/start?bp=[BREAKPOSITION]&a=[ASSETURI]&ifa=[IFA]'];
    ad.errorUrls = ['https://t.test/error?bp=[BREAKPOSITION]&c=[ERRORCODE]'];
    const { unit, video, sent } = setup(ad, { macros: { BREAKPOSITION: 2 } });
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    unit.begin();
    await playThrough(video, 0.5);
    video.fire('error');
    await unit.done;
    expect(sent()).toEqual(expect.arrayContaining([
      'start?bp=2&a=https%3A%2F%2Fcdn.test%2Fad.mp4&ifa=-2', 'error?bp=2&c=405',
    ]));
  });

  it('a file that never loads is ERROR 402 after the media timeout', async () => {
    jest.useFakeTimers();
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { unit, sent } = setup();
    unit.begin();
    jest.advanceTimersByTime(1000);
    expect(await unit.done).toBe('ERROR');
    expect(sent()).toEqual(['error?ph=00%3A00%3A00.000&c=402']);
  });

  it('a refused play() is retried muted, then ERROR 450', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { unit, video } = setup();
    unit.begin();
    video.playResult = Promise.reject(new DOMException('no', 'NotAllowedError'));
    video.playResult.catch(() => undefined);
    await unit.play();
    expect(video.muted).toBe(true);
    expect(video.play).toHaveBeenCalledTimes(2);
    expect(unit.status).toBe('ERROR');
    expect(unit.store.get().error?.code).toBe(450);
  });

  it('stop is STOPPED without a pixel', async () => {
    const { unit, video, sent } = setup();
    unit.begin();
    await playThrough(video, 1);
    const before = sent().length;
    unit.stop();
    expect(await unit.done).toBe('STOPPED');
    expect(sent()).toHaveLength(before);
  });

  it('volume: 0-1 in steps of 0.05, non-numbers ignored with a warning, mute toggles 0 and 1', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { unit, video } = setup();
    unit.begin();
    unit.setVolume(0.43);
    expect(video.volume).toBe(0.45);
    unit.setVolume('0.2');
    expect(video.volume).toBe(0.2);
    unit.setVolume('loud');
    unit.setVolume(Number.NaN);
    unit.setVolume({});
    expect(video.volume).toBe(0.2);
    expect(warn).toHaveBeenCalledTimes(3);
    unit.setVolume(7);
    expect(video.volume).toBe(1);
    unit.toggleMute();
    expect([video.volume, video.muted]).toEqual([0, true]);
    unit.toggleMute();
    expect([video.volume, video.muted]).toEqual([1, false]);
  });

  it('tracks picture-in-picture', () => {
    const { unit, video } = setup();
    unit.begin();
    video.fire('enterpictureinpicture');
    expect(unit.store.get().pip).toBe(true);
    video.fire('leavepictureinpicture');
    expect(unit.store.get().pip).toBe(false);
  });

  it('the click-through tracks the click and opens only an http(s) page', () => {
    const { unit, sent, opened } = setup();
    unit.begin();
    expect(unit.click()).toBe('https://advertiser.test/landing');
    expect(opened).toEqual(['https://advertiser.test/landing']);
    expect(sent()).toContain('click');

    const hostile = loaded();
    hostile.linear.videoClickThroughURLTemplate = { url: 'javascript:alert(1)' };
    const other = setup(hostile);
    other.unit.begin();
    expect(other.unit.click()).toBeNull();
    expect(other.opened).toEqual([]);
  });
});
