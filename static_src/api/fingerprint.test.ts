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
  sha256Token,
} from './fingerprint';

const SERVER_TOKEN = /^[A-Za-z0-9_-]{8,128}$/; // app/http/viewer.py's pattern
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
  it('is read when it holds a token the server accepts, and ignored otherwise', () => {
    expect(readFingerprintCookie(fakeWindow({ cookie: 'a=1; device_fp=abcDEF12_-; b=2' }).win.document))
      .toBe('abcDEF12_-');
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
    expect(quickHash('abc')).toMatch(SERVER_TOKEN);
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
  it('reuses the cookie when present: nothing computed, nothing written', async () => {
    const digest = jest.fn();
    const { win, written } = fakeWindow({ cookie: 'device_fp=fromCookie_123', subtle: { digest } as never });
    const device = new DeviceFingerprint(win);
    expect(device.current()).toBe('fromCookie_123');
    expect(await device.get()).toBe('fromCookie_123');
    expect(digest).not.toHaveBeenCalled();
    expect(written).toEqual([]);
  });

  it('computes once on a first visit and stores the cookie with its attributes', async () => {
    const digest = jest.fn((algorithm: string, data: BufferSource) => subtle.digest(algorithm, data));
    const { win, written } = fakeWindow({ subtle: { digest } as never });
    const device = new DeviceFingerprint(win);
    expect(device.current()).toBeNull();
    const [a, b] = await Promise.all([device.get(), device.get()]);
    expect(a).toBe(b);
    expect(a).toBe(await sha256Token(deviceSignals(win), subtle));
    expect(a).toMatch(SERVER_TOKEN);
    expect(digest).toHaveBeenCalledTimes(1);
    expect(written).toEqual([fingerprintCookie(a, true)]);
    expect(device.current()).toBe(a);
    expect(readFingerprintCookie(win.document)).toBe(a);
  });

  it('is the same on the next visit of the same device, and differs on another', async () => {
    const first = await new DeviceFingerprint(fakeWindow({ subtle }).win).get();
    expect(await new DeviceFingerprint(fakeWindow({ subtle }).win).get()).toBe(first);
    const other = fakeWindow({ subtle, screen: { width: 390, height: 844 } }).win;
    expect(await new DeviceFingerprint(other).get()).not.toBe(first);
  });

  it('lives in memory when cookies throw, with one warning', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { win } = fakeWindow({ cookiesThrow: true, subtle });
    const device = new DeviceFingerprint(win);
    const value = await device.get();
    expect(value).toMatch(SERVER_TOKEN);
    expect(device.current()).toBe(value);
    expect(await device.get()).toBe(value);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('writes a plain first-party cookie on a page that is not a secure context', async () => {
    const { win, written } = fakeWindow({ secure: false });
    const value = await new DeviceFingerprint(win).get();
    expect(value).toBe(quickHash(deviceSignals(win)));
    expect(written).toEqual([fingerprintCookie(value, false)]);
  });

  it('answers a first call within the timeout even when hashing hangs', async () => {
    jest.useFakeTimers();
    try {
      const { win } = fakeWindow({ subtle: { digest: () => new Promise(() => undefined) } as never });
      let value: string | null = null;
      void new DeviceFingerprint(win, DEFAULTS.fingerprintTimeoutMs).get().then((v) => (value = v));
      await jest.advanceTimersByTimeAsync(DEFAULTS.fingerprintTimeoutMs);
      expect(value).toBe(quickHash(deviceSignals(win)));
    } finally {
      jest.useRealTimers();
    }
  });
});
