import { Disposer } from './dispose';

describe('Disposer', () => {
  it('runs the undo steps newest first', () => {
    const disposer = new Disposer();
    const order: number[] = [];
    disposer.add(() => order.push(1));
    disposer.add(() => order.push(2));
    disposer.add(() => order.push(3));

    disposer.dispose();

    expect(order).toEqual([3, 2, 1]);
    expect(disposer.disposed).toBe(true);
  });

  it('runs each step once when disposed twice', () => {
    const disposer = new Disposer();
    const step = jest.fn();
    disposer.add(step);

    disposer.dispose();
    disposer.dispose();

    expect(step).toHaveBeenCalledTimes(1);
  });

  it('runs each step once when a step disposes its own disposer', () => {
    const disposer = new Disposer();
    const first = jest.fn();
    const last = jest.fn();
    disposer.add(first);
    disposer.add(() => disposer.dispose());
    disposer.add(last);

    disposer.dispose();

    expect(first).toHaveBeenCalledTimes(1);
    expect(last).toHaveBeenCalledTimes(1);
  });

  it('runs a step added after dispose() at once', () => {
    const disposer = new Disposer();
    disposer.dispose();
    const late = jest.fn();

    disposer.add(late);

    expect(late).toHaveBeenCalledTimes(1);
  });

  it('keeps going when a step throws, and logs the failure', () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const disposer = new Disposer();
      const first = jest.fn();
      const last = jest.fn();
      const failure = new Error('teardown failed');
      disposer.add(first);
      disposer.add(() => {
        throw failure;
      });
      disposer.add(last);

      expect(() => disposer.dispose()).not.toThrow();

      expect(first).toHaveBeenCalledTimes(1);
      expect(last).toHaveBeenCalledTimes(1);
      expect(consoleError).toHaveBeenCalledWith(expect.any(String), failure);
    } finally {
      consoleError.mockRestore();
    }
  });

  it('listen() adds the listener and dispose() removes it', () => {
    const disposer = new Disposer();
    const target = new EventTarget();
    const handler = jest.fn();
    disposer.listen(target, 'tick', handler);

    target.dispatchEvent(new Event('tick'));
    expect(handler).toHaveBeenCalledTimes(1);

    disposer.dispose();
    target.dispatchEvent(new Event('tick'));
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('listen() works with media element events', () => {
    const disposer = new Disposer();
    const video = document.createElement('video');
    const handler = jest.fn();
    disposer.listen(video, 'playing', handler);

    video.dispatchEvent(new Event('playing'));
    disposer.dispose();
    video.dispatchEvent(new Event('playing'));

    expect(handler).toHaveBeenCalledTimes(1);
  });
});
