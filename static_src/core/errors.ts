// Errors with a stable code and a fatal flag. A code never changes meaning; retired codes stay as comments.

export type ErrorCategory = 'network' | 'media' | 'content' | 'other';

export const ErrorCode = {
  MASTER_LOAD_FAILED: 'MASTER_LOAD_FAILED', // the master JSON could not be fetched or read
  NO_SOURCE: 'NO_SOURCE', // the master JSON lists no playable source
  NO_ENGINE: 'NO_ENGINE', // neither MSE (hls.js) nor native HLS in this browser
  MEDIA_FATAL: 'MEDIA_FATAL', // hls.js or the media element gave up
  PLAY_FAILED: 'PLAY_FAILED', // play() was refused for a reason other than autoplay policy
  HTTP_404: 'HTTP_404', // the stream answered 404/410: 'Контент не доступен' (spec §8)
  BLOCKED: 'BLOCKED', // not available in the viewer's region: the blocked text after the placeholder clip (spec §4)
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface PlayerError {
  category: ErrorCategory;
  code: ErrorCode;
  fatal: boolean;
  message: string; // for the log and error reporting; what the viewer reads comes from i18n
  id: string; // what the error screen shows and error reporting records
  address?: string; // the address that failed to load, when there is one
}

export function playerError(
  category: ErrorCategory,
  code: ErrorCode,
  message: string,
  extra: { fatal?: boolean; address?: string } = {},
): PlayerError {
  return { category, code, message, fatal: extra.fatal ?? true, address: extra.address, id: newErrorId() };
}

/** What a failed load threw, as a player error: ours as they are, anything else as MEDIA_FATAL. */
export function asPlayerError(value: unknown): PlayerError {
  const ours = typeof value === 'object' && value !== null && 'code' in value && 'category' in value;
  return ours ? (value as PlayerError) : playerError('other', ErrorCode.MEDIA_FATAL, String(value));
}

export function newErrorId(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
