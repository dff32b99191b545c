import { DEFAULTS } from '../core/defaults';
import { ProgressThrottle, shouldOfferResume } from './progress';

function setup(intervalMs?: number) {
  let time = 1_000;
  const save = jest.fn<void, [number]>();
  const throttle = new ProgressThrottle(save, intervalMs, () => time);
  return {
    save,
    throttle,
    at(t: number) {
      time = t;
    },
  };
}

describe('ProgressThrottle', () => {
  it('never saves on the first tick', () => {
    const { save, throttle } = setup();
    throttle.tick(120);
    expect(save).not.toHaveBeenCalled();
  });

  it('uses the 10 s default interval from DEFAULTS', () => {
    const { save, throttle, at } = setup();
    at(0);
    throttle.tick(1);
    at(DEFAULTS.progressSaveMs - 1);
    throttle.tick(10);
    expect(save).not.toHaveBeenCalled();
    at(DEFAULTS.progressSaveMs);
    throttle.tick(11);
    expect(save.mock.calls).toEqual([[11]]);
  });

  it('saves at most once per interval, measured from the clock start and then from the last save', () => {
    const { save, throttle, at } = setup(1000);
    at(0);
    throttle.tick(0); // starts the clock
    at(500);
    throttle.tick(0.5);
    at(1000);
    throttle.tick(1.2); // saves: a full interval since the clock start
    at(1500);
    throttle.tick(1.7);
    at(1999);
    throttle.tick(2.1);
    at(2000);
    throttle.tick(2.3); // saves: a full interval since the last save
    at(2999);
    throttle.tick(3.3);

    expect(save.mock.calls).toEqual([[1], [2]]);
  });

  it('saves whole seconds', () => {
    const { save, throttle, at } = setup(1000);
    at(0);
    throttle.tick(5);
    at(5000);
    throttle.tick(59.99);
    expect(save).toHaveBeenCalledWith(59);
  });

  it('ignores ticks with no usable time', () => {
    const { save, throttle, at } = setup(1000);
    at(0);
    throttle.tick(NaN); // does not start the clock
    at(5000);
    throttle.tick(3); // the first real tick
    throttle.tick(Infinity);
    throttle.tick(-1);
    expect(save).not.toHaveBeenCalled();
    at(6000);
    throttle.tick(4);
    expect(save.mock.calls).toEqual([[4]]);
  });

  describe('flush', () => {
    it('does nothing before any tick', () => {
      const { save, throttle } = setup();
      throttle.flush(30);
      expect(save).not.toHaveBeenCalled();
    });

    it('saves at once after a tick, inside the interval', () => {
      const { save, throttle, at } = setup(1000);
      at(0);
      throttle.tick(10);
      at(100);
      throttle.tick(10.1);
      throttle.flush(10.4);
      expect(save.mock.calls).toEqual([[10]]);
    });

    it('does not save again without a tick since the last save', () => {
      const { save, throttle, at } = setup(1000);
      at(0);
      throttle.tick(1);
      at(1000);
      throttle.tick(2); // saved
      throttle.flush(7);
      expect(save.mock.calls).toEqual([[2]]);
    });

    it('does not save the same whole second twice', () => {
      const { save, throttle, at } = setup(1000);
      at(0);
      throttle.tick(1);
      at(1000);
      throttle.tick(2.2); // saves 2
      at(1100);
      throttle.tick(2.6);
      throttle.flush(2.9);
      expect(save.mock.calls).toEqual([[2]]);
      throttle.flush(3.1);
      expect(save.mock.calls).toEqual([[2], [3]]);
    });

    it('restarts the interval from the flush', () => {
      const { save, throttle, at } = setup(1000);
      at(0);
      throttle.tick(0);
      at(800);
      throttle.tick(1);
      throttle.flush(1); // save at 800
      at(1000);
      throttle.tick(2); // only 200 ms after the flush
      expect(save.mock.calls).toEqual([[1]]);
      at(1800);
      throttle.tick(3);
      expect(save.mock.calls).toEqual([[1], [3]]);
    });

    it('ignores a non-finite or negative time', () => {
      const { save, throttle } = setup();
      throttle.tick(5);
      throttle.flush(NaN);
      throttle.flush(-2);
      expect(save).not.toHaveBeenCalled();
    });
  });

  it('reset() returns to the first-tick state', () => {
    const { save, throttle, at } = setup(1000);
    at(0);
    throttle.tick(1);
    at(1000);
    throttle.tick(2); // saved
    throttle.reset();

    throttle.flush(3); // no tick since the reset
    at(5000);
    throttle.tick(2); // the first tick again: no save
    expect(save.mock.calls).toEqual([[2]]);

    throttle.flush(2); // the last saved value was forgotten by reset()
    expect(save.mock.calls).toEqual([[2], [2]]);
  });

  it('uses performance.now() when no clock is given', () => {
    const now = jest.spyOn(performance, 'now').mockReturnValue(50_000);
    try {
      const save = jest.fn();
      const throttle = new ProgressThrottle(save);
      throttle.tick(1);
      now.mockReturnValue(50_000 + DEFAULTS.progressSaveMs);
      throttle.tick(11);
      expect(save.mock.calls).toEqual([[11]]);
    } finally {
      now.mockRestore();
    }
  });
});

describe('shouldOfferResume', () => {
  it('offers when not started, without a time code, with a saved time', () => {
    expect(shouldOfferResume({ started: false, timeCode: null, savedTime: 125 })).toBe(true);
  });

  it('does not offer once started', () => {
    expect(shouldOfferResume({ started: true, timeCode: null, savedTime: 125 })).toBe(false);
  });

  it('does not offer with a time code in the URL, even t=0', () => {
    expect(shouldOfferResume({ started: false, timeCode: 30, savedTime: 125 })).toBe(false);
    expect(shouldOfferResume({ started: false, timeCode: 0, savedTime: 125 })).toBe(false);
  });

  it.each([null, 0, -5, NaN])('does not offer for a saved time of %p', (savedTime) => {
    expect(shouldOfferResume({ started: false, timeCode: null, savedTime })).toBe(false);
  });
});
