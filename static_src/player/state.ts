// The player's state: what player/controller and its sub-controllers (trackController, platformController) write
// from the media's events, and what the interface, the shell, analytics and the ad path read. Nothing here acts.
import type { PlayerError } from '../core/errors';
import type { PlaybackPhase } from '../core/events';
import * as storage from '../core/storage';
import { NO_CUES } from './captions';
import { NOT_LIVE, type LiveState } from './live';
import type { MasterSubtitle } from './master';
import type { QualityOption } from './quality';
import type { AudioOption } from './voices';

/** An ad on screen (ads/layer) and whether it plays; null when there is none. */
export type AdState = 'playing' | 'paused' | null;

export interface PlayerState {
  phase: PlaybackPhase;
  started: boolean; // playback was asked for at least once
  buffering: boolean;
  error: PlayerError | null;
  episodeId: number | null;
  currentTime: number;
  duration: number;
  bufferedEnd: number;
  volume: number;
  muted: boolean;
  rate: number;
  gain: number; // 1: off
  quality: QualityOption[];
  level: number; // the chosen level, -1 for Auto
  playingLevel: number; // the level on screen (what Auto picked)
  audio: AudioOption[];
  audioKey: string | null;
  subtitles: MasterSubtitle[];
  subtitle: number; // index in subtitles, -1 for off
  cues: readonly string[]; // the lines of the chosen subtitle's active cues, as text (ui/Overlays Captions draws them)
  live: LiveState;
  resumeAt: number | null; // the 'stopped here' offer (spec §5), null when there is none
  fullscreen: boolean;
  // What the browser offers around the video while the interface watches it (player/platformController watch)
  canPip: boolean;
  canCast: boolean;
  canAirplay: boolean;
  ad: AdState; // while an ad is on screen the viewer's play/pause goes to it and the film underneath stays put
}

/** The state of a player that has not started `episodeId`; volume and mute carry over (spec §3: saved ones). */
export function initialState(
  episodeId: number | null,
  volume = storage.loadVolume(),
  muted = storage.loadMuted(),
): PlayerState {
  return {
    phase: 'idle',
    started: false,
    buffering: false,
    error: null,
    episodeId,
    currentTime: 0,
    duration: 0,
    bufferedEnd: 0,
    volume,
    muted,
    rate: 1,
    gain: 1,
    quality: [],
    level: -1,
    playingLevel: -1,
    audio: [],
    audioKey: null,
    subtitles: [],
    subtitle: -1,
    cues: NO_CUES,
    live: NOT_LIVE,
    resumeAt: null,
    fullscreen: false,
    canPip: false,
    canCast: false,
    canAirplay: false,
    ad: null,
  };
}

/**
 * Everything but the phase back to a player that has not started `episodeId`, keeping volume and mute, what the
 * browser offers, and the ad state, which the ad path reports (it ends that ad itself).
 */
export function freshState(state: PlayerState, episodeId: number | null): Omit<PlayerState, 'phase'> {
  const { volume, muted, ad, canPip, canCast, canAirplay } = state;
  const { phase: _idle, ...fresh } = initialState(episodeId, volume, muted);
  return { ...fresh, ad, canPip, canCast, canAirplay };
}
