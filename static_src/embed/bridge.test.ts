import { Emitter, type PlayerEvents } from '../core/events';
import { DEFAULTS } from '../core/defaults';
import { makeEpisode } from '../test/fixtures';
import { connectParent, parentOrigin, rateLimit, type BridgeTarget } from './bridge';
import { MESSAGE_SOURCE } from './messages';
import { parentRequestHeaders } from './requestHeaders';
import { adRequestHeaders } from '../ads/list';

const PUBLISHER = 'https://publisher.example';

type MessageListener = (event: MessageEvent) => void;

/** A plain-object window: framed (its parent is another object) unless `framed` is false. */
function fakeFrame({
  framed = true,
  ancestorOrigins,
  referrer = '',
}: { framed?: boolean; ancestorOrigins?: string[]; referrer?: string } = {}) {
  const postMessage = jest.fn();
  const parent = { postMessage };
  const listeners = new Set<MessageListener>();
  const win: Record<string, unknown> = {
    location: ancestorOrigins ? { ancestorOrigins } : {},
    document: { referrer },
    addEventListener: (type: string, listener: MessageListener) => type === 'message' && listeners.add(listener),
    removeEventListener: (_type: string, listener: MessageListener) => listeners.delete(listener),
  };
  win.parent = framed ? parent : win;
  /** A message event as the browser would dispatch it: from the parent at the publisher's origin unless told. */
  const receive = (data: unknown, { source = parent as unknown, origin = PUBLISHER } = {}) =>
    [...listeners].forEach((listener) => listener({ data, source, origin } as MessageEvent));
  return { win: win as unknown as Window, parent, postMessage, receive, listeners };
}

function fakeTarget() {
  return {
    events: new Emitter<PlayerEvents>(),
    start: jest.fn(() => Promise.resolve()),
    pause: jest.fn(),
    seek: jest.fn(),
    selectEpisode: jest.fn((_id: number, _play?: boolean) => Promise.resolve(true)),
  } satisfies BridgeTarget;
}

let now: jest.SpyInstance<number, []>;
beforeEach(() => {
  now = jest.spyOn(performance, 'now').mockReturnValue(50_000);
});
afterEach(() => now.mockRestore());

function connected(serverOrigin: string | null = PUBLISHER) {
  const frame = fakeFrame();
  const target = fakeTarget();
  const stop = connectParent(target, serverOrigin, frame.win);
  frame.postMessage.mockClear(); // the ready message
  return { ...frame, target, stop };
}

describe('parentOrigin', () => {
  it('is null when the player is not in a frame, whatever the server says', () => {
    expect(parentOrigin(PUBLISHER, fakeFrame({ framed: false, ancestorOrigins: [PUBLISHER] }).win)).toBeNull();
  });

  it("is the server's origin whenever there is one, even when the ancestor list says otherwise", () => {
    const { win } = fakeFrame({ ancestorOrigins: ['https://other.example'] });
    expect(parentOrigin(PUBLISHER, win)).toBe(PUBLISHER);
  });

  it("falls back to the browser's ancestor list only when the server has none", () => {
    expect(parentOrigin(null, fakeFrame({ ancestorOrigins: [PUBLISHER, 'https://top.example'] }).win)).toBe(PUBLISHER);
  });

  it("is null for a 'null' ancestor (a sandboxed parent), an empty list, or a browser without one", () => {
    expect(parentOrigin(null, fakeFrame({ ancestorOrigins: ['null'] }).win)).toBeNull();
    expect(parentOrigin(null, fakeFrame({ ancestorOrigins: [] }).win)).toBeNull();
    expect(parentOrigin(null, fakeFrame().win)).toBeNull();
  });

  it("takes the referrer's origin in a browser without an ancestor list (Firefox), http(s) only", () => {
    expect(parentOrigin(null, fakeFrame({ referrer: `${PUBLISHER}/films/1?x=1` }).win)).toBe(PUBLISHER);
    expect(parentOrigin(null, fakeFrame({ referrer: 'data:text/html,x' }).win)).toBeNull();
    expect(parentOrigin(null, fakeFrame({ referrer: 'not an address' }).win)).toBeNull();
    // the ancestor list, where there is one, outranks the referrer (a frame may have navigated itself since)
    const both = fakeFrame({ ancestorOrigins: ['https://top.example'], referrer: `${PUBLISHER}/page` });
    expect(parentOrigin(null, both.win)).toBe('https://top.example');
    expect(parentOrigin(null, fakeFrame({ ancestorOrigins: ['null'], referrer: `${PUBLISHER}/page` }).win)).toBeNull();
  });

  it("reads jsdom's real window, which is not framed, as null", () => {
    expect(parentOrigin(PUBLISHER)).toBeNull();
  });
});

