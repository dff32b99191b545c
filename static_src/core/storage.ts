// localStorage that can never break playback (spec §8: "Share and storage errors are only logged").
// Every access, even reading window.localStorage (a SecurityError when cookies are blocked), is guarded.
import { DEFAULTS, STORAGE_KEYS } from './defaults';

type FailureKind = 'unavailable' | 'read' | 'write' | 'parse' | 'invalid' | 'serialize';

const warned = new Set<FailureKind>();

function warnOnce(kind: FailureKind, key: string, error?: unknown): void {
  if (warned.has(kind)) return;
  warned.add(kind);
  console.warn(`player: storage ${kind} failed (${key}); further ${kind} failures are not logged`, error);
}

/** `storage` undefined → the window's, looked up now and safely; null → none. */
function resolve(storage: Storage | null | undefined, key: string): Storage | null {
  let found: Storage | null = null;
  if (storage !== undefined) found = storage;
  else {
    try {
      found = typeof window === 'undefined' ? null : (window.localStorage ?? null);
    } catch (error) {
      warnOnce('unavailable', key, error);
      return null;
    }
  }
  if (!found) warnOnce('unavailable', key);
  return found;
}

/** Spec §3/§8: the stored JSON under `key`, or `fallback` when absent, unreadable, not JSON or not valid. */
export function readJson<T>(
  key: string,
  fallback: T,
  isValid: (value: unknown) => value is T,
  storage?: Storage | null,
): T {
  const store = resolve(storage, key);
  if (!store) return fallback;
  let text: string | null;
  try {
    text = store.getItem(key);
  } catch (error) {
    warnOnce('read', key, error);
    return fallback;
  }
  if (text === null) return fallback;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    warnOnce('parse', key, error);
    return fallback;
  }
  if (!isValid(value)) {
    warnOnce('invalid', key);
    return fallback;
  }
  return value;
}

/** Spec §8: stores `value` as JSON under `key`; false (logged) when that failed. */
export function writeJson(key: string, value: unknown, storage?: Storage | null): boolean {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    warnOnce('serialize', key, error);
    return false;
  }
  if (text === undefined) {
    warnOnce('serialize', key);
    return false;
  }
  const store = resolve(storage, key);
  if (!store) return false;
  try {
    store.setItem(key, text);
    return true;
  } catch (error) {
    warnOnce('write', key, error);
    return false;
  }
}

const isNumber = (value: unknown): value is number => typeof value === 'number';
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const own = (map: Record<string, unknown>, key: string): unknown =>
  Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined;
const clamp01 = (v: number): number => Math.min(1, Math.max(0, v));

/** Spec §3 player-volume (default 1): clamped to 0..1; a non-finite value → the default. */
export function loadVolume(storage?: Storage | null): number {
  const volume = readJson<number>(STORAGE_KEYS.volume, DEFAULTS.defaultVolume, isNumber, storage);
  return Number.isFinite(volume) ? clamp01(volume) : DEFAULTS.defaultVolume;
}

/** Spec §3 player-volume: stores the volume clamped to 0..1; a non-finite one is ignored (false). */
export function saveVolume(volume: number, storage?: Storage | null): boolean {
  if (!Number.isFinite(volume)) return false;
  return writeJson(STORAGE_KEYS.volume, clamp01(volume), storage);
}

/** Spec §3 player-muted (default false). */
export function loadMuted(storage?: Storage | null): boolean {
  return readJson<boolean>(STORAGE_KEYS.muted, DEFAULTS.defaultMuted, isBoolean, storage);
}

/** Spec §3 player-muted. */
export function saveMuted(muted: boolean, storage?: Storage | null): boolean {
  return writeJson(STORAGE_KEYS.muted, muted, storage);
}

/** Spec §3 favoriteAudioTracks: the audio label saved for this content, or null. */
export function loadFavoriteAudio(contentId: number, storage?: Storage | null): string | null {
  const label = own(readJson(STORAGE_KEYS.favoriteAudio, {}, isMap, storage), String(contentId));
  return typeof label === 'string' && label.trim() !== '' ? label : null;
}

/** Spec §3 favoriteAudioTracks: saves the label for this content, keeping the other contents' entries. */
export function saveFavoriteAudio(contentId: number, label: string, storage?: Storage | null): boolean {
  const map = readJson(STORAGE_KEYS.favoriteAudio, {}, isMap, storage);
  return writeJson(STORAGE_KEYS.favoriteAudio, { ...map, [String(contentId)]: label }, storage);
}

/** Spec §3 episodesTimeProgress: the whole seconds saved for this episode, or null. */
export function loadProgress(episodeId: number, storage?: Storage | null): number | null {
  const seconds = own(readJson(STORAGE_KEYS.progress, {}, isMap, storage), String(episodeId));
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.floor(seconds) : null;
}

/** Spec §3 episodesTimeProgress: saves whole seconds for this episode, keeping the others; bad times ignored. */
export function saveProgress(episodeId: number, seconds: number, storage?: Storage | null): boolean {
  if (!Number.isFinite(seconds) || seconds < 0) return false;
  const map = readJson(STORAGE_KEYS.progress, {}, isMap, storage);
  return writeJson(STORAGE_KEYS.progress, { ...map, [String(episodeId)]: Math.floor(seconds) }, storage);
}
