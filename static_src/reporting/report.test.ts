import { ErrorCode, playerError } from '../core/errors';
import { Emitter, type PlayerEvents } from '../core/events';
import { ReportQueue, watchErrors, type Report, type SentrySettings } from './report';

const settle = () => new Promise((resolve) => setTimeout(resolve, 5)); // whenIdle's timer, then the import

function setup(dsn: string | null = 'https://key@ingest.test/1') {
  const events = new Emitter<PlayerEvents>();
  const win = new EventTarget() as unknown as Window;
  const reports: Report[] = [];
  const startSentry = jest.fn((settings: SentrySettings) => {
    void settings;
    return (report: Report) => reports.push(report);
  });
  const load = jest.fn(() => Promise.resolve({ startSentry }));
  const watch = watchErrors({ sentryDsn: dsn, sentryProject: 'player-test' }, events, load, win);
  return { events, win, reports, startSentry, load, watch };
}

function windowError(win: Window, error: unknown): void {
  win.dispatchEvent(new ErrorEvent('error', { error, message: String(error) }));
}

function rejection(win: Window, reason: unknown): void {
  win.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason }));
}

let consoleError: jest.SpyInstance;
beforeEach(() => {
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => consoleError.mockRestore());

describe('ReportQueue', () => {
  const report = (n: number): Report => ({ errorId: String(n), mechanism: 'onerror', error: n });

  it('keeps reports until the sink is up, hands them over in order, then passes the next straight on', () => {
    const queue = new ReportQueue(3);
    [1, 2].forEach((n) => queue.add(report(n)));
    const sink = jest.fn();
    queue.connect(sink);
    queue.add(report(3));
    expect(sink.mock.calls.map(([r]) => r.errorId)).toEqual(['1', '2', '3']);
  });

  it('drops what exceeds its size, and everything once closed', () => {
    const full = new ReportQueue(2);
    [1, 2, 3].forEach((n) => full.add(report(n)));
    const kept = jest.fn();
    full.connect(kept);
    expect(kept.mock.calls.map(([r]) => r.errorId)).toEqual(['1', '2']);

    const closed = new ReportQueue(2);
    closed.add(report(1));
    closed.close();
    closed.add(report(2));
    const none = jest.fn();
    closed.connect(none);
    expect(none).not.toHaveBeenCalled();
  });
});

describe('watchErrors', () => {
  it('without a DSN listens to nothing and loads nothing', async () => {
    const { win, events, load } = setup(null);
    windowError(win, new Error('boom'));
    events.emit('error', { error: playerError('media', ErrorCode.MEDIA_FATAL, 'x') });
    events.emit('phaseChanged', { phase: 'playing' });
    await settle();
    expect(load).not.toHaveBeenCalled();
  });

  it('loads nothing before the entry says the first frame is out, or an error happens', async () => {
    const { load, events } = setup();
    events.emit('phaseChanged', { phase: 'loading' });
    events.emit('phaseChanged', { phase: 'playing' }); // 'playing' comes before the frame: not yet
    await settle();
    expect(load).not.toHaveBeenCalled();
  });

  it('loads Sentry once the first frame is out, once, with the DSN and the project label', async () => {
    const { load, watch, startSentry } = setup();
    watch.load();
    watch.load();
    expect(load).not.toHaveBeenCalled(); // idle time, not in the frame's task
    await settle();
    expect(load).toHaveBeenCalledTimes(1);
    expect(startSentry).toHaveBeenCalledWith({ dsn: 'https://key@ingest.test/1', project: 'player-test' });
  });

  it('queues errors from before it is up and sends them, each with its id; a player error with its screen id', async () => {
    const { win, events, reports, load } = setup();
    const thrown = new Error('early');
    windowError(win, thrown);
    rejection(win, 'nope');
    const fatal = playerError('content', ErrorCode.HTTP_404, 'hls.js manifestLoadError: HTTP 404');
    events.emit('error', { error: fatal });
    expect(reports).toEqual([]);
    await settle();
    expect(load).toHaveBeenCalledTimes(1);
    expect(reports.map((r) => [r.mechanism, r.error])).toEqual([
      ['onerror', thrown],
      ['onunhandledrejection', 'nope'],
      ['player', fatal],
    ]);
    expect(reports[2].errorId).toBe(fatal.id);
    const logged = consoleError.mock.calls.map(([line]) => String(line));
    for (const r of reports.slice(0, 2)) {
      expect(r.errorId).toMatch(/^[0-9a-f]{16}$/);
      expect(logged).toContain(`player: unhandled error, id ${r.errorId}`);
    }
    windowError(win, new Error('later'));
    expect(reports).toHaveLength(4); // straight through once up
  });

  it('does not report the blocked screen (not available in the region) nor a non-fatal error', async () => {
    const { events, load, reports } = setup();
    events.emit('error', { error: playerError('content', ErrorCode.BLOCKED, 'blocked') });
    events.emit('error', { error: playerError('media', ErrorCode.MEDIA_FATAL, 'x', { fatal: false }) });
    await settle();
    expect(load).not.toHaveBeenCalled();
    expect(reports).toEqual([]);
  });

  it('survives a Sentry that fails to load: a warning, nothing kept', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const events = new Emitter<PlayerEvents>();
    const win = new EventTarget() as unknown as Window;
    const load = jest.fn(() => Promise.reject(new Error('chunk 404')));
    watchErrors({ sentryDsn: 'https://key@ingest.test/1', sentryProject: 'p' }, events, load, win);
    windowError(win, new Error('x'));
    await settle();
    expect(warn).toHaveBeenCalledWith('player: error reporting did not load', expect.any(Error));
    windowError(win, new Error('y'));
    await settle();
    expect(load).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('removes its listeners on dispose', async () => {
    const { win, events, watch, load } = setup();
    watch.dispose();
    windowError(win, new Error('x'));
    events.emit('phaseChanged', { phase: 'playing' });
    await settle();
    expect(load).not.toHaveBeenCalled();
  });
});
