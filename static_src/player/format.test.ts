import { DEFAULTS } from '../core/defaults';
import { formatPercent, formatRate, formatTime, UNKNOWN_TIME_TEXT } from './format';

describe('formatTime', () => {
  it.each([
    [0, '0:00:00'],
    [5, '0:00:05'],
    [59, '0:00:59'],
    [60, '0:01:00'],
    [312, '0:05:12'],
    [599, '0:09:59'],
    [3599, '0:59:59'],
    [3600, '1:00:00'],
    [3723, '1:02:03'],
    [36_000, '10:00:00'],
    [43_200, '12:00:00'],
    [360_000, '100:00:00'],
  ])('formats %p as %p (always h:mm:ss)', (seconds, text) => {
    expect(formatTime(seconds)).toBe(text);
  });

  it('floors fractions rather than rounding them', () => {
    expect(formatTime(5.999)).toBe('0:00:05');
    expect(formatTime(59.9)).toBe('0:00:59');
    expect(formatTime(3599.99)).toBe('0:59:59');
    expect(formatTime(0.4)).toBe('0:00:00');
  });

  it('formats negative zero as zero', () => {
    expect(formatTime(-0)).toBe('0:00:00');
  });

  it.each([NaN, Infinity, -Infinity, -1, -0.5, DEFAULTS.unknownTime])('shows %p as unknown', (seconds) => {
    expect(formatTime(seconds)).toBe('-:--:--');
  });

  it('exports the unknown text', () => {
    expect(UNKNOWN_TIME_TEXT).toBe('-:--:--');
  });
});

describe('formatPercent', () => {
  it.each([
    [1, '100%'],
    [1.25, '125%'],
    [1.5, '150%'],
    [1.75, '175%'],
    [2.5, '250%'],
    [4, '400%'],
    [0, '0%'],
    [1.15, '115%'], // 114.99999999999999 before rounding
    [1.234, '123%'],
    [1.236, '124%'],
  ])('formats gain %p as %p', (gain, text) => {
    expect(formatPercent(gain)).toBe(text);
  });

  it('formats every gain of the menu as a whole percentage', () => {
    expect(DEFAULTS.gains.map(formatPercent)).toEqual(['100%', '125%', '150%', '175%', '200%', '250%', '300%', '400%']);
  });
});

describe('formatRate', () => {
  it('formats every rate of the menu without trailing zeros', () => {
    expect(DEFAULTS.rates.map(formatRate)).toEqual(['0.25×', '0.5×', '0.75×', '1×', '1.25×', '1.5×', '1.75×', '2×']);
  });

  it('uses the multiplication sign, not the letter x', () => {
    expect(formatRate(2)).toBe('2\u00d7');
  });

  it('hides floating-point noise', () => {
    expect(formatRate(0.1 + 0.2)).toBe('0.3×');
    expect(formatRate(1.25 + 0.25 + 0.25)).toBe('1.75×');
  });
});
