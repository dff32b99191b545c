import { Emitter } from './events';

interface TestEvents {
  ping: { n: number };
  pong: { text: string };
}

describe('Emitter', () => {
  it('delivers a payload to the listeners of that event only', () => {
    const emitter = new Emitter<TestEvents>();
    const ping = jest.fn();
    const pong = jest.fn();
    emitter.on('ping', ping);
    emitter.on('pong', pong);

    emitter.emit('ping', { n: 1 });

    expect(ping).toHaveBeenCalledTimes(1);
    expect(ping).toHaveBeenCalledWith({ n: 1 });
    expect(pong).not.toHaveBeenCalled();
  });

  it('calls every listener, in the order they subscribed', () => {
    const emitter = new Emitter<TestEvents>();
    const calls: string[] = [];
    emitter.on('ping', () => calls.push('a'));
    emitter.on('ping', () => calls.push('b'));

    emitter.emit('ping', { n: 1 });

    expect(calls).toEqual(['a', 'b']);
  });

  it('off() removes a listener', () => {
    const emitter = new Emitter<TestEvents>();
    const listener = jest.fn();
    emitter.on('ping', listener);
    emitter.off('ping', listener);

    emitter.emit('ping', { n: 1 });

    expect(listener).not.toHaveBeenCalled();
  });

  it('on() returns the function that unsubscribes', () => {
    const emitter = new Emitter<TestEvents>();
    const listener = jest.fn();
    const unsubscribe = emitter.on('ping', listener);
    emitter.emit('ping', { n: 1 });
    unsubscribe();
    emitter.emit('ping', { n: 2 });

    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith({ n: 1 });
  });

  it('a listener that unsubscribes while an event is delivered does not make the next one miss it', () => {
    const emitter = new Emitter<TestEvents>();
    const second = jest.fn();
    const unsubscribe = emitter.on('ping', () => unsubscribe());
    emitter.on('ping', second);

    emitter.emit('ping', { n: 1 });

    expect(second).toHaveBeenCalledTimes(1);
  });

  it('a listener subscribed while an event is delivered gets the next event, not this one', () => {
    const emitter = new Emitter<TestEvents>();
    const late = jest.fn();
    emitter.on('ping', () => {
      emitter.on('ping', late);
    });

    emitter.emit('ping', { n: 1 });
    expect(late).not.toHaveBeenCalled();

    emitter.emit('ping', { n: 2 });
    expect(late).toHaveBeenCalledWith({ n: 2 });
  });

  it('a throwing listener does not stop the others and is logged', () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const emitter = new Emitter<TestEvents>();
      const failure = new Error('broken subscriber');
      const after = jest.fn();
      emitter.on('ping', () => {
        throw failure;
      });
      emitter.on('ping', after);

      expect(() => emitter.emit('ping', { n: 7 })).not.toThrow();

      expect(after).toHaveBeenCalledWith({ n: 7 });
      expect(consoleError).toHaveBeenCalledTimes(1);
      expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('ping'), failure);
    } finally {
      consoleError.mockRestore();
    }
  });

  it('clear() removes every listener of every event', () => {
    const emitter = new Emitter<TestEvents>();
    const ping = jest.fn();
    const pong = jest.fn();
    emitter.on('ping', ping);
    emitter.on('pong', pong);

    emitter.clear();
    emitter.emit('ping', { n: 1 });
    emitter.emit('pong', { text: 'x' });

    expect(ping).not.toHaveBeenCalled();
    expect(pong).not.toHaveBeenCalled();
  });
});
