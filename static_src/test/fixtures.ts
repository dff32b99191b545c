// Shared test data: a complete PlayerContext with one episode, overridable piece by piece, and fetch doubles.
import type { ContentData, EpisodeData, PlayerContext } from '../context';

export const MASTER_PATH = '/media/content/12/master.json';

export function makeEpisode(overrides: Partial<EpisodeData> = {}): EpisodeData {
  return {
    id: 101,
    order: 1,
    title: 'Пилот',
    description: 'Первая серия',
    duration: 2700,
    posterPath: null,
    m3u8MasterFilePath: MASTER_PATH,
    isCompleted: false,
    season: null,
    ...overrides,
  };
}

export function makeContent(overrides: Partial<ContentData> = {}): ContentData {
  return {
    id: 12,
    title: 'Брат',
    hasMultipleEpisodes: false,
    posterUrl: 'https://img.example/posters/12.jpg',
    contentType: { slug: 'movie' },
    year: 1997,
    countries: [{ slug: 'ru' }],
    languages: [{ code: 'ru' }],
    kinopoiskId: 41519,
    imdbId: 'tt0118767',
    rating: { kinopoisk: { value: 8.3 }, imdb: { value: 7.8, url: null } },
    ...overrides,
  };
}

/** A movie context whose current episode is `episodes[0]` unless `episodeId` says otherwise. */
export function makeContext(overrides: Partial<PlayerContext> = {}): PlayerContext {
  const episodes = overrides.episodes ?? [makeEpisode()];
  return {
    content: makeContent(),
    seasons: [],
    episodes,
    episodeId: episodes[0]?.id ?? null,
    episodeTime: null,
    timeCode: null,
    isEnabledShare: true,
    isAvailable: true,
    isPreload: false,
    autoPlay: false,
    voiceAuthor: null,
    userId: null,
    langOrder: ['ru'],
    config: {
      baseUrl: 'https://player.example',
      adListUrl: null,
      fullscreenMode: 'native',
      sentryProject: '',
      sentryDsn: null,
      widgetAssetsPath: '/static/dist/',
      placeholderUrl: '/clips/not-available.mp4',
      parentOrigin: null,
      statisticsFunction: '',
    },
    ...overrides,
  };
}

/** The part of a fetch Response the player reads; `headers` answer get() by any case of their names. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const named = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: { get: (name: string) => named.get(name.toLowerCase()) ?? null } as Headers,
    json: () => Promise.resolve(body),
  } as Response;
}

/** A 200 response whose body is not JSON. */
export function brokenJsonResponse(): Response {
  return {
    ok: true,
    status: 200,
    json: () => Promise.reject(new SyntaxError('Unexpected token < in JSON at position 0')),
  } as Response;
}

/** Replaces global fetch (jsdom has none) for one test; call the returned function to restore it. */
export function installFetch(mock: jest.Mock): () => void {
  const had = Object.prototype.hasOwnProperty.call(globalThis, 'fetch');
  const previous = globalThis.fetch;
  globalThis.fetch = mock as unknown as typeof fetch;
  return () => {
    if (had) globalThis.fetch = previous;
    else delete (globalThis as { fetch?: unknown }).fetch;
  };
}

/** An unsigned JWT whose payload holds `claims` (base64url, as the server's): the player reads only its exp. */
export function makeJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;
}

/** Removes every cookie of jsdom's document (set with path /). */
export function clearCookies(): void {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0].trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}
