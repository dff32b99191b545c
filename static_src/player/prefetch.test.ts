import type {
  HlsConfig,
  LoaderCallbacks,
  LoaderConfiguration,
  LoaderStats,
  PlaylistLoaderContext,
} from 'hls.js';
import { getText, PlaylistPrefetch, prefetchingLoader, type TextResponse } from './prefetch';

const URL_A = 'https://media.example/titles/a/master.m3u8';
const PLAYLIST = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nvideo.m3u8\n';
const BASE = 'https://media.example/s/sig/1/titles/a/';
const MEDIA = [`${BASE}video-240p.m3u8`, `${BASE}video-360p.m3u8`, `${BASE}audio-ru.m3u8`];

function response(body: string, status = 200, url = URL_A): TextResponse {
  return { status, url, text: body, first: 0 };
}

function newStats(): LoaderStats {
  return {
    aborted: false,
    loaded: 0,
    retry: 0,
    total: 0,
    chunkCount: 0,
    bwEstimate: 0,
    loading: { start: 0, first: 0, end: 0 },
    parsing: { start: 0, end: 0 },
    buffering: { start: 0, first: 0, end: 0 },
  };
}

/** hls.js's default loader as the wrapper sees it: records what reaches the network. */
class NetworkLoader {
  static made: NetworkLoader[] = [];
  stats = newStats();
  context: PlaylistLoaderContext | null = null;
  loads: PlaylistLoaderContext[] = [];
  aborted = 0;
  destroyed = 0;
  constructor() {
    NetworkLoader.made.push(this);
  }
  load(context: PlaylistLoaderContext) {
    if (this.stats.loading.start) throw new Error('Loader can only be used once.');
    this.stats.loading.start = 1;
    this.context = context;
    this.loads.push(context);
  }
  abort() {
    this.aborted += 1;
  }
  destroy() {
    this.destroyed += 1;
  }
}

const CONFIG = { loadPolicy: { maxTimeToFirstByteMs: 8000, maxLoadTimeMs: 20000 } } as LoaderConfiguration;

type Kind = 'manifest' | 'level' | 'audioTrack' | 'subtitleTrack';

function context(kind: Kind = 'manifest', url = URL_A): PlaylistLoaderContext {
  const type = kind as PlaylistLoaderContext['type']; // hls.js's PlaylistContextType, a string enum
  return { url, type, responseType: 'text', level: null, id: null, deliveryDirectives: null, levelOrTrack: null };
}

function callbacks() {
  return {
    onSuccess: jest.fn(),
    onError: jest.fn(),
    onTimeout: jest.fn(),
    onAbort: jest.fn(),
  } satisfies LoaderCallbacks<PlaylistLoaderContext>;
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}

function loaderOver(prefetch: PlaylistPrefetch) {
  const Loader = prefetchingLoader(NetworkLoader as never, prefetch);
  return new Loader({} as HlsConfig);
}

beforeEach(() => {
  NetworkLoader.made = [];
  jest.useFakeTimers();
});

afterEach(() => jest.useRealTimers());

