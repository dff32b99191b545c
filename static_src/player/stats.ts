// Readings of the media element: what it looked like at an error (analytics, spec §7, read before the engine is
// released), whether it is silent, how far it has buffered.
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

/** The end of the buffered range the playhead is in (or just before), else the playhead: the seek bar's 'loaded'. */
export function bufferedEnd(video: HTMLVideoElement): number {
  const { buffered, currentTime } = video;
  for (let i = 0; i < buffered.length; i += 1) {
    if (buffered.start(i) <= currentTime + 0.5 && currentTime <= buffered.end(i)) return buffered.end(i);
  }
  return currentTime;
}
