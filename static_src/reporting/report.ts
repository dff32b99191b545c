// Error reporting (spec §1, §8), the entry's side: two window listeners, a subscription and a queue. Sentry itself
// (reporting/sentry.ts, a lazy chunk) loads only when a browser DSN is configured, in idle time once playback has
// started or at the first error, never on the way to the first frame; what happens before it is up waits in the
// queue. Every report carries an error id: a player error's is the one its error screen shows.
import type { RuntimeConfig } from '../context';
import { DEFAULTS } from '../core/defaults';
import { Disposer } from '../core/dispose';
import { ErrorCode, newErrorId, type PlayerError } from '../core/errors';
import type { Emitter, PlayerEvents } from '../core/events';
import { whenIdle } from '../core/timing';

export type Mechanism = 'player' | 'onerror' | 'onunhandledrejection';

export interface Report {
  errorId: string;
  mechanism: Mechanism;
  error: unknown; // what was thrown or rejected; for 'player', the PlayerError
}

export type ReportSink = (report: Report) => void;

export interface SentrySettings {
  dsn: string;
  project: string; // SENTRY_PROJECT, the spec's error-reporting project label
}

export type SentryLoader = () => Promise<{ startSentry(settings: SentrySettings): ReportSink }>;

/** Reports kept until the sink is up (at most `max`, a flood drops the rest), then handed over in order. */
export class ReportQueue {
  private queue: Report[] = [];
  private sink: ReportSink | null = null;
  private closed = false;

  constructor(private readonly max: number = DEFAULTS.reportQueueMax) {}

  add(report: Report): void {
    if (this.sink) deliver(this.sink, report);
    else if (!this.closed && this.queue.length < this.max) this.queue.push(report);
  }

  connect(sink: ReportSink): void {
    this.sink = sink;
    for (const report of this.queue.splice(0)) deliver(sink, report);
  }

  /** Reporting could not load: forget what waited and keep nothing more. */
  close(): void {
    this.closed = true;
    this.queue = [];
  }
}

function deliver(sink: ReportSink, report: Report): void {
  try {
    sink(report);
  } catch (error) {
    console.warn('player: an error report failed', error);
  }
}

/** Spec §8: fatal player errors are reported; not being available in the viewer's region is not a fault. */
export function reportable(error: PlayerError): boolean {
  return error.fatal && error.code !== ErrorCode.BLOCKED;
}

export interface ErrorWatch {
  /** Loads Sentry in idle time (once): the entry calls it once the first frame is on screen. */
  load(): void;
  /** Removes the listeners; the page keeps them for its lifetime. */
  dispose(): void;
}

/**
 * Watches for errors from now on when a browser DSN is configured (without one nothing is listened to, queued or
 * loaded). Sentry loads when the entry says the first frame is out (`load()`), or at the first error.
 */
export function watchErrors(
  config: Pick<RuntimeConfig, 'sentryDsn' | 'sentryProject'>,
  events: Emitter<PlayerEvents>,
  load: SentryLoader = () => import('./sentry'),
  win: Window = window,
): ErrorWatch {
  const disposer = new Disposer();
  const watch = { load: () => start(), dispose: () => disposer.dispose() };
  const dsn = config.sentryDsn;
  if (!dsn) return { load: () => undefined, dispose: watch.dispose };
  const queue = new ReportQueue();
  let loading = false;
  const start = () => {
    if (loading || disposer.disposed) return;
    loading = true;
    whenIdle(() => {
      load()
        .then(({ startSentry }) => queue.connect(startSentry({ dsn, project: config.sentryProject })))
        .catch((error: unknown) => {
          queue.close();
          console.warn('player: error reporting did not load', error);
        });
    });
  };
  const report = (errorId: string, mechanism: Mechanism, error: unknown) => {
    queue.add({ errorId, mechanism, error });
    start();
  };
  const unhandled = (mechanism: Mechanism, error: unknown) => {
    const errorId = newErrorId();
    console.error(`player: unhandled error, id ${errorId}`); // the id a viewer or a log can quote
    report(errorId, mechanism, error);
  };
  disposer.listen(win, 'error', (event) => {
    const { error, message } = event as ErrorEvent;
    unhandled('onerror', error ?? message);
  });
  disposer.listen(win, 'unhandledrejection', (event) => {
    unhandled('onunhandledrejection', (event as PromiseRejectionEvent).reason);
  });
  disposer.add(
    events.on('error', ({ error }) => {
      if (reportable(error)) report(error.id, 'player', error); // the id its error screen shows
    }),
  );
  return watch;
}
