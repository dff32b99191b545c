import { ViewabilityMeter } from './viewability';

describe('ViewabilityMeter (MRC video: 50 % of the pixels for 2 continuous seconds)', () => {
  let time = 0;
  const meter = () => {
    time = 0;
    return new ViewabilityMeter(() => time);
  };
  const at = (m: ViewabilityMeter, ms: number, playing: boolean, ratio: number | null) => {
    time = ms;
    return m.sample(playing, ratio);
  };

  it('is viewable once, after 2 s of continuous playback at half in view or more', () => {
    const m = meter();
    expect(at(m, 0, true, 0.5)).toBeNull();
    expect(at(m, 1999, true, 1)).toBeNull();
    expect(at(m, 2000, true, 0.6)).toBe('viewable');
    expect(at(m, 3000, true, 1)).toBeNull(); // once
    expect(m.end()).toBeNull(); // and no other verdict after it
  });

  it('starts the 2 s again after a pause, a scroll below half, or a hidden page', () => {
    const m = meter();
    at(m, 0, true, 1);
    at(m, 1500, false, 1); // paused
    at(m, 1600, true, 1);
    at(m, 3000, true, 0.49); // scrolled below half
    at(m, 3100, true, 0.9);
    at(m, 4000, true, 0); // a hidden page reads as nothing in view
    at(m, 4100, true, 0.9);
    expect(at(m, 6099, true, 0.9)).toBeNull();
    expect(at(m, 6100, true, 0.9)).toBe('viewable');
  });

  it('ends not viewable when it measured and the rule was never met, undetermined when it could not measure', () => {
    const measured = meter();
    at(measured, 0, true, 1);
    at(measured, 1900, true, 1);
    expect(measured.end()).toBe('notViewable');
    expect(measured.end()).toBeNull();
    const blind = meter();
    expect(at(blind, 0, true, null)).toBeNull();
    expect(at(blind, 5000, true, null)).toBeNull();
    expect(blind.end()).toBe('viewUndetermined');
  });
});
