// /lib.js (spec §7): the script a publisher includes to embed the player. It makes the iframe (the player page with
// the player parameters and `origin=location.origin`, allowed autoplay, fullscreen, picture-in-picture and
// encrypted media), sized to fill its container (16:9 of its width when the container has no height), and returns a
// typed handle: the player's events (on/off) and its commands (play, pause, seek, setEpisode, setRequestHeaders). It
// talks to that iframe only, at the player's origin only, in the schema of embed/messages.ts, relays what the
// publisher's page sets for the player (its statistics function, its request headers for ad calls), and
// stretches the iframe over the page between enterFullScreen and exitFullScreen. A classic script of its own
// (static_src/build.mjs): window.PlayerHost.createPlayer. docs/embed.md shows it in use.
import { Emitter } from '../core/events';
import { parseMessage, type PlayerCommand, type PlayerEventPayloads, type PlayerEventType } from './messages';
import { cleanHeaders } from './requestHeaders';
import { player } from '../../app/texts.json';

export type { PlayerEventPayloads, PlayerEventType } from './messages';

export interface PlayerOptions {
  movieId: number;
  episodeId?: number;
  season?: number;
  episode?: number;
  t?: number; // start time code, whole seconds
  episodeTime?: number;
  autoPlay?: boolean;
  enabledShare?: boolean;
  disableCheckingAvailable?: boolean;
  userId?: string;
  voiceAuthor?: string;
  langOrder?: string[]; // ['ru', 'en']
  // an embed address signed by the publisher's server, for a publisher that signs them (docs/embed.md)
  embedExpires?: number;
  embedSignature?: string;
  params?: Record<string, string>; // any other query parameter of the player page
  title?: string; // the iframe's accessible name
  playerUrl?: string; // the player page; by default the address this script came from, without 'lib.js'
  // headers for the player's ad requests (spec §7's window-level request headers); by default the page's
  // window.playerRequestHeaders, read when the player is created and again when it is ready
  requestHeaders?: Record<string, string>;
}

type Listener<K extends PlayerEventType> = (payload: PlayerEventPayloads[K]) => void;

export interface EmbeddedPlayer {
  readonly iframe: HTMLIFrameElement;
  on<K extends PlayerEventType>(type: K, listener: Listener<K>): void;
  off<K extends PlayerEventType>(type: K, listener: Listener<K>): void;
  play(): void;
  pause(): void;
  seek(time: number): void; // seconds
  setEpisode(episodeId: number): void;
  setRequestHeaders(headers: Record<string, string>): void; // for the ad requests from now on
  destroy(): void; // removes the iframe and every listener
}

const QUERY_NAMES: Record<string, string> = {
  movieId: 'movie_id',
  episodeId: 'episode_id',
  season: 'season',
  episode: 'episode',
  t: 't',
  episodeTime: 'episode_time',
  autoPlay: 'auto_play',
  enabledShare: 'enabled_share',
  disableCheckingAvailable: 'disable_checking_available',
  userId: 'user_id',
  voiceAuthor: 'voice_author',
  langOrder: 'lang_order',
  embedExpires: 'embed_exp',
  embedSignature: 'embed_sig',
};
const ALLOW = 'autoplay; fullscreen; picture-in-picture; encrypted-media';
const HEADER_RULE = 'each a token name and a string value fetch can send, at most 20';
const QUEUE_LIMIT = 20; // commands kept until the player is ready; older ones are dropped
// The iframe fills its container; a container with no height of its own (a block in the flow, the README's snippet)
// gets a 16:9 player as wide as it is.
const FILL: Record<string, string> = { display: 'block', width: '100%', height: '100%', border: '0' };
const WIDE: Record<string, string> = { height: 'auto', 'aspect-ratio': '16 / 9' };
const STRETCHED: Record<string, string> = {
  position: 'fixed', inset: '0', width: '100vw', height: '100vh', 'max-width': 'none', 'max-height': 'none',
  margin: '0', border: '0', 'z-index': '2147483647',
};
// Captured while this script runs: document.currentScript is null once it has.
const SCRIPT_SRC = typeof document === 'undefined' ? '' : (document.currentScript as HTMLScriptElement | null)?.src ?? '';

/** Sizes the iframe to its container: filled, or 16:9 of its width when the container has no height. */
export function fitIframe(iframe: HTMLIFrameElement, host: Element): void {
  for (const [name, value] of Object.entries(FILL)) iframe.style.setProperty(name, value);
  if (host.clientHeight === 0) for (const [name, value] of Object.entries(WIDE)) iframe.style.setProperty(name, value);
}

const PAGE_URL_MAX = 2048; // a longer address is not passed (the server would not take it either)

/**
 * The player page's address: the player parameters, then `params`, then the embedding page's origin and, for share
 * links (spec §2), its address without the fragment (`page_url`) when it is not too long; `request_headers=1` when
 * this script will relay request headers for the ad calls.
 */
