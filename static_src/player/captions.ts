// The chosen subtitle track (spec §7: a <track> per subtitle of the master JSON) shown as text: the browser loads and
// times its cues ('hidden'), ui/Overlays' Captions draws them from the player's state (never as HTML). Every other
// track is off. player/trackController owns the subscription: the interface never touches the media element.

export const NO_CUES: readonly string[] = []; // one empty list, so that a store holding it sees no change when it comes again

/** Turns on the track whose address is `src` (none for ''), hands its active cues' lines to `onCues` at each change;
 * returns the undo. */
export function showSubtitle(video: HTMLVideoElement, src: string, onCues: (lines: readonly string[]) => void): () => void {
  const element = src ? Array.from(video.querySelectorAll('track')).find((candidate) => candidate.src === src) : null;
  const chosen = element?.track ?? null;
  for (const track of Array.from(video.textTracks)) track.mode = track === chosen ? 'hidden' : 'disabled';
  onCues(NO_CUES);
  if (!chosen) return () => undefined;
  // Turning a track on makes the browser load it and fire cuechange: no need to read the cues here.
  const update = () => {
    const active = Array.from(chosen.activeCues ?? []) as VTTCue[];
    onCues(active.length ? active.flatMap((cue) => cue.text.replace(/<[^>]+>/g, '').split('\n')) : NO_CUES);
  };
  chosen.addEventListener('cuechange', update);
  return () => chosen.removeEventListener('cuechange', update);
}
