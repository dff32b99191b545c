import { makeEpisode } from '../test/fixtures';
import { parseCommand, parseMessage } from './messages';

describe('parseCommand', () => {
  it('keeps exactly the fields of each command and drops the rest', () => {
    expect(parseCommand({ actionType: 'pause', extra: { deep: true } })).toEqual({ actionType: 'pause' });
    expect(parseCommand({ actionType: 'play' })).toEqual({ actionType: 'play' });
    expect(parseCommand({ actionType: 'seek', time: 0 })).toEqual({ actionType: 'seek', time: 0 });
    expect(parseCommand({ actionType: 'setEpisode', episodeId: 7, play: true })).toEqual({
      actionType: 'setEpisode',
      episodeId: 7,
    });
  });

  it('takes request headers whole, or not at all', () => {
    const headers = { 'X-Publisher': 'news', 'X-Empty': '' };
    expect(parseCommand({ actionType: 'setRequestHeaders', headers })).toEqual({ actionType: 'setRequestHeaders', headers });
    expect(parseCommand({ actionType: 'setRequestHeaders', headers: {} })).toEqual({ actionType: 'setRequestHeaders', headers: {} });
    for (const bad of [
      undefined, null, 'X-A: 1', [['X-A', '1']], { 'X-A': 1 }, { 'X A': '1' }, { 'X-A': 'a\nb' }, { 'X-A': 'ключ' },
      { 'X-A': 'x'.repeat(1025) }, JSON.parse('{"__proto__": "x"}') as unknown,
      Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-${i}`, 'v'])),
    ]) {
      expect(parseCommand({ actionType: 'setRequestHeaders', headers: bad })).toBeNull();
    }
  });

  it('reads no inherited property, whatever the prototype offers', () => {
    const proto = { actionType: 'seek', time: 5 };
    expect(parseCommand(Object.create(proto))).toBeNull();
    expect(parseCommand(Object.assign(Object.create(proto) as object, { actionType: 'seek' }))).toBeNull();
  });
});

describe('parseMessage: statistics', () => {
  const call = (payload: unknown) => parseMessage({ source: 'player', type: 'statistics', payload });

  it('keeps an analytics call: its event, its flat payload, the function name', () => {
    expect(call({ event: 'play', name: 'sendStatistics', payload: { content_id: 2, title: 'Т', live: false, x: null } }))
      .toEqual({
        source: 'player',
        type: 'statistics',
        payload: { event: 'play', name: 'sendStatistics', payload: { content_id: 2, title: 'Т', live: false, x: null } },
      });
  });

  it('drops nested values, and refuses a name that is not an identifier or an odd event name', () => {
    expect(call({ event: 'play', name: 'stats', payload: { a: 1, deep: { b: 2 }, list: [1] } })?.payload).toEqual({
      event: 'play', name: 'stats', payload: { a: 1 },
    });
    expect(call({ event: 'play', name: 'alert(1)', payload: {} })).toBeNull();
    expect(call({ event: 'play', name: 'constructor.constructor', payload: {} })).toBeNull();
    expect(call({ event: 'a b', name: 'stats', payload: {} })).toBeNull();
    expect(call({ event: 'play', name: 'stats', payload: 'text' })).toBeNull();
  });
});

describe('parseMessage', () => {
  it('reads each message type of the player', () => {
    const episode = makeEpisode({ id: 3 });
    expect(parseMessage({ source: 'player', type: 'ready', payload: null })?.type).toBe('ready');
    expect(parseMessage({ source: 'player', type: 'exitFullScreen', payload: { junk: 1 } })).toEqual({
      source: 'player',
      type: 'exitFullScreen',
      payload: null,
    });
    expect(parseMessage({ source: 'player', type: 'episodeChanged', payload: episode })?.payload).toBe(episode);
    expect(parseMessage({ source: 'player', type: 'timeProgressChanged', payload: { currentTime: 1, duration: Infinity } }))
      .toEqual({ source: 'player', type: 'timeProgressChanged', payload: { currentTime: 1, duration: Infinity } });
  });

  it('is null for anything else', () => {
    for (const data of [
      undefined, null, 'ready', [], { type: 'ready' }, { source: 'player', type: 'toString' },
      { source: 'player', type: 'episodeChanged', payload: { id: '3' } },
      { source: 'player', type: 'episodeChanged', payload: [] },
      { source: 'player', type: 'timeProgressChanged', payload: { currentTime: 1 } },
      { source: 'player', type: 'timeProgressChanged', payload: { currentTime: Infinity, duration: 1 } },
    ]) {
      expect(parseMessage(data)).toBeNull();
    }
  });
});
