// The one message schema between the player and the page that embeds it (spec §4, §7; docs/embed.md).
//   player → page: { source: 'player', type, payload }, posted to the embedding page's origin only (embed/bridge)
//   page → player: { actionType, ...arguments }, taken from the parent window at that origin only (embed/bridge)
// /lib.js (embed/lib) speaks it on the publisher's side. The parsers below read only own data properties of plain
// objects, so that nothing a page sends (strings, null, arrays, '__proto__' or 'constructor' as an action, NaN) can
// pass for a message or throw.
import type { EpisodeData } from '../context';
import { cleanHeaders } from './requestHeaders';

export const MESSAGE_SOURCE = 'player';

/** Each message the player posts, and its payload. */
export interface PlayerEventPayloads {
  ready: null; // the bridge listens: commands sent from now on are taken
  enterFullScreen: null; // pseudo fullscreen (iOS in a frame, or FULLSCREEN_MODE=pseudo): stretch the frame
  exitFullScreen: null; // restore the frame
  episodeChanged: EpisodeData; // another episode was chosen (spec §4), the episode as the player context has it
  timeProgressChanged: { currentTime: number; duration: number }; // seconds, at most once a second (spec §9)
  // an analytics call (spec §7) as the player made it: the event's name, its flat payload, and the statistics
  // function's name, which /lib.js calls on the publisher's page when it defines one
  statistics: { event: string; payload: Record<string, string | number | boolean | null>; name: string };
}

export type PlayerEventType = keyof PlayerEventPayloads;

export type PlayerMessage = {
  [K in PlayerEventType]: { source: typeof MESSAGE_SOURCE; type: K; payload: PlayerEventPayloads[K] };
}[PlayerEventType];

/** The commands the player takes: spec §4's pause, and ours. */
export type PlayerCommand =
  | { actionType: 'play' } // start, or resume (the ad when one is on screen)
  | { actionType: 'pause' } // the film, or the ad when one is on screen
  | { actionType: 'seek'; time: number } // seconds from the start, once playback has started
  | { actionType: 'setEpisode'; episodeId: number } // an episode of this content; it plays if playback had started
  // the headers of the next ad requests (spec §7's window-level request headers), replacing any relayed before
  | { actionType: 'setRequestHeaders'; headers: Record<string, string> };

type Fields = Record<string, unknown>;

function isPlainObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own data property, never one inherited from a prototype. */
function field(data: Fields, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(data, key) ? data[key] : undefined;
}

const EVENT_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/; // as STATISTICS_FUNCTION (app/config.py)

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/** A command from the embedding page, or null for anything that is not exactly one. */
export function parseCommand(data: unknown): PlayerCommand | null {
  if (!isPlainObject(data)) return null;
  const action = field(data, 'actionType');
  if (action === 'play' || action === 'pause') return { actionType: action };
  if (action === 'seek') {
    const time = field(data, 'time');
    return typeof time === 'number' && Number.isFinite(time) && time >= 0 ? { actionType: action, time } : null;
  }
  if (action === 'setEpisode') {
    const episodeId = field(data, 'episodeId');
    return isId(episodeId) ? { actionType: action, episodeId } : null;
  }
  if (action === 'setRequestHeaders') {
    const value = field(data, 'headers'); // taken whole or not at all: /lib.js sends only clean ones
    const { headers, dropped } = cleanHeaders(value);
    const plain = value !== null && typeof value === 'object' && !Array.isArray(value);
    return plain && dropped.length === 0 ? { actionType: action, headers } : null;
  }
  return null;
}

/** A message of the player, or null for anything that is not exactly one (embed/lib reads the player's with it). */
export function parseMessage(data: unknown): PlayerMessage | null {
  if (!isPlainObject(data) || field(data, 'source') !== MESSAGE_SOURCE) return null;
  const type = field(data, 'type');
  const payload = field(data, 'payload');
  switch (type) {
    case 'ready':
    case 'enterFullScreen':
    case 'exitFullScreen':
      return { source: MESSAGE_SOURCE, type, payload: null };
    case 'episodeChanged':
      return isPlainObject(payload) && isId(field(payload, 'id'))
        ? { source: MESSAGE_SOURCE, type, payload: payload as unknown as EpisodeData }
        : null;
    case 'timeProgressChanged': {
      if (!isPlainObject(payload)) return null;
      const currentTime = field(payload, 'currentTime');
      const duration = field(payload, 'duration'); // Infinity on a live stream
      if (typeof currentTime !== 'number' || !Number.isFinite(currentTime)) return null;
      if (typeof duration !== 'number' || Number.isNaN(duration)) return null;
      return { source: MESSAGE_SOURCE, type, payload: { currentTime, duration } };
    }
    case 'statistics': {
      if (!isPlainObject(payload)) return null;
      const event = field(payload, 'event');
      const name = field(payload, 'name');
      const fields = field(payload, 'payload');
      if (typeof event !== 'string' || !EVENT_NAME.test(event)) return null;
      if (typeof name !== 'string' || !IDENTIFIER.test(name) || !isPlainObject(fields)) return null;
      const flat: Record<string, string | number | boolean | null> = {};
      for (const [key, value] of Object.entries(fields)) {
        if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) flat[key] = value as never;
      }
      return { source: MESSAGE_SOURCE, type, payload: { event, payload: flat, name } };
    }
    default:
      return null;
  }
}
