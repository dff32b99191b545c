import { webcrypto } from 'node:crypto';
import { TextEncoder as NodeTextEncoder } from 'node:util';
import { DEFAULTS } from '../core/defaults';
import {
  DeviceFingerprint,
  deviceSignals,
  fingerprintCookie,
  hashSignals,
  quickHash,
  readFingerprintCookie,
  requestIdentity,
  sha256Token,
} from './fingerprint';
import { installFetch, jsonResponse } from '../test/fixtures';

const SERVER_FINGERPRINT = /^[A-Za-z0-9_-]{8,64}$/; // what app/http/viewer.py takes to issue an identity
const ISSUED = 'fromCookie_123.abcdefghijklmnopqrstuv.ABCDEFGHIJKLMNOPQRSTUV'; // an identity's shape
/** A service that issues `identity-{n}` identities for any fingerprint, recording what it was asked. */
function issuer() {
  const asked: string[] = [];
  const ask = jest.fn(async (_base: string, fingerprint: string) => {
    asked.push(fingerprint);
    return `${fingerprint}.device${String(asked.length).padStart(16, '0')}.${'S'.repeat(22)}`;
  });
  return { ask, asked };
}
const subtle = webcrypto.subtle as unknown as SubtleCrypto;
// jsdom has no TextEncoder; every browser the player targets has
globalThis.TextEncoder ??= NodeTextEncoder as unknown as typeof TextEncoder;

interface FakeOptions {
  cookie?: string;
  cookiesThrow?: boolean;
  secure?: boolean;
  subtle?: SubtleCrypto;
  screen?: { width: number; height: number };
}

/** A window with just what the fingerprint reads; `written` records every cookie assignment. */
function fakeWindow(options: FakeOptions = {}) {
  let jar = options.cookie ?? '';
  const written: string[] = [];
  const document = {
    get cookie(): string {
      if (options.cookiesThrow) throw new DOMException('cookies are disabled', 'SecurityError');
      return jar;
    },
    set cookie(value: string) {
      if (options.cookiesThrow) throw new DOMException('cookies are disabled', 'SecurityError');
      written.push(value);
      jar = value.split(';')[0];
    },
  };
  const win = {
    document,
    navigator: { hardwareConcurrency: 8, maxTouchPoints: 0, platform: 'Linux x86_64', vendor: 'Google Inc.',
      languages: ['ru-RU', 'en'], language: 'ru-RU' },
    screen: { colorDepth: 24, ...(options.screen ?? { width: 1920, height: 1080 }) },
    devicePixelRatio: 2,
    isSecureContext: options.secure ?? true,
    crypto: { subtle: options.subtle },
  };
  return { win: win as unknown as Window, written };
}

describe('the device_fp cookie', () => {
  it('is read when it holds an issued identity, and ignored otherwise (an older plain fingerprint too)', () => {
    expect(readFingerprintCookie(fakeWindow({ cookie: `a=1; device_fp=${ISSUED}; b=2` }).win.document)).toBe(ISSUED);
    expect(readFingerprintCookie(fakeWindow({ cookie: 'device_fp=abcDEF12_-' }).win.document)).toBeNull();
    expect(readFingerprintCookie(fakeWindow({ cookie: 'device_fp=a.b.c' }).win.document)).toBeNull();
    expect(readFingerprintCookie(fakeWindow({ cookie: 'device_fp=short' }).win.document)).toBeNull();
    expect(readFingerprintCookie(fakeWindow({ cookie: 'device_fp=bad%20value!' }).win.document)).toBeNull();
    expect(readFingerprintCookie(fakeWindow({ cookie: 'other_device_fp=abcdefgh12' }).win.document)).toBeNull();
    expect(readFingerprintCookie(fakeWindow({ cookiesThrow: true }).win.document)).toBeNull();
  });

  it('is written for the whole site for 365 days, cross-site capable in a secure context', () => {
    const secure = fingerprintCookie('abcdefgh12', true).split('; ');
    expect(secure).toEqual(['device_fp=abcdefgh12', 'Path=/', `Max-Age=${365 * 24 * 3600}`, 'SameSite=None', 'Secure',
      'Partitioned']);
    expect(DEFAULTS.fingerprintCookieDays).toBe(365);
    // plain http (not localhost) refuses Secure cookies: an ordinary first-party cookie there
    const plain = fingerprintCookie('abcdefgh12', false).split('; ');
    expect(plain).toEqual(['device_fp=abcdefgh12', 'Path=/', `Max-Age=${365 * 24 * 3600}`, 'SameSite=Lax']);
  });
});

