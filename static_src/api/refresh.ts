// Spec §4 "Access token": an expired token is refreshed before the next catalogue call; a failed refresh is swallowed
// and the call goes ahead without it; refreshes run one at a time. A lazy chunk (api/client loads it at the first
// expired token), off the first frame's path.
//
// POST /authentication/refresh with the HttpOnly refreshToken cookie (credentials 'include') and its double-submit
// header (X-CSRF-TOKEN = the csrf_refresh_token cookie); the body's tokens are optional (app/schemas/accounts.py) and
// the player cannot read the refresh token, so it sends none. The new access token comes in the Authorization header
// (spec §7); the answer also rewrites the cookies, so later calls read it from authToken.
import { DEFAULTS } from '../core/defaults';
import { REFRESH_CSRF_COOKIE, readCookie } from './cookies';

let inFlight: Promise<string | null> | null = null; // the one refresh under way; every caller meanwhile waits on it
let failedAt = -Infinity; // performance.now() at the last failure; none again for DEFAULTS.authRefreshBackoffMs
let warned = false;

/** The new access token, or null when the refresh failed or failed less than the backoff ago. Never rejects. */
export function refreshAccess(base: string, session: string): Promise<string | null> {
  if (performance.now() - failedAt < DEFAULTS.authRefreshBackoffMs) return Promise.resolve(null);
  inFlight ??= request(base, session).then((token) => {
    inFlight = null;
    if (!token) failedAt = performance.now();
    return token;
  });
  return inFlight;
}

async function request(base: string, session: string): Promise<string | null> {
  try {
    const response = await fetch(`${base}/authentication/refresh`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-CSRF-TOKEN': readCookie(REFRESH_CSRF_COOKIE) ?? '',
        'X-Session-Context': session, // spec §7: every API request carries it
      },
      body: '{}',
      credentials: 'include',
    });
    // Cross-origin, the header is readable only if the API exposes it (Access-Control-Expose-Headers).
    const token = response.ok ? /^Bearer (\S+)$/.exec(response.headers.get('Authorization') ?? '')?.[1] : undefined;
    if (token) return token;
    warnOnce(`answered ${response.status}${response.ok ? ' without a token' : ''}`);
  } catch (error) {
    warnOnce('failed', error);
  }
  return null;
}

function warnOnce(what: string, error?: unknown): void {
  if (warned) return; // a dead session fails again after each backoff: one line is enough
  warned = true;
  console.warn(`player: the token refresh ${what}; calls go without the token`, error ?? '');
}
