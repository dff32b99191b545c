import { DEFAULTS } from '../core/defaults';
import { createTapRecognizer, zoneOf, type Gesture } from './gestures';

describe('zoneOf', () => {
  it('splits the width into a left fifth, a centre and a right fifth', () => {
    expect(DEFAULTS.sideZoneFraction).toBe(0.2); // the spec's "side fifths"
    expect(zoneOf(0, 1000)).toBe('left');
    expect(zoneOf(199.9, 1000)).toBe('left');
    expect(zoneOf(200, 1000)).toBe('center');
    expect(zoneOf(500, 1000)).toBe('center');
    expect(zoneOf(800, 1000)).toBe('center');
    expect(zoneOf(800.1, 1000)).toBe('right');
    expect(zoneOf(1000, 1000)).toBe('right');
  });

  it('scales with the width', () => {
    expect(zoneOf(100, 400)).toBe('center');
    expect(zoneOf(79, 400)).toBe('left');
    expect(zoneOf(321, 400)).toBe('right');
  });

  it('treats positions outside the element as the nearer side', () => {
    expect(zoneOf(-5, 1000)).toBe('left');
    expect(zoneOf(1200, 1000)).toBe('right');
  });

  it.each([0, -100, NaN])('is centre for a width of %p', (width) => {
    expect(zoneOf(0, width)).toBe('center');
    expect(zoneOf(5, width)).toBe('center');
  });
});

