// The request headers a publisher sets for ad calls (spec §7: "common headers plus window-level request headers").
// On the player's own window they are window.playerRequestHeaders; a publisher on another origin cannot set that, so
// /lib.js relays its page's (the `requestHeaders` option, or that page's window.playerRequestHeaders) in a
// setRequestHeaders command (embed/messages, embed/bridge), and marks the iframe's address with request_headers=1 so
// that the player waits for them before its first ad request, DEFAULTS.parentHeadersWaitMs at most.

declare global {
  interface Window {
    playerRequestHeaders?: unknown; // a page's extra headers for ad requests (spec §7): the player's, or /lib.js's host
  }
}

/** At most this many headers, each value this long: an ad request's headers, not a payload. */
export const MAX_HEADERS = 20;
export const MAX_HEADER_VALUE = 1024;
const NAME = /^[A-Za-z0-9-]{1,64}$/;
const VALUE = /^[\t\x20-\x7e]*$/; // fetch takes only byte strings; no line breaks, nothing a header cannot carry

export interface CleanHeaders {
  headers: Record<string, string>;
  dropped: string[]; // the names (or a description) of what was left out, for the publisher's console
}

/** The usable headers of a publisher's object: string values of token names, as fetch can send them. */
export function cleanHeaders(value: unknown): CleanHeaders {
  const headers: Record<string, string> = {};
  const dropped: string[] = [];
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { headers, dropped };
  for (const [name, header] of Object.entries(value as Record<string, unknown>)) {
    const valid = NAME.test(name) && typeof header === 'string' && header.length <= MAX_HEADER_VALUE
      && VALUE.test(header);
    if (valid && Object.keys(headers).length < MAX_HEADERS) headers[name] = header;
    else dropped.push(name.slice(0, 64));
  }
  return { headers, dropped };
}

/** The headers relayed by the embedding page, and the wait for them. */
export class RelayedHeaders {
  private headers: Record<string, string> = {};
  private arrived = false;
  private readonly waiters = new Set<() => void>();

  set(headers: Record<string, string>): void {
    this.headers = { ...headers };
    this.arrived = true;
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  get(): Record<string, string> {
    return { ...this.headers };
  }

  /** Resolves once the headers have come, at once when none are expected, or after `timeoutMs` (logged). */
  until(expected: boolean, timeoutMs: number): Promise<void> {
    if (!expected || this.arrived) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(() => {
        console.warn(`player: the embedding page's request headers did not come within ${timeoutMs} ms`);
        wake();
      }, timeoutMs);
      this.waiters.add(wake);
    });
  }
}

/** The page's one relay: the bridge fills it, the ad requests read it. */
export const parentRequestHeaders = new RelayedHeaders();
