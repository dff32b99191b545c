// Who is watching and over what (spec §7 session fields, §9 network classes): pure functions of what the browser says.
import { DEFAULTS } from '../core/defaults';

export type DeviceType = 'tablet' | 'mobile' | 'desktop';
export type NetworkType = 'gprs' | '2g' | '3g' | '4g' | 'wifi' | 'unknown';

/**
 * The device from the user agent: tablets first (iPad, Android without 'Mobile', Kindle/Silk, PlayBook, and iPadOS,
 * which says 'Macintosh' but has a touch screen), then phones, else a desktop.
 */
export function deviceType(userAgent: string, maxTouchPoints = 0): DeviceType {
  const ua = userAgent;
  if (
    /iPad|PlayBook|Silk|Kindle|\bTablet\b(?! PC)/i.test(ua) ||
    (/Android/i.test(ua) && !/Mobile/i.test(ua)) ||
    (/Macintosh/.test(ua) && maxTouchPoints > 1)
  ) {
    return 'tablet';
  }
  if (/Mobi|iPhone|iPod|Android|Windows Phone|IEMobile|BlackBerry|Opera Mini/i.test(ua)) return 'mobile';
  return 'desktop';
}

/**
 * The estimated bandwidth in KB/s (1 KB = 1000 bytes): hls.js's estimate (bits/s) where there is one, else the
 * browser's navigator.connection.downlink (Mbit/s, Chromium only), else null.
 */
export function bandwidthKBps(estimateBps: number | null | undefined, downlinkMbps: number | null | undefined) {
  if (typeof estimateBps === 'number' && Number.isFinite(estimateBps) && estimateBps > 0) return estimateBps / 8000;
  if (typeof downlinkMbps === 'number' && Number.isFinite(downlinkMbps) && downlinkMbps > 0) return downlinkMbps * 125;
  return null;
}

/** Spec §9: gprs under 50 KB/s, 2g under 300, 3g under 1000, 4g under 4000, wifi otherwise; unknown without one. */
export function networkType(kbps: number | null): NetworkType {
  if (kbps === null || !Number.isFinite(kbps) || kbps <= 0) return 'unknown';
  for (const [name, below] of DEFAULTS.networkClassesKBps) if (kbps < below) return name;
  return 'wifi';
}

/** navigator.connection.downlink where the browser has it (Chromium), else null. */
export function downlinkMbps(nav: Navigator = navigator): number | null {
  const downlink = (nav as Navigator & { connection?: { downlink?: unknown } }).connection?.downlink;
  return typeof downlink === 'number' ? downlink : null;
}
