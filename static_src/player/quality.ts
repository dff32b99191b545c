// The quality menu (spec §9 "Quality list: heights as '{h}p', bitrates in Mbps to two decimals, an 'Auto' option").

export interface LevelInfo {
  index: number; // the engine's level index
  height: number; // pixels; 0 or missing for an audio-only level
  bitrate: number; // bits per second
}

export interface QualityOption {
  value: number; // the level index, or AUTO_QUALITY
  label: string;
}

/** The value of the 'Auto' option (the engine picks the level). */
export const AUTO_QUALITY = -1;

const heightOf = (level: LevelInfo): number => (Number.isFinite(level.height) && level.height > 0 ? level.height : 0);
const bitrateOf = (level: LevelInfo): number =>
  Number.isFinite(level.bitrate) && level.bitrate > 0 ? level.bitrate : 0;
const mbps = (level: LevelInfo): string => `${(bitrateOf(level) / 1e6).toFixed(2)} Mbps`;

/**
 * Spec §9 quality list: 'Auto' first, then levels by height, then bitrate, both descending; the bitrate is shown
 * only where heights repeat (or there is no height). Identical (height, bitrate) levels appear once; no levels → [].
 */
export function qualityOptions(levels: LevelInfo[]): QualityOption[] {
  if (levels.length === 0) return [];
  const sorted = [...levels].sort((a, b) => heightOf(b) - heightOf(a) || bitrateOf(b) - bitrateOf(a));
  const seen = new Set<string>();
  const unique = sorted.filter((level) => {
    const key = `${heightOf(level)}:${bitrateOf(level)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const perHeight = new Map<number, number>();
  for (const level of unique) perHeight.set(heightOf(level), (perHeight.get(heightOf(level)) ?? 0) + 1);
  const options = unique.map((level): QualityOption => {
    const h = heightOf(level);
    const label = h === 0 ? mbps(level) : (perHeight.get(h) ?? 0) > 1 ? `${h}p ${mbps(level)}` : `${h}p`;
    return { value: level.index, label };
  });
  return [{ value: AUTO_QUALITY, label: 'Auto' }, ...options];
}
