/// <reference types="node" />
// (node: the test reads the IAB samples from disk)
/**
 * Conformance over IAB Tech Lab's public VAST samples (tests/data/vast-samples/iab, VAST 1.0-4.2: in the repository,
 * with their LICENSE, so that a clone anywhere runs it). Every sample goes
 * through loadVastAds with its outside hosts remapped to the local files; the expected outcome of each comes from an
 * independent reading of the same XML below (the DOM, not vast-client): the media file the spec's rules choose,
 * the skip offset, the tracking URLs per event across the wrapper chain, or the error code.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadVastAds, type LoadedAd } from './vast';
import { AdError } from './rules';

const CORPUS = join(__dirname, '..', '..', 'tests', 'data', 'vast-samples', 'iab');
const BASE = 'https://samples.test/';
const PLAYABLE = new Set(['video/mp4', 'video/webm']); // Chromium's answer; no flash, no flv, no VPAID
// Chromium's canPlayType with codecs, as measured: '' for what it cannot parse or decode ("0", "H.264", "FLAC": the
// corpus's own attributes), 'probably' for the names it decodes. The player must still choose those samples' files.
const DECODES = /^(avc1\.[0-9A-Fa-f]{6}|mp4a\.40\.[0-9]+|flac|opus|vp8|vp09\..+)$/;
const chromiumCanPlay = (type: string, codec: string | null) =>
  PLAYABLE.has(type) && (codec === null || codec.split(', ').every((name) => DECODES.test(name)));
const EVENTS = ['start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete', 'pause', 'resume', 'mute',
  'unmute', 'skip'];

function samples(dir = CORPUS): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return samples(path);
    return name.endsWith('.xml') ? [relative(CORPUS, path)] : [];
  });
}
const ALL = samples().sort();

/** Where a URL of the corpus lives locally: ours, IAB's GitHub copy (by folder and name), else a unique file name. */
function localPath(url: string): string | null {
  const path = decodeURIComponent(new URL(url).pathname);
  if (url.startsWith(BASE)) return path.slice(1);
  const github = /\/VAST_Samples\/master\/(.+)$/.exec(path);
  if (github && ALL.includes(github[1])) return github[1];
  const name = path.split('/').pop() ?? '';
  const found = ALL.filter((sample) => sample.split('/').pop() === name);
  return found.length === 1 ? found[0] : null;
}

const fetched: string[] = [];
const localFetch = (async (input: RequestInfo | URL) => {
  const url = String(input);
  fetched.push(url);
  const path = localPath(url);
  if (path === null) return { ok: false, status: 404, text: async () => 'not here' } as Response;
  return { ok: true, status: 200, text: async () => readFileSync(join(CORPUS, path), 'utf8') } as Response;
}) as typeof fetch;

// ------------------------------------------------------------------------------------------- the oracle
type Expected =
  | { code: number; pinged: number }
  | { media: string; skip: null; tracking: Record<string, string[]> };

const parse = (path: string) => new DOMParser().parseFromString(readFileSync(join(CORPUS, path), 'utf8'), 'text/xml');
const kids = (element: Element | null | undefined, name: string) =>
  Array.from(element?.children ?? []).filter((child) => child.localName === name);
const text = (element: Element | null | undefined) => (element?.textContent ?? '').trim();
const deep = (element: Element | null | undefined, ...names: string[]): Element[] =>
  names.reduce<Element[]>((found, name) => found.flatMap((e) => kids(e, name)), element ? [element] : []);

