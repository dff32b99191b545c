// The ranges the viewer's settings are held to (spec §9), whatever asked for them: keys, menus, sliders.
import { DEFAULTS } from '../core/defaults';

/** Spec §9: a playback rate on the keyboard's 0.25 grid, within 0.25–2; 1 when not a number. */
export function clampRate(rate: number): number {
  if (!Number.isFinite(rate)) return 1;
  const stepped = Math.round(rate / DEFAULTS.rateStep) * DEFAULTS.rateStep;
  return Math.min(DEFAULTS.rateMax, Math.max(DEFAULTS.rateMin, stepped));
}

/** Spec §9: a volume within 0..1, to two decimals (0.1 + 0.2 is 0.3); the default volume when not a number. */
export function clampVolume(v: number): number {
  if (!Number.isFinite(v)) return DEFAULTS.defaultVolume;
  return Math.round(Math.min(1, Math.max(0, v)) * 100) / 100;
}