describe('signals and hashes', () => {
  it('reads hardware, locale, screen and system signals, the screen the same way round whatever its orientation', () => {
    const landscape = deviceSignals(fakeWindow().win);
    expect(landscape).toContain('8');
    expect(landscape).toContain('ru-RU,en');
    expect(landscape).toContain('1920x1080');
    expect(landscape).toContain('Linux x86_64');
    expect(deviceSignals(fakeWindow({ screen: { width: 1080, height: 1920 } }).win)).toBe(landscape);
    expect(deviceSignals(fakeWindow({ screen: { width: 1280, height: 720 } }).win)).not.toBe(landscape);
  });

  it('reads the time zone as its winter and summer offsets, never through Intl (a 30-60 ms first call)', () => {
    const intl = jest.spyOn(Intl, 'DateTimeFormat');
    const signals = deviceSignals(fakeWindow().win);
    expect(intl).not.toHaveBeenCalled();
    const offsets = [0, 6].map((month) => new Date(2024, month, 1).getTimezoneOffset()).join('/');
    expect(signals.split('|')).toContain(offsets);
    intl.mockRestore();
  });

  it('survives a signal that throws', () => {
    const { win } = fakeWindow();
    Object.defineProperty(win.navigator, 'hardwareConcurrency', { get: () => { throw new Error('blocked'); } });
    expect(() => deviceSignals(win)).not.toThrow();
  });

  it('hashes with SHA-256 as base64url, or a quick hash, both in the server pattern', async () => {
    // SHA-256("abc") = ba7816bf 8f01cfea 414140de 5dae2223 b00361a3 96177a9c b410ff61 f20015ad
    expect(await sha256Token('abc', subtle)).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
    expect(quickHash('abc')).toMatch(SERVER_FINGERPRINT);
    expect(quickHash('abc')).toBe(quickHash('abc'));
    expect(quickHash('abc')).not.toBe(quickHash('abd'));
    expect(await hashSignals('abc', undefined, 1000)).toBe(quickHash('abc')); // no crypto.subtle (plain http)
    const failing = { digest: () => Promise.reject(new Error('no')) } as unknown as SubtleCrypto;
    expect(await hashSignals('abc', failing, 1000)).toBe(quickHash('abc'));
  });

  it('gives up on a SHA-256 that takes longer than the 1000 ms timeout', async () => {
    jest.useFakeTimers();
    try {
      const hanging = { digest: () => new Promise(() => undefined) } as unknown as SubtleCrypto;
      let token: string | null = null;
      void hashSignals('abc', hanging, DEFAULTS.fingerprintTimeoutMs).then((value) => (token = value));
      await jest.advanceTimersByTimeAsync(DEFAULTS.fingerprintTimeoutMs - 1);
      expect(token).toBeNull();
      await jest.advanceTimersByTimeAsync(1);
      expect(token).toBe(quickHash('abc'));
      expect(DEFAULTS.fingerprintTimeoutMs).toBe(1000); // spec §9
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('DeviceFingerprint', () => {
  it('reuses the identity in the cookie: nothing computed, asked or written', async () => {
    const digest = jest.fn();
    const { ask } = issuer();
    const { win, written } = fakeWindow({ cookie: `device_fp=${ISSUED}`, subtle: { digest } as never });
    const device = new DeviceFingerprint(win, DEFAULTS.fingerprintTimeoutMs, ask);
    expect(device.issued()).toBe(ISSUED);
    expect(device.current()).toBe(ISSUED);
    expect(await device.identity('https://api.test')).toBe(ISSUED);
    expect(digest).not.toHaveBeenCalled();
    expect(ask).not.toHaveBeenCalled();
    expect(written).toEqual([]);
  });

  it('on a first visit hashes once, asks the service once, and stores what it issued', async () => {
    const digest = jest.fn((algorithm: string, data: BufferSource) => subtle.digest(algorithm, data));
    const { ask, asked } = issuer();
    const { win, written } = fakeWindow({ subtle: { digest } as never });
    const device = new DeviceFingerprint(win, DEFAULTS.fingerprintTimeoutMs, ask);
    expect(device.current()).toBeNull();
    const [a, b] = await Promise.all([device.identity('https://api.test'), device.identity('https://api.test')]);
    const hash = await sha256Token(deviceSignals(win), subtle);
    expect(hash).toMatch(SERVER_FINGERPRINT);
    expect(asked).toEqual([hash]);
    expect(ask).toHaveBeenCalledWith('https://api.test', hash);
    expect(a).toBe(b);
    expect(a?.startsWith(`${hash}.`)).toBe(true);
    expect(digest).toHaveBeenCalledTimes(1);
    expect(written).toEqual([fingerprintCookie(a as string, true)]);
    expect(device.current()).toBe(a);
    expect(readFingerprintCookie(win.document)).toBe(a);
  });

  it('carries the fingerprint for ad requests until the identity is there, without asking for one', async () => {
    const { ask } = issuer();
    const device = new DeviceFingerprint(fakeWindow({ subtle }).win, DEFAULTS.fingerprintTimeoutMs, ask);
    const hash = await device.fingerprint();
    expect(device.current()).toBe(hash);
    expect(device.issued()).toBeNull();
    expect(ask).not.toHaveBeenCalled();
  });

  it('hashes identical devices alike, but each gets an identity of its own', async () => {
    const { ask } = issuer();
    const first = new DeviceFingerprint(fakeWindow({ subtle }).win, DEFAULTS.fingerprintTimeoutMs, ask);
    const second = new DeviceFingerprint(fakeWindow({ subtle }).win, DEFAULTS.fingerprintTimeoutMs, ask);
    expect(await first.fingerprint()).toBe(await second.fingerprint());
    expect(await first.identity('x')).not.toBe(await second.identity('x'));
    const other = fakeWindow({ subtle, screen: { width: 390, height: 844 } }).win;
    expect(await new DeviceFingerprint(other).fingerprint()).not.toBe(await first.fingerprint());
  });

  it('asks again on a later call when the service could not be asked', async () => {
    const ask = jest.fn().mockResolvedValueOnce(null).mockResolvedValueOnce(ISSUED);
    const device = new DeviceFingerprint(fakeWindow({ subtle }).win, DEFAULTS.fingerprintTimeoutMs, ask);
    expect(await device.identity('x')).toBeNull();
    expect(await device.identity('x')).toBe(ISSUED);
    expect(ask).toHaveBeenCalledTimes(2);
  });

  it('lives in memory when cookies throw, with one warning', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { win } = fakeWindow({ cookiesThrow: true, subtle });
    const device = new DeviceFingerprint(win, DEFAULTS.fingerprintTimeoutMs, issuer().ask);
    const value = await device.identity('x');
    expect(value).not.toBeNull();
    expect(device.current()).toBe(value);
    expect(await device.identity('x')).toBe(value);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('writes a plain first-party cookie on a page that is not a secure context', async () => {
    const { win, written } = fakeWindow({ secure: false });
    const value = await new DeviceFingerprint(win, DEFAULTS.fingerprintTimeoutMs, issuer().ask).identity('x');
    expect(value?.startsWith(`${quickHash(deviceSignals(win))}.`)).toBe(true);
    expect(written).toEqual([fingerprintCookie(value as string, false)]);
  });

  it('hashes within the timeout even when SHA-256 hangs', async () => {
    jest.useFakeTimers();
    try {
      const { win } = fakeWindow({ subtle: { digest: () => new Promise(() => undefined) } as never });
      let value: string | null = null;
      void new DeviceFingerprint(win, DEFAULTS.fingerprintTimeoutMs).fingerprint().then((v) => (value = v));
      await jest.advanceTimersByTimeAsync(DEFAULTS.fingerprintTimeoutMs);
      expect(value).toBe(quickHash(deviceSignals(win)));
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('requestIdentity', () => {
  let restore: () => void;
  let fetchMock: jest.Mock;
  let warn: jest.SpyInstance;
  beforeEach(() => {
    fetchMock = jest.fn();
    restore = installFetch(fetchMock);
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    restore();
    warn.mockRestore();
  });

  it('posts the fingerprint and takes an identity of the right shape, without cookies', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ sessionContext: ISSUED }, 201));
    expect(await requestIdentity('https://api.test/', 'fromCookie_123')).toBe(ISSUED);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('https://api.test/session-context');
    expect(init).toMatchObject({ method: 'POST', credentials: 'omit' });
    expect(JSON.parse(init.body)).toEqual({ fingerprint: 'fromCookie_123' });
  });

  it('answers null to a refusal, a failure or anything else, and says so', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: {} }, 429));
    fetchMock.mockRejectedValueOnce(new TypeError('offline'));
    fetchMock.mockResolvedValueOnce(jsonResponse({ sessionContext: 'chosen-by-me' }, 201));
    for (let n = 0; n < 3; n += 1) expect(await requestIdentity('https://api.test', 'fp_abcdefgh')).toBeNull();
    expect(warn).toHaveBeenCalledTimes(3);
  });
});