describe('PlaylistPrefetch', () => {
  it('hands a fetched playlist over once, and only for its address', async () => {
    const fetchUrl = jest.fn((_url: string) => Promise.resolve(response(PLAYLIST)));
    const prefetch = new PlaylistPrefetch(fetchUrl);
    prefetch.start(URL_A);

    expect(prefetch.take('https://media.example/other.m3u8')).toBeNull();
    const taken = prefetch.take(URL_A);
    expect(await taken).toMatchObject({ url: URL_A, status: 200, text: PLAYLIST });
    expect(prefetch.take(URL_A)).toBeNull(); // a retry goes to the network
    expect(fetchUrl).toHaveBeenCalledTimes(1);
  });

  it('takes a playlist the page carried without a request, once, and only for its address', async () => {
    const fetchUrl = jest.fn((_url: string) => Promise.resolve(response('#EXTM3U\n# from the network\n')));
    const prefetch = new PlaylistPrefetch(fetchUrl);
    prefetch.start(URL_A, PLAYLIST);

    expect(prefetch.take('https://media.example/other.m3u8')).toBeNull();
    expect(await prefetch.take(URL_A)).toMatchObject({ url: URL_A, status: 200, text: PLAYLIST });
    expect(prefetch.take(URL_A)).toBeNull(); // hls.js's retry goes to the network
    expect(fetchUrl).not.toHaveBeenCalled();
  });

  it('asks for the media playlists the page named with the master at once, each handed over once as media', async () => {
    const fetchUrl = jest.fn((url: string) => Promise.resolve(response(`#EXTM3U\n# ${url}\n`, 200, url)));
    const prefetch = new PlaylistPrefetch(fetchUrl);
    prefetch.start(`${BASE}master.m3u8`, PLAYLIST, MEDIA);
    expect(fetchUrl.mock.calls.map(([url]) => url)).toEqual(MEDIA); // not the master: the page carried it
    expect(prefetch.take(MEDIA[1], 'manifest')).toBeNull(); // a media playlist is no master
    expect(await prefetch.take(MEDIA[1], 'media')).toMatchObject({ status: 200, url: MEDIA[1] });
    expect(prefetch.take(MEDIA[1], 'media')).toBeNull(); // once: a retry goes to the network
    expect(prefetch.take(`${BASE}master.m3u8`, 'media')).toBeNull(); // nor a master a media playlist
  });

  it("forgets an episode's media playlists when another starts", async () => {
    const prefetch = new PlaylistPrefetch((url: string) => Promise.resolve(response('#EXTM3U\n', 200, url)));
    prefetch.start(`${BASE}master.m3u8`, PLAYLIST, MEDIA);
    prefetch.start(URL_A);
    expect(prefetch.take(MEDIA[0], 'media')).toBeNull();
    expect(await prefetch.take(URL_A)).toMatchObject({ status: 200 });
  });

  it('keeps only the latest start', async () => {
    const prefetch = new PlaylistPrefetch(() => Promise.resolve(response(PLAYLIST)));
    prefetch.start(URL_A);
    prefetch.start('https://media.example/titles/b/master.m3u8');
    expect(prefetch.take(URL_A)).toBeNull();
  });

  it('settles to null for an HTTP error or a network failure, never rejecting', async () => {
    const notFound = new PlaylistPrefetch(() => Promise.resolve(response('', 404)));
    notFound.start(URL_A);
    await expect(notFound.take(URL_A)).resolves.toBeNull();

    const offline = new PlaylistPrefetch(() => Promise.resolve(response('', 0)));
    offline.start(URL_A);
    await expect(offline.take(URL_A)).resolves.toBeNull();

    const broken = new PlaylistPrefetch(() => Promise.reject(new TypeError('Failed to fetch')));
    broken.start(URL_A);
    await expect(broken.take(URL_A)).resolves.toBeNull();
  });

  it('reads a GET in one piece with XMLHttpRequest, a network failure as status 0', async () => {
    const made: FakeXhr[] = [];
    class FakeXhr {
      static HEADERS_RECEIVED = 2;
      readyState = 0;
      status = 0;
      responseURL = '';
      responseText = '';
      onreadystatechange: (() => void) | null = null;
      onloadend: (() => void) | null = null;
      opened: string[] = [];
      constructor() {
        made.push(this);
      }
      open(method: string, url: string) {
        this.opened = [method, url];
      }
      send() {}
      answer(status: number, text: string, url: string) {
        Object.assign(this, { readyState: 2, status });
        this.onreadystatechange?.();
        Object.assign(this, { readyState: 4, responseText: text, responseURL: url });
        this.onreadystatechange?.();
        this.onloadend?.();
      }
    }
    const real = globalThis.XMLHttpRequest;
    globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
    try {
      jest.advanceTimersByTime(5);
      const ok = getText(URL_A);
      made[0].answer(200, PLAYLIST, 'https://cdn.example/a.m3u8');
      expect(made[0].opened).toEqual(['GET', URL_A]);
      await expect(ok).resolves.toEqual({ status: 200, url: 'https://cdn.example/a.m3u8', text: PLAYLIST, first: 5 });

      const failed = getText(URL_A);
      made[1].onloadend?.(); // an error: no status, no body
      await expect(failed).resolves.toMatchObject({ status: 0, url: URL_A, text: '' });
    } finally {
      globalThis.XMLHttpRequest = real;
    }
  });

  it('keeps the address the response came from after redirects', async () => {
    const prefetch = new PlaylistPrefetch(() => Promise.resolve(response(PLAYLIST, 200, 'https://cdn.example/x.m3u8')));
    prefetch.start(URL_A);
    expect((await prefetch.take(URL_A))?.url).toBe('https://cdn.example/x.m3u8');
  });
});

