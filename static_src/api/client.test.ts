import { installFetch, jsonResponse } from '../test/fixtures';
import { createApiClient, progressApi } from './client';
import type { FingerprintSource } from './fingerprint';

function source(current: string | null, computed: Promise<string> = Promise.resolve('computed_fp')) {
  return { current: jest.fn(() => current), get: jest.fn(() => computed) } satisfies FingerprintSource;
}

describe('the API client', () => {
  let restore: () => void;
  let fetchMock: jest.Mock;
  beforeEach(() => {
    fetchMock = jest.fn(() => Promise.resolve(jsonResponse({})));
    restore = installFetch(fetchMock);
  });
  afterEach(() => restore());

  it('sends X-Session-Context with the known fingerprint, in the same task (a save on pagehide)', async () => {
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
    expect(device.get).not.toHaveBeenCalled();
  });

  it('on a first visit waits for the fingerprint, then sends it: no request goes without one', async () => {
    let resolve!: (value: string) => void;
    const device = source(null, new Promise<string>((r) => (resolve = r)));
    const sent = progressApi(createApiClient('https://api.test', device), 7).completed(3);
    await Promise.resolve();
    expect(fetchMock).not.toHaveBeenCalled();
    resolve('first_visit_fp');
    expect(await sent).toBe(true);
    expect(fetchMock.mock.calls[0][1].headers).toEqual({ 'X-Session-Context': 'first_visit_fp' });
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
