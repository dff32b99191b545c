// Time-based helpers that need no timer (so there is nothing to tear down).

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
