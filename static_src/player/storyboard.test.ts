import { installFetch, jsonResponse } from '../test/fixtures';
import { loadStoryboard, parseStoryboard, storyboardLink, tileAt, vttSeconds } from './storyboard';

const MAP_URL = 'https://player.example/media/s/sig/1/ru/2/titles/a/storyboard/map.vtt';

const MAP = `WEBVTT

NOTE every 2 s, 160x90 tiles, 5 a row

00:00.000 --> 00:02.000
sprite-0.jpg#xywh=0,0,160,90

00:02.000 --> 00:04.000
sprite-0.jpg#xywh=160,0,160,90

2
00:00:04.000 --> 00:00:06.000 align:start
sprite-0.jpg#xywh=320,0,160,90

00:06.000 --> 00:08.000
no fragment here.jpg

01:00:08.000 --> 01:00:10.500
/media/other/sprite-9.jpg#xywh=640,90,160,90
`;

describe('vttSeconds', () => {
  it('reads minutes and hours, with fractions', () => {
    expect(vttSeconds('00:02.500')).toBe(2.5);
    expect(vttSeconds('01:02:03.250')).toBe(3723.25);
    expect(vttSeconds('1:00:00.000')).toBe(3600);
  });
});

describe('parseStoryboard', () => {
  it('reads each cue with a #xywh fragment, its sprite made absolute against the map', () => {
    const tiles = parseStoryboard(MAP, MAP_URL);
    expect(tiles).toEqual([
      { start: 0, end: 2, url: 'https://player.example/media/s/sig/1/ru/2/titles/a/storyboard/sprite-0.jpg', x: 0, y: 0, w: 160, h: 90 },
      { start: 2, end: 4, url: 'https://player.example/media/s/sig/1/ru/2/titles/a/storyboard/sprite-0.jpg', x: 160, y: 0, w: 160, h: 90 },
      { start: 4, end: 6, url: 'https://player.example/media/s/sig/1/ru/2/titles/a/storyboard/sprite-0.jpg', x: 320, y: 0, w: 160, h: 90 },
      { start: 3608, end: 3610.5, url: 'https://player.example/media/other/sprite-9.jpg', x: 640, y: 90, w: 160, h: 90 },
    ]);
  });

  it('reads CRLF line ends, and nothing from a document that is not a map', () => {
    expect(parseStoryboard(MAP.replace(/\n/g, '\r\n'), MAP_URL)).toHaveLength(4);
    expect(parseStoryboard('WEBVTT\n\n00:00.000 --> 00:01.000\nJust a subtitle\n', MAP_URL)).toEqual([]);
    expect(parseStoryboard('', MAP_URL)).toEqual([]);
  });

  it('puts cues out of order back in time order', () => {
    const text = 'WEBVTT\n\n00:04.000 --> 00:06.000\ns.jpg#xywh=2,0,1,1\n\n00:00.000 --> 00:04.000\ns.jpg#xywh=1,0,1,1\n';
    expect(parseStoryboard(text, MAP_URL).map((tile) => tile.x)).toEqual([1, 2]);
  });
});

describe('tileAt', () => {
  const tiles = parseStoryboard(MAP, MAP_URL);

  it('finds the tile whose cue holds the time', () => {
    expect(tileAt(tiles, 0)?.x).toBe(0);
    expect(tileAt(tiles, 1.99)?.x).toBe(0);
    expect(tileAt(tiles, 2)?.x).toBe(160);
    expect(tileAt(tiles, 5.5)?.x).toBe(320);
    expect(tileAt(tiles, 3609)?.x).toBe(640);
  });

  it('keeps the last tile past the end and the first before the start; none for an empty map', () => {
    expect(tileAt(tiles, 99_999)?.x).toBe(640);
    expect(tileAt(tiles, -3)?.x).toBe(0);
    expect(tileAt([], 3)).toBeNull();
  });

  it('holds the tile before a gap in the map until the next cue starts', () => {
    expect(tileAt(tiles, 100)?.x).toBe(320);
  });
});

describe('storyboardLink', () => {
  const master = 'https://player.example/media/s/sig/1/ru/2/titles/a/master.json?mark=x';

  it("resolves the master's storyboard against the master file", () => {
    expect(storyboardLink({ storyboard: 'storyboard/map.vtt' }, master)).toBe(
      'https://player.example/media/s/sig/1/ru/2/titles/a/storyboard/map.vtt',
    );
    expect(storyboardLink({ storyboard: '/media/x/map.vtt' }, master)).toBe('https://player.example/media/x/map.vtt');
  });

  it('is null without one', () => {
    expect(storyboardLink({ sources: [] }, master)).toBeNull();
    expect(storyboardLink({ storyboard: 12 }, master)).toBeNull();
    expect(storyboardLink(null, master)).toBeNull();
  });
});

describe('loadStoryboard', () => {
  it('reads the master, then its map, once per master', async () => {
    const fetch = jest.fn((address: string) =>
      Promise.resolve(
        address.endsWith('.json')
          ? jsonResponse({ sources: [], storyboard: 'sb/map.vtt' })
          : ({ ok: true, status: 200, text: () => Promise.resolve(MAP) } as Response),
      ),
    );
    const restore = installFetch(fetch);
    try {
      const at = await loadStoryboard('/media/titles/b/master.json');
      expect(at(0)?.url).toBe('http://localhost/media/titles/b/sb/sprite-0.jpg');
      expect(at(2.5)?.x).toBe(160);
      await loadStoryboard('/media/titles/b/master.json');
      expect(fetch.mock.calls.map(([address]) => address)).toEqual([
        'http://localhost/media/titles/b/master.json',
        'http://localhost/media/titles/b/sb/map.vtt',
      ]);
    } finally {
      restore();
    }
  });

  it('gives no tile for a master without a storyboard or a plain playlist, and tries again after a failure', async () => {
    const fetch = jest.fn(() => Promise.resolve(jsonResponse({ sources: [] })));
    const restore = installFetch(fetch);
    try {
      expect((await loadStoryboard('/media/titles/c/master.json'))(3)).toBeNull();
      expect((await loadStoryboard('/media/titles/c/index.m3u8'))(3)).toBeNull();
      expect(fetch).toHaveBeenCalledTimes(1);
      fetch.mockImplementationOnce(() => Promise.resolve(jsonResponse({}, 503)));
      jest.spyOn(console, 'warn').mockImplementation(() => undefined);
      await expect(loadStoryboard('/media/titles/d/master.json')).rejects.toThrow('HTTP 503');
      expect((await loadStoryboard('/media/titles/d/master.json'))(3)).toBeNull();
    } finally {
      restore();
    }
  });
});
