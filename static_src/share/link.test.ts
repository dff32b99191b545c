import { buildShareLink, SHARE_SERVICES, ShareLinkError, shareTargets, topPageUrl } from './link';

describe('buildShareLink', () => {
  const S2E3 = { season: 2, episode: 3 };

  it('appends season-{season}/episode-{episode} to the page path', () => {
    expect(buildShareLink('https://site.example/show', S2E3, null)).toBe(
      'https://site.example/show/season-2/episode-3',
    );
  });

  it('does not double the slash after a trailing slash', () => {
    const expected = 'https://site.example/show/season-2/episode-3';
    expect(buildShareLink('https://site.example/show/', S2E3, null)).toBe(expected);
    expect(buildShareLink('https://site.example/show//', S2E3, null)).toBe(expected);
  });

  it('appends to the root path with exactly one leading slash', () => {
    expect(buildShareLink('https://site.example', S2E3, null)).toBe('https://site.example/season-2/episode-3');
    expect(buildShareLink('https://site.example/', S2E3, null)).toBe('https://site.example/season-2/episode-3');
  });

  it('replaces the season and episode segments already in the path', () => {
    expect(buildShareLink('https://site.example/show/season-1/episode-9', S2E3, null)).toBe(
      'https://site.example/show/season-2/episode-3',
    );
    expect(buildShareLink('https://site.example/show/season-1/episode-9/', S2E3, null)).toBe(
      'https://site.example/show/season-2/episode-3',
    );
  });

  it('removes season and episode segments wherever they are, in any case', () => {
    expect(buildShareLink('https://site.example/Season-1/show/EPISODE-12/extra', S2E3, null)).toBe(
      'https://site.example/show/extra/season-2/episode-3',
    );
  });

  it('keeps segments that only look like season or episode segments', () => {
    const url = 'https://site.example/season-/episode-x/season-1a/my-season-1/episode/seasons-2';
    expect(buildShareLink(url, { season: 1, episode: 1 }, null)).toBe(
      'https://site.example/season-/episode-x/season-1a/my-season-1/episode/seasons-2/season-1/episode-1',
    );
  });

  it('keeps the cleaned path for a film (no position)', () => {
    expect(buildShareLink('https://site.example/film/season-1/episode-2', null, null)).toBe(
      'https://site.example/film',
    );
    expect(buildShareLink('https://site.example/film/', null, null)).toBe('https://site.example/film/');
    expect(buildShareLink('https://site.example/season-1', null, null)).toBe('https://site.example/');
  });

  it('keeps the query as written and in order', () => {
    expect(buildShareLink('https://site.example/show/?b=2&a=1&q=a%20b&flag', S2E3, null)).toBe(
      'https://site.example/show/season-2/episode-3?b=2&a=1&q=a%20b&flag',
    );
  });

  it('adds t with whole seconds, last, only when seconds are given', () => {
    expect(buildShareLink('https://site.example/show?x=1', S2E3, 125.9)).toBe(
      'https://site.example/show/season-2/episode-3?x=1&t=125',
    );
    expect(buildShareLink('https://site.example/show', S2E3, 0)).toBe(
      'https://site.example/show/season-2/episode-3?t=0',
    );
    expect(buildShareLink('https://site.example/show', S2E3, 0.99)).toBe(
      'https://site.example/show/season-2/episode-3?t=0',
    );
  });

  it('removes a t already in the page address, with or without new seconds', () => {
    expect(buildShareLink('https://site.example/show?t=50&x=1&t=7', S2E3, null)).toBe(
      'https://site.example/show/season-2/episode-3?x=1',
    );
    expect(buildShareLink('https://site.example/show?t=50&x=1', S2E3, 9)).toBe(
      'https://site.example/show/season-2/episode-3?x=1&t=9',
    );
    expect(buildShareLink('https://site.example/show?%74=50&t&x=1', null, null)).toBe('https://site.example/show?x=1');
  });

  it('keeps parameters whose name only starts with t', () => {
    expect(buildShareLink('https://site.example/show?tt=1&t1=2&time=3', null, 4)).toBe(
      'https://site.example/show?tt=1&t1=2&time=3&t=4',
    );
  });

  it.each([NaN, Infinity, -Infinity, -1])('adds no t for seconds %p', (seconds) => {
    expect(buildShareLink('https://site.example/show?t=5', S2E3, seconds)).toBe(
      'https://site.example/show/season-2/episode-3',
    );
  });

  it('drops the hash and any credentials, keeps the port', () => {
    expect(buildShareLink('http://user:pw@site.example:8080/show?a=1#comments', S2E3, null)).toBe(
      'http://site.example:8080/show/season-2/episode-3?a=1',
    );
  });

  it.each([
    '/show/season-1',
    'site.example/show',
    '',
    'ftp://site.example/show',
    'javascript:alert(1)',
    'https://',
    'about:blank',
  ])('throws ShareLinkError for %p', (pageUrl) => {
    expect(() => buildShareLink(pageUrl, S2E3, null)).toThrow(ShareLinkError);
  });

  it.each([
    { season: 1.5, episode: 1 },
    { season: 1, episode: -1 },
    { season: NaN, episode: 1 },
  ])('throws ShareLinkError for a position that is not an order: %p', (position) => {
    expect(() => buildShareLink('https://site.example/show', position, null)).toThrow(ShareLinkError);
  });

  it('ShareLinkError is an Error with its own name', () => {
    const error = new ShareLinkError('x');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ShareLinkError');
  });
});

