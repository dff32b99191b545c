import { DEFAULTS } from '../core/defaults';
import { clearCookies, installFetch, jsonResponse, makeJwt } from '../test/fixtures';
import { createApiClient, progressApi } from './client';
import type { FingerprintSource } from './fingerprint';

/** A device whose issued identity is `known` now, else `asked` once asked for. */
function source(known: string | null, asked: Promise<string | null> = Promise.resolve('issued_identity')) {
  return {
    current: jest.fn(() => known),
    issued: jest.fn(() => known),
    fingerprint: jest.fn(() => Promise.resolve('hash_abcdefgh')),
    identity: jest.fn(() => asked),
  } satisfies FingerprintSource;
}

describe('the API client', () => {
  let restore: () => void;
  let fetchMock: jest.Mock;
  beforeEach(() => {
    fetchMock = jest.fn(() => Promise.resolve(jsonResponse({})));
    restore = installFetch(fetchMock);
  });
  afterEach(() => restore());

  it('sends X-Session-Context with the known identity, in the same task (a save on pagehide)', async () => {
    const device = source('known_fp_1');
    const api = progressApi(createApiClient('https://api.test/', device), 7);
    const sent = api.time(3, 12.7);
    expect(fetchMock).toHaveBeenCalledTimes(1); // before any await
    expect(await sent).toBe(true);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('https://api.test/contents/7/episodes/3/time-progress');
    expect(init.headers).toEqual({ 'X-Session-Context': 'known_fp_1', 'Content-Type': 'application/json' });
    expect(JSON.parse(init.body)).toEqual({ time: 12 });
    expect(init.keepalive).toBe(true);
    expect(device.identity).not.toHaveBeenCalled();
  });

  it('on a first visit waits for the identity, then sends it: no request goes without one', async () => {
    let resolve!: (value: string) => void;
    const device = source(null, new Promise<string>((r) => (resolve = r)));
    const sent = progressApi(createApiClient('https://api.test', device), 7).completed(3);
    await Promise.resolve();
    expect(fetchMock).not.toHaveBeenCalled();
    resolve('first_visit_fp');
    expect(await sent).toBe(true);
    expect(fetchMock.mock.calls[0][1].headers).toEqual({ 'X-Session-Context': 'first_visit_fp' });
    expect(device.identity).toHaveBeenCalledWith('https://api.test');
  });

  it('makes no call without an identity (the service could not be asked): the progress stays local', async () => {
    expect(await createApiClient('https://api.test', source(null, Promise.resolve(null))).send('POST', '/x')).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reports a failed call as false without throwing', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    fetchMock.mockImplementation(() => Promise.reject(new TypeError('offline')));
    expect(await createApiClient('https://api.test', source('fp_abcdefgh')).send('POST', '/x')).toBe(false);
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse({}, 500)));
    expect(await createApiClient('https://api.test', source('fp_abcdefgh')).send('POST', '/x')).toBe(false);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});

