import { AD_LIST_MISSING, fetchWithin, parseAdList } from './list';
import { AdScheduler, type AdType, type SchedulerOptions } from './scheduler';
import { adError, AdErrorCode } from './rules';
import type { AdStatus } from './unit';
import type { LoadedAd } from './vast';

const ad = (url: string, duration = 15): LoadedAd => ({
  url,
  ad: { id: `ad:${url}`, sequence: null, creatives: [], errorURLTemplates: [], impressionURLTemplates: [] },
  linear: { type: 'linear', duration, skipDelay: null, mediaFiles: [], trackingEvents: {},
    videoClickThroughURLTemplate: null, videoClickTrackingURLTemplates: [] },
  mediaFile: { fileURL: 'https://cdn.test/a.mp4', mimeType: 'video/mp4', width: 1, height: 1, codec: null, apiFramework: null },
  errorUrls: [],
});

function setup(list: unknown, extra: Partial<SchedulerOptions> = {}) {
  const content = { currentTime: 0, duration: 1860 };
  const played: [string, AdType][] = [];
  const fetcher = jest.fn(async () => ({ ok: true, status: 200, json: async () => list }) as Response);
  const ends: Record<string, AdStatus> = {};
  const options: SchedulerOptions = {
    adListUrl: 'https://ads.test/list.json',
    headers: () => ({ 'X-Session-Context': 'fp' }),
    fetcher: fetcher as unknown as typeof fetch,
    loadAd: async (url) => {
      if (url.includes('bad')) throw adError(AdErrorCode.EMPTY_VAST);
      return [ad(url)];
    },
    playAd: async (loaded, type) => {
      played.push([loaded.url, type]);
      return ends[loaded.url] ?? 'COMPLETED';
    },
    content: () => content,
    ...extra,
  };
  const scheduler = new AdScheduler(options);
  return { scheduler, played, fetcher, content, ends };
}

beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

describe('parseAdList', () => {
  it('keeps http(s) vastUrls, resolves relative ones and drops the rest', () => {
    expect(parseAdList({
      prerollList: [{ vastUrl: 'https://a.test/1' }, { vastUrl: '/vast.xml?creative=1' }, { vastUrl: 'javascript:x' },
        { vastUrl: 3 }, null, 'str', {}],
      midrollList: 'nope',
    }, 'https://ads.test/ad-list.json')).toEqual({
      prerollList: ['https://a.test/1', 'https://ads.test/vast.xml?creative=1'],
      midrollList: [],
    });
    expect(parseAdList(null, 'https://ads.test/')).toEqual({ prerollList: [], midrollList: [] });
    expect(parseAdList([1, 2], 'https://ads.test/')).toEqual({ prerollList: [], midrollList: [] });
  });
});