describe('createTapRecognizer', () => {
  const W = 1000;
  const LEFT = 50;
  const CENTER = 500;
  const RIGHT = 950;

  beforeEach(() => {
    jest.useFakeTimers();
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  /** A recognizer on jest's fake timers; `at(ms, x)` advances the fake clock to ms and taps there. */
  function setup() {
    const gestures: Gesture[] = [];
    const recognizer = createTapRecognizer((g) => gestures.push(g));
    let now = 0;
    return {
      gestures,
      recognizer,
      at(ms: number, x: number) {
        jest.advanceTimersByTime(ms - now);
        now = ms;
        recognizer.tap(x, W, ms);
      },
      until(ms: number) {
        jest.advanceTimersByTime(ms - now);
        now = ms;
      },
    };
  }

  it('uses the spec debounce times by default', () => {
    expect(DEFAULTS.singleTapMs).toBe(250);
    expect(DEFAULTS.doubleTapMs).toBe(275);
  });

  it('emits a single singleMs after a lone tap, not before', () => {
    const { gestures, at, until } = setup();
    at(1000, CENTER);
    until(1000 + DEFAULTS.singleTapMs - 1);
    expect(gestures).toEqual([]);
    until(1000 + DEFAULTS.singleTapMs);
    expect(gestures).toEqual([{ type: 'single' }]);
    until(5000);
    expect(gestures).toEqual([{ type: 'single' }]);
  });

  it('turns two quick taps into one double and no single', () => {
    const { gestures, at, until } = setup();
    at(1000, CENTER);
    at(1200, CENTER);
    expect(gestures).toEqual([{ type: 'double', zone: 'center' }]); // at once, not after a delay
    until(5000);
    expect(gestures).toEqual([{ type: 'double', zone: 'center' }]);
  });

  it('gives the double the zone of the second tap', () => {
    const { gestures, at } = setup();
    at(1000, CENTER);
    at(1100, RIGHT);
    at(3000, RIGHT);
    at(3100, LEFT);
    expect(gestures).toEqual([
      { type: 'double', zone: 'right' },
      { type: 'double', zone: 'left' },
    ]);
  });

  it('judges "quick" by timeMs: a second tap after doubleMs is two singles', () => {
    const gestures: Gesture[] = [];
    const fakeTimers = { set: jest.fn(() => 7 as unknown as ReturnType<typeof setTimeout>), clear: jest.fn() };
    const recognizer = createTapRecognizer((g) => gestures.push(g), fakeTimers, 250, 275);
    recognizer.tap(CENTER, W, 1000);
    // The single's timer has not fired (a busy main thread), but the taps are 400 ms apart.
    recognizer.tap(CENTER, W, 1400);
    expect(gestures).toEqual([{ type: 'single' }]);
    expect(fakeTimers.clear).toHaveBeenCalledWith(7);
    expect(fakeTimers.set).toHaveBeenCalledTimes(2);
    expect(fakeTimers.set).toHaveBeenLastCalledWith(expect.any(Function), 250);
  });

  it('counts a tap exactly doubleMs later as quick, one ms more as not', () => {
    const gestures: Gesture[] = [];
    const timers = { set: jest.fn(() => 1 as unknown as ReturnType<typeof setTimeout>), clear: jest.fn() };
    const a = createTapRecognizer((g) => gestures.push(g), timers, 1000, 275);
    a.tap(CENTER, W, 0);
    a.tap(CENTER, W, 275);
    expect(gestures).toEqual([{ type: 'double', zone: 'center' }]);

    gestures.length = 0;
    const b = createTapRecognizer((g) => gestures.push(g), timers, 1000, 275);
    b.tap(CENTER, W, 0);
    b.tap(CENTER, W, 276);
    expect(gestures).toEqual([{ type: 'single' }]);
  });

  it('never turns an already-emitted single into a double', () => {
    const { gestures, at, until } = setup();
    at(1000, LEFT);
    until(1260); // the single fired at 1250
    expect(gestures).toEqual([{ type: 'single' }]);
    at(1265, LEFT); // within doubleMs (275) of the first tap by time, but its single is gone
    until(3000);
    expect(gestures).toEqual([{ type: 'single' }, { type: 'single' }]);
  });

  it('keeps seeking on each further quick tap in the same side zone (YouTube-style run)', () => {
    const { gestures, at, until } = setup();
    at(1000, RIGHT);
    at(1200, RIGHT);
    at(1400, RIGHT);
    at(1650, RIGHT);
    until(5000);
    expect(gestures).toEqual([
      { type: 'double', zone: 'right' },
      { type: 'double', zone: 'right' },
      { type: 'double', zone: 'right' },
    ]);
  });

  it('ends the run after doubleMs without a tap', () => {
    const { gestures, at, until } = setup();
    at(1000, LEFT);
    at(1100, LEFT);
    at(1100 + DEFAULTS.doubleTapMs + 1, LEFT);
    until(5000);
    expect(gestures).toEqual([{ type: 'double', zone: 'left' }, { type: 'single' }]);
  });

  it('ends the run when the tap lands in another zone, which starts over', () => {
    const { gestures, at, until } = setup();
    at(1000, LEFT);
    at(1100, LEFT);
    at(1200, RIGHT); // not a seek to the right: a new first tap
    expect(gestures).toEqual([{ type: 'double', zone: 'left' }]);
    at(1300, RIGHT); // its second tap: a double on the right
    until(5000);
    expect(gestures).toEqual([
      { type: 'double', zone: 'left' },
      { type: 'double', zone: 'right' },
    ]);
  });

  it('has no run in the centre: a third quick centre tap starts over', () => {
    const { gestures, at, until } = setup();
    at(1000, CENTER);
    at(1100, CENTER);
    at(1200, CENTER);
    expect(gestures).toEqual([{ type: 'double', zone: 'center' }]);
    until(5000);
    expect(gestures).toEqual([{ type: 'double', zone: 'center' }, { type: 'single' }]);
  });

  it('four quick centre taps are two doubles (fullscreen on, then off)', () => {
    const { gestures, at, until } = setup();
    at(1000, CENTER);
    at(1100, CENTER);
    at(1200, CENTER);
    at(1300, CENTER);
    until(5000);
    expect(gestures).toEqual([
      { type: 'double', zone: 'center' },
      { type: 'double', zone: 'center' },
    ]);
  });

  it('a side double followed by a quick centre tap does not seek again', () => {
    const { gestures, at, until } = setup();
    at(1000, RIGHT);
    at(1100, RIGHT);
    at(1200, CENTER);
    until(5000);
    expect(gestures).toEqual([{ type: 'double', zone: 'right' }, { type: 'single' }]);
  });

  it('honours custom single and double times', () => {
    const gestures: Gesture[] = [];
    const r = createTapRecognizer((g) => gestures.push(g), undefined, 100, 500);
    r.tap(CENTER, W, 0);
    jest.advanceTimersByTime(99);
    expect(gestures).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(gestures).toEqual([{ type: 'single' }]);
  });

  it('dispose clears the pending single and ignores later taps', () => {
    const { gestures, recognizer, at, until } = setup();
    at(1000, CENTER);
    recognizer.dispose();
    expect(jest.getTimerCount()).toBe(0);
    until(5000);
    at(6000, CENTER);
    at(6100, CENTER);
    until(9000);
    expect(gestures).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('leaves no timer behind after a double', () => {
    const { at } = setup();
    at(1000, LEFT);
    at(1100, LEFT);
    expect(jest.getTimerCount()).toBe(0);
  });
});
