// Tap gestures on the video (spec §9): single tap, double tap by zone, with the spec's debounce times.
import { DEFAULTS } from '../core/defaults';

export type Zone = 'left' | 'center' | 'right';

export type Gesture = { type: 'single' } | { type: 'double'; zone: Zone };

/** Spec §9: the side fifths of the width (double tap seeks there) and the centre (double tap: fullscreen). */
export function zoneOf(x: number, width: number): Zone {
  if (!(width > 0)) return 'center';
  const side = width * DEFAULTS.sideZoneFraction;
  if (x < side) return 'left';
  if (x > width - side) return 'right';
  return 'center';
}

type TimerHandle = ReturnType<typeof setTimeout>;

/** The timer functions the recognizer uses; `{ set: setTimeout, clear: clearTimeout }` fits. */
export interface Timers {
  set(fn: () => void, ms: number): TimerHandle;
  clear(handle: TimerHandle): void;
}

const realTimers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (handle) => clearTimeout(handle) };

export interface TapRecognizer {
  tap(x: number, width: number, timeMs: number): void;
  dispose(): void;
}

/**
 * Spec §9 gesture debounce: a tap becomes a single `singleMs` later unless a second tap comes within `doubleMs`
 * (by timeMs) while that single is still pending; the second tap then emits a double in ITS zone. A tap after the
 * single has fired starts over (it never turns an already-emitted single into a double).
 * Repeated seeking (our choice, as YouTube does): after a double on a side zone, each further tap in the same side
 * zone within doubleMs of the previous tap emits another double at once. A centre double has no such run (each
 * would toggle fullscreen back), so a third centre tap starts over.
 */
export function createTapRecognizer(
  onGesture: (g: Gesture) => void,
  timers: Timers = realTimers,
  singleMs: number = DEFAULTS.singleTapMs,
  doubleMs: number = DEFAULTS.doubleTapMs,
): TapRecognizer {
  let pending: { handle: TimerHandle } | null = null; // the single waiting to fire
  let lastTapMs = -Infinity;
  let runZone: Zone | null = null; // the side zone of the double-tap run in progress
  let disposed = false;

  function cancelPending(): void {
    if (pending) timers.clear(pending.handle);
    pending = null;
  }

  function emitSingle(): void {
    pending = null;
    onGesture({ type: 'single' });
  }

  return {
    tap(x, width, timeMs) {
      if (disposed) return;
      const zone = zoneOf(x, width);
      const quick = timeMs - lastTapMs <= doubleMs;
      lastTapMs = timeMs;

      if (quick && runZone !== null && zone === runZone) {
        onGesture({ type: 'double', zone });
        return;
      }
      runZone = null;
      if (quick && pending) {
        cancelPending();
        if (zone !== 'center') runZone = zone;
        onGesture({ type: 'double', zone });
        return;
      }
      if (pending) {
        // Its timer is late (a busy main thread) but the taps were not quick: it was a single all the same.
        cancelPending();
        emitSingle();
      }
      pending = { handle: timers.set(emitSingle, singleMs) };
    },
    dispose() {
      disposed = true;
      cancelPending();
    },
  };
}
