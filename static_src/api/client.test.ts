import { installFetch, jsonResponse } from '../test/fixtures';
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