export function playerAddress(
  base: string, options: PlayerOptions, parentOrigin: string, pageUrl = '', relaysHeaders = false,
): URL {
  const url = new URL(base);
  for (const [key, name] of Object.entries(QUERY_NAMES)) {
    const value = (options as unknown as Record<string, unknown>)[key];
    if (typeof value === 'boolean') {
      if (value) url.searchParams.set(name, '1');
    } else if (Array.isArray(value)) {
      if (value.length) url.searchParams.set(name, value.join(','));
    } else if (typeof value === 'number' || typeof value === 'string') {
      url.searchParams.set(name, String(value));
    }
  }
  for (const [name, value] of Object.entries(options.params ?? {})) url.searchParams.set(name, String(value));
  url.searchParams.set('origin', parentOrigin);
  const page = pageUrl.split('#', 1)[0];
  if (page && page.length <= PAGE_URL_MAX) url.searchParams.set('page_url', page);
  else url.searchParams.delete('page_url');
  if (relaysHeaders) url.searchParams.set('request_headers', '1'); // the player waits for them before its ad requests
  return url;
}

/** The publisher page's own statistics function (spec §7), when it defines one: called as the player would call it
 * on its own window. Whatever it does or throws stays on the publisher's side. */
function callPublisher(win: Window, call: PlayerEventPayloads['statistics']): void {
  try {
    const fn = (win as unknown as Record<string, unknown>)[call.name];
    if (typeof fn === 'function') fn.call(win, call.event, { ...call.payload });
  } catch (error) {
    console.warn(`PlayerHost: window.${call.name} failed`, error);
  }
}

export function createPlayer(container: Element | string, options: PlayerOptions, win: Window = window): EmbeddedPlayer {
  const host = typeof container === 'string' ? win.document.querySelector(container) : container;
  if (!host) throw new Error(`PlayerHost: no element ${String(container)}`);
  const base = options.playerUrl ?? (SCRIPT_SRC ? new URL('./', SCRIPT_SRC).href : null);
  if (!base) throw new Error('PlayerHost: load /lib.js with a <script src>, or pass playerUrl');
  // The publisher's ad-request headers: the option, else the page's window-level ones, as fetch can send them
  let chosen = options.requestHeaders;
  const publisherHeaders = () => {
    const { headers: clean, dropped } = cleanHeaders(chosen ?? win.playerRequestHeaders);
    if (dropped.length) console.warn(`PlayerHost: request headers left out (${HEADER_RULE}): ${dropped.join(', ')}`);
    return clean;
  };
  let headers = publisherHeaders();
  const relays = Object.keys(headers).length > 0;
  const address = playerAddress(base, options, win.location.origin, win.location.href, relays);
  const playerOrigin = address.origin;
  const iframe = win.document.createElement('iframe');
  iframe.src = address.href;
  iframe.title = options.title ?? player; // the player's name (app/texts.json), as the page inside calls itself
  iframe.setAttribute('allow', ALLOW);
  iframe.setAttribute('allowfullscreen', '');
  const listeners = new Emitter<PlayerEventPayloads>();
  let queue: PlayerCommand[] | null = []; // null once the player said it is ready
  let saved: string | null = null; // the iframe's own style while stretched

  const send = (command: PlayerCommand) => {
    if (queue) {
      queue.push(command);
      if (queue.length > QUEUE_LIMIT) queue.shift();
      return;
    }
    iframe.contentWindow?.postMessage(command, playerOrigin);
  };
  const stretch = (on: boolean) => {
    if (on && saved === null) {
      saved = iframe.style.cssText;
      for (const [name, value] of Object.entries(STRETCHED)) iframe.style.setProperty(name, value, 'important');
    } else if (!on && saved !== null) {
      iframe.style.cssText = saved;
      saved = null;
    }
  };
  const onMessage = (event: MessageEvent) => {
    if (event.source !== iframe.contentWindow || event.origin !== playerOrigin) return;
    const message = parseMessage(event.data);
    if (!message) return;
    if (message.type === 'ready') {
      const pending = queue ?? [];
      queue = null;
      if (!chosen) headers = publisherHeaders(); // the page may have set its window-level ones since
      if (relays || Object.keys(headers).length) send({ actionType: 'setRequestHeaders', headers }); // before the rest
      pending.forEach(send);
    } else if (message.type === 'enterFullScreen' || message.type === 'exitFullScreen') {
      stretch(message.type === 'enterFullScreen');
    } else if (message.type === 'statistics') {
      callPublisher(win, message.payload);
    }
    listeners.emit(message.type, message.payload as never); // a failing listener is logged, the others still run
  };
  win.addEventListener('message', onMessage);
  fitIframe(iframe, host); // measured before the iframe is in it
  host.append(iframe);

  return {
    iframe,
    on(type, listener) {
      listeners.on(type, listener);
    },
    off(type, listener) {
      listeners.off(type, listener);
    },
    play: () => send({ actionType: 'play' }),
    pause: () => send({ actionType: 'pause' }),
    seek: (time) => send({ actionType: 'seek', time }),
    setEpisode: (episodeId) => send({ actionType: 'setEpisode', episodeId }),
    setRequestHeaders(next) {
      chosen = next;
      headers = publisherHeaders();
      if (!queue) send({ actionType: 'setRequestHeaders', headers }); // else sent at ready
    },
    destroy() {
      win.removeEventListener('message', onMessage);
      listeners.clear();
      iframe.remove();
    },
  };
}
