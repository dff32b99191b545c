// What the interface may do with the player: read its state, hear its events, send these intents. ui/ imports this
// file's types and nothing else of player/'s controllers (eslint.config.js); PlayerController (player/controller)
// implements it, its sub-controllers the track and platform parts. An intent asks; the state changes only when the
// media's own event arrives.
import type { EpisodeData } from '../context';
import type { Emitter, PlayerEvents } from '../core/events';
import type { ReadableStore } from '../core/store';
import type { PlayerState } from './state';

/** The film's tracks (player/trackController): quality level, subtitles, voice or rendition, gain. */
export interface TrackIntents {
  setLevel(level: number): void; // -1: Auto
  setSubtitle(index: number): void; // -1: off
  setAudio(key: string): Promise<void>; // an AudioOption's key
  setGain(gain: number): Promise<void>; // 1: off
}

/** What the browser offers around the video (player/platformController). */
export interface PlatformIntents {
  // Fullscreen of `container`, picture-in-picture, AirPlay and Cast availability, the media session, while the
  // interface is up; returns the undo
  watch(container: HTMLElement): () => void;
  togglePip(): void;
  cast(): void;
  airplay(): void;
  toggleFullscreen(): void;
}

export interface PlayerIntents {
  readonly store: ReadableStore<PlayerState>;
  readonly events: Emitter<PlayerEvents>; // heard, and the interface's own moments told (menuClicked, shareAction)
  readonly episodes: readonly EpisodeData[];
  readonly episode: EpisodeData | null;
  readonly next: EpisodeData | null;
  readonly tracks: TrackIntents;
  readonly platform: PlatformIntents;
  start(from?: number): Promise<void>; // the start button, the 'stopped here' answers, auto_play; resumes when paused
  togglePlay(): void;
  seek(seconds: number): void;
  seekBy(delta: number): void;
  seekToFraction(fraction: number): void;
  setVolume(volume: number): void;
  changeVolume(delta: number): void;
  setMuted(muted: boolean): void;
  setRate(rate: number): void;
  changeRate(delta: number): void;
  selectEpisode(id: number, play?: boolean): Promise<boolean>;
  playNext(): Promise<boolean>;
  reset(): void; // the error screen's reload
}
