import { statisticsSender } from './send';

type Win = Window & Record<string, unknown>;

function fakeWindow(props: Record<string, unknown> = {}): Win {
  return { ...props } as unknown as Win;
}

describe('statisticsSender', () => {
  it('calls window[name](eventName, payload) with the window as this', () => {
    const calls: unknown[][] = [];
    const win = fakeWindow();
    win.sendStatistics = function (this: unknown, ...args: unknown[]) {
      calls.push([this, ...args]);
    };
    statisticsSender('sendStatistics', win)('play', { current_time: 1 });
    expect(calls).toEqual([[win, 'play', { current_time: 1 }]]);
  });

  it('looks the function up at each event: one defined late gets the events from then on', () => {
    const warn = jest.fn();
    const win = fakeWindow();
    const send = statisticsSender('stats', win, warn);
    send('play', {});
    send('pause', {});
    const fn = jest.fn();
    win.stats = fn;
    send('seek', {});
    expect(fn.mock.calls.map(([name]) => name)).toEqual(['seek']);
    expect(warn).toHaveBeenCalledTimes(1); // missing, warned once
  });

  it('catches a throwing function, warns once, and goes on calling it', () => {
    const warn = jest.fn();
    const fn = jest.fn(() => {
      throw new Error('publisher bug');
    });
    const send = statisticsSender('stats', fakeWindow({ stats: fn }), warn);
    expect(() => {
      send('play', {});
      send('pause', {});
    }).not.toThrow();
    expect(fn).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toContain('window.stats failed');
  });

  it('catches a rejected promise of an async function', async () => {
    const warn = jest.fn();
    const send = statisticsSender('stats', fakeWindow({ stats: () => Promise.reject(new Error('offline')) }), warn);
    send('play', {});
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('survives a name that is not a function, and a getter that throws', () => {
    const warn = jest.fn();
    expect(() => statisticsSender('stats', fakeWindow({ stats: 'not a function' }), warn)('play', {})).not.toThrow();
    const win = {} as Win;
    Object.defineProperty(win, 'stats', { get: () => { throw new Error('no'); } });
    expect(() => statisticsSender('stats', win, warn)('play', {})).not.toThrow();
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
