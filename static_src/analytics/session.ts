// The analytics chunk (loaded after the first frame, see analytics/record): each recorded player event becomes the
// spec §7 call, `window[name](eventName, payload)`, the payload being the content, playback and session fields
// plus the event's own. Progress and played time are per episode.
import type { EpisodeData, PlayerContext } from '../context';
import { DEFAULTS } from '../core/defaults';
import type { PlayerController } from '../player/controller';
import type { PlayerState } from '../player/state';
import { bandwidthKBps, deviceType, downlinkMbps, type DeviceType } from './classify';
import { Milestones, PlayClock } from './clock';
import {
  adFields,
  contentFields,
  errorFields,
  playbackFields,
  round2,
  sessionFields,
  type Payload,
} from './payload';
import type { AnalyticsEvent, Sink } from './record';
import { statisticsSender, type Send } from './send';

export interface SessionEnv {
  send: Send;
  device: DeviceType;
  downlink(): number | null; // navigator.connection.downlink (Mbit/s), the fallback of hls.js's estimate
}

export function browserEnv(name: string, win: Window = window): SessionEnv {
  return {
    send: statisticsSender(name, win),
    device: deviceType(win.navigator.userAgent, win.navigator.maxTouchPoints),
    downlink: () => downlinkMbps(win.navigator),
  };
}

export function startSession(context: PlayerContext, controller: PlayerController, name: string): Sink {
  const env = browserEnv(name);
  const local = env.send;
  // each call also goes to the embedding page (embed/bridge posts it there, /lib.js calls the publisher's function)
  env.send = (event, payload) => {
    local(event, payload);
    controller.events.emit('statisticsSent', { event, payload: { ...payload }, name });
  };
  return createSession(context, controller.episodes, env);
}

export function createSession(context: PlayerContext, episodes: readonly EpisodeData[], env: SessionEnv): Sink {
  let clock = new PlayClock();
  let milestones = new Milestones();
  let lastAdTick = -Infinity;

  const send = (name: string, state: PlayerState, extra: Payload = {}) => {
    const episode = episodes.find((candidate) => candidate.id === state.episodeId) ?? null;
    env.send(name, {
      ...contentFields(context.content, episode, state),
      ...playbackFields(state, episode, clock),
      ...sessionFields(context, env.device),
      ...extra,
    });
  };
  const progress = (fraction: number, state: PlayerState) => {
    for (const percent of milestones.reach(fraction)) send('progress', state, { progress_perc: percent });
  };

  const handle = (event: AnalyticsEvent): void => {
    const { state } = event;
    switch (event.type) {
      case 'phaseChanged': {
        const { phase } = event.payload;
        if (phase !== 'playing') clock.halt();
        if (phase === 'playing') send('play', state);
        else if (phase === 'paused') send('pause', state);
        else if (phase === 'ended' && context.isAvailable) progress(1, state);
        return;
      }
      case 'episodeChanged':
        clock = new PlayClock();
        milestones = new Milestones();
        return;
      case 'timeProgressChanged': {
        if (!context.isAvailable) return; // the placeholder clip is not the content
        const { currentTime, duration } = event.payload;
        if (clock.tick(currentTime, event.at, state.phase === 'playing' && !state.buffering)) send('timeupdate', state);
        if (Number.isFinite(duration) && duration > 0) progress(currentTime / duration, state);
        return;
      }
      case 'seek':
        clock.seek(event.payload.to);
        return send('seek', state, { seek_from: round2(event.payload.from), seek_to: round2(event.payload.to) });
      case 'muteChanged':
        return send(event.payload.muted ? 'mute' : 'unmute', state);
      case 'fullscreenChanged':
        return send('fullscreen', state, { fullscreen_state: event.payload.fullscreen ? 'enter' : 'exit' });
      case 'qualityChanged': {
        const { label, level } = event.payload;
        return send('quality_change', state, { video_quality: label, quality_level: level });
      }
      case 'error': {
        clock.halt();
        const { error, media } = event.payload;
        const kbps = bandwidthKBps(media?.bandwidthBps, env.downlink());
        return send('error', state, errorFields(error, state, media?.droppedFrames ?? null, kbps));
      }
      case 'menuClicked':
        return send('menu_click', state, { menu_name: event.payload.menu, menu_item: event.payload.item });
      case 'shareAction':
        return send('share', state, { share_action: event.payload.action });
      case 'airplayClicked':
        return send('videoplayer_airplay_icon_click', state);
      case 'adEvent': {
        const { name, ad, adTime, status } = event.payload;
        if (name === 'ad_timeupdate') {
          if (event.at - lastAdTick < DEFAULTS.adProgressThrottleMs) return; // spec §9: at most once a second
          lastAdTick = event.at;
        }
        const extra = { ...adFields(ad), ad_current_time: round2(adTime), ad_status: status };
        return send(`videoplayer_${name}`, state, extra);
      }
    }
  };

  return (event) => {
    try {
      handle(event);
    } catch (error) {
      console.warn(`analytics: the ${event.type} event was not sent`, error); // never into playback
    }
  };
}
