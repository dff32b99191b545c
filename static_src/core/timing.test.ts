import { nextTask, throttle } from './timing';

describe('throttle', () => {
  function setup(ms = 1000) {
    let time = 5000;
    const fn = jest.fn();
    const throttled = throttle(fn, ms, () => time);
    return {
      fn,
      throttled,
      at(t: number) {
        time = t;
      },
    };
  }

  it('calls through on the first call (leading edge), with the arguments', () => {
    const { fn, throttled } = setup();

    throttled('a', 1);

    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith('a', 1);
  });

  it('drops calls inside the window and lets the first one after it through', () => {
    const { fn, throttled, at } = setup(1000);

    at(5000);
    throttled(1);
    at(5500);
    throttled(2);
    at(5999);
    throttled(3);
    at(6000); // exactly one window later
    throttled(4);
    at(6500);
    throttled(5);

    expect(fn.mock.calls).toEqual([[1], [4]]);
  });

  it('measures the window from the last call that went through, not from the dropped ones', () => {
    const { fn, throttled, at } = setup(1000);

    at(0);
    throttled(1);
    at(900);
    throttled(2); // dropped: must not restart the window
    at(1000);
    throttled(3);

    expect(fn.mock.calls).toEqual([[1], [3]]);
  });

  it('uses performance.now() when no clock is given', () => {
    const now = jest.spyOn(performance, 'now').mockReturnValue(10_000);
    try {
      const fn = jest.fn();
      const throttled = throttle(fn, 1000);
      throttled();
      throttled();
      now.mockReturnValue(11_000);
      throttled();

      expect(fn).toHaveBeenCalledTimes(2);
    } finally {
      now.mockRestore();
    }
  });
});

describe('nextTask', () => {
  const global = globalThis as { scheduler?: unknown };

  afterEach(() => {
    delete global.scheduler;
    jest.useRealTimers();
  });

  it("posts a 'user-blocking' task where the Prioritized Task Scheduling API exists", () => {
    const postTask = jest.fn((fn: () => void) => Promise.resolve(fn()));
    global.scheduler = { postTask };
    const fn = jest.fn();

    nextTask(fn);

    expect(postTask).toHaveBeenCalledWith(fn, { priority: 'user-blocking' });
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('falls back to a zero timer: never in the calling task', () => {
    jest.useFakeTimers();
    const fn = jest.fn();

    nextTask(fn);
    expect(fn).not.toHaveBeenCalled();
    jest.advanceTimersByTime(0);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
