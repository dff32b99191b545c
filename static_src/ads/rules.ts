// The spec's ad rules (§4, §5, §8, §9) as plain functions: error codes, media file choice, the skip button's state
// (the offset itself is @dailymotion/vast-client's skipDelay, read from HH:MM:SS(.mmm) or n%), click-through URLs,
// when a mid-roll is due and whether the ad may play. No DOM, no network.
import { DEFAULTS } from '../core/defaults';

/** Ad error codes (spec §8) with the spec's messages; `{src}` and `{reason}` are filled in by adError. */
export const AdErrorCode = {
  XML_PARSE: 100, // 'Failed parsing xml'
  VERSION_UNSUPPORTED: 102, // a wrapper led to a VAST version the library does not read (IAB)
  WRAPPER_TIMEOUT: 301, // a wrapper's VASTAdTagURI did not answer in time (IAB)
  WRAPPER_LIMIT: 302, // more wrappers than allowed (IAB)
  NO_RESPONSE: 303, // no VAST response: no ad (IAB)
  LOAD_TIMEOUT: 350, // the VAST document did not answer in time
  NO_MEDIA_FILE: 401, // 'Not found mediaFiles in VAST'
  MEDIA_TIMEOUT: 402, // the media file did not start in time
  NO_SUPPORTED_MEDIA: 403, // 'Not found supported mediaFile'
  MEDIA_FAILED: 405, // 'Media file error: {src}'
  CANT_PLAY: 450, // 'Video cant play: {reason}'
  UNDEFINED: 900, // 'Failed load VAST' (bad HTTP response) or 'Unknown error'
  EMPTY_VAST: 901, // 'Empty vast': not exactly one Ad
} as const;
export type AdErrorCode = (typeof AdErrorCode)[keyof typeof AdErrorCode];

const MESSAGES: Record<AdErrorCode, string> = {
  100: 'Failed parsing xml',
  102: 'VAST version not supported',
  301: 'Wrapper VAST timeout',
  302: 'Wrapper limit reached',
  303: 'No VAST response',
  350: 'VAST load timeout',
  401: 'Not found mediaFiles in VAST',
  402: 'Media file timeout',
  403: 'Not found supported mediaFile',
  405: 'Media file error: {src}',
  450: 'Video cant play: {reason}',
  900: 'Unknown error',
  901: 'Empty vast',
};

export class AdError extends Error {
  constructor(
    readonly code: AdErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AdError';
  }
}

/** An AdError with the spec's message for `code`; `failedLoad` gives 900 its 'Failed load VAST' wording. */
export function adError(code: AdErrorCode, fill: { src?: string; reason?: string; failedLoad?: boolean } = {}) {
  const text = code === 900 && fill.failedLoad ? 'Failed load VAST' : MESSAGES[code];
  return new AdError(code, text.replace('{src}', fill.src ?? '').replace('{reason}', fill.reason ?? ''));
}

/** The code of anything thrown on the ad path: an AdError's own, else 900 (spec: unknown). */
export function codeOf(error: unknown): AdErrorCode {
  return error instanceof AdError ? error.code : AdErrorCode.UNDEFINED;
}

export interface AdMediaFile {
  fileURL: string | null;
  mimeType: string | null;
  width: number;
  height: number;
  codec?: string | null;
  apiFramework?: string | null;
}

/** Spec §5: a media file counts only with width, height, url and type (a VPAID file too: it counts, and cannot play). */
export function usableMediaFiles<T extends AdMediaFile>(files: readonly T[]): T[] {
  return files.filter(
    (file) =>
      Boolean(file.fileURL?.trim()) &&
      Boolean(file.mimeType?.trim()) &&
      file.width > 0 &&
      file.height > 0 &&
      isHttpUrl(file.fileURL ?? ''),
  );
}

/** A VPAID creative is a script for a VPAID runtime, not video: this player runs none. */
export function isVpaid(file: AdMediaFile): boolean {
  return /vpaid/i.test(file.apiFramework ?? '') || /javascript|shockwave|flash/i.test(file.mimeType ?? '');
}

