import { downMix } from './downmix';

const f = (...values: number[]) => Float32Array.from(values);

describe('downMix', () => {
  it('folds centre and surrounds into the sides at -3 dB and drops the LFE', () => {
    const left = new Float32Array(1);
    const right = new Float32Array(1);
    downMix([f(0.1), f(0.2), f(0.4), f(0.9), f(0.2), f(0.3)], left, right);
    expect(left[0]).toBeCloseTo(0.1 + 0.4 * Math.SQRT1_2 + 0.2 * Math.SQRT1_2, 6);
    expect(right[0]).toBeCloseTo(0.2 + 0.4 * Math.SQRT1_2 + 0.3 * Math.SQRT1_2, 6);
  });

  it('copies mono to both sides and passes stereo through', () => {
    const left = new Float32Array(2);
    const right = new Float32Array(2);
    downMix([f(0.5, -0.5)], left, right);
    expect([...left]).toEqual([0.5, -0.5]);
    expect([...right]).toEqual([0.5, -0.5]);
    downMix([f(0.25, 0), f(0, 0.75)], left, right);
    expect([...left]).toEqual([0.25, 0]);
    expect([...right]).toEqual([0, 0.75]);
  });

  it('outputs silence when there is no input', () => {
    const left = f(1, 1);
    const right = f(1, 1);
    downMix([], left, right);
    expect([...left, ...right]).toEqual([0, 0, 0, 0]);
  });
});
