// The device fingerprint (spec §3, §7, §9): the device_fp cookie (path /, 365 days) every API request sends as
// X-Session-Context. It is computed once from hardware, locale, screen and system signals, hashed (SHA-256 where
// crypto.subtle exists, a small non-crypto hash otherwise or when that takes longer than the 1000 ms timeout), and
// reused while the cookie lasts. Where cookies are blocked or throw it lives in memory for the page's lifetime.
// Nothing here runs before the first frame: the entry warms it in idle time, an earlier API call computes it then.
import { DEFAULTS } from '../core/defaults';
import { whenIdle } from '../core/timing';

export const FINGERPRINT_COOKIE = 'device_fp';
const TOKEN = /^[A-Za-z0-9_-]{8,128}$/; // the server's pattern (app/http/viewer.py): a cookie-safe token

/** What the API client and the ad requests need: the value known now, or the value once computed. */
export interface FingerprintSource {
  current(): string | null;
  get(): Promise<string>;
}

interface NavigatorExtras {
  deviceMemory?: number;
  userAgentData?: { platform?: string; mobile?: boolean };
}

/** The device_fp cookie when it holds a valid token; null when absent, malformed, or when cookies throw. */
export function readFingerprintCookie(doc: Document): string | null {
  try {
    for (const part of doc.cookie.split(';')) {
      const [name, value] = part.trim().split('=');
      if (name === FINGERPRINT_COOKIE && value && TOKEN.test(value)) return value;
    }
  } catch {
    // cookies blocked (a SecurityError in sandboxed or cookie-less frames): the value lives in memory
  }
  return null;
}

/**
 * The cookie as written. In a secure context (https, and http://localhost or 127.0.0.1, which Chromium treats as
 * secure) it is `SameSite=None; Secure; Partitioned` so that it works inside a publisher's cross-site frame (CHIPS:
 * kept per top-level site); a plain-http page would have that refused, so there it is an ordinary first-party cookie.
 */
export function fingerprintCookie(value: string, secureContext: boolean): string {
  const base = `${FINGERPRINT_COOKIE}=${value}; Path=/; Max-Age=${DEFAULTS.fingerprintCookieDays * 86_400}`;
  return secureContext ? `${base}; SameSite=None; Secure; Partitioned` : `${base}; SameSite=Lax`;
}

function read(get: () => unknown): string {
  try {
    const value = get();
    return value === undefined || value === null ? '' : String(value);
  } catch {
    return '';
  }
}

/**
 * Spec §3: hardware, locale, screen and system signals, each read defensively. Only stable ones: no user-agent
 * version (it changes every few weeks) and not the current time-zone offset (it changes with summer time); the screen
 * as its long and short sides, so that turning a phone does not change it.
 */
export function deviceSignals(win: Window): string {
  const nav = win.navigator as Navigator & NavigatorExtras;
  const screen = win.screen;
  return [
    read(() => nav.hardwareConcurrency),
    read(() => nav.deviceMemory),
    read(() => nav.maxTouchPoints),
    read(() => nav.platform),
    read(() => nav.userAgentData?.platform),
    read(() => nav.userAgentData?.mobile),
    read(() => nav.vendor),
    read(() => (nav.languages?.length ? nav.languages : [nav.language]).join(',')),
    // The zone as its winter and summer offsets: stable across summer time, and free, where the zone's name
    // (Intl.DateTimeFormat().resolvedOptions().timeZone) loads ICU's zone data first: a 30-60 ms task in Chromium.
    read(() => [0, 6].map((month) => new Date(2024, month, 1).getTimezoneOffset()).join('/')),
    read(() => `${Math.max(screen.width, screen.height)}x${Math.min(screen.width, screen.height)}`),
    read(() => screen.colorDepth),
    read(() => win.devicePixelRatio),
  ].join('|');
}

/** cyrb53 (a public-domain 53-bit string hash): not cryptographic, only where crypto.subtle is missing or slow. */
function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Two seeds, 106 bits, 22 characters of [0-9a-z]. */
export function quickHash(text: string): string {
  return [1, 2].map((seed) => cyrb53(text, seed).toString(36).padStart(11, '0')).join('');
}

/** SHA-256 as base64url without padding: 43 characters. */
export async function sha256Token(text: string, subtle: SubtleCrypto): Promise<string> {
  const digest = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(text)));
  const binary = Array.from(digest, (byte) => String.fromCharCode(byte)).join('');
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The fingerprint of these signals: SHA-256, or the quick hash when crypto.subtle is missing, fails or is late. */
export function hashSignals(signals: string, subtle: SubtleCrypto | undefined, timeoutMs: number): Promise<string> {
  if (!subtle) return Promise.resolve(quickHash(signals));
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(quickHash(signals)), timeoutMs);
    sha256Token(signals, subtle)
      .catch(() => quickHash(signals))
      .then((token) => {
        clearTimeout(timer);
        resolve(token);
      });
  });
}

/** One device's fingerprint: read from the cookie, else computed once and stored (in memory whatever happens). */
export class DeviceFingerprint implements FingerprintSource {
  private value: string | null = null;
  private cookieRead = false;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly win: Window = window,
    private readonly timeoutMs: number = DEFAULTS.fingerprintTimeoutMs,
  ) {}

  /** Known now, without waiting: memory, else the cookie (read once). */
  current(): string | null {
    if (this.value === null && !this.cookieRead) {
      this.cookieRead = true;
      this.value = readFingerprintCookie(this.win.document);
    }
    return this.value;
  }

  /** The value; on a first visit computed now (at most `timeoutMs`), then written to the cookie. Never rejects. */
  get(): Promise<string> {
    const known = this.current();
    if (known) return Promise.resolve(known);
    this.pending ??= hashSignals(deviceSignals(this.win), subtleOf(this.win), this.timeoutMs).then((value) => {
      this.value = value;
      this.store(value);
      return value;
    });
    return this.pending;
  }

  private store(value: string): void {
    try {
      this.win.document.cookie = fingerprintCookie(value, this.win.isSecureContext === true);
    } catch (error) {
      console.warn('player: cookies are blocked; the device fingerprint lives in memory for this page', error);
    }
  }
}

function subtleOf(win: Window): SubtleCrypto | undefined {
  try {
    return win.crypto?.subtle ?? undefined; // absent outside secure contexts
  } catch {
    return undefined;
  }
}

let shared: DeviceFingerprint | null = null;

/** The page's device fingerprint (one per page). */
export function pageFingerprint(): DeviceFingerprint {
  shared ??= new DeviceFingerprint();
  return shared;
}

/** After the first paint: computes the fingerprint in idle time, unless an API call asks for it sooner. */
export function prepareFingerprint(): void {
  whenIdle(() => void pageFingerprint().get());
}
