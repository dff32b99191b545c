// Tracking pixels (spec §7): IAB macros filled in, then a fire-and-forget keepalive GET that never throws and never
// holds anything up. Only http(s) URLs are requested.
import { IAB_MACROS, pageMacros } from './macros';
import { isHttpUrl } from './rules';

export type Macros = Partial<Record<string, string | number | null | undefined>>;

/** VAST 4 time format for [ADPLAYHEAD] and [MEDIAPLAYHEAD]: HH:MM:SS.mmm. */
export function playhead(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '-1';
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** [CACHEBUSTING]: eight random digits (IAB). */
export function cacheBuster(random: () => number = Math.random): string {
  return String(Math.floor(random() * 1e8)).padStart(8, '0');
}

/**
 * Fills `[NAME]` (and the older `%%NAME%%`) macros. [ERRORCODE] becomes the given code, 900 when it is missing or
 * not three digits (spec §7); [CACHEBUSTING] and [TIMESTAMP] are made here; other values come from `macros`, are
 * percent-encoded as IAB asks; every other IAB macro gets the player's standing answer (ads/macros: -1 unknown, -2
 * not applicable), and a bracketed name outside IAB's list stays as it was.
 */
export function fillMacros(template: string, macros: Macros = {}, now: () => Date = () => new Date()): string {
  const given = Object.fromEntries(Object.entries(macros).filter(([, value]) => value !== undefined && value !== null));
  const values: Macros = {
    ...IAB_MACROS,
    ...pageMacros(),
    CACHEBUSTING: cacheBuster(),
    TIMESTAMP: now().toISOString(),
    ...given,
  };
  const code = String(macros.ERRORCODE ?? '');
  values.ERRORCODE = /^\d{3}$/.test(code) ? code : '900';
  return template.replace(/\[([A-Z_]+)\]|%%([A-Z_]+)%%/g, (whole, a: string | undefined, b: string | undefined) => {
    const name = (a ?? b)!;
    const value = Object.prototype.hasOwnProperty.call(values, name) ? values[name] : undefined;
    return value === undefined || value === null ? whole : encodeURIComponent(String(value));
  });
}

/** One GET that outlives the page if it must (keepalive), sends no cookies and whose failure nobody hears about. */
export function ping(url: string, fetcher: typeof fetch = (...args) => fetch(...args)): void {
  if (!isHttpUrl(url)) return;
  try {
    void fetcher(url.trim(), { method: 'GET', keepalive: true, mode: 'no-cors', credentials: 'omit', cache: 'no-store' })
      .catch(() => undefined);
  } catch {
    // a fetch that throws synchronously (a bad URL, a blocked scheme) is as silent as one that fails
  }
}

/** Fills and pings every template once (the same URL listed twice in a document is requested once). */
export function pingAll(templates: readonly string[], macros: Macros = {}, fetcher?: typeof fetch): string[] {
  const sent = [...new Set(templates.filter((t) => typeof t === 'string' && t.trim() !== ''))].map((t) =>
    fillMacros(t.trim(), macros),
  );
  for (const url of sent) ping(url, fetcher);
  return sent;
}

/**
 * An ad's Error URLs with its code and [ADPLAYHEAD]: where the ad had got to, 00:00:00.000 for one that failed before
 * it played (a document, a wrapper chain, a media file choice).
 */
export function pingError(templates: readonly string[], code: number, adTime = 0, macros: Macros = {},
  fetcher?: typeof fetch): string[] {
  return pingAll(templates, { ...macros, ERRORCODE: code, ADPLAYHEAD: playhead(adTime) }, fetcher);
}
