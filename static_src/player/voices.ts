// The audio menu (spec §3, §5): the master JSON's sources (one per voice author) and the audio renditions of the
// loaded source, as one list. Other sources are one entry each; the loaded one shows its renditions when it has
// several. Pure: the controller feeds it and acts on the chosen entry.
import type { AudioCandidate } from './audio';
import { chooseAudioTrack, findPreferred, orderAudioTracks } from './audio';
import type { EngineAudioTrack } from './engine';
import type { MasterSource } from './master';

export interface AudioOption extends AudioCandidate {
  key: string; // stable within one master: `${source}` or `${source}:${track}`
  source: number; // index in master.sources
  track: number | null; // the engine's rendition index, null for a source not loaded yet
}

const SEPARATOR = ' · ';

/** The source to load first: the saved choice, then the voice author, then the master's default. */
export function chooseSource(sources: MasterSource[], saved: string | null, voiceAuthor: string | null): number {
  const candidates = sources.map((source) => ({ label: source.label, language: '', codec: null }));
  const preferred = findPreferred(candidates, saved?.split(SEPARATOR)[0] ?? null, voiceAuthor);
  if (preferred) return candidates.indexOf(preferred);
  return Math.max(0, sources.findIndex((source) => source.isDefault));
}

/** The menu entries for the loaded source `current` whose renditions (already ordered by the rules) are `tracks`. */
export function audioOptions(sources: MasterSource[], current: number, tracks: EngineAudioTrack[]): AudioOption[] {
  const options: AudioOption[] = [];
  sources.forEach((source, index) => {
    if (index !== current || tracks.length <= 1) {
      const only = index === current ? (tracks[0] ?? null) : null;
      options.push({
        key: String(index),
        label: source.label || only?.label || '',
        language: only?.language ?? '',
        codec: only?.codec ?? null,
        source: index,
        track: only ? only.index : null,
      });
      return;
    }
    for (const track of tracks) {
      options.push({
        key: `${index}:${track.index}`,
        label: sources.length > 1 && source.label ? `${source.label}${SEPARATOR}${track.label}` : track.label,
        language: track.language,
        codec: track.codec,
        source: index,
        track: track.index,
      });
    }
  });
  return options.filter((option) => option.label !== '' || sources.length === 1);
}

/** The renditions of the loaded source in the spec's order, and the one to play. */
export function pickRendition(
  tracks: EngineAudioTrack[],
  langOrder: string[],
  saved: string | null,
  voiceAuthor: string | null,
): { ordered: EngineAudioTrack[]; chosen: EngineAudioTrack | null } {
  const ordered = orderAudioTracks(tracks, langOrder);
  const savedTrack = saved?.includes(SEPARATOR) ? saved.split(SEPARATOR).slice(1).join(SEPARATOR) : saved;
  return { ordered, chosen: chooseAudioTrack(ordered, savedTrack, voiceAuthor) };
}