describe('the access token (spec §4)', () => {
  const REFRESH = 'https://api.test/authentication/refresh';
  const FRESH = makeJwt({ sub: '5', exp: 4_102_444_800 }); // what the refresh hands back (2100)
  const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;
  let client: typeof import('./client');
  let restore: () => void;
  let fetchMock: jest.Mock;
  let refreshAnswer: () => Promise<Response>;
  let warn: jest.SpyInstance;

  beforeEach(async () => {
    jest.resetModules(); // the refresh's in-flight promise and backoff start afresh
    client = await import('./client');
    refreshAnswer = () => Promise.resolve(jsonResponse({}, 200, { Authorization: `Bearer ${FRESH}` }));
    fetchMock = jest.fn((url: string) => (url === REFRESH ? refreshAnswer() : Promise.resolve(jsonResponse({}))));
    restore = installFetch(fetchMock);
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    restore();
    warn.mockRestore();
    clearCookies();
  });

  const api = () => client.progressApi(client.createApiClient('https://api.test/', source('fp_known_1')), 7);
  const calls = (url: string) => fetchMock.mock.calls.filter(([called]) => called === url);
  const progressCalls = () => fetchMock.mock.calls.filter(([called]) => called !== REFRESH);
  const bearerOf = (init: RequestInit) => (init.headers as Record<string, string>).Authorization;
  const signIn = (token: string | null) => {
    if (token) document.cookie = `authToken=${token}; path=/`;
    document.cookie = 'csrf_refresh_token=csrf-r-1; path=/';
  };

  it('sends a valid token as a bearer header in the same task, beside X-Session-Context, without cookies', async () => {
    const token = makeJwt({ sub: '5', sid: 's1', role: 'viewer', exp: inSeconds(DEFAULTS.authRefreshSkewS + 60) });
    signIn(token);
    const sent = api().time(3, 40);
    expect(fetchMock).toHaveBeenCalledTimes(1); // before any await: a save on pagehide
    expect(await sent).toBe(true);
    const [, init] = fetchMock.mock.calls[0];
    expect(init.headers).toEqual({
      'X-Session-Context': 'fp_known_1',
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    });
    expect(init.credentials).toBe('omit');
    expect(DEFAULTS.authRefreshSkewS).toBe(30);
  });

  it.each([
    ['expired', () => makeJwt({ sub: '5', exp: inSeconds(-60) })],
    ['within the skew of its exp', () => makeJwt({ sub: '5', exp: inSeconds(DEFAULTS.authRefreshSkewS - 5) })],
    ['gone (its cookie ends at exp)', () => null],
  ])('refreshes a token %s once for ten calls, which all then carry the new one', async (_, token) => {
    signIn(token());
    const saves = Array.from({ length: 10 }, (_, i) => api().time(3, 10 * i));
    expect(await Promise.all(saves)).toEqual(Array(10).fill(true));
    expect(calls(REFRESH)).toHaveLength(1);
    const [, init] = calls(REFRESH)[0];
    expect(init.credentials).toBe('include');
    expect(init.headers['X-CSRF-TOKEN']).toBe('csrf-r-1');
    expect(fetchMock.mock.calls[0][0]).toBe(REFRESH); // before the calls that wait for it
    expect(progressCalls()).toHaveLength(10);
    for (const [, call] of progressCalls()) {
      expect(bearerOf(call)).toBe(`Bearer ${FRESH}`);
      expect(call.credentials).toBe('omit');
    }
  });

  it.each([
    ['a 500', () => Promise.resolve(jsonResponse({}, 500))],
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['no Authorization header', () => Promise.resolve(jsonResponse({}, 200))],
  ])('sends the calls without a token after %s, and refreshes no more within the backoff', async (_, failure) => {
    refreshAnswer = failure;
    signIn(makeJwt({ sub: '5', exp: inSeconds(-60) }));
    const first = Array.from({ length: 5 }, () => api().time(3, 20));
    expect(await Promise.all(first)).toEqual(Array(5).fill(true));
    expect(await api().completed(3)).toBe(true); // a later save, within the backoff
    expect(calls(REFRESH)).toHaveLength(1);
    expect(progressCalls()).toHaveLength(6);
    for (const [, call] of progressCalls()) {
      expect(bearerOf(call)).toBeUndefined();
      expect(call.headers['X-Session-Context']).toBe('fp_known_1'); // the server files them under the device
    }
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['no cookies at all', () => undefined],
    ['an expired token without the refresh cookie', () => {
      document.cookie = `authToken=${makeJwt({ sub: '5', exp: inSeconds(-60) })}; path=/`;
    }],
    ['a token that is not a JWT', () => {
      document.cookie = 'authToken=not-a-token; path=/';
    }],
  ])('never refreshes for a viewer not signed in (%s), and sends no bearer', async (_, cookies) => {
    cookies();
    const sent = api().time(3, 30);
    expect(fetchMock).toHaveBeenCalledTimes(1); // in the same task: nothing to wait for
    expect(await sent).toBe(true);
    expect(calls(REFRESH)).toHaveLength(0);
    expect(bearerOf(fetchMock.mock.calls[0][1])).toBeUndefined();
  });

  it('a token the server refuses (401) is refreshed and the call sent again with the new one', async () => {
    signIn(makeJwt({ sub: '5', exp: inSeconds(DEFAULTS.authRefreshSkewS + 600) })); // valid by our clock
    let refused = false;
    fetchMock.mockImplementation((url: string) => {
      if (url === REFRESH) return refreshAnswer();
      if (!refused) {
        refused = true;
        return Promise.resolve(jsonResponse({ error: { code: 'token_revoked' } }, 401));
      }
      return Promise.resolve(jsonResponse({}));
    });
    expect(await api().time(3, 50)).toBe(true);
    expect(calls(REFRESH)).toHaveLength(1);
    expect(progressCalls()).toHaveLength(2);
    expect(bearerOf(progressCalls()[1][1])).toBe(`Bearer ${FRESH}`);
  });
});

describe('a service briefly unavailable (503)', () => {
  let restore: () => void;
  let fetchMock: jest.Mock;
  let answers: Response[];
  let warn: jest.SpyInstance;
  beforeEach(() => {
    jest.useFakeTimers();
    answers = [];
    fetchMock = jest.fn(() => Promise.resolve(answers.shift() ?? jsonResponse({})));
    restore = installFetch(fetchMock);
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    restore();
    warn.mockRestore();
  });
  const unavailable = (retryAfter?: string) =>
    jsonResponse({}, 503, retryAfter === undefined ? {} : { 'Retry-After': retryAfter });
  const client = () => progressApi(createApiClient('https://api.test', source('fp_known_1')), 7);

  it('sends the call again after its Retry-After, and reports the save that finally landed', async () => {
    answers = [unavailable('2'), unavailable('2')];
    const sent = client().time(3, 40);
    await jest.advanceTimersByTimeAsync(1999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await jest.advanceTimersByTimeAsync(2000);
    expect(await sent).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(JSON.parse(fetchMock.mock.calls[2][1].body)).toEqual({ time: 40 });
  });

  it(`gives up after ${DEFAULTS.apiRetries} tries, waiting ${DEFAULTS.apiRetryMs} ms without a Retry-After`, async () => {
    answers = Array.from({ length: 10 }, () => unavailable());
    const sent = client().completed(3);
    await jest.advanceTimersByTimeAsync(DEFAULTS.apiRetryMs * DEFAULTS.apiRetries);
    expect(await sent).toBe(false);
    expect(fetchMock).toHaveBeenCalledTimes(1 + DEFAULTS.apiRetries);
  });

  it('drops a refused save once a newer save of the same episode went out: the newer position counts', async () => {
    answers = [unavailable('5')];
    const api = createApiClient('https://api.test', source('fp_known_1'));
    const older = progressApi(api, 7).time(3, 40);
    await jest.advanceTimersByTimeAsync(1000);
    expect(await progressApi(api, 7).time(3, 50)).toBe(true);
    await jest.advanceTimersByTimeAsync(5000);
    expect(await older).toBe(false);
    expect(fetchMock.mock.calls.map(([, init]) => JSON.parse(init.body).time)).toEqual([40, 50]);
  });
});
