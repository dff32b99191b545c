// Calls to the catalogue API (spec §7). Every request carries X-Session-Context, the device identity the service issued
// (api/fingerprint): on a first visit the first call waits for it; without one (the service could not be asked) the
// call is not made, and progress stays in this browser's storage. A signed-in viewer's calls also carry the access
// token (spec §4) as a bearer header, never the cookies: no cookie-authenticated writes, so no CSRF header here.
// Failures are logged and never reach playback; a 503 (the service's database away a moment) is sent again.
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

/** Spec §4: a fresh access token for a signed-in viewer whose token expired (or, ``refused``, that the service refused),
 * or null. */
async function refreshed(base: string, session: string, refused = false): Promise<string | null> {
  try {
    refresher ??= import('./refresh');
    const { refreshAccess } = await refresher;
    // another call's refresh may have ended meanwhile
    return (refused ? null : accessToken()) ?? (await refreshAccess(base, session));
  } catch (error) {
    refresher = null; // the chunk failed to load: the next call tries again
    console.warn('player: the token refresh failed to load', error);
    return null;
  }
}

export function createApiClient(baseUrl: string, device: FingerprintSource = pageFingerprint()): ApiClient {
  const base = baseUrl.replace(/\/$/, '');
  const latest = new Map<string, number>(); // per address, the newest call's number: an older one is not retried
  let calls = 0;
  return {
    async send(method, path, body) {
      // Known: sent in this task (a save on pagehide must not wait a turn); a first visit's first call waits.
      const session = device.issued() ?? (await device.identity(baseUrl));
      if (!session) return false; // logged where the identity was asked for
      const call = ++calls;
      latest.set(path, call);
      const headers: Record<string, string> = { 'X-Session-Context': session };
      // A valid token goes at once; a signed-in viewer's expired one is refreshed first (spec §4). Without a token the
      // server files the call under the device (app/http/viewer.py), which joins the account at the next sign-in. A
      // token the server refuses (401: revoked, or expired by its clock) is never taken for the device there: the
      // token is refreshed and the call sent again, with the new token or, the refresh failing, without (spec §4).
      const token = accessToken() ?? (readCookie(REFRESH_CSRF_COOKIE) ? await refreshed(base, session) : null);
      if (token) headers.Authorization = `Bearer ${token}`;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const init = () => ({
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        keepalive: true, // a save on pagehide still arrives
        credentials: 'omit' as const,
      });
      try {
        let response = await fetch(base + path, init());
        if (response.status === 401 && token) {
          const again = await refreshed(base, session, true);
          if (again) headers.Authorization = `Bearer ${again}`;
          else delete headers.Authorization;
          response = await fetch(base + path, init());
        }
        for (let retry = 1; response.status === 503 && retry <= DEFAULTS.apiRetries; retry++) {
          await new Promise((resolve) => setTimeout(resolve, retryDelayMs(response)));
          if (latest.get(path) !== call) return false; // a newer call to this address went out: it is the one
          response = await fetch(base + path, init());
        }
        if (!response.ok) console.warn(`player: ${method} ${path} answered ${response.status}`);
        return response.ok;
      } catch (error) {
        console.warn(`player: ${method} ${path} failed`, error);
        return false;
      }
    },
  };
}

/** How long a 503 asks to wait: its Retry-After in seconds, else DEFAULTS.apiRetryMs; at most apiRetryMaxMs. */
function retryDelayMs(response: Response): number {
  const seconds = Number(response.headers.get('Retry-After'));
  const asked = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULTS.apiRetryMs;
  return Math.min(asked, DEFAULTS.apiRetryMaxMs);
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
