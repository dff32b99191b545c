import { cleanHeaders, RelayedHeaders } from './requestHeaders';

describe('cleanHeaders', () => {
  it('keeps string values of token names, at most 20, and names what it left out', () => {
    const many = Object.fromEntries(Array.from({ length: 22 }, (_, i) => [`X-${i}`, String(i)]));
    const { headers, dropped } = cleanHeaders(many);
    expect(Object.keys(headers)).toHaveLength(20);
    expect(dropped).toEqual(['X-20', 'X-21']);
    expect(cleanHeaders({ 'X-A': '1', 'X-B': 2, 'X C': '3', 'X-D': 'tab\tok', 'X-E': 'line\r\nX: y' })).toEqual({
      headers: { 'X-A': '1', 'X-D': 'tab\tok' }, dropped: ['X-B', 'X C', 'X-E'],
    });
  });

  it('reads nothing from what is not a plain object', () => {
    for (const value of [undefined, null, 'X-A: 1', 5, [['X-A', '1']]]) {
      expect(cleanHeaders(value)).toEqual({ headers: {}, dropped: [] });
    }
  });
});

describe('RelayedHeaders', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const settled = async (promise: Promise<void>) => {
    let done = false;
    void promise.then(() => {
      done = true;
    });
    await Promise.resolve();
    await Promise.resolve();
    return done;
  };

  it('does not wait when no headers are expected, or once they came', async () => {
    const relay = new RelayedHeaders();
    expect(await settled(relay.until(false, 1000))).toBe(true);
    relay.set({ 'X-A': '1' });
    expect(await settled(relay.until(true, 1000))).toBe(true);
    expect(relay.get()).toEqual({ 'X-A': '1' });
  });

  it('waits for the headers the page said it would send, and no longer than the limit', async () => {
    const relay = new RelayedHeaders();
    const waiting = relay.until(true, 1000);
    jest.advanceTimersByTime(999);
    expect(await settled(waiting)).toBe(false);
    relay.set({ 'X-A': '1' });
    expect(await settled(waiting)).toBe(true);
    expect(jest.getTimerCount()).toBe(0); // the limit's timer is gone with the wait

    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const late = new RelayedHeaders().until(true, 1000);
    jest.advanceTimersByTime(1000);
    expect(await settled(late)).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('did not come within 1000 ms'));
    warn.mockRestore();
  });

  it('hands out copies: a caller cannot change what the next request sends', () => {
    const relay = new RelayedHeaders();
    const given = { 'X-A': '1' };
    relay.set(given);
    given['X-A'] = '2';
    relay.get()['X-A'] = '3';
    expect(relay.get()).toEqual({ 'X-A': '1' });
  });
});
