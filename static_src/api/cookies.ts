// The cookies the player reads: the device identity (api/fingerprint) and the account's (spec §3, app/http/tokens.py).

export const ACCESS_COOKIE = 'authToken'; // the access JWT, readable by the player until its exp
export const REFRESH_CSRF_COOKIE = 'csrf_refresh_token'; // the refresh's double-submit value: its presence = signed in

/** A cookie's value; null when absent, or when cookies are blocked (a SecurityError in sandboxed frames). */
export function readCookie(name: string, doc: Document = document): string | null {
  try {
    for (const part of doc.cookie.split(';')) {
      const [key, value] = part.trim().split('=');
      if (key === name && value) return value;
    }
  } catch {
    // blocked: as if absent
  }
  return null;
}
