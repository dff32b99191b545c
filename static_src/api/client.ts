// Calls to the catalogue API (spec §7). Every request carries X-Session-Context, the device identity the service issued
// (api/fingerprint): on a first visit the first call waits for it; without one (the service could not be asked) the
// call is not made, and progress stays in this browser's storage. A signed-in viewer's calls also carry the access
// token (spec §4) as a bearer header, never the cookies: no cookie-authenticated writes, so no CSRF header here.
// Failures are logged and never reach playback.
import { DEFAULTS } from '../core/defaults';
import { ACCESS_COOKIE, REFRESH_CSRF_COOKIE, readCookie } from './cookies';
import { pageFingerprint, type FingerprintSource } from './fingerprint';

export interface ApiClient {
  send(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<boolean>;
}

const JWT = /^[\w-]+\.([\w-]+)\.[\w-]+$/;

/** The authToken cookie's access token while its exp is more than DEFAULTS.authRefreshSkewS away, else null. */
export function accessToken(nowMs: number = Date.now()): string | null {
  const token = readCookie(ACCESS_COOKIE);
  const payload = token ? JWT.exec(token)?.[1] : undefined;
  if (!payload) return null;
  try {
    const { exp } = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof exp === 'number' && exp - DEFAULTS.authRefreshSkewS > nowMs / 1000 ? token : null;
  } catch {
    return null; // not a JWT: as if signed out
  }
}

// The refresh (api/refresh) loads at the first expired token, during playback: the first progress save comes 10 s
// into the film. Kept once loaded, so that a later call (a save on pagehide) waits microtasks only, not a task.
let refresher: Promise<typeof import('./refresh')> | null = null;

/** Spec §4: a fresh access token for a signed-in viewer whose token expired, or null (the call goes without it). */
async function refreshed(base: string, session: string): Promise<string | null> {
  try {
    refresher ??= import('./refresh');
    const { refreshAccess } = await refresher;
    return accessToken() ?? (await refreshAccess(base, session)); // another call's refresh may have ended meanwhile
  } catch (error) {
    refresher = null; // the chunk failed to load: the next call tries again
    console.warn('player: the token refresh failed to load', error);
    return null;
  }
}

export function createApiClient(baseUrl: string, device: FingerprintSource = pageFingerprint()): ApiClient {
  const base = baseUrl.replace(/\/$/, '');
  return {
    async send(method, path, body) {
      // Known: sent in this task (a save on pagehide must not wait a turn); a first visit's first call waits.
      const session = device.issued() ?? (await device.identity(baseUrl));
      if (!session) return false; // logged where the identity was asked for
      const headers: Record<string, string> = { 'X-Session-Context': session };
      // A valid token goes at once; a signed-in viewer's expired one is refreshed first (spec §4). Without a token the
      // server files the call under the device (app/http/viewer.py).
      const token = accessToken() ?? (readCookie(REFRESH_CSRF_COOKIE) ? await refreshed(base, session) : null);
      if (token) headers.Authorization = `Bearer ${token}`;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      try {
        const response = await fetch(base + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          keepalive: true, // a save on pagehide still arrives
          credentials: 'omit',
        });
        if (!response.ok) console.warn(`player: ${method} ${path} answered ${response.status}`);
        return response.ok;
      } catch (error) {
        console.warn(`player: ${method} ${path} failed`, error);
        return false;
      }
    },
  };
}

/** The progress calls (spec §7 "Catalogue: history and progress"). */
export function progressApi(client: ApiClient, contentId: number) {
  const episodePath = (episodeId: number) => `/contents/${contentId}/episodes/${episodeId}`;
  return {
    time: (episodeId: number, seconds: number) =>
      client.send('POST', `${episodePath(episodeId)}/time-progress`, { time: Math.floor(seconds) }),
    completed: (episodeId: number) => client.send('POST', `${episodePath(episodeId)}/completed`),
  };
}
export type ProgressApi = ReturnType<typeof progressApi>;
