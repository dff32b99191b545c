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

  it('reads no inherited property, whatever the prototype offers', () => {
    const proto = { actionType: 'seek', time: 5 };
    expect(parseCommand(Object.create(proto))).toBeNull();
    expect(parseCommand(Object.assign(Object.create(proto) as object, { actionType: 'seek' }))).toBeNull();
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
