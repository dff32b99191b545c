// The master JSON (spec §3): the sources of one episode (one per voice author) and its subtitles.
import { ErrorCode, playerError } from '../core/errors';

export interface MasterSource {
  label: string;
  link: string;
  isDefault: boolean;
}

export interface MasterSubtitle {
  label: string;
  language: string;
  src: string;
}

export interface Master {
  sources: MasterSource[];
  subtitles: MasterSubtitle[];
}

const HTTP = /^https?:\/\//i;

/** Relative links are prefixed with the origin of the master file's address unless they start with http. */
export function resolveLink(link: string, masterUrl: string): string {
  if (HTTP.test(link)) return link;
  const origin = new URL(masterUrl).origin;
  return origin + (link.startsWith('/') ? link : `/${link}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a master JSON document, keeping only well-formed entries, with every link made absolute. */
export function parseMaster(json: unknown, masterUrl: string): Master {
  const doc = isRecord(json) ? json : {};
  const sources = (Array.isArray(doc.sources) ? doc.sources : [])
    .filter(isRecord)
    .filter((s) => typeof s.link === 'string' && s.link !== '')
    .map((s) => ({
      label: typeof s.label === 'string' ? s.label : '',
      link: resolveLink(s.link as string, masterUrl),
      isDefault: s.isDefault === true,
    }));
  const subtitles = (Array.isArray(doc.subtitles) ? doc.subtitles : [])
    .filter(isRecord)
    .filter((s) => typeof s.src === 'string' && s.src !== '')
    .map((s) => ({
      label: typeof s.label === 'string' ? s.label : '',
      language: typeof s.language === 'string' ? s.language : '',
      src: resolveLink(s.src as string, masterUrl),
    }));
  return { sources, subtitles };
}

export function defaultSource(master: Master): MasterSource | null {
  return master.sources.find((s) => s.isDefault) ?? master.sources[0] ?? null;
}

/** The episode's m3u8MasterFilePath as a master: read from the master JSON when it is one, else one plain source. */
export async function loadMaster(path: string, base: string, signal?: AbortSignal): Promise<Master> {
  const address = new URL(path, base).href;
  if (!address.includes('.json')) return { sources: [{ label: '', link: address, isDefault: true }], subtitles: [] };
  let json: unknown;
  try {
    // Credentials 'same-origin' (no cookies cross-origin) so the page's <link rel=preload crossorigin> is reused.
    const response = await fetch(address, { signal, credentials: 'same-origin' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    json = await response.json();
  } catch (error) {
    if (signal?.aborted) throw error;
    throw playerError('network', ErrorCode.MASTER_LOAD_FAILED, `master JSON: ${String(error)}`, { address });
  }
  const master = parseMaster(json, address);
  if (!defaultSource(master)) throw playerError('content', ErrorCode.NO_SOURCE, 'master JSON has no source', { address });
  return master;
}
