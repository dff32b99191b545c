// Messages to the page that embeds the player (spec §7), posted only to that page's origin, never to '*'.
import type { Emitter, PlayerEvents } from '../core/events';
import { throttle } from '../core/timing';

export const MESSAGE_SOURCE = 'player';
const TIME_PROGRESS_THROTTLE_MS = 1000; // spec §9: time saving throttle 1 s

export interface PlayerMessage {
  source: typeof MESSAGE_SOURCE;
  type: string;
  payload: unknown;
}

/** The embedding page's origin: the browser's ancestor list where it has one, else the referrer's origin. */
export function parentOrigin(win: Window = window): string | null {
  if (win.parent === win) return null;
  const ancestors = win.location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0] === 'null' ? null : ancestors[0];
  try {
    const origin = new URL(win.document.referrer).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** Forwards player events to the parent window. Returns the function that stops it. */
export function connectParent(events: Emitter<PlayerEvents>, win: Window = window): () => void {
  const origin = parentOrigin(win);
  if (!origin) return () => undefined;
  const post = (type: string, payload: unknown) => {
    const message: PlayerMessage = { source: MESSAGE_SOURCE, type, payload };
    win.parent.postMessage(message, origin);
  };
  const stops = [
    events.on(
      'timeProgressChanged',
      throttle((p) => post('timeProgressChanged', p), TIME_PROGRESS_THROTTLE_MS),
    ),
    events.on('episodeChanged', ({ episode }) => post('episodeChanged', episode)),
    events.on('enterFullScreen', () => post('enterFullScreen', null)),
    events.on('exitFullScreen', () => post('exitFullScreen', null)),
  ];
  return () => stops.forEach((stop) => stop());
}