describe('prefetchingLoader', () => {
  it('gives hls.js the prefetched manifest in a task of its own, without a request', async () => {
    const prefetch = new PlaylistPrefetch(() => Promise.resolve(response(PLAYLIST)));
    prefetch.start(URL_A);
    const loader = loaderOver(prefetch);
    const cb = callbacks();
    const ctx = context();
    jest.advanceTimersByTime(10); // performance.now() > 0, as in a page

    loader.load(ctx, CONFIG, cb);
    await settle();
    expect(cb.onSuccess).not.toHaveBeenCalled(); // not in the task that started hls.js
    jest.advanceTimersByTime(0);

    expect(cb.onSuccess).toHaveBeenCalledTimes(1);
    const [res, stats, passed, details] = cb.onSuccess.mock.calls[0];
    expect(res).toEqual({ url: URL_A, data: PLAYLIST, code: 200 });
    expect(passed).toBe(ctx);
    expect(details).toBeNull();
    expect(stats.loaded).toBe(PLAYLIST.length);
    expect(stats.loading.start).toBeGreaterThan(0);
    expect(stats.loading.end).toBeGreaterThanOrEqual(stats.loading.first);
    expect(loader.stats).toBe(stats);
    expect(loader.context).toBe(ctx);
    expect(NetworkLoader.made[0].loads).toEqual([]);
  });

  it('gives hls.js a prefetched level or audio playlist without a request, and a subtitle playlist to the network', async () => {
    const media = (url: string) => `#EXTM3U\n#EXT-X-TARGETDURATION:4\n# ${url}\n`;
    const fetchUrl = jest.fn((url: string) => Promise.resolve(response(media(url), 200, url)));
    const prefetch = new PlaylistPrefetch(fetchUrl);
    prefetch.start(`${BASE}master.m3u8`, PLAYLIST, MEDIA);
    const [level, audio] = [MEDIA[1], MEDIA[2]];
    const [levelCb, audioCb, subsCb] = [callbacks(), callbacks(), callbacks()];
    loaderOver(prefetch).load(context('level', level), CONFIG, levelCb);
    loaderOver(prefetch).load(context('audioTrack', audio), CONFIG, audioCb);
    loaderOver(prefetch).load(context('subtitleTrack', `${BASE}subs/ru.m3u8`), CONFIG, subsCb);
    await settle();
    jest.advanceTimersByTime(0);
    expect(levelCb.onSuccess.mock.calls[0][0]).toEqual({ url: level, data: media(level), code: 200 });
    expect(audioCb.onSuccess.mock.calls[0][0]).toEqual({ url: audio, data: media(audio), code: 200 });
    expect(NetworkLoader.made.map((made) => made.loads.length)).toEqual([0, 0, 1]); // only the subtitles went out
    expect(fetchUrl).toHaveBeenCalledTimes(3); // the prefetches, none again
  });

  it('sends level playlists, and a manifest nobody prefetched, to the network loader', () => {
    const prefetch = new PlaylistPrefetch(() => Promise.resolve(response(PLAYLIST)));
    prefetch.start(URL_A);
    const level = loaderOver(prefetch);
    level.load(context('level', URL_A), CONFIG, callbacks());
    expect(NetworkLoader.made[0].loads).toHaveLength(1);

    const other = loaderOver(prefetch);
    other.load(context('manifest', 'https://media.example/b.m3u8'), CONFIG, callbacks());
    expect(NetworkLoader.made[1].loads).toHaveLength(1);
    expect(prefetch.take(URL_A)).not.toBeNull(); // still there for the manifest it was made for
  });

  it('asks the network itself when the prefetch failed, so that hls.js reports or retries as usual', async () => {
    const prefetch = new PlaylistPrefetch(() => Promise.resolve(response('', 404)));
    prefetch.start(URL_A);
    const loader = loaderOver(prefetch);
    const cb = callbacks();

    loader.load(context(), CONFIG, cb);
    await settle();
    jest.advanceTimersByTime(0);

    expect(NetworkLoader.made[0].loads).toHaveLength(1);
    expect(cb.onSuccess).not.toHaveBeenCalled();
    expect(loader.context).toBe(NetworkLoader.made[0].context);
  });

  it("falls back to the network after hls.js's load timeout when the prefetch hangs", async () => {
    const prefetch = new PlaylistPrefetch(() => new Promise<TextResponse>(() => undefined));
    prefetch.start(URL_A);
    const loader = loaderOver(prefetch);
    const cb = callbacks();

    loader.load(context(), CONFIG, cb);
    jest.advanceTimersByTime(19_999);
    expect(NetworkLoader.made[0].loads).toHaveLength(0);
    jest.advanceTimersByTime(1);
    expect(NetworkLoader.made[0].loads).toHaveLength(1);
  });

  it('reports an abort and delivers nothing after it', async () => {
    let resolve: (value: TextResponse) => void = () => undefined;
    const prefetch = new PlaylistPrefetch(() => new Promise<TextResponse>((r) => (resolve = r)));
    prefetch.start(URL_A);
    const loader = loaderOver(prefetch);
    const cb = callbacks();

    loader.load(context(), CONFIG, cb);
    loader.abort();
    resolve(response(PLAYLIST));
    await settle();
    jest.runAllTimers();

    expect(cb.onAbort).toHaveBeenCalledTimes(1);
    expect(cb.onAbort.mock.calls[0][0].aborted).toBe(true);
    expect(cb.onSuccess).not.toHaveBeenCalled();
    expect(NetworkLoader.made[0].loads).toHaveLength(0);
    expect(NetworkLoader.made[0].aborted).toBe(0);
  });

  it('delivers nothing once destroyed, and destroys the network loader', async () => {
    const prefetch = new PlaylistPrefetch(() => Promise.resolve(response(PLAYLIST)));
    prefetch.start(URL_A);
    const loader = loaderOver(prefetch);
    const cb = callbacks();

    loader.load(context(), CONFIG, cb);
    loader.destroy();
    await settle();
    jest.runAllTimers();

    expect(cb.onSuccess).not.toHaveBeenCalled();
    expect(NetworkLoader.made[0].destroyed).toBe(1);
  });

  it('passes abort straight on when the network loader has the request', () => {
    const loader = loaderOver(new PlaylistPrefetch(() => Promise.resolve(response(PLAYLIST))));
    loader.load(context('level'), CONFIG, callbacks());
    loader.abort();
    expect(NetworkLoader.made[0].aborted).toBe(1);
  });
});
