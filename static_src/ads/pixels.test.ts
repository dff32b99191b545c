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

  it('leaves a macro nobody knows as it was', () => {
    expect(fillMacros('https://t.example/p?x=[SOMETHING]')).toBe('https://t.example/p?x=[SOMETHING]');
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
      ['https://t.example/e?c=100&ph=00%3A00%3A00.000&a=[ASSETURI]']);
    expect(pingError([template], 405, 3.25, { ASSETURI: 'https://cdn.example/a.mp4', ERRORCODE: 1 }, fetcher)).toEqual(
      ['https://t.example/e?c=405&ph=00%3A00%3A03.250&a=https%3A%2F%2Fcdn.example%2Fa.mp4']);
    expect(fetcher).toHaveBeenCalledTimes(2);
  });
});