function expected(path: string): Expected {
  const tracking: Record<string, string[]> = {};
  let errorUrls = 0;
  let current: string | null = path;
  for (let depth = 0; current !== null; depth += 1) {
    const root: Element = parse(current).documentElement;
    if (root.localName !== 'VAST') return { code: 102, pinged: errorUrls };
    const ads = kids(root, 'Ad');
    if (ads.length !== 1) {
      const adLevel = ads.flatMap((ad) => [...kids(ad, 'InLine'), ...kids(ad, 'Wrapper')]).flatMap((b) => kids(b, 'Error'));
      return { code: 901, pinged: errorUrls + kids(root, 'Error').length + adLevel.length };
    }
    const body = kids(ads[0], 'Wrapper')[0] ?? kids(ads[0], 'InLine')[0];
    errorUrls += kids(body, 'Error').length + kids(root, 'Error').length;
    const linears = deep(body, 'Creatives', 'Creative', 'Linear');
    for (const tag of deep(linears[0], 'TrackingEvents', 'Tracking')) {
      const event = tag.getAttribute('event') ?? '';
      if (EVENTS.includes(event)) (tracking[event] ??= []).push(text(tag));
    }
    if (body.localName === 'Wrapper') {
      current = localPath(text(kids(body, 'VASTAdTagURI')[0]));
      if (current === null) return { code: 900, pinged: errorUrls }; // the target answered 404: 'Failed load VAST'
      continue;
    }
    const files = linears.flatMap((linear) => deep(linear, 'MediaFiles', 'MediaFile'));
    // spec §5: a file counts with width, height, url and type, a VPAID one too (it counts, and cannot play: 403);
    // the corpus's codec attributes are none a browser can parse, so the type decides
    const usable = files.filter((file) => ['width', 'height', 'type'].every((a) => Number(file.getAttribute(a)) > 0
      || (a === 'type' && file.getAttribute(a))) && /^https?:\/\//.test(text(file)));
    if (usable.length === 0) return { code: 401, pinged: errorUrls };
    const chosen = usable.find((file) => PLAYABLE.has(file.getAttribute('type')!.trim())
      && !/vpaid/i.test(file.getAttribute('apiFramework') ?? ''));
    if (!chosen) return { code: 403, pinged: errorUrls };
    return { media: text(chosen), skip: null, tracking };
  }
  throw new Error('unreachable');
}

// ------------------------------------------------------------------------------------------- the tests
/** The sample's one ad, as spec §5 plays a VAST URL (no AD_PODS). */
async function load(path: string, pings: [string[], number][]): Promise<LoadedAd> {
  const [ad] = await loadVastAds(BASE + path.split('/').map(encodeURIComponent).join('/'), {
    timeoutMs: 5000,
    maxWrappers: 5,
    canPlay: chromiumCanPlay,
    fetcher: localFetch,
    ping: (urls, code) => pings.push([urls, code]),
  });
  return ad;
}

describe('IAB VAST samples', () => {
  it('are all here', () => {
    expect(ALL.length).toBeGreaterThanOrEqual(70);
  });

  it.each(ALL)('%s', async (path) => {
    const want = expected(path);
    const pings: [string[], number][] = [];
    let got: LoadedAd | AdError;
    try {
      got = await load(path, pings);
    } catch (error) {
      got = error as AdError;
    }
    if ('code' in want) {
      expect(got).toBeInstanceOf(AdError);
      expect((got as AdError).code).toBe(want.code);
      // the error went to the Error URLs of every document read in the chain, each with that code
      const pinged = pings.filter(([, code]) => code === want.code).flatMap(([urls]) => urls);
      expect(pinged.length).toBeGreaterThanOrEqual(want.pinged);
      expect(pings.every(([, code]) => code === want.code)).toBe(true);
      return;
    }
    expect(got).not.toBeInstanceOf(AdError);
    const ad = got as LoadedAd;
    expect(ad.mediaFile.fileURL?.trim()).toBe(want.media);
    expect(ad.linear.skipDelay ?? null).toBe(want.skip);
    for (const event of EVENTS) {
      const urls = (ad.linear.trackingEvents[event] ?? []).map((url) => url.trim()).sort();
      expect([event, urls]).toEqual([event, [...(want.tracking[event] ?? [])].sort()]);
    }
    expect(pings).toEqual([]);
  });
});
