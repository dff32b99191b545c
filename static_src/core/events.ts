// One typed event map: every name the player emits and the exact payload that goes with it.
// Subscribers (the parent-page bridge, analytics, the ad layer) only ever see these.
// The types its payloads name are core's or the context's (the server's blob), never a feature module's: ads/ and share/
// import them from here.
import type { PlayerError } from './errors';
import type { EpisodeData } from '../context';

export type PlaybackPhase = 'idle' | 'loading' | 'playing' | 'paused' | 'ended' | 'error';

export interface PlayerEvents {
  phaseChanged: { phase: PlaybackPhase };
  episodeChanged: { episode: EpisodeData };
  timeProgressChanged: { currentTime: number; duration: number };
  error: { error: PlayerError; media?: MediaStats };
  enterFullScreen: Record<string, never>; // pseudo fullscreen (iOS in a frame): the parent page should stretch the frame
  exitFullScreen: Record<string, never>;
  // The embedding page asked to play or pause (embed/bridge, after its origin checks), or the viewer's key or tap to
  // toggle under an ad (`'toggle'`: the ad's own element says which, never a state reported after its events). An ad
  // on screen takes the request and sets `handled` (ads/layer); otherwise the bridge hands it to the controller.
  playbackRequested: { play: boolean | 'toggle'; handled: boolean };
  // What analytics reports (spec §7; analytics/record subscribes). Emitted where it happens, never for analytics' sake.
  seek: { from: number; to: number }; // the controller's seek (bar, buttons, keys, taps, media session)
  muteChanged: { muted: boolean }; // the viewer made the sound silent (muted or volume 0) or audible again
  fullscreenChanged: { fullscreen: boolean }; // any fullscreen, native or pseudo
  qualityChanged: { level: number; label: string }; // the viewer's choice in the quality menu; -1 is 'Auto'
  menuClicked: { menu: string; item: string }; // an item of a settings menu: its label, or 'back' / 'close'
  shareAction: { action: ShareAction };
  airplayClicked: Record<string, never>;
  adEvent: { name: AdEventName; ad: AdHistoryItem | null; adTime: number; status: string }; // ads/events
  // An analytics call made (analytics/session): the embedding page gets it too (embed/bridge), for a publisher on
  // another origin, whose statistics function the player's window cannot reach.
  statisticsSent: { event: string; payload: Record<string, string | number | boolean | null>; name: string };
}

/** What the media looked like when an error stopped it, read before the engine is released. */
export interface MediaStats {
  bandwidthBps: number | null; // hls.js's bandwidth estimate (bits/s); null without one (native HLS)
  droppedFrames: number | null; // getVideoPlaybackQuality().droppedVideoFrames
}

/** The social services of the share popup (spec §7; share/link knows how each is addressed). */
export type ShareServiceId = 'telegram' | 'whatsapp' | 'facebook' | 'x' | 'vk';

export type ShareAction = 'open' | 'close' | 'copy' | 'timecode_on' | 'timecode_off' | ShareServiceId;

export type AdType = 'preroll' | 'midroll';

/** One ad of the session (spec §3 "ad history"): ads/scheduler writes them, analytics reads them. */
export interface AdHistoryItem {
  id: string;
  type: AdType;
  position: number; // running ad number, from 1
  duration: number; // seconds, rounded
  perc: number; // percent of the content played when the ad loaded, rounded
}

/** An ad's moments (spec §7); analytics sends them prefixed videoplayer_. */
export type AdEventName =
  | 'ad_init'
  | 'ad_loaded'
  | 'ad_play'
  | 'ad_pause'
  | 'ad_ended'
  | 'ad_skip_btn_click'
  | 'ad_banner_click'
  | 'ad_timeupdate';

type Listener<T> = (payload: T) => void;

export class Emitter<M extends object> {
  private listeners = new Map<keyof M, Set<Listener<never>>>();

  on<K extends keyof M>(type: K, listener: Listener<M[K]>): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => this.off(type, listener);
  }

  off<K extends keyof M>(type: K, listener: Listener<M[K]>): void {
    this.listeners.get(type)?.delete(listener as Listener<never>);
  }

  emit<K extends keyof M>(type: K, payload: M[K]): void {
    for (const listener of [...(this.listeners.get(type) ?? [])]) {
      try {
        (listener as Listener<M[K]>)(payload);
      } catch (error) {
        // A broken subscriber must never break playback or the other subscribers.
        console.error(`player: a ${String(type)} listener failed`, error);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
