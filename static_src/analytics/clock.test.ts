import { Milestones, PlayClock } from './clock';

describe('Milestones', () => {
  it('reaches each of 10/25/50/75/95/100 % once, in order', () => {
    const milestones = new Milestones();
    const sent: number[] = [];
    for (let fraction = 0; fraction <= 1.0001; fraction += 0.01) sent.push(...milestones.reach(fraction));
    expect(sent).toEqual([10, 25, 50, 75, 95, 100]);
  });

  it('reaches every milestone a seek jumps past, once, and none again after a seek back', () => {
    const milestones = new Milestones();
    expect(milestones.reach(0.05)).toEqual([]);
    expect(milestones.reach(0.8)).toEqual([10, 25, 50, 75]);
    expect(milestones.reach(0.2)).toEqual([]);
    expect(milestones.reach(0.6)).toEqual([]);
    expect(milestones.reach(0.96)).toEqual([95]);
    expect(milestones.reach(1)).toEqual([100]);
    expect(milestones.reach(1)).toEqual([]);
  });

  it('ignores a position that is not a number', () => {
    expect(new Milestones().reach(Number.NaN)).toEqual([]);
  });
});

/** Ticks every `stepMs` from `fromMs` for `durationMs` while playing at `rate`; returns the due timeupdates' times. */
function play(clock: PlayClock, fromMs: number, durationMs: number, { stepMs = 250, rate = 1, start = 0 } = {}) {
  const due: number[] = [];
  for (let at = fromMs; at <= fromMs + durationMs; at += stepMs) {
    if (clock.tick(start + ((at - fromMs) / 1000) * rate, at, true)) due.push(at - fromMs);
  }
  return due;
}

describe('PlayClock', () => {
  it('is due every 60 s of playing, not before', () => {
    const clock = new PlayClock();
    const due = play(clock, 1000, 185_000);
    expect(due).toEqual([60_000, 120_000, 180_000]);
    expect(clock.realSeconds).toBe(185);
    expect(clock.videoSeconds).toBe(185);
  });

  it('counts no time while paused, and goes on from where it was', () => {
    const clock = new PlayClock();
    expect(play(clock, 0, 40_000)).toEqual([]);
    clock.halt();
    expect(clock.tick(40, 100_000, false)).toBe(false); // paused for a minute
    expect(clock.realSeconds).toBe(40);
    const due = play(clock, 100_000, 30_000, { start: 40 });
    expect(due).toEqual([20_000]); // 40 s + 20 s of playing
  });

  it('counts neither a stall nor a seek as played', () => {
    const clock = new PlayClock();
    play(clock, 0, 10_000);
    clock.tick(10, 15_000, true); // five seconds without an update: a stall
    expect(clock.realSeconds).toBe(10);
    clock.seek(500);
    clock.tick(500.25, 15_250, true);
    expect(clock.realSeconds).toBe(10);
    expect(clock.videoSeconds).toBe(10);
  });

  it('counts media time at the playback rate', () => {
    const clock = new PlayClock();
    play(clock, 0, 10_000, { rate: 2 });
    expect(clock.realSeconds).toBe(10);
    expect(clock.videoSeconds).toBe(20);
  });
});