describe('topPageUrl', () => {
  interface FakeWindow {
    location: { href: string };
    document: { referrer: string };
    self?: unknown;
    top?: unknown;
  }

  function fakeWindow(href: string, referrer = ''): FakeWindow {
    const win: FakeWindow = { location: { href }, document: { referrer } };
    win.self = win;
    return win;
  }

  function asWindow(win: FakeWindow): Window {
    return win as unknown as Window;
  }

  it('returns our own address when not framed', () => {
    const win = fakeWindow('https://site.example/show/season-1/episode-2?x=1', 'https://other.example/');
    win.top = win;
    expect(topPageUrl(asWindow(win))).toBe('https://site.example/show/season-1/episode-2?x=1');
  });

  it('returns null when not framed and our address is not http(s)', () => {
    const win = fakeWindow('about:blank');
    win.top = win;
    expect(topPageUrl(asWindow(win))).toBeNull();
  });

  it('returns the referrer when framed by a cross-origin page, never letting the SecurityError out', () => {
    const top = {
      get location(): never {
        throw new DOMException('Blocked a frame', 'SecurityError');
      },
    };
    const win = fakeWindow('https://player.example/embed?movie_id=1', 'https://site.example/show/season-1/episode-2');
    win.top = top;
    expect(topPageUrl(asWindow(win))).toBe('https://site.example/show/season-1/episode-2');
  });

  it('accepts a referrer that is only an origin (default referrer policy)', () => {
    const win = fakeWindow('https://player.example/embed', 'https://site.example/');
    win.top = {
      location: {
        get href(): never {
          throw new Error('cross-origin');
        },
      },
    };
    expect(topPageUrl(asWindow(win))).toBe('https://site.example/');
  });

  describe("with the embed's word for the page (page_url)", () => {
    const crossOrigin = (referrer: string, ancestorOrigins?: string[]) => {
      const win = fakeWindow('https://player.example/?movie_id=2', referrer);
      if (ancestorOrigins) (win.location as unknown as Record<string, unknown>).ancestorOrigins = ancestorOrigins;
      win.top = {
        get location(): never {
          throw new DOMException('Blocked', 'SecurityError');
        },
      };
      return asWindow(win);
    };
    const PAGE = 'https://site.example/serials/harbour/watch/season-1/episode-2?ref=abc';

    it('takes the whole address when its origin is the embedding page\'s (ancestor list, referrer, server)', () => {
      expect(topPageUrl(crossOrigin('', ['https://site.example']), { pageUrl: PAGE, serverOrigin: null })).toBe(PAGE);
      expect(topPageUrl(crossOrigin('https://site.example/'), { pageUrl: PAGE, serverOrigin: null })).toBe(PAGE);
      expect(topPageUrl(crossOrigin(''), { pageUrl: PAGE, serverOrigin: 'https://site.example' })).toBe(PAGE);
    });

    it('ignores an address on another site, or not http(s): the referrer decides', () => {
      const win = crossOrigin('https://site.example/', ['https://site.example']);
      expect(topPageUrl(win, { pageUrl: 'https://phish.example/site.example', serverOrigin: null })).toBe(
        'https://site.example/',
      );
      expect(topPageUrl(win, { pageUrl: 'javascript:alert(1)', serverOrigin: null })).toBe('https://site.example/');
      expect(topPageUrl(crossOrigin(''), { pageUrl: PAGE, serverOrigin: null })).toBeNull(); // no parent known
    });

    it('never outranks our own address or a readable top page', () => {
      const win = fakeWindow('https://site.example/own');
      win.top = win;
      expect(topPageUrl(asWindow(win), { pageUrl: 'https://site.example/other', serverOrigin: null })).toBe(
        'https://site.example/own',
      );
    });
  });

  it("prefers the top page's own address when it is readable (same origin)", () => {
    const win = fakeWindow('https://site.example/embed', 'https://site.example/referrer');
    win.top = { location: { href: 'https://site.example/show/season-3/episode-1' } };
    expect(topPageUrl(asWindow(win))).toBe('https://site.example/show/season-3/episode-1');
  });

  it.each(['', 'android-app://com.example/', 'about:srcdoc'])('is null when framed and the referrer is %p', (ref) => {
    const win = fakeWindow('https://player.example/embed', ref);
    win.top = {
      get location(): never {
        throw new DOMException('Blocked', 'SecurityError');
      },
    };
    expect(topPageUrl(asWindow(win))).toBeNull();
  });

  it('treats a window whose top cannot even be read as framed', () => {
    const win = fakeWindow('https://player.example/embed', 'https://site.example/page');
    Object.defineProperty(win, 'top', {
      get(): never {
        throw new Error('sandboxed');
      },
    });
    expect(topPageUrl(asWindow(win))).toBe('https://site.example/page');
  });

  it('works on the real jsdom window (not framed)', () => {
    expect(topPageUrl(window)).toBe(window.location.href);
  });
});

