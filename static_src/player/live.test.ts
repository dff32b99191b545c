import { DEFAULTS } from '../core/defaults';
import { liveState, type LiveMedia } from './live';

function ranges(...pairs: Array<[number, number]>): LiveMedia['seekable'] {
  return {
    length: pairs.length,
    start: (i) => {
      if (i < 0 || i >= pairs.length) throw new RangeError(`IndexSizeError: ${i}`);
      return pairs[i][0];
    },
    end: (i) => {
      if (i < 0 || i >= pairs.length) throw new RangeError(`IndexSizeError: ${i}`);
      return pairs[i][1];
    },
  };
}

function media(duration: number, currentTime: number, ...pairs: Array<[number, number]>): LiveMedia {
  return { duration, currentTime, seekable: ranges(...pairs) };
}

describe('liveState', () => {
  it('uses the spec §9 limits', () => {
    expect(DEFAULTS.liveEdgeToleranceS).toBe(10);
    expect(DEFAULTS.minLiveDvrWindowS).toBe(60);
  });

  it('is all false for video on demand, whatever the seekable ranges', () => {
    const vod = { isLive: false, hasDvr: false, atLiveEdge: false };
    expect(liveState(media(3600, 3595, [0, 3600]))).toEqual(vod);
    expect(liveState(media(3600, 0))).toEqual(vod);
    expect(liveState(media(NaN, 0))).toEqual(vod);
    expect(liveState(media(NaN, 0, [0, 500]))).toEqual(vod);
    expect(liveState(media(-Infinity, 0, [0, 500]))).toEqual(vod);
  });

  it('is live when the duration is Infinity', () => {
    expect(liveState(media(Infinity, 100, [0, 100])).isLive).toBe(true);
  });

  it('measures the window from the first range start to the last range end', () => {
    expect(liveState(media(Infinity, 1000, [900, 920], [960, 1000])).hasDvr).toBe(true); // 100 s, not the last 40 s
    expect(liveState(media(Infinity, 1000, [945, 960], [970, 1000])).hasDvr).toBe(false); // 55 s
  });

  it('offers DVR from a 60 s window on', () => {
    expect(liveState(media(Infinity, 1000, [940, 1000])).hasDvr).toBe(true);
    expect(liveState(media(Infinity, 1000, [941, 1000])).hasDvr).toBe(false);
    expect(liveState(media(Infinity, 1000, [990, 1000])).hasDvr).toBe(false);
    expect(liveState(media(Infinity, 1000, [0, 1000])).hasDvr).toBe(true);
  });

  it('is at the live edge within 10 s of the last seekable end', () => {
    expect(liveState(media(Infinity, 1000, [0, 1000])).atLiveEdge).toBe(true);
    expect(liveState(media(Infinity, 990, [0, 1000])).atLiveEdge).toBe(true);
    expect(liveState(media(Infinity, 989.9, [0, 1000])).atLiveEdge).toBe(false);
    expect(liveState(media(Infinity, 500, [0, 1000])).atLiveEdge).toBe(false);
  });

  it('measures the edge from the LAST range, not the first', () => {
    expect(liveState(media(Infinity, 95, [0, 100], [200, 1000])).atLiveEdge).toBe(false);
    expect(liveState(media(Infinity, 995, [0, 100], [200, 1000])).atLiveEdge).toBe(true);
  });

  it('counts a position past the end (the edge moved on since) as at the edge', () => {
    expect(liveState(media(Infinity, 1003, [0, 1000])).atLiveEdge).toBe(true);
  });

  it('is not at the edge when the position is unknown', () => {
    expect(liveState(media(Infinity, NaN, [0, 1000])).atLiveEdge).toBe(false);
  });

  it('a live stream without a seekable range yet: no window, no DVR, at the edge', () => {
    expect(liveState(media(Infinity, 0))).toEqual({ isLive: true, hasDvr: false, atLiveEdge: true });
  });

  it('offers no DVR over a negative or non-finite window', () => {
    expect(liveState(media(Infinity, 0, [100, 50])).hasDvr).toBe(false);
    expect(liveState(media(Infinity, 0, [0, Infinity])).hasDvr).toBe(false);
  });

  it('reads a real TimeRanges-like object without touching indices out of range', () => {
    const start = jest.fn((i: number) => [10, 100][i]);
    const end = jest.fn((i: number) => [50, 200][i]);
    liveState({ duration: Infinity, currentTime: 195, seekable: { length: 2, start, end } });
    expect(start.mock.calls).toEqual([[0]]);
    expect(end.mock.calls).toEqual([[1]]);
  });
});
