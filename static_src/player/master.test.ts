import { ErrorCode } from '../core/errors';
import { brokenJsonResponse, installFetch, jsonResponse } from '../test/fixtures';
import { defaultSource, loadMaster, parseMaster, resolveLink, type Master } from './master';

const MASTER_URL = 'https://media.example/content/12/master.json';

describe('resolveLink', () => {
  it('keeps absolute http and https links as they are', () => {
    expect(resolveLink('https://cdn.example/hls/a.m3u8', MASTER_URL)).toBe('https://cdn.example/hls/a.m3u8');
    expect(resolveLink('http://cdn.example/hls/a.m3u8', MASTER_URL)).toBe('http://cdn.example/hls/a.m3u8');
    expect(resolveLink('HTTPS://CDN.example/a.m3u8', MASTER_URL)).toBe('HTTPS://CDN.example/a.m3u8');
  });

  it("prefixes an origin-relative link with the master file's origin", () => {
    expect(resolveLink('/hls/12/index.m3u8', MASTER_URL)).toBe('https://media.example/hls/12/index.m3u8');
  });

  it("prefixes a bare relative link with the master file's origin, not its directory", () => {
    expect(resolveLink('hls/12/index.m3u8', MASTER_URL)).toBe('https://media.example/hls/12/index.m3u8');
  });

  it('keeps the port of the origin', () => {
    expect(resolveLink('a.vtt', 'http://localhost:8080/media/master.json')).toBe('http://localhost:8080/a.vtt');
  });
});

describe('parseMaster', () => {
  it('reads sources and subtitles, resolving every link', () => {
    const master = parseMaster(
      {
        sources: [
          { label: 'Дубляж', link: '/hls/dub/index.m3u8', isDefault: true },
          { label: 'Оригинал', link: 'https://cdn.example/orig.m3u8', isDefault: false },
        ],
        subtitles: [{ label: 'Русские', language: 'ru', src: 'subs/ru.vtt' }],
      },
      MASTER_URL,
    );

    expect(master).toEqual({
      sources: [
        { label: 'Дубляж', link: 'https://media.example/hls/dub/index.m3u8', isDefault: true },
        { label: 'Оригинал', link: 'https://cdn.example/orig.m3u8', isDefault: false },
      ],
      subtitles: [{ label: 'Русские', language: 'ru', src: 'https://media.example/subs/ru.vtt' }],
    });
  });

  it('drops malformed entries and fills missing labels', () => {
    const master = parseMaster(
      {
        sources: [
          null,
          'https://cdn.example/a.m3u8',
          ['https://cdn.example/b.m3u8'],
          { label: 'no link' },
          { label: 'empty link', link: '' },
          { label: 'numeric link', link: 42 },
          { link: '/ok.m3u8', isDefault: 'true' },
        ],
        subtitles: [{ label: 'no src', language: 'en' }, 7, { src: '/s.vtt', label: 3 }],
      },
      MASTER_URL,
    );

    expect(master.sources).toEqual([{ label: '', link: 'https://media.example/ok.m3u8', isDefault: false }]);
    expect(master.subtitles).toEqual([{ label: '', language: '', src: 'https://media.example/s.vtt' }]);
  });

  it.each([null, undefined, 42, 'text', [], [{ link: '/a.m3u8' }]])('reads %p as an empty master', (doc) => {
    expect(parseMaster(doc, MASTER_URL)).toEqual({ sources: [], subtitles: [] });
  });

  it('treats non-array sources and subtitles as empty', () => {
    expect(parseMaster({ sources: { link: '/a.m3u8' }, subtitles: 'x' }, MASTER_URL)).toEqual({
      sources: [],
      subtitles: [],
    });
  });
});

describe('defaultSource', () => {
  const source = (label: string, isDefault = false) => ({ label, link: `https://cdn.example/${label}`, isDefault });

  it('prefers the source marked as default, wherever it is', () => {
    const master: Master = { sources: [source('a'), source('b', true), source('c')], subtitles: [] };
    expect(defaultSource(master)?.label).toBe('b');
  });

  it('falls back to the first source', () => {
    const master: Master = { sources: [source('a'), source('b')], subtitles: [] };
    expect(defaultSource(master)?.label).toBe('a');
  });

  it('returns null when there is no source', () => {
    expect(defaultSource({ sources: [], subtitles: [] })).toBeNull();
  });
});

