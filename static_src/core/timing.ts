// Time-based helpers that need no timer (so there is nothing to tear down).
import { DEFAULTS } from './defaults';

/** Calls `fn` at most once per `ms`, on the leading edge; later calls inside the window are dropped. */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, ms: number, now = () => performance.now()) {
  let last = -Infinity;
  return (...args: A): void => {
    const time = now();
    if (time - last < ms) return;
    last = time;
    fn(...args);
  };
}

/** Ends the current task so the browser can paint and handle input: between a heavy module's evaluation and its use. */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Runs `fn` in a task of its own, ahead of timers and other ordinary tasks (scheduler.postTask's 'user-blocking'), or
 * after a zero timer where there is no Prioritized Task Scheduling (Safari, Firefox before 142). One-shot.
 */
export function nextTask(fn: () => void): void {
  const scheduler = (globalThis as { scheduler?: { postTask?: (fn: () => void, options: object) => Promise<void> } })
    .scheduler;
  if (typeof scheduler?.postTask === 'function') void scheduler.postTask(fn, { priority: 'user-blocking' });
  else setTimeout(fn, 0);
}

/**
 * Runs `fn` once, in idle time (requestIdleCallback, by DEFAULTS.idleTimeoutMs at the latest), or after a zero
 * timer where the browser has no idle callbacks (Safari). One-shot: nothing to tear down.
 */
export function whenIdle(fn: () => void, timeoutMs: number = DEFAULTS.idleTimeoutMs): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn(), { timeout: timeoutMs });
  else setTimeout(fn, 0);
}
