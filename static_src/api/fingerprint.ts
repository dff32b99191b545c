// The device fingerprint (spec §3, §7, §9): the device_fp cookie (path /, 365 days) every API request sends as
// X-Session-Context. The fingerprint is computed once from hardware, locale, screen and system signals, hashed
// (SHA-256 where crypto.subtle exists, a small non-crypto hash otherwise or when that takes longer than the 1000 ms
// timeout). Identical phones hash alike, and anyone can compute a hash: so the cookie holds the identity the service
// issues for it (POST /session-context: `{fingerprint}.{random}.{signature}`, app/http/viewer.py), one per browser
// profile, which no one else can make up. It is reused while the cookie lasts; where cookies are blocked or throw it
// lives in memory for the page's lifetime. Nothing here runs before the first frame: the entry asks in idle time
// after it, an earlier API call sooner; the ad requests carry the hash until the identity is there.
import { DEFAULTS } from '../core/defaults';
import { whenIdle } from '../core/timing';
import { readCookie } from './cookies';

export const FINGERPRINT_COOKIE = 'device_fp';
const IDENTITY = /^[A-Za-z0-9_-]{8,64}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/; // the server's (app/http/viewer.py)

/** What the API client and the ad requests need. */
export interface FingerprintSource {
  /** What a request carries now: the issued identity, else the fingerprint once computed, else null. */
  current(): string | null;
  /** The issued identity known now (memory or the cookie), else null. */
  issued(): string | null;
  /** The fingerprint: computed once, within the timeout, on this device; never rejects. */
  fingerprint(): Promise<string>;
  /** The issued identity: known, else asked for once at `{base}/session-context`; null while that fails. */
  identity(base: string): Promise<string | null>;
}

interface NavigatorExtras {
  deviceMemory?: number;
  userAgentData?: { platform?: string; mobile?: boolean };
}

/** The device_fp cookie when it holds an issued identity; null when absent, malformed (an older plain fingerprint
 * included: it is replaced), or when cookies throw. */
export function readFingerprintCookie(doc: Document): string | null {
  const value = readCookie(FINGERPRINT_COOKIE, doc);
  return value && IDENTITY.test(value) ? value : null;
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

/** Asks the service for an identity for this fingerprint; null when it refuses, fails or answers something else. */
export async function requestIdentity(base: string, fingerprint: string): Promise<string | null> {
  try {
    const response = await fetch(`${base.replace(/\/$/, '')}/session-context`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ fingerprint }),
      credentials: 'omit',
    });
    const body: unknown = response.ok ? await response.json() : null;
    const value = (body as { sessionContext?: unknown } | null)?.sessionContext;
    if (typeof value === 'string' && IDENTITY.test(value)) return value;
    console.warn(`player: no device identity (${response.status}); progress stays on this device for now`);
  } catch (error) {
    console.warn('player: no device identity; progress stays on this device for now', error);
  }
  return null;
}

/** One device: its fingerprint computed once, its identity read from the cookie or asked for once and stored. */
export class DeviceFingerprint implements FingerprintSource {
  private identityValue: string | null = null;
  private hash: string | null = null;
  private cookieRead = false;
  private hashing: Promise<string> | null = null;
  private asking: Promise<string | null> | null = null;

  constructor(
    private readonly win: Window = window,
    private readonly timeoutMs: number = DEFAULTS.fingerprintTimeoutMs,
    private readonly ask: typeof requestIdentity = requestIdentity,
  ) {}

  issued(): string | null {
    if (this.identityValue === null && !this.cookieRead) {
      this.cookieRead = true;
      this.identityValue = readFingerprintCookie(this.win.document);
    }
    return this.identityValue;
  }

  current(): string | null {
    return this.issued() ?? this.hash;
  }

  fingerprint(): Promise<string> {
    this.hashing ??= hashSignals(deviceSignals(this.win), subtleOf(this.win), this.timeoutMs).then((value) => {
      this.hash = value;
      return value;
    });
    return this.hashing;
  }

  identity(base: string): Promise<string | null> {
    const known = this.issued();
    if (known) return Promise.resolve(known);
    this.asking ??= this.fingerprint()
      .then((fingerprint) => this.ask(base, fingerprint))
      .then((value) => {
        if (value) {
          this.identityValue = value;
          this.store(value);
        } else {
          this.asking = null; // the next call asks again
        }
        return value;
      });
    return this.asking;
  }

  private store(value: string): void {
    try {
      this.win.document.cookie = fingerprintCookie(value, this.win.isSecureContext === true);
    } catch (error) {
      console.warn('player: cookies are blocked; the device identity lives in memory for this page', error);
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

/** After the first frame: the identity asked for in idle time (`base`: the API's), unless an API call asks sooner. */
export function prepareFingerprint(base: string): void {
  whenIdle(() => void pageFingerprint().identity(base));
}
