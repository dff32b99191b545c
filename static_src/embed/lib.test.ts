import { makeEpisode } from '../test/fixtures';
import { createPlayer, fitIframe, playerAddress } from './lib';

const PLAYER = 'https://player.example';
const PUBLISHER = 'https://publisher.example';

type MessageListener = (event: MessageEvent) => void;

/** The publisher's window: jsdom's document, the publisher's origin, message listeners we can drive. */
function publisherWindow() {
  const listeners = new Set<MessageListener>();
  const win = {
    document,
    location: { origin: PUBLISHER, href: `${PUBLISHER}/films/1` },
    addEventListener: (type: string, listener: MessageListener) => type === 'message' && listeners.add(listener),
    removeEventListener: (_type: string, listener: MessageListener) => listeners.delete(listener),
  };
  return { win: win as unknown as Window, listeners };
}

function embed(options: Partial<Parameters<typeof createPlayer>[1]> = {}, prepare?: (page: Window) => void) {
  document.body.innerHTML = '<div id="slot"></div>';
  const { win, listeners } = publisherWindow();
  prepare?.(win);
  const player = createPlayer('#slot', { movieId: 2, playerUrl: `${PLAYER}/`, ...options }, win);
  const frameWindow = player.iframe.contentWindow as Window;
  const posted = jest.spyOn(frameWindow, 'postMessage').mockImplementation(() => undefined);
  /** A message as the browser dispatches it: from the player's frame at the player's origin unless told. */
  const receive = (data: unknown, { source = frameWindow as unknown, origin = PLAYER } = {}) =>
    [...listeners].forEach((listener) => listener({ data, source, origin } as MessageEvent));
  const ready = () => receive({ source: 'player', type: 'ready', payload: null });
  return { player, posted, receive, ready, listeners, win };
}

describe('playerAddress', () => {
  it('maps the options to the player parameters and ends with the embedding origin', () => {
    const url = playerAddress(`${PLAYER}/`, {
      movieId: 2, episodeId: 5, season: 1, episode: 2, t: 30, episodeTime: 12, autoPlay: true, enabledShare: false,
      disableCheckingAvailable: true, userId: 'u 1', voiceAuthor: 'Студия', langOrder: ['en', 'ru'],
      params: { country: 'de' },
    }, PUBLISHER);
    expect(url.origin).toBe(PLAYER);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      movie_id: '2', episode_id: '5', season: '1', episode: '2', t: '30', episode_time: '12', auto_play: '1',
      disable_checking_available: '1', user_id: 'u 1', voice_author: 'Студия', lang_order: 'en,ru', country: 'de',
      origin: PUBLISHER,
    });
  });

  it("passes on an embed address the publisher's server signed", () => {
    const url = playerAddress(`${PLAYER}/`, { movieId: 5, embedExpires: 1767225600, embedSignature: 'Zf-vB_sb' },
      PUBLISHER);
    expect(url.searchParams.get('embed_exp')).toBe('1767225600');
    expect(url.searchParams.get('embed_sig')).toBe('Zf-vB_sb');
  });

  it("passes the page's address without its fragment, and none that is too long", () => {
    const page = `${PUBLISHER}/serials/harbour/watch/season-1/episode-2?ref=abc`;
    expect(playerAddress(`${PLAYER}/`, { movieId: 2 }, PUBLISHER, `${page}#comments`).searchParams.get('page_url'))
      .toBe(page);
    const long = `${PUBLISHER}/?q=${'a'.repeat(2100)}`;
    expect(playerAddress(`${PLAYER}/`, { movieId: 2 }, PUBLISHER, long).searchParams.has('page_url')).toBe(false);
    const forged = playerAddress(`${PLAYER}/`, { movieId: 2, params: { page_url: 'https://evil.example/' } }, PUBLISHER);
    expect(forged.searchParams.has('page_url')).toBe(false); // only lib.js says it, from the page's own location
  });

  it('lets no extra parameter replace the embedding origin', () => {
    const url = playerAddress(`${PLAYER}/`, { movieId: 1, params: { origin: 'https://evil.example' } }, PUBLISHER);
    expect(url.searchParams.getAll('origin')).toEqual([PUBLISHER]);
  });
});

