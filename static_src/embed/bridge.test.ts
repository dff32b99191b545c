import { Emitter, type PlayerEvents } from '../core/events';
import { makeEpisode } from '../test/fixtures';
import { MESSAGE_SOURCE, connectParent, parentOrigin } from './bridge';

const PUBLISHER = 'https://publisher.example';

interface FakeFrame {
  win: Window;
  postMessage: jest.Mock;
}

/** A plain-object window: framed (its parent is another object) unless `framed` is false. */
function fakeWindow({
  framed = true,
  ancestorOrigins,
  referrer = '',
}: { framed?: boolean; ancestorOrigins?: string[]; referrer?: string } = {}): FakeFrame {
  const postMessage = jest.fn();
  const win: Record<string, unknown> = {
    location: ancestorOrigins ? { ancestorOrigins } : {},
    document: { referrer },
  };
  win.parent = framed ? { postMessage } : win;
  return { win: win as unknown as Window, postMessage };
}

describe('parentOrigin', () => {
  it('is null when the player is not in a frame', () => {
    const { win } = fakeWindow({ framed: false, ancestorOrigins: [PUBLISHER], referrer: `${PUBLISHER}/page` });
    expect(parentOrigin(win)).toBeNull();
  });

  it("uses the browser's ancestor list first", () => {
    const { win } = fakeWindow({
      ancestorOrigins: [PUBLISHER, 'https://top.example'],
      referrer: 'https://referrer.example/page',
    });
    expect(parentOrigin(win)).toBe(PUBLISHER);
  });

  it("falls back to the referrer's origin where there is no ancestor list", () => {
    const { win } = fakeWindow({ referrer: `${PUBLISHER}:8443/films/12?utm=x#top` });
    expect(parentOrigin(win)).toBe(`${PUBLISHER}:8443`);
  });

  it("falls back to the referrer's origin when the ancestor list is empty", () => {
    const { win } = fakeWindow({ ancestorOrigins: [], referrer: `${PUBLISHER}/page` });
    expect(parentOrigin(win)).toBe(PUBLISHER);
  });

  it("is null for a 'null' ancestor origin (a sandboxed or opaque parent)", () => {
    const { win } = fakeWindow({ ancestorOrigins: ['null'], referrer: `${PUBLISHER}/page` });
    expect(parentOrigin(win)).toBeNull();
  });

  it("is null for a referrer whose origin is 'null'", () => {
    const { win } = fakeWindow({ referrer: 'data:text/html,<iframe>' });
    expect(parentOrigin(win)).toBeNull();
  });

  it('is null with no referrer at all', () => {
    const { win } = fakeWindow({ referrer: '' });
    expect(parentOrigin(win)).toBeNull();
  });

  it("reads jsdom's real window, which is not framed, as null", () => {
    expect(parentOrigin()).toBeNull();
  });
});

describe('connectParent', () => {
  let now: jest.SpyInstance<number, []>;

  beforeEach(() => {
    now = jest.spyOn(performance, 'now').mockReturnValue(50_000);
  });
  afterEach(() => now.mockRestore());

  function connected() {
    const frame = fakeWindow({ ancestorOrigins: [PUBLISHER] });
    const events = new Emitter<PlayerEvents>();
    const stop = connectParent(events, frame.win);
    return { ...frame, events, stop };
  }

  it('posts episodeChanged to the parent origin, never to "*"', () => {
    const { events, postMessage } = connected();
    const episode = makeEpisode({ id: 7, title: 'Серия 7' });

    events.emit('episodeChanged', { episode });

    expect(postMessage).toHaveBeenCalledTimes(1);
    expect(postMessage).toHaveBeenCalledWith({ source: MESSAGE_SOURCE, type: 'episodeChanged', payload: episode }, PUBLISHER);
    expect(MESSAGE_SOURCE).toBe('player');
  });

  it('posts timeProgressChanged with its payload, at most once per 1000 ms', () => {
    const { events, postMessage } = connected();

    events.emit('timeProgressChanged', { currentTime: 1, duration: 100 });
    now.mockReturnValue(50_500);
    events.emit('timeProgressChanged', { currentTime: 1.5, duration: 100 });
    now.mockReturnValue(50_999);
    events.emit('timeProgressChanged', { currentTime: 1.99, duration: 100 });
    now.mockReturnValue(51_000);
    events.emit('timeProgressChanged', { currentTime: 2, duration: 100 });

    expect(postMessage.mock.calls).toEqual([
      [{ source: 'player', type: 'timeProgressChanged', payload: { currentTime: 1, duration: 100 } }, PUBLISHER],
      [{ source: 'player', type: 'timeProgressChanged', payload: { currentTime: 2, duration: 100 } }, PUBLISHER],
    ]);
  });

  it('does not throttle episodeChanged', () => {
    const { events, postMessage } = connected();

    events.emit('episodeChanged', { episode: makeEpisode({ id: 1 }) });
    events.emit('episodeChanged', { episode: makeEpisode({ id: 2 }) });

    expect(postMessage).toHaveBeenCalledTimes(2);
  });

  it('does not forward the other player events', () => {
    const { events, postMessage } = connected();

    events.emit('phaseChanged', { phase: 'playing' });

    expect(postMessage).not.toHaveBeenCalled();
  });

  it('posts nothing when there is no parent origin', () => {
    const frame = fakeWindow({ ancestorOrigins: ['null'] });
    const events = new Emitter<PlayerEvents>();
    const stop = connectParent(events, frame.win);

    events.emit('episodeChanged', { episode: makeEpisode() });
    events.emit('timeProgressChanged', { currentTime: 1, duration: 2 });

    expect(frame.postMessage).not.toHaveBeenCalled();
    expect(() => stop()).not.toThrow();
  });

  it('stops posting once the returned function is called', () => {
    const { events, postMessage, stop } = connected();

    stop();
    events.emit('episodeChanged', { episode: makeEpisode() });
    now.mockReturnValue(99_000);
    events.emit('timeProgressChanged', { currentTime: 1, duration: 2 });

    expect(postMessage).not.toHaveBeenCalled();
  });
});
