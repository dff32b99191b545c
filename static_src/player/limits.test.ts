import { DEFAULTS } from '../core/defaults';
import { clampRate, clampVolume } from './limits';

describe('clampRate', () => {
  it('keeps the rates of the menu', () => {
    for (const rate of DEFAULTS.rates) expect(clampRate(rate)).toBe(rate);
  });

  it('rounds to the nearest 0.25', () => {
    expect(clampRate(1.1)).toBe(1);
    expect(clampRate(1.13)).toBe(1.25);
    expect(clampRate(1.6)).toBe(1.5);
    expect(clampRate(0.3)).toBe(0.25);
    expect(clampRate(1 + 0.25 + 0.25)).toBe(1.5);
  });

  it('clamps to 0.25–2', () => {
    expect(clampRate(0)).toBe(0.25);
    expect(clampRate(0.1)).toBe(0.25);
    expect(clampRate(-3)).toBe(0.25);
    expect(clampRate(2.25)).toBe(2);
    expect(clampRate(16)).toBe(2);
  });

  it.each([NaN, Infinity, -Infinity])('is 1 for %p', (rate) => {
    expect(clampRate(rate)).toBe(1);
  });
});

describe('clampVolume', () => {
  it('rounds to two decimals', () => {
    expect(clampVolume(0.1 + 0.2)).toBe(0.3);
    expect(clampVolume(0.7 + 0.05)).toBe(0.75);
    expect(clampVolume(0.05 + 0.05 + 0.05)).toBe(0.15);
    expect(clampVolume(0.123)).toBe(0.12);
  });

  it('clamps to 0..1', () => {
    expect(clampVolume(-0.05)).toBe(0);
    expect(clampVolume(1.05)).toBe(1);
    expect(clampVolume(0)).toBe(0);
    expect(clampVolume(1)).toBe(1);
  });

  it.each([NaN, Infinity, -Infinity])('is the default volume for %p', (v) => {
    expect(clampVolume(v)).toBe(DEFAULTS.defaultVolume);
  });
});
