// One typed event map: every name the player emits and the exact payload that goes with it.
// Subscribers (the parent-page bridge, analytics, the ad layer) only ever see these.
import type { PlayerError } from './errors';
import type { EpisodeData } from '../context';

export type PlaybackPhase = 'idle' | 'loading' | 'playing' | 'paused' | 'ended' | 'error';

export interface PlayerEvents {
  phaseChanged: { phase: PlaybackPhase };
  episodeChanged: { episode: EpisodeData };
  timeProgressChanged: { currentTime: number; duration: number };
  error: { error: PlayerError };
  enterFullScreen: Record<string, never>; // pseudo fullscreen (iOS in a frame): the parent page should stretch the frame
  exitFullScreen: Record<string, never>;
}

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