// RFC 6381 codec names as browsers spell them (ISO BMFF sample entries and WebM's names: case matters, Chromium
// plays codecs="flac" and refuses "FLAC"). A `codec` attribute outside them is a string the browser cannot parse
// (IAB's own samples say codec="0", "H.264", "FLAC"): canPlayType then answers '' for a file it plays well
// ('video/mp4' alone is 'maybe'), so such a string is treated as absent and the type alone decides. A real codec
// name the browser refuses (HEVC without a decoder) still refuses the file.
const CODEC_NAME = /^(avc[1-4]|hev1|hvc1|dvh1|dvhe|av01|vp8|vp9|vp09|mp4a|mp4v|opus|vorbis|theora|flac|ac-3|ec-3|mp3)(\.[0-9A-Za-z.]+)?$/;

/** The codecs of a media file as canPlayType can read them, or null when absent or not codec names at all. */
export function parseableCodecs(codec: string | null | undefined): string | null {
  const tokens = (codec ?? '').split(',').map((token) => token.trim()).filter(Boolean);
  return tokens.length > 0 && tokens.every((token) => CODEC_NAME.test(token)) ? tokens.join(', ') : null;
}

/** The first usable file whose type the browser can play (spec §5), or the error: 401 none usable, 403 none playable. */
export function chooseMediaFile<T extends AdMediaFile>(
  files: readonly T[],
  canPlay: (mimeType: string, codec: string | null) => boolean,
): T | AdError {
  const usable = usableMediaFiles(files);
  if (usable.length === 0) return adError(AdErrorCode.NO_MEDIA_FILE);
  const playable = usable.find((file) => !isVpaid(file) && canPlay(file.mimeType!.trim(), parseableCodecs(file.codec)));
  return playable ?? adError(AdErrorCode.NO_SUPPORTED_MEDIA);
}

/** The browser's answer for a media file: canPlayType with the codec when one is given ('maybe' or 'probably'). */
export function browserCanPlay(video: HTMLVideoElement): (mimeType: string, codec: string | null) => boolean {
  return (mimeType, codec) => video.canPlayType(codec ? `${mimeType}; codecs="${codec}"` : mimeType) !== '';
}

/** The skip button (spec §9): counting down 'Пропустить {n}' until the offset, then 'Пропустить' (enabled). */
export function skipState(offset: number | null, currentTime: number): { visible: boolean; enabled: boolean; left: number } {
  if (offset === null) return { visible: false, enabled: false, left: 0 };
  const left = Math.max(0, Math.ceil(offset - currentTime - 1e-6));
  return { visible: true, enabled: currentTime >= offset, left };
}

/** Only http(s) URLs from an ad document are ever opened or requested. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Spec §4, §9: a mid-roll once, for content longer than 1800 s, when playback passes half of it. */
export function midrollDue(duration: number, currentTime: number, alreadyShown: boolean, minContentS = 1800): boolean {
  return !alreadyShown && Number.isFinite(duration) && duration > minContentS && currentTime >= duration / 2;
}

/**
 * Spec §4: whether the ad should be playing. A viewer's play/pause click decides regardless of visibility;
 * otherwise never in a hidden document, and only while at least `threshold` of the player is in view.
 */
export function shouldPlay(state: { hidden: boolean; visibleRatio: number; userChoice: 'play' | 'pause' | null },
  threshold: number = DEFAULTS.adVisibleRatio): boolean {
  if (state.userChoice !== null) return state.userChoice === 'play';
  return !state.hidden && state.visibleRatio >= threshold;
}

/** Percent of the content played when an ad loaded (ad history's perc), rounded; 0 when the duration is unknown. */
export function percentPlayed(currentTime: number, duration: number): number {
  return Number.isFinite(duration) && duration > 0 ? Math.round((currentTime / duration) * 100) : 0;
}
