// The parent-page bridge (spec §4, §7; the schema is embed/messages.ts, documented in docs/embed.md). Outgoing: the
// player's events, posted to the embedding page's origin only, never to '*'. Incoming: commands, taken only from
// the parent window at that origin, at most DEFAULTS.parentCommandsPerSecond a second; anything else is ignored.
// Commands become the controller's intents; play and pause go to an ad instead while one is on screen; the request
// headers for ad calls go to embed/requestHeaders.
import { DEFAULTS } from '../core/defaults';
import { Disposer } from '../core/dispose';
import type { Emitter, PlayerEvents } from '../core/events';
import { throttle } from '../core/timing';
import { MESSAGE_SOURCE, parseCommand, type PlayerCommand, type PlayerEventPayloads, type PlayerEventType } from './messages';
import { parentRequestHeaders } from './requestHeaders';

/** The intents the bridge drives (PlayerController's). */
export interface BridgeTarget {
  readonly events: Emitter<PlayerEvents>;
  start(): Promise<void>;
  pause(): void;
  seek(seconds: number): void;
  selectEpisode(id: number, play?: boolean): Promise<boolean>;
}

/** The origin of an http(s) address, or null. */
function httpOrigin(address: string | undefined): string | null {
  if (!address) return null;
  try {
    const url = new URL(address);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The embedding page's origin: the server's (`config.parentOrigin`: the allow-listed `origin` parameter of the
 * address) whenever it has one; else the browser's ancestor list (Chromium, Safari), which no page can forge; else the
 * document's referrer (Firefox), which the browser sets from the page that loaded the frame. The server does not read
 * the Referer for this, so that the page is the same on every embedding site and a cache may keep it. Null outside a
 * frame, or when nothing says (a sandboxed or no-referrer parent): then no bridge at all.
 */
export function parentOrigin(serverOrigin: string | null, win: Window = window): string | null {
  if (win.parent === win) return null;
  if (serverOrigin) return serverOrigin;
  const ancestors = win.location.ancestorOrigins;
  if (ancestors) return ancestors.length > 0 ? httpOrigin(ancestors[0]) : null;
  return httpOrigin(win.document?.referrer);
}

/** True for at most `max` calls in each `windowMs` window (no timer: nothing to tear down). */
export function rateLimit(max: number, windowMs: number, now = () => performance.now()): () => boolean {
  let windowStart = -Infinity;
  let count = 0;
  return () => {
    const time = now();
    if (time - windowStart >= windowMs) {
      windowStart = time;
      count = 0;
    }
    count += 1;
    return count <= max;
  };
}

function perform(target: BridgeTarget, command: PlayerCommand): void {
  const failed = (error: unknown) => console.warn(`player: the parent's ${command.actionType} failed`, error);
  switch (command.actionType) {
    case 'play':
    case 'pause': {
      const request = { play: command.actionType === 'play', handled: false };
      target.events.emit('playbackRequested', request); // an ad on screen takes it (ads/layer)
      if (request.handled) return;
      if (request.play) target.start().catch(failed);
      else target.pause();
      return;
    }
    case 'seek':
      return target.seek(command.time);
    case 'setEpisode':
      target.selectEpisode(command.episodeId, false).catch(failed);
      return;
    case 'setRequestHeaders':
      return parentRequestHeaders.set(command.headers); // ads/list reads them for each ad request
  }
}

/** Connects the player to its parent page. Returns the function that disconnects it (safe to call twice). */
export function connectParent(target: BridgeTarget, serverOrigin: string | null, win: Window = window): () => void {
  const origin = parentOrigin(serverOrigin, win);
  if (!origin) return () => undefined;
  const post = <K extends PlayerEventType>(type: K, payload: PlayerEventPayloads[K]) => {
    try {
      win.parent.postMessage({ source: MESSAGE_SOURCE, type, payload }, origin);
    } catch (error) {
      console.warn(`player: ${type} could not be posted to the parent page`, error);
    }
  };
  const allowed = rateLimit(DEFAULTS.parentCommandsPerSecond, 1000);
  const onMessage = (event: MessageEvent) => {
    if (event.source !== win.parent || event.origin !== origin) return; // a sibling frame, another origin, ourselves
    const command = parseCommand(event.data);
    if (command && allowed()) perform(target, command);
  };
  const { events } = target;
  const disposer = new Disposer(); // the player events forwarded and the window's message listener
  disposer.add(
    events.on('timeProgressChanged', throttle((p) => post('timeProgressChanged', p), DEFAULTS.timeSavingThrottleMs)),
  );
  disposer.add(events.on('episodeChanged', ({ episode }) => post('episodeChanged', episode)));
  disposer.add(events.on('enterFullScreen', () => post('enterFullScreen', null)));
  disposer.add(events.on('exitFullScreen', () => post('exitFullScreen', null)));
  disposer.add(events.on('statisticsSent', (call) => post('statistics', call)));
  disposer.listen(win, 'message', (event) => onMessage(event as MessageEvent));
  post('ready', null);
  return () => disposer.dispose();
}
