// The one place the page's statistics function is called (spec §7): `window[name](eventName, payload)`.
import type { Payload } from './payload';

export type Send = (event: string, payload: Payload) => void;

/**
 * A sender for `window[name]`, looked up at every event (a script of the page may define it late). A missing
 * function drops the event; a throwing one (or one whose promise rejects) is caught. Each of the two is logged once,
 * as a warning: nothing the page does here ever reaches playback.
 */
export function statisticsSender(name: string, win: Window = window, warn = console.warn): Send {
  const warned = new Set<string>();
  const once = (kind: 'missing' | 'failed', ...message: unknown[]) => {
    if (warned.has(kind)) return;
    warned.add(kind);
    warn(...message);
  };
  const failed = (error: unknown) => once('failed', `analytics: window.${name} failed, events go on:`, error);
  return (event, payload) => {
    let fn: unknown;
    try {
      fn = (win as unknown as Record<string, unknown>)[name];
    } catch (error) {
      return failed(error); // a getter that throws
    }
    if (typeof fn !== 'function') {
      return once('missing', `analytics: window.${name} is not a function; analytics events are dropped until it is`);
    }
    try {
      const result: unknown = fn.call(win, event, payload);
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        (result as Promise<unknown>).then(undefined, failed);
      }
    } catch (error) {
      failed(error);
    }
  };
}
