// The spec's timings (§5, §7, §8, §9) as DEFAULTS holds them, and the test suite's way to shorten them (applyTimings).
import { DEFAULTS, applyTimings } from './defaults';

const SPEC = {
  controlsHideMs: 2000,
  progressSaveMs: 10_000,
  analyticsTimeupdateMs: 60_000,
  vastTimeoutMs: 5000,
  midrollMinContentS: 1800,
  adProgressThrottleMs: 1000,
  fingerprintTimeoutMs: 1000,
} as const;

const original = { ...DEFAULTS };

afterEach(() => Object.assign(DEFAULTS, original));

it('holds the spec values when nothing shortens them', () => {
  applyTimings(undefined);
  applyTimings({});
  expect(DEFAULTS).toMatchObject(SPEC);
});

it('takes a positive number for a numeric default it names, and nothing else', () => {
  applyTimings({
    analyticsTimeupdateMs: 2000,
    vastTimeoutMs: 1500,
    progressSaveMs: 0, // not positive
    controlsHideMs: '10' as unknown as number, // not a number
    fingerprintTimeoutMs: Number.NaN,
    rates: 5, // not a numeric default
    __proto__Ms: 5,
    toString: 1,
    unknownMs: 5,
  });
  expect(DEFAULTS).toMatchObject({ ...SPEC, analyticsTimeupdateMs: 2000, vastTimeoutMs: 1500 });
  expect(DEFAULTS.rates).toEqual(original.rates);
  expect('unknownMs' in DEFAULTS).toBe(false);
});