describe('fitIframe', () => {
  const sized = (height: number) => {
    const host = document.createElement('div');
    Object.defineProperty(host, 'clientHeight', { value: height });
    const iframe = document.createElement('iframe');
    fitIframe(iframe, host);
    return iframe.style;
  };

  it('fills a container that has a height', () => {
    const style = sized(360);
    expect([style.display, style.width, style.height, style.border]).toEqual(['block', '100%', '100%', '0px']);
    expect(style.getPropertyValue('aspect-ratio')).toBe('');
  });

  it('keeps 16:9 of the width in a container without a height', () => {
    const style = sized(0);
    expect([style.width, style.height]).toEqual(['100%', 'auto']);
    expect(style.getPropertyValue('aspect-ratio')).toBe('16 / 9');
  });
});

describe('createPlayer', () => {
  it('makes the iframe with the player page and the allow list', () => {
    const { player } = embed({ autoPlay: true });
    const { iframe } = player;
    expect(iframe.parentElement?.id).toBe('slot');
    expect(iframe.src).toBe(
      `${PLAYER}/?movie_id=2&auto_play=1&origin=${encodeURIComponent(PUBLISHER)}` +
        `&page_url=${encodeURIComponent(`${PUBLISHER}/films/1`)}`,
    );
    expect(iframe.getAttribute('allow')).toBe('autoplay; fullscreen; picture-in-picture; encrypted-media');
    expect(iframe.hasAttribute('allowfullscreen')).toBe(true);
    expect(iframe.title).toBe('Видеоплеер');
  });

  it('refuses a missing container, and a page address it cannot know', () => {
    document.body.innerHTML = '';
    expect(() => createPlayer('#nowhere', { movieId: 1, playerUrl: `${PLAYER}/` })).toThrow('no element #nowhere');
    expect(() => createPlayer(document.body, { movieId: 1 })).toThrow('pass playerUrl');
  });

  it('keeps commands until the player is ready, then posts them to the player origin only', () => {
    const { player, posted, ready } = embed();

    player.pause();
    player.seek(12.5);
    expect(posted).not.toHaveBeenCalled();

    ready();
    player.setEpisode(4);
    player.play();

    expect(posted.mock.calls).toEqual([
      [{ actionType: 'pause' }, PLAYER],
      [{ actionType: 'seek', time: 12.5 }, PLAYER],
      [{ actionType: 'setEpisode', episodeId: 4 }, PLAYER],
      [{ actionType: 'play' }, PLAYER],
    ]);
  });

  it('keeps only the last 20 commands sent before the player is ready', () => {
    const { player, posted, ready } = embed();
    for (let i = 0; i < 25; i += 1) player.seek(i);
    ready();
    expect(posted).toHaveBeenCalledTimes(20);
    expect(posted.mock.calls[0][0]).toEqual({ actionType: 'seek', time: 5 });
  });

  it("hands the player's events to their listeners, with their payloads; off removes one", () => {
    const { player, receive } = embed();
    const progress = jest.fn();
    const episodes = jest.fn();
    player.on('timeProgressChanged', progress);
    player.on('episodeChanged', episodes);
    const episode = makeEpisode({ id: 4 });

    receive({ source: 'player', type: 'timeProgressChanged', payload: { currentTime: 3, duration: 60 } });
    receive({ source: 'player', type: 'episodeChanged', payload: episode });
    player.off('timeProgressChanged', progress);
    receive({ source: 'player', type: 'timeProgressChanged', payload: { currentTime: 4, duration: 60 } });

    expect(progress.mock.calls).toEqual([[{ currentTime: 3, duration: 60 }]]);
    expect(episodes.mock.calls).toEqual([[episode]]);
  });

  it("relays analytics: the statistics event, and a call of the publisher page's own function", () => {
    const { player, receive, win } = embed();
    const calls: unknown[][] = [];
    const page = win as unknown as Record<string, unknown>;
    page.publisherStats = (...args: unknown[]) => calls.push(args);
    const heard = jest.fn();
    player.on('statistics', heard);
    const call = { event: 'pause', payload: { content_id: 2, time: 5 }, name: 'publisherStats' };
    receive({ source: 'player', type: 'statistics', payload: call });
    receive({ source: 'player', type: 'statistics', payload: { ...call, name: 'notDefinedHere' } }); // no function
    page.publisherStats = () => {
      throw new Error('the publisher broke it');
    };
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    receive({ source: 'player', type: 'statistics', payload: call }); // a throwing one stays on its side
    delete page.publisherStats;

    expect(calls).toEqual([['pause', { content_id: 2, time: 5 }]]);
    expect(heard).toHaveBeenCalledTimes(3);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it("relays the publisher's request headers for ad calls: first at ready, then on each change", () => {
    const { player, posted, ready } = embed({ requestHeaders: { 'X-Publisher': 'news', 'X-Token': 'a1' } });
    expect(new URL(player.iframe.src).searchParams.get('request_headers')).toBe('1'); // the player waits for them
    player.play();
    expect(posted).not.toHaveBeenCalled();
    ready();
    player.setRequestHeaders({ 'X-Token': 'b2' });
    expect(posted.mock.calls).toEqual([
      [{ actionType: 'setRequestHeaders', headers: { 'X-Publisher': 'news', 'X-Token': 'a1' } }, PLAYER],
      [{ actionType: 'play' }, PLAYER],
      [{ actionType: 'setRequestHeaders', headers: { 'X-Token': 'b2' } }, PLAYER],
    ]);
  });

  it("takes the page's window.playerRequestHeaders by default, and leaves out what fetch could not send", () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { player, posted, ready } = embed({}, (page) => {
      page.playerRequestHeaders = { 'X-Site': 'blog', 'Bad Header': 'x', 'X-Num': 5, 'X-Line': 'a\r\nSet-Cookie: 1' };
    });
    ready();
    expect(new URL(player.iframe.src).searchParams.get('request_headers')).toBe('1');
    expect(posted.mock.calls).toEqual([[{ actionType: 'setRequestHeaders', headers: { 'X-Site': 'blog' } }, PLAYER]]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Bad Header, X-Num, X-Line'));
    warn.mockRestore();
  });

  it('says nothing of headers to a player when the page has none', () => {
    const { player, posted, ready } = embed();
    ready();
    expect(new URL(player.iframe.src).searchParams.has('request_headers')).toBe(false);
    expect(posted).not.toHaveBeenCalled();
  });

  it('ignores messages from another frame, another origin, and malformed ones', () => {
    const { player, receive } = embed();
    const progress = jest.fn();
    player.on('timeProgressChanged', progress);
    const good = { source: 'player', type: 'timeProgressChanged', payload: { currentTime: 1, duration: 2 } };

    receive(good, { source: window });
    receive(good, { origin: PUBLISHER });
    for (const data of [
      null, 'timeProgressChanged', [good], { ...good, source: 'other' }, { ...good, type: 'constructor' },
      { ...good, type: '__proto__' }, { ...good, payload: null }, { ...good, payload: { currentTime: 'x', duration: 2 } },
      { ...good, payload: { currentTime: Number.NaN, duration: 2 } }, Object.create(good) as object,
    ]) {
      expect(() => receive(data)).not.toThrow();
    }

    expect(progress).not.toHaveBeenCalled();
  });

  it("keeps calling the other listeners when one throws", () => {
    const { player, receive } = embed();
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const after = jest.fn();
    player.on('ready', () => {
      throw new Error('publisher bug');
    });
    player.on('ready', after);

    receive({ source: 'player', type: 'ready', payload: null });

    expect(after).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  it('stretches the iframe over the page in pseudo fullscreen and restores it after', () => {
    const { player, receive } = embed();
    player.iframe.style.width = '640px';
    const fullscreen = jest.fn();
    player.on('enterFullScreen', fullscreen);

    receive({ source: 'player', type: 'enterFullScreen', payload: null });
    expect(player.iframe.style.position).toBe('fixed');
    expect(player.iframe.style.width).toBe('100vw');
    expect(fullscreen).toHaveBeenCalledWith(null);

    receive({ source: 'player', type: 'exitFullScreen', payload: null });
    expect(player.iframe.style.position).toBe('');
    expect(player.iframe.style.width).toBe('640px');
  });

  it('destroy removes the iframe and stops listening', () => {
    const { player, listeners } = embed();
    player.destroy();
    expect(document.querySelector('iframe')).toBeNull();
    expect(listeners.size).toBe(0);
  });
});
