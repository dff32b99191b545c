// An episode's intro and credits (issue 35; the server's markers, EpisodeData introStart, introEnd, creditsStart):
// when «Пропустить заставку» shows and when the next-episode card does. The interface reads these; the skip itself is
// the seek intent to the intro's end.
import type { EpisodeData } from '../context';
import type { PlaybackPhase } from '../core/events';

type Marked = Pick<EpisodeData, 'introStart' | 'introEnd' | 'creditsStart'>;

/** The intro's end when the playhead is inside the intro [introStart, introEnd), else null. */
export function introSkipTo(episode: Marked | null, currentTime: number): number | null {
  const start = episode?.introStart;
  const end = episode?.introEnd;
  if (start == null || end == null || !(end > start)) return null;
  return currentTime >= start && currentTime < end ? end : null;
}

interface Playhead {
  phase: PlaybackPhase;
  currentTime: number;
  duration: number;
}

/**
 * Whether the next-episode card shows: at the end always (spec §4); during playback from the credits' start when the
 * episode has one inside it, else over its last `leadS` seconds (a film of more than twice that).
 */
export function nextCardDue({ phase, currentTime, duration }: Playhead, creditsStart: number | null | undefined,
  leadS: number): boolean {
  if (phase === 'ended') return true;
  if (phase === 'idle' || !(duration > 0)) return false;
  if (creditsStart != null && creditsStart > 0 && creditsStart < duration) return currentTime >= creditsStart;
  return duration > leadS * 2 && duration - currentTime <= leadS;
}