describe('loadMaster', () => {
  const BASE = 'https://player.example/embed/12';
  const fetchMock = jest.fn();
  let restoreFetch: () => void;

  beforeEach(() => {
    restoreFetch = installFetch(fetchMock);
  });
  afterEach(() => restoreFetch());

  it('fetches a master JSON: its sources (the default one marked) and its subtitles, every link absolute', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse({
        sources: [
          { label: 'A', link: '/hls/a.m3u8' },
          { label: 'B', link: 'hls/b.m3u8', isDefault: true },
        ],
        subtitles: [{ label: 'RU', language: 'ru', src: '/subs/ru.vtt' }],
      }),
    );

    const master = await loadMaster('/media/12/master.json', BASE);

    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith(
      'https://player.example/media/12/master.json',
      expect.objectContaining({ credentials: 'same-origin' }),
    );
    expect(defaultSource(master)?.link).toBe('https://player.example/hls/b.m3u8');
    expect(master.subtitles).toEqual([{ label: 'RU', language: 'ru', src: 'https://player.example/subs/ru.vtt' }]);
  });

  it('resolves the links against the origin of a master on another host', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ sources: [{ link: '/hls/a.m3u8' }] }));

    const master = await loadMaster('https://media.example/deep/dir/master.json', BASE);

    expect(master.sources[0].link).toBe('https://media.example/hls/a.m3u8');
  });

  it('passes the abort signal to fetch', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ sources: [{ link: '/a.m3u8' }] }));
    const controller = new AbortController();

    await loadMaster('/m.json', BASE, controller.signal);

    expect(fetchMock.mock.calls[0][1]).toMatchObject({ signal: controller.signal });
  });

  it('takes a non-JSON path as the one source, without fetching', async () => {
    await expect(loadMaster('https://cdn.example/hls/index.m3u8', BASE)).resolves.toEqual({
      sources: [{ label: '', link: 'https://cdn.example/hls/index.m3u8', isDefault: true }],
      subtitles: [],
    });
    await expect(loadMaster('/hls/index.m3u8', BASE)).resolves.toEqual({
      sources: [{ label: '', link: 'https://player.example/hls/index.m3u8', isDefault: true }],
      subtitles: [],
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('rejects an HTTP error with MASTER_LOAD_FAILED and the absolute master address', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ sources: [{ link: '/a.m3u8' }] }, 404));

    await expect(loadMaster('/media/12/master.json', BASE)).rejects.toMatchObject({
      category: 'network',
      code: ErrorCode.MASTER_LOAD_FAILED,
      fatal: true,
      address: 'https://player.example/media/12/master.json',
      message: expect.stringContaining('404'),
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
  });

  it('rejects a body that is not JSON with MASTER_LOAD_FAILED', async () => {
    fetchMock.mockResolvedValue(brokenJsonResponse());

    await expect(loadMaster('/media/12/master.json', BASE)).rejects.toMatchObject({
      code: ErrorCode.MASTER_LOAD_FAILED,
      address: 'https://player.example/media/12/master.json',
    });
  });

  it('rejects a network failure with MASTER_LOAD_FAILED', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));

    await expect(loadMaster('/media/12/master.json', BASE)).rejects.toMatchObject({
      code: ErrorCode.MASTER_LOAD_FAILED,
      address: 'https://player.example/media/12/master.json',
    });
  });

  it('rethrows the abort itself, not a load error, when the signal was aborted', async () => {
    const controller = new AbortController();
    const abort = new DOMException('aborted', 'AbortError');
    fetchMock.mockImplementation(() => {
      controller.abort();
      return Promise.reject(abort);
    });

    await expect(loadMaster('/m.json', BASE, controller.signal)).rejects.toBe(abort);
  });

  it('rejects with NO_SOURCE when the master lists no usable source', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ sources: [{ label: 'broken' }], subtitles: [] }));

    await expect(loadMaster('/media/12/master.json', BASE)).rejects.toMatchObject({
      category: 'content',
      code: ErrorCode.NO_SOURCE,
      address: 'https://player.example/media/12/master.json',
    });
  });
});
