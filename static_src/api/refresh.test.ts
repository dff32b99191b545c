// Spec §4 "Access token": one refresh at a time, its failure swallowed, and none again for a while after one.
import { DEFAULTS } from '../core/defaults';
import { clearCookies, installFetch, jsonResponse } from '../test/fixtures';

type Refresh = typeof import('./refresh');

const BASE = 'https://api.test';
const NEW_TOKEN = 'new.access.token';

describe('the token refresh', () => {
  let refreshAccess: Refresh['refreshAccess'];
  let fetchMock: jest.Mock;
  let restore: () => void;
  let clock: jest.SpyInstance<number, []>;
  let warn: jest.SpyInstance;

  beforeEach(async () => {
    jest.resetModules(); // the module's in-flight promise and backoff start afresh
    ({ refreshAccess } = await import('./refresh'));
    document.cookie = 'csrf_refresh_token=csrf-value-1; path=/';
    fetchMock = jest.fn(() => Promise.resolve(jsonResponse({}, 200, { Authorization: `Bearer ${NEW_TOKEN}` })));
    restore = installFetch(fetchMock);
    clock = jest.spyOn(performance, 'now').mockReturnValue(1000);
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    restore();
    clock.mockRestore();
    warn.mockRestore();
    clearCookies();
  });

  it('posts with the cookies and their double-submit header, and reads the token from Authorization', async () => {
    expect(await refreshAccess(BASE, 'device_1')).toBe(NEW_TOKEN);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('https://api.test/authentication/refresh');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: '{}' });
    expect(init.headers).toEqual({
      'Content-Type': 'application/json',
      'X-CSRF-TOKEN': 'csrf-value-1',
      'X-Session-Context': 'device_1',
    });
    expect(warn).not.toHaveBeenCalled();
  });

  it('runs one refresh for any number of callers meanwhile, and a new one once it is over', async () => {
    let answer!: (response: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    const waiting = Array.from({ length: 10 }, () => refreshAccess(BASE, 'device_1'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    answer(jsonResponse({}, 200, { authorization: 'Bearer first.token.x' }));
    expect(await Promise.all(waiting)).toEqual(Array(10).fill('first.token.x'));
    expect(await refreshAccess(BASE, 'device_1')).toBe(NEW_TOKEN); // a later expiry: a later refresh
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['a 401', () => Promise.resolve(jsonResponse({ code: 'token_revoked' }, 401))],
    ['a 500', () => Promise.resolve(jsonResponse({}, 500))],
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['a 200 without the header', () => Promise.resolve(jsonResponse({}, 200))],
    ['a 200 with another scheme', () => Promise.resolve(jsonResponse({}, 200, { Authorization: 'Basic abc' }))],
  ])('answers null on %s, warns once, and refreshes no more until the backoff has passed', async (_, failure) => {
    fetchMock.mockImplementation(failure);
    const waiting = Array.from({ length: 3 }, () => refreshAccess(BASE, 'device_1'));
    expect(await Promise.all(waiting)).toEqual([null, null, null]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    clock.mockReturnValue(1000 + DEFAULTS.authRefreshBackoffMs - 1);
    expect(await refreshAccess(BASE, 'device_1')).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1); // within the backoff: no request at all
    clock.mockReturnValue(1000 + DEFAULTS.authRefreshBackoffMs);
    expect(await refreshAccess(BASE, 'device_1')).toBeNull(); // past it: tried again, failed again
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledTimes(1); // a dead session: one line, not one per backoff
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse({}, 200, { Authorization: `Bearer ${NEW_TOKEN}` })));
    clock.mockReturnValue(1000 + 2 * DEFAULTS.authRefreshBackoffMs);
    expect(await refreshAccess(BASE, 'device_1')).toBe(NEW_TOKEN); // the session came back
  });
});
