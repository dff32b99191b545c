// Seek thumbnails (issue 35): the storyboard the master JSON names (its optional "storyboard" key, a link relative to
// the master file) is a WebVTT map whose cues cover the film and whose text is `<sprite link>#xywh=x,y,w,h` (links
// relative to the .vtt): the format Video.js and JW Player thumbnails read. A lazy chunk of its own (it imports
// nothing): ui/SeekPreview loads it at the first hover or touch of the seek bar, never on the first frame's path; it
// fetches the master again then (the entry's master reader keeps only what playing needs) and the map, once each.

export interface StoryboardTile {
  start: number; // seconds
  end: number;
  url: string; // the sprite sheet, absolute
  x: number;
  y: number;
  w: number;
  h: number;
}

const TIMING = /^\s*((?:\d+:)?\d{1,2}:\d{2}(?:\.\d+)?)\s+-->\s+((?:\d+:)?\d{1,2}:\d{2}(?:\.\d+)?)/;
const XYWH = /#xywh=(\d+),(\d+),(\d+),(\d+)\s*$/;

/** A WebVTT timestamp ('01:02.500', '1:01:02.5') in seconds. */
export function vttSeconds(stamp: string): number {
  return stamp.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

/**
 * The tiles of a storyboard map, in time order: each cue whose text is a link with `#xywh=`, the link made absolute
 * against the map's own address. Anything else (NOTE blocks, cue settings, a cue without a fragment) is skipped.
 */
export function parseStoryboard(text: string, mapUrl: string): StoryboardTile[] {
  const tiles: StoryboardTile[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const timing = TIMING.exec(lines[index]);
    if (!timing) continue;
    const payload = (lines[index + 1] ?? '').trim();
    const area = XYWH.exec(payload);
    if (!area) continue;
    let url: string;
    try {
      url = new URL(payload.slice(0, area.index), mapUrl).href;
    } catch {
      continue;
    }
    const [x, y, w, h] = area.slice(1).map(Number);
    tiles.push({ start: vttSeconds(timing[1]), end: vttSeconds(timing[2]), url, x, y, w, h });
  }
  return tiles.sort((a, b) => a.start - b.start);
}

/** The tile shown at `time`: the last that starts at or before it (the first before the map's start, the last past
 * its end); null for an empty map. */
export function tileAt(tiles: readonly StoryboardTile[], time: number): StoryboardTile | null {
  if (tiles.length === 0) return null;
  let low = 0;
  let high = tiles.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (tiles[middle].start <= time) low = middle;
    else high = middle - 1;
  }
  return tiles[low];
}

/** The storyboard link of a master JSON document, absolute (null when it names none). */
export function storyboardLink(doc: unknown, masterUrl: string): string | null {
  const link = typeof doc === 'object' && doc !== null ? (doc as { storyboard?: unknown }).storyboard : null;
  if (typeof link !== 'string' || link === '') return null;
  try {
    return new URL(link, masterUrl).href;
  } catch {
    return null;
  }
}

async function fetched(address: string): Promise<Response> {
  const response = await fetch(address, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${address}`);
  return response;
}

/** The tile at a time of one episode's storyboard (null: none, or no storyboard). */
export type Storyboard = (time: number) => StoryboardTile | null;

const loaded = new Map<string, Promise<Storyboard>>();

/** The storyboard of the episode whose master JSON is at `masterUrl` (empty when it has none), fetched once. */
export function loadStoryboard(masterUrl: string): Promise<Storyboard> {
  if (!masterUrl.includes('.json')) return Promise.resolve(() => null); // a plain HLS playlist: no storyboard
  let found = loaded.get(masterUrl);
  if (!found) {
    found = (async () => {
      const address = new URL(masterUrl, document.baseURI).href;
      const map = storyboardLink(await (await fetched(address)).json(), address);
      const tiles = map ? parseStoryboard(await (await fetched(map)).text(), map) : [];
      return (time: number) => tileAt(tiles, time);
    })();
    found.catch((error: unknown) => {
      console.warn('player: no seek thumbnails', error);
      loaded.delete(masterUrl); // the next hover tries again
    });
    loaded.set(masterUrl, found);
  }
  return found;
}