describe('shareTargets', () => {
  const URL_ = 'https://site.example/show/season-2/episode-3?a=1&t=60';
  const TITLE = 'Сериал & «Друзья» #1';

  it('lists the five services of spec §7, in order, with their names', () => {
    expect(shareTargets(URL_, TITLE).map(({ id, name }) => [id, name])).toEqual([
      ['telegram', 'Telegram'],
      ['whatsapp', 'WhatsApp'],
      ['facebook', 'Facebook'],
      ['x', 'X'],
      ['vk', 'VK'],
    ]);
    expect(SHARE_SERVICES.map((s) => s.id)).toEqual(['telegram', 'whatsapp', 'facebook', 'x', 'vk']);
  });

  it('builds each sharing address with every parameter encoded', () => {
    const u = encodeURIComponent(URL_);
    const t = encodeURIComponent(TITLE);
    expect(Object.fromEntries(shareTargets(URL_, TITLE).map((s) => [s.id, s.href]))).toEqual({
      telegram: `https://t.me/share/url?url=${u}&text=${t}`,
      whatsapp: `https://wa.me/?text=${encodeURIComponent(`${TITLE} ${URL_}`)}`,
      facebook: `https://www.facebook.com/sharer/sharer.php?u=${u}`,
      x: `https://x.com/intent/tweet?url=${u}&text=${t}`,
      vk: `https://vk.com/share.php?url=${u}&title=${t}`,
    });
  });

  it('round-trips the url and title through the query of each address', () => {
    const byId = Object.fromEntries(shareTargets(URL_, TITLE).map((s) => [s.id, new URL(s.href).searchParams]));
    expect(byId.telegram.get('url')).toBe(URL_);
    expect(byId.telegram.get('text')).toBe(TITLE);
    expect(byId.whatsapp.get('text')).toBe(`${TITLE} ${URL_}`);
    expect(byId.facebook.get('u')).toBe(URL_);
    expect(byId.x.get('url')).toBe(URL_);
    expect(byId.x.get('text')).toBe(TITLE);
    expect(byId.vk.get('url')).toBe(URL_);
    expect(byId.vk.get('title')).toBe(TITLE);
    for (const params of Object.values(byId)) expect([...params.keys()]).not.toContain('a'); // '&' never leaks
  });

  it('leaves out an empty or blank title', () => {
    const u = encodeURIComponent(URL_);
    for (const title of ['', '   ']) {
      expect(shareTargets(URL_, title).map((s) => s.href)).toEqual([
        `https://t.me/share/url?url=${u}`,
        `https://wa.me/?text=${u}`,
        `https://www.facebook.com/sharer/sharer.php?u=${u}`,
        `https://x.com/intent/tweet?url=${u}`,
        `https://vk.com/share.php?url=${u}`,
      ]);
    }
  });
});
