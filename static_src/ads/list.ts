// The ad list (spec §3, §7): which VASTs a break plays. Part of the ad chunk (ads/boot re-exports what the entry calls
// to request the first pre-roll's list the moment that chunk is there); a film without ads never loads it.
import { pageFingerprint } from '../api/fingerprint';
import { AD_LIST_MISSING, type PlayerContext } from '../context';
import { cleanHeaders, parentRequestHeaders, type RelayedHeaders } from '../embed/requestHeaders';

export interface AdList {
  prerollList: string[];
  midrollList: string[];
}

export { AD_LIST_MISSING };

/**
 * Common headers (the session context) plus the window-level ones (spec §7): this window's playerRequestHeaders, and
 * over them those the embedding page relayed (embed/requestHeaders); only what fetch can send.
 */
export function adRequestHeaders(win: Window = window, relayed: RelayedHeaders = parentRequestHeaders):
Record<string, string> {
  const headers = { ...cleanHeaders(win.playerRequestHeaders).headers, ...relayed.get() };
  const session = pageFingerprint().current(); // the entry has it ready before the first ad request
  if (session) headers['X-Session-Context'] = session;
  return headers;
}

/**
 * The headers of one VAST request (spec §7's "same headers", narrowed): all of adRequestHeaders on this page's
 * origin and on the ad servers configured to take them (AD_HEADER_ORIGINS), none anywhere else. A custom header
 * makes a cross-origin fetch wait for a CORS preflight, and an ad server that does not allow it gets no request at
 * all; without them the request is a simple GET every ad server answers. Each document of a wrapper chain is judged
 * on its own, so the device's identity goes only where it was meant to.
 */
export function vastRequestHeaders(url: string, allowed: readonly string[], pageOrigin = window.location.origin,
  headers: () => Record<string, string> = () => adRequestHeaders()): Record<string, string> {
  let origin: string;
  try {
    origin = new URL(url, pageOrigin).origin;
  } catch {
    return {};
  }
  return origin === pageOrigin || allowed.includes(origin) ? headers() : {};
}

/** The ad list for this content: the configured URL with content_id added. */
export function adListFor(context: PlayerContext): string | null {
  const url = context.config.adListUrl;
  if (!url) return null;
  try {
    const absolute = new URL(url, document.baseURI);
    absolute.searchParams.set('content_id', String(context.content.id));
    return absolute.href;
  } catch {
    return null;
  }
}

/** The ad-list response, defensively: only items with an http(s) vastUrl (relative ones resolved against the list). */
export function parseAdList(body: unknown, listUrl: string): AdList {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const urls = (value: unknown) =>
    (Array.isArray(value) ? value : [])
      .map((item) => (typeof item === 'object' && item !== null ? (item as { vastUrl?: unknown }).vastUrl : null))
      .filter((url): url is string => typeof url === 'string' && url.trim() !== '')
      .map((url) => {
        try {
          const absolute = new URL(url.trim(), listUrl);
          return absolute.protocol === 'http:' || absolute.protocol === 'https:' ? absolute.href : '';
        } catch {
          return '';
        }
      })
      .filter(Boolean);
  return { prerollList: urls(record.prerollList), midrollList: urls(record.midrollList) };
}

/** How an ad request goes out (spec §7, §8): the common and window-level headers, the caller's abort, a timeout. */
export interface AdRequest {
  headers?: Record<string, string>;
  signal?: AbortSignal; // a new episode's break aborts its requests
  timeoutMs: number; // body included: a hung ad server holds the film back by this at most
  fetcher?: typeof fetch;
}

/**
 * One GET of the ad path, its body read by `read` under the same timeout, without cookies; rejects on the timeout,
 * on an abort, or at once when the signal has been aborted already (no 'abort' event comes then).
 */
export async function fetchWithin<T>(url: string, request: AdRequest, read: (response: Response) => Promise<T>): Promise<T> {
  const { signal } = request;
  if (signal?.aborted) throw signal.reason ?? new DOMException('aborted', 'AbortError'); // chrome87: no throwIfAborted
  const timed = new AbortController();
  const onAbort = () => timed.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => timed.abort(new DOMException('ad request timeout', 'TimeoutError')), request.timeoutMs);
  try {
    const response = await (request.fetcher ?? fetch)(url, {
      headers: request.headers,
      signal: timed.signal,
      credentials: 'omit',
    });
    return await read(response);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** GETs and parses the list; rejects on a missing URL, a bad status, a timeout or an abort. */
export async function fetchAdList(url: string | null, request: AdRequest): Promise<AdList> {
  if (!url) throw new Error(AD_LIST_MISSING);
  const absolute = new URL(url, document.baseURI).href;
  return fetchWithin(absolute, request, async (response) => {
    if (!response.ok) throw new Error(`ad list: HTTP ${response.status}`);
    return parseAdList(await response.json(), absolute);
  });
}
