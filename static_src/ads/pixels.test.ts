import { IAB_MACROS } from './macros';
import { cacheBuster, fillMacros, ping, pingAll, pingError, playhead } from './pixels';

describe('macros', () => {
  it('replaces [ERRORCODE] with the code, 900 when it is unknown or not three digits', () => {
    expect(fillMacros('https://t.example/e?c=[ERRORCODE]', { ERRORCODE: 403 })).toBe('https://t.example/e?c=403');
    expect(fillMacros('https://t.example/e?c=[ERRORCODE]')).toBe('https://t.example/e?c=900');
    expect(fillMacros('https://t.example/e?c=[ERRORCODE]', { ERRORCODE: 'oops' })).toBe('https://t.example/e?c=900');
    expect(fillMacros('https://t.example/e?c=%%ERRORCODE%%', { ERRORCODE: 100 })).toBe('https://t.example/e?c=100');
  });

  it('makes [CACHEBUSTING] and [TIMESTAMP], and percent-encodes every value', () => {
    const url = fillMacros('https://t.example/p?cb=[CACHEBUSTING]&ts=[TIMESTAMP]&ph=[ADPLAYHEAD]&a=[ASSETURI]', {
      ADPLAYHEAD: playhead(7.5),
      ASSETURI: 'https://cdn.example/a b.mp4',
    }, () => new Date('2026-11-22T04:00:00.123Z'));
    const query = new URL(url).searchParams;
    expect(query.get('cb')).toMatch(/^\d{8}$/);
    expect(query.get('ts')).toBe('2026-11-22T04:00:00.123Z');
    expect(query.get('ph')).toBe('00:00:07.500');
    expect(query.get('a')).toBe('https://cdn.example/a b.mp4');
    expect(url).toContain('ts=2026-11-22T04%3A00%3A00.123Z');
  });

  it("leaves a bracketed name outside IAB's list as it was", () => {
    expect(fillMacros('https://t.example/p?x=[SOMETHING]')).toBe('https://t.example/p?x=[SOMETHING]');
    expect(fillMacros('https://t.example/p?x=[CONSTRUCTOR]&y=[__PROTO__]')).toBe('https://t.example/p?x=[CONSTRUCTOR]&y=[__PROTO__]');
  });

  it('replaces every IAB macro: the values the player has, -1 where it cannot know, -2 where none applies', () => {
    const all = Object.keys(IAB_MACROS).map((name) => `${name.toLowerCase()}=[${name}]`).join('&');
    const url = new URL(fillMacros(`https://t.example/p?${all}`, { ADPLAYHEAD: '00:00:01.500', BREAKPOSITION: 1 }));
    expect(url.href).not.toMatch(/\[|%5B/); // nothing left unreplaced
    const got = Object.fromEntries(url.searchParams);
    expect(got).toMatchObject({
      adplayhead: '00:00:01.500', breakposition: '1', asseturi: '-1', mediaplayhead: '-1',
      ifa: '-2', latlong: '-2', pageurl: '-2', deviceip: '-2', gdprconsent: '-1', adtype: 'video', serverside: '0',
      errorcode: '900', clientua: 'playerhost/1.0', deviceua: navigator.userAgent,
    });
    expect(fillMacros('https://t.example/p?a=%%ASSETURI%%&ph=[ADPLAYHEAD]', { ASSETURI: null, ADPLAYHEAD: undefined }))
      .toBe('https://t.example/p?a=-1&ph=-1'); // a value the caller does not have is IAB's unknown, not an empty one
  });

  it('writes playheads as HH:MM:SS.mmm', () => {
    expect(playhead(0)).toBe('00:00:00.000');
    expect(playhead(3725.25)).toBe('01:02:05.250');
    expect(playhead(Number.NaN)).toBe('-1');
    expect(cacheBuster(() => 0.000123)).toBe('00012300');
  });
});

describe('pings', () => {
  it('are keepalive GETs without cookies, and a failing or throwing fetch is silent', async () => {
    const fetcher = jest.fn().mockRejectedValue(new Error('offline'));
    ping('https://t.example/p', fetcher);
    expect(fetcher).toHaveBeenCalledWith('https://t.example/p', expect.objectContaining({
      method: 'GET', keepalive: true, credentials: 'omit',
    }));
    await Promise.resolve();
    expect(() => ping('https://t.example/p', () => {
      throw new TypeError('blocked');
    })).not.toThrow();
  });

  it('never request a non-http(s) URL', () => {
    const fetcher = jest.fn().mockResolvedValue(undefined);
    ping('javascript:alert(1)', fetcher);
    ping('data:text/plain,x', fetcher);
    expect(fetcher).not.toHaveBeenCalled();
  });

  it('send each distinct template once, filled', () => {
    const fetcher = jest.fn().mockResolvedValue(undefined);
    const sent = pingAll(['https://t.example/a?c=[ERRORCODE]', 'https://t.example/a?c=[ERRORCODE]', '', 'https://t.example/b'],
      { ERRORCODE: 405 }, fetcher);
    expect(sent).toEqual(['https://t.example/a?c=405', 'https://t.example/b']);
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('fill an error pixel\'s code and playhead: where the ad got to, zero for one that never played', () => {
    const fetcher = jest.fn().mockResolvedValue(undefined);
    const template = 'https://t.example/e?c=[ERRORCODE]&ph=[ADPLAYHEAD]&a=[ASSETURI]';
    expect(pingError([template], 100, undefined, {}, fetcher)).toEqual(
      ['https://t.example/e?c=100&ph=00%3A00%3A00.000&a=-1']); // no file chosen yet: IAB's unknown
    expect(pingError([template], 405, 3.25, { ASSETURI: 'https://cdn.example/a.mp4', ERRORCODE: 1 }, fetcher)).toEqual(
      ['https://t.example/e?c=405&ph=00%3A00%3A03.250&a=https%3A%2F%2Fcdn.example%2Fa.mp4']);
    expect(fetcher).toHaveBeenCalledTimes(2);
  });
});
