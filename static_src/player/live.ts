// Live streams (spec §9: live-edge tolerance, minimum DVR window; the time display shows 'LIVE').
import { DEFAULTS } from '../core/defaults';

export interface LiveState {
  isLive: boolean;
  hasDvr: boolean; // a seekable window long enough to offer seeking back
  atLiveEdge: boolean; // within the tolerance of the live edge
}

/** What liveState reads of a media element. */
export interface LiveMedia {
  duration: number;
  currentTime: number;
  seekable: { length: number; start(i: number): number; end(i: number): number };
}

/** Video on demand: not live (each liveState() call gives a copy). */
export const NOT_LIVE: LiveState = { isLive: false, hasDvr: false, atLiveEdge: false };

/**
 * Spec §9: live when the duration is Infinity; the DVR window spans the seekable ranges and counts only from
 * minLiveDvrWindowS; at the live edge within liveEdgeToleranceS of the last seekable end (and, before any range
 * is known, there is nowhere else to be).
 */
export function liveState(media: LiveMedia): LiveState {
  if (media.duration !== Infinity) return { ...NOT_LIVE };
  const { seekable } = media;
  if (seekable.length === 0) return { isLive: true, hasDvr: false, atLiveEdge: true };
  const start = seekable.start(0);
  const end = seekable.end(seekable.length - 1);
  const span = end - start; // the seekable window in seconds
  return {
    isLive: true,
    hasDvr: Number.isFinite(span) && span > 0 && span >= DEFAULTS.minLiveDvrWindowS,
    atLiveEdge: end - media.currentTime <= DEFAULTS.liveEdgeToleranceS,
  };
}
