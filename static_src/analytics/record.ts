// Analytics on the path to the first frame is this subscription and nothing more (spec §7). It notes each event the
// analytics reports with the player's state at that moment (the store's immutable snapshot) and the time; the module
// that turns them into calls (analytics/session, a lazy chunk) loads after the first frame and replays what came
// before it, so a 'play' sent late still says where and when it happened. After that too the calls are made in idle
// time (the notes carry their moment): a skip or a start sets off several events at once, and turning them into calls
// on a slow phone must not sit between the viewer's click and the film's next frame.
//
// The call shape: `window[STATISTICS_FUNCTION](eventName, payload)`, `this` the window, once per event, payload a
// fresh flat object of strings, numbers and nulls; see docs/analytics.md for the events and their fields.
import type { PlayerContext } from '../context';
import { DEFAULTS } from '../core/defaults';
import { Disposer } from '../core/dispose';
import { whenIdle } from '../core/timing';
import type { PlayerEvents } from '../core/events';
import type { PlayerController } from '../player/controller';
import type { PlayerState } from '../player/state';

export const RECORDED = [
  'phaseChanged',
  'episodeChanged',
  'timeProgressChanged',
  'error',
  'seek',
  'muteChanged',
  'fullscreenChanged',
  'qualityChanged',
  'menuClicked',
  'shareAction',
  'airplayClicked',
  'adEvent',
] as const satisfies ReadonlyArray<keyof PlayerEvents>;

export type RecordedType = (typeof RECORDED)[number];

/** One recorded event: its payload, the player's state when it happened, and when (performance.now(), ms). */
export type AnalyticsEvent = {
  [K in RecordedType]: { type: K; payload: PlayerEvents[K]; state: PlayerState; at: number };
}[RecordedType];

export type Sink = (event: AnalyticsEvent) => void;
type SessionModule = { startSession(context: PlayerContext, controller: PlayerController, name: string): Sink };

export interface Recorder {
  /** Loads the session chunk (once), replays the events so far, then hands it every event as it comes. */
  load(): Promise<void>;
  /** Stops listening and drops what was not handed over yet; safe to call twice (the controller's dispose() also
   * clears every listener on its events, not the window's). */
  stop(): void;
}

/** Starts recording for the configured statistics function; null (and no listener at all) when there is none. */
export function recordAnalytics(
  context: PlayerContext,
  controller: PlayerController,
  loadSession: () => Promise<SessionModule> = () => import('./session'),
  now: () => number = () => performance.now(),
): Recorder | null {
  const name = context.config.statisticsFunction;
  if (!name) return null;
  let buffer: AnalyticsEvent[] | null = [];
  let sink: Sink | null = null;
  let pending: AnalyticsEvent[] = [];
  const flush = () => {
    const events = pending;
    pending = [];
    for (const event of events) sink?.(event);
  };
  const listen = <K extends RecordedType>(type: K) =>
    controller.events.on(type, (payload: PlayerEvents[K]) => {
      const event = { type, payload, state: controller.store.get(), at: now() } as AnalyticsEvent;
      if (sink) {
        if (pending.push(event) === 1) whenIdle(flush);
      } else if (buffer && buffer.length < DEFAULTS.analyticsBufferMax) buffer.push(event);
    });
  const disposer = new Disposer(); // the recorded events' subscriptions and the window's pagehide listener
  for (const type of RECORDED) disposer.add(listen(type));
  disposer.listen(window, 'pagehide', flush); // what is left goes out before the page does
  let loading: Promise<void> | null = null;
  return {
    load() {
      loading ??= loadSession()
        .then(({ startSession }) => {
          const session = startSession(context, controller, name);
          for (const event of buffer ?? []) session(event);
          sink = session;
        })
        .catch((error: unknown) => console.warn('analytics: the module did not load, no analytics', error))
        .finally(() => (buffer = null));
      return loading;
    },
    stop() {
      disposer.dispose();
      buffer = null; // not disposal: the notes so far are dropped, and an idle flush already asked for finds nothing
      pending = [];
    },
  };
}