describe('connectParent: outgoing', () => {
  it('says ready once connected, to the parent origin', () => {
    const frame = fakeFrame();
    connectParent(fakeTarget(), PUBLISHER, frame.win);
    expect(frame.postMessage.mock.calls).toEqual([[{ source: MESSAGE_SOURCE, type: 'ready', payload: null }, PUBLISHER]]);
  });

  it('posts episodeChanged with the episode and the fullscreen changes, each to the parent origin only', () => {
    const { target, postMessage } = connected();
    const episode = makeEpisode({ id: 7, title: 'Серия 7' });

    target.events.emit('episodeChanged', { episode });
    target.events.emit('enterFullScreen', {});
    target.events.emit('exitFullScreen', {});

    expect(postMessage.mock.calls).toEqual([
      [{ source: 'player', type: 'episodeChanged', payload: episode }, PUBLISHER],
      [{ source: 'player', type: 'enterFullScreen', payload: null }, PUBLISHER],
      [{ source: 'player', type: 'exitFullScreen', payload: null }, PUBLISHER],
    ]);
  });

  it('posts timeProgressChanged with its payload, at most once per 1000 ms', () => {
    const { target, postMessage } = connected();

    target.events.emit('timeProgressChanged', { currentTime: 1, duration: 100 });
    now.mockReturnValue(50_999);
    target.events.emit('timeProgressChanged', { currentTime: 1.99, duration: 100 });
    now.mockReturnValue(51_000);
    target.events.emit('timeProgressChanged', { currentTime: 2, duration: 100 });

    expect(postMessage.mock.calls).toEqual([
      [{ source: 'player', type: 'timeProgressChanged', payload: { currentTime: 1, duration: 100 } }, PUBLISHER],
      [{ source: 'player', type: 'timeProgressChanged', payload: { currentTime: 2, duration: 100 } }, PUBLISHER],
    ]);
  });

  it('posts each analytics call as statistics, to the parent origin only', () => {
    const { target, postMessage } = connected();
    const call = { event: 'play', payload: { content_id: 2 }, name: 'sendStatistics' };
    target.events.emit('statisticsSent', call);
    expect(postMessage.mock.calls).toEqual([[{ source: 'player', type: 'statistics', payload: call }, PUBLISHER]]);
  });

  it('does not forward the other player events', () => {
    const { target, postMessage } = connected();
    target.events.emit('phaseChanged', { phase: 'playing' });
    expect(postMessage).not.toHaveBeenCalled();
  });

  it('posts and listens to nothing without a parent origin', () => {
    const frame = fakeFrame({ ancestorOrigins: ['null'] });
    const target = fakeTarget();
    const stop = connectParent(target, null, frame.win);

    target.events.emit('episodeChanged', { episode: makeEpisode() });
    expect(frame.postMessage).not.toHaveBeenCalled();
    expect(frame.listeners.size).toBe(0);
    expect(() => stop()).not.toThrow();
  });

  it('survives a postMessage that throws (an origin the browser cannot parse)', () => {
    const { target, postMessage } = connected('not an origin');
    postMessage.mockImplementation(() => {
      throw new SyntaxError('Invalid target origin');
    });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(() => target.events.emit('enterFullScreen', {})).not.toThrow();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});

describe('connectParent: incoming', () => {
  it('turns each command into the controller intent', () => {
    const { target, receive } = connected();

    receive({ actionType: 'pause' });
    receive({ actionType: 'play' });
    receive({ actionType: 'seek', time: 42.5 });
    receive({ actionType: 'setEpisode', episodeId: 3 });

    expect(target.pause).toHaveBeenCalledTimes(1);
    expect(target.start).toHaveBeenCalledTimes(1);
    expect(target.seek).toHaveBeenCalledWith(42.5);
    expect(target.selectEpisode).toHaveBeenCalledWith(3, false); // plays only if playback had started
  });

  it("relays the parent's request headers to the ad requests, and only the parent's", () => {
    const { receive } = connected();
    receive({ actionType: 'setRequestHeaders', headers: { 'X-Token': 'evil' } }, { origin: 'https://evil.example' });
    expect(parentRequestHeaders.get()).toEqual({});
    receive({ actionType: 'setRequestHeaders', headers: { 'X-Token': 'a1' } });
    receive({ actionType: 'setRequestHeaders', headers: { 'X-Token': 'a2', 'Bad Name': 'x' } }); // refused whole
    expect(parentRequestHeaders.get()).toEqual({ 'X-Token': 'a1' });
    expect(adRequestHeaders({} as Window)).toEqual({ 'X-Token': 'a1' }); // no session context before one is known
  });

  it('hands play and pause to an ad on screen instead of the film', () => {
    const { target, receive } = connected();
    const requests: Array<boolean | 'toggle'> = [];
    target.events.on('playbackRequested', (request) => {
      requests.push(request.play);
      request.handled = true;
    });

    receive({ actionType: 'pause' });
    receive({ actionType: 'play' });

    expect(requests).toEqual([false, true]);
    expect(target.pause).not.toHaveBeenCalled();
    expect(target.start).not.toHaveBeenCalled();
  });

  it('ignores commands from another origin, a sibling frame or the player itself', () => {
    const { target, receive, win } = connected();

    receive({ actionType: 'pause' }, { origin: 'https://evil.example' });
    receive({ actionType: 'pause' }, { origin: 'null' });
    receive({ actionType: 'pause' }, { source: { postMessage: jest.fn() } }); // a sibling, even at the same origin
    receive({ actionType: 'pause' }, { source: win });
    receive({ actionType: 'pause' }, { source: null });

    expect(target.pause).not.toHaveBeenCalled();
  });

  it('ignores malformed messages without an exception', () => {
    const { target, receive } = connected();
    const inherited = Object.create({ actionType: 'pause' }) as object;
    const malformed: unknown[] = [
      'pause', '{"actionType":"pause"}', null, undefined, 0, true, [], [{ actionType: 'pause' }], inherited,
      { actionType: 'unknown' }, { actionType: '__proto__' }, { actionType: 'constructor' }, { actionType: 'toString' },
      { actionType: 'hasOwnProperty' }, { actionType: ['pause'] }, { action: 'pause' }, { actionType: 'PAUSE' },
      { actionType: 'seek' }, { actionType: 'seek', time: Number.NaN }, { actionType: 'seek', time: Infinity },
      { actionType: 'seek', time: -1 }, { actionType: 'seek', time: '10' }, { actionType: 'setEpisode' },
      { actionType: 'setEpisode', episodeId: '3' }, { actionType: 'setEpisode', episodeId: 1.5 },
      { actionType: 'setEpisode', episodeId: 0 }, { actionType: 'setEpisode', episodeId: 2 ** 60 },
      JSON.parse('{"__proto__": {"actionType": "pause"}}'),
    ];

    for (const data of malformed) expect(() => receive(data)).not.toThrow();

    expect(target.pause).not.toHaveBeenCalled();
    expect(target.start).not.toHaveBeenCalled();
    expect(target.seek).not.toHaveBeenCalled();
    expect(target.selectEpisode).not.toHaveBeenCalled();
  });

  it(`takes at most ${DEFAULTS.parentCommandsPerSecond} commands a second and drops a flood`, () => {
    const { target, receive } = connected();

    for (let i = 0; i < 10_000; i += 1) receive({ actionType: 'seek', time: i });
    expect(target.seek).toHaveBeenCalledTimes(DEFAULTS.parentCommandsPerSecond);
    expect(target.seek).toHaveBeenLastCalledWith(DEFAULTS.parentCommandsPerSecond - 1);

    now.mockReturnValue(51_000); // a second later the parent is heard again
    receive({ actionType: 'seek', time: 5 });
    expect(target.seek).toHaveBeenLastCalledWith(5);
  });

  it('logs a failed intent instead of leaving an unhandled rejection', async () => {
    const { target, receive } = connected();
    target.start.mockImplementation(() => Promise.reject(new Error('no engine')));
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);

    receive({ actionType: 'play' });
    await Promise.resolve();
    await Promise.resolve();

    expect(warn).toHaveBeenCalledWith("player: the parent's play failed", expect.any(Error));
    warn.mockRestore();
  });

  it('stops posting and listening once the returned function is called', () => {
    const { target, receive, postMessage, stop, listeners } = connected();

    stop();
    target.events.emit('episodeChanged', { episode: makeEpisode() });
    receive({ actionType: 'pause' });

    expect(postMessage).not.toHaveBeenCalled();
    expect(target.pause).not.toHaveBeenCalled();
    expect(listeners.size).toBe(0);
  });
});

describe('rateLimit', () => {
  it('opens a new window once the last one is over', () => {
    let time = 0;
    const allowed = rateLimit(2, 1000, () => time);
    expect([allowed(), allowed(), allowed()]).toEqual([true, true, false]);
    time = 999;
    expect(allowed()).toBe(false);
    time = 1000;
    expect([allowed(), allowed(), allowed()]).toEqual([true, true, false]);
  });
});
