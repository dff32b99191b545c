// What the media looked like at an error (analytics, spec §7), read before the engine is released.
import type { MediaStats } from '../core/events';
import type { Engine } from './engine';

export function mediaStats(video: HTMLVideoElement | null, engine: Engine | null): MediaStats {
  const bandwidth = engine?.bandwidthEstimate?.();
  let droppedFrames: number | null = null;
  try {
    droppedFrames = video?.getVideoPlaybackQuality?.().droppedVideoFrames ?? null;
  } catch {
    // a browser without playback quality: unknown
  }
  return {
    bandwidthBps: typeof bandwidth === 'number' && Number.isFinite(bandwidth) && bandwidth > 0 ? bandwidth : null,
    droppedFrames,
  };
}

/** Silent: muted, or at volume 0 (what the mute/unmute analytics events mean). */
export const isSilent = (media: { muted: boolean; volume: number }) => media.muted || media.volume === 0;