describe('AdScheduler', () => {
  it('plays the pre-roll list in order, skipping ads that failed to load, then stops', async () => {
    const { scheduler, played, fetcher } = setup({
      prerollList: [{ vastUrl: 'https://v.test/1' }, { vastUrl: 'https://v.test/bad' }, { vastUrl: 'https://v.test/2' }],
      midrollList: [],
    });
    await scheduler.preroll();
    expect(played).toEqual([['https://v.test/1', 'preroll'], ['https://v.test/2', 'preroll']]);
    expect(fetcher).toHaveBeenCalledWith('https://ads.test/list.json', expect.objectContaining({
      headers: { 'X-Session-Context': 'fp' }, credentials: 'omit',
    }));
    expect(scheduler.history).toEqual([
      { id: 'ad:https://v.test/1', type: 'preroll', position: 1, duration: 15, perc: 0 },
      { id: 'ad:https://v.test/2', type: 'preroll', position: 2, duration: 15, perc: 0 },
    ]);
  });

  it("plays a pod's ads one after another where its VAST stands in the list (AD_PODS), a stop ending the break", async () => {
    const pod = (url: string) => [ad(`${url}#1`), ad(`${url}#2`)];
    const { scheduler, played, ends } = setup({
      prerollList: [{ vastUrl: 'https://v.test/pod' }, { vastUrl: 'https://v.test/1' }], midrollList: [],
    }, { loadAd: async (url) => (url.endsWith('pod') ? pod(url) : [ad(url)]) });
    await scheduler.preroll();
    expect(played.map(([url]) => url)).toEqual(['https://v.test/pod#1', 'https://v.test/pod#2', 'https://v.test/1']);
    expect(scheduler.history.map((item) => item.position)).toEqual([1, 2, 3]);
    scheduler.reset();
    played.length = 0;
    ends['https://v.test/pod#1'] = 'STOPPED';
    await scheduler.preroll();
    expect(played.map(([url]) => url)).toEqual(['https://v.test/pod#1']);
  });

  it('uses the list the entry requested for the first break, and fetches its own after a new episode', async () => {
    const early = { prerollList: ['https://v.test/early'], midrollList: [] };
    const { scheduler, played, fetcher } = setup(
      { prerollList: [{ vastUrl: 'https://v.test/own' }], midrollList: [] }, { list: Promise.resolve(early) },
    );
    await scheduler.preroll();
    expect(fetcher).not.toHaveBeenCalled();
    expect(played).toEqual([['https://v.test/early', 'preroll']]);
    scheduler.reset();
    await scheduler.preroll();
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(played.at(-1)).toEqual(['https://v.test/own', 'preroll']);
  });

  it('an early list that settles after a new episode reset the break loads and plays nothing', async () => {
    let settle: (list: { prerollList: string[]; midrollList: string[] }) => void = () => undefined;
    const loadAd = jest.fn(async (url: string) => [ad(url)]);
    const { scheduler, played } = setup({}, { list: new Promise((resolve) => (settle = resolve)), loadAd });
    const first = scheduler.preroll();
    scheduler.reset();
    settle({ prerollList: ['https://v.test/late'], midrollList: [] });
    await first;
    expect(loadAd).not.toHaveBeenCalled();
    expect(played).toEqual([]);
  });

  it('an early list that failed is requested again by the next break', async () => {
    const { scheduler, played, fetcher, content } = setup(
      { prerollList: [], midrollList: [{ vastUrl: 'https://v.test/m' }] }, { list: Promise.reject(new Error('HTTP 502')) },
    );
    await scheduler.preroll();
    expect(played).toEqual([]);
    content.currentTime = 931;
    await scheduler.maybeMidroll();
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(played).toEqual([['https://v.test/m', 'midroll']]);
  });

  it('a stopped ad ends the break', async () => {
    const { scheduler, played, ends } = setup({
      prerollList: [{ vastUrl: 'https://v.test/1' }, { vastUrl: 'https://v.test/2' }], midrollList: [],
    });
    ends['https://v.test/1'] = 'STOPPED';
    await scheduler.preroll();
    expect(played).toEqual([['https://v.test/1', 'preroll']]);
  });

  it('without an ad-list URL, or with a failing list, the pre-roll settles with no ad: the content plays', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const missing = setup({}, { adListUrl: null });
    await missing.scheduler.preroll();
    expect(missing.played).toEqual([]);
    expect(String(warn.mock.calls[0]?.[1])).toBe(AD_LIST_MISSING);

    const failing = setup({});
    failing.fetcher.mockImplementation(async () => ({ ok: false, status: 500, json: async () => ({}) }) as Response);
    await failing.scheduler.preroll();
    expect(failing.played).toEqual([]);
  });

  it('a hung ad list holds the film back by the timeout at most', async () => {
    const { scheduler, fetcher } = setup({}, { timeoutMs: 50 });
    fetcher.mockImplementation(((_url: string, init: RequestInit) => new Promise((_, reject) => {
      init.signal?.addEventListener('abort', () => reject(init.signal!.reason));
    })) as never);
    const started = Date.now();
    await scheduler.preroll();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('runs the mid-roll once past half of content over 1800 s, not again after a seek back', async () => {
    const { scheduler, played, content, fetcher } = setup({ prerollList: [], midrollList: [{ vastUrl: 'https://v.test/m' }] });
    await scheduler.preroll();
    content.currentTime = 929;
    expect(scheduler.maybeMidroll()).toBeNull();
    content.currentTime = 931;
    await scheduler.maybeMidroll();
    expect(played).toEqual([['https://v.test/m', 'midroll']]);
    expect(scheduler.history[0]).toMatchObject({ type: 'midroll', position: 1, perc: 50 });
    content.currentTime = 100;
    content.currentTime = 1000;
    expect(scheduler.maybeMidroll()).toBeNull();
    expect(fetcher).toHaveBeenCalledTimes(1); // one list for the pre-roll and the mid-roll
  });

  it('no mid-roll for content of 1800 s or less', () => {
    const { scheduler, content } = setup({ prerollList: [], midrollList: [{ vastUrl: 'https://v.test/m' }] });
    content.duration = 1800;
    content.currentTime = 1500;
    expect(scheduler.maybeMidroll()).toBeNull();
  });

  it('a new episode aborts the break and starts over: a new list, a new mid-roll', async () => {
    let release: (status: AdStatus) => void = () => undefined;
    const signals: AbortSignal[] = [];
    const { scheduler, fetcher, content, played } = setup(
      { prerollList: [{ vastUrl: 'https://v.test/1' }], midrollList: [{ vastUrl: 'https://v.test/m' }] },
      {
        playAd: (loaded, type, signal) => {
          played.push([loaded.url, type]);
          signals.push(signal);
          return new Promise((resolve) => (release = resolve));
        },
      },
    );
    const first = scheduler.preroll();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(played).toEqual([['https://v.test/1', 'preroll']]); // on screen
    scheduler.reset();
    expect(signals[0].aborted).toBe(true);
    release('STOPPED');
    await first;

    const second = scheduler.preroll();
    await new Promise((resolve) => setTimeout(resolve, 0));
    release('COMPLETED');
    await second;
    expect(fetcher).toHaveBeenCalledTimes(2);
    content.currentTime = 1000;
    expect(scheduler.maybeMidroll()).not.toBeNull();
  });
});

describe('fetchWithin', () => {
  it('sends nothing for a signal aborted already, and rejects with its reason', async () => {
    const fetcher = jest.fn();
    const controller = new AbortController();
    controller.abort(new DOMException('a new episode', 'AbortError'));
    const request = { signal: controller.signal, timeoutMs: 1000, fetcher: fetcher as unknown as typeof fetch };
    await expect(fetchWithin('https://v.test/1', request, async () => 1)).rejects.toMatchObject({ name: 'AbortError' });
    expect(fetcher).not.toHaveBeenCalled();
  });
});
