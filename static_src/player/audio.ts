// Audio track order and choice (spec §5 "Audio tracks: those labelled with preferred language codes first;
// otherwise AC3 tracks are excluded. Selection order: saved choice, then voice author match, then the first.").

export interface AudioCandidate {
  label: string;
  language: string;
  codec: string | null;
}

// The common ISO 639-2 codes (bibliographic and terminological) to their ISO 639-1 form.
const THREE_TO_TWO: Readonly<Record<string, string>> = {
  rus: 'ru', eng: 'en', ukr: 'uk', bel: 'be', kaz: 'kk', deu: 'de', ger: 'de', fra: 'fr', fre: 'fr',
  spa: 'es', ita: 'it', por: 'pt', jpn: 'ja', kor: 'ko', zho: 'zh', chi: 'zh', tur: 'tr', pol: 'pl',
};

/** 'ru-RU', 'RUS', ' ru_ru ' → 'ru': lowercased primary subtag, three-letter common codes mapped to two. */
export function normalizeLanguage(code: string | null | undefined): string {
  const primary = (code ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return Object.prototype.hasOwnProperty.call(THREE_TO_TWO, primary) ? THREE_TO_TWO[primary] : primary;
}

const AC3_CODEC = /^(?:ac-?3|ec-?3|e-?ac-?3|mp4a\.a[56])$/i;
const AC3_LABEL = /(?:^|[^\p{L}\p{N}])(?:e-?)?ac-?3(?![\p{L}\p{N}])|dolby\s+digital/iu;

/** Spec §5: an AC3 track (codec ac-3/ec-3, or AC3/AC-3/E-AC3/Dolby Digital in the label), excluded by default. */
export function isAc3(track: AudioCandidate): boolean {
  const codecs = (track.codec ?? '').split(',').map((c) => c.trim());
  return codecs.some((c) => AC3_CODEC.test(c)) || AC3_LABEL.test(track.label ?? '');
}

/**
 * Spec §5: tracks in preferred languages first (in preference order), then the rest as they came; with no
 * preferred match, the tracks without AC3 ones (all of them if that leaves none). Never mutates `tracks`.
 */
export function orderAudioTracks<T extends AudioCandidate>(tracks: T[], preferred: string[]): T[] {
  const codes = [...new Set(preferred.map(normalizeLanguage).filter((code) => code !== ''))];
  const rank = (track: T): number => codes.indexOf(normalizeLanguage(track.language));
  if (tracks.some((track) => rank(track) >= 0)) {
    const first = codes.flatMap((_, i) => tracks.filter((track) => rank(track) === i));
    return [...first, ...tracks.filter((track) => rank(track) < 0)];
  }
  const withoutAc3 = tracks.filter((track) => !isAc3(track));
  return withoutAc3.length > 0 ? withoutAc3 : [...tracks];
}

const norm = (text: string | null | undefined): string => (text ?? '').trim().toLowerCase();

/** The first two steps of the spec §5 selection order: the saved label, then the voice author; no match → null. */
export function findPreferred<T extends AudioCandidate>(tracks: T[], saved: string | null, voiceAuthor: string | null): T | null {
  const wanted = norm(saved);
  const bySaved = wanted === '' ? undefined : tracks.find((track) => norm(track.label) === wanted);
  if (bySaved) return bySaved;
  const author = norm(voiceAuthor);
  return (author === '' ? undefined : tracks.find((track) => norm(track.label).includes(author))) ?? null;
}

/** Spec §5 selection order over the ordered list: saved label, then voice author match, then the first; none → null. */
export function chooseAudioTrack<T extends AudioCandidate>(
  tracks: T[],
  saved: string | null,
  voiceAuthor: string | null,
): T | null {
  return findPreferred(tracks, saved, voiceAuthor) ?? tracks[0] ?? null;
}
