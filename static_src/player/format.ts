// Text for the control bar and menus: times, gain percentages and playback rates (spec §9).
import { DEFAULTS } from '../core/defaults';

/** What a time shows when it is unknown (spec §9: the -2 sentinel, or no finite value). */
export const UNKNOWN_TIME_TEXT = '-:--:--';

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Spec §9 "Time format h:mm:ss": always h:mm:ss, fractions floored; unknown or negative → '-:--:--'. */
export function formatTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0 || seconds === DEFAULTS.unknownTime) return UNKNOWN_TIME_TEXT;
  const whole = Math.floor(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return `${h}:${pad2(m)}:${pad2(s)}`;
}

/** Spec §9 audio gain "shown as percentages": 1.25 → '125%' (rounded). */
export function formatPercent(gain: number): string {
  return `${Math.round(gain * 100)}%`;
}

/** Spec §9 playback-rate choices: 0.25 → '0.25×', 1.5 → '1.5×', 2 → '2×' (no trailing zeros). */
export function formatRate(rate: number): string {
  return `${Number(rate.toFixed(2))}×`;
}
