// The ad layer's markup (spec §4, §5, §9): its own <video>, the click-through over it, and the bar with play/pause,
// mute, the volume slider, the 'Реклама' label and the skip button. Plain DOM and text only, so that it shows before
// React has loaded and nothing from an ad document is ever read as HTML; renderAdBar draws an ad unit's state on it.
import { t } from '../i18n';
import type { AdState } from '../player/state';
import { setIcon, svgIcon } from '../shell/iconPaths';
import { isHttpUrl } from './rules';
import { isTerminal, type AdStatus, type AdUnitState } from './unit';

export interface AdBar {
  root: HTMLElement; // the layer: appended to #player while its ad lasts
  video: HTMLVideoElement; // the ad's own element: the film's is never touched
  click: HTMLButtonElement; // the click-through, over the video
  toggle: HTMLButtonElement;
  mute: HTMLButtonElement;
  volume: HTMLInputElement;
  skip: HTMLButtonElement;
  skipText: HTMLElement;
  toggleIcon: SVGSVGElement;
  muteIcon: SVGSVGElement;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, attrs: Record<string, string> = {}) {
  const node = document.createElement(tag);
  node.className = className;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

/** The layer's elements, not in the page yet; the click-through shows only for an http(s) `clickThrough`. */
export function createAdBar(clickThrough: string): AdBar {
  const root = element('div', 'ad-layer', { role: 'region', 'aria-label': t('ad') });
  const video = element('video', 'ad-layer__video', { playsinline: '', preload: 'auto' });
  const click = element('button', 'ad-layer__click', { type: 'button', 'aria-label': t('adVisit') });
  const bar = element('div', 'ad-layer__bar');
  const toggle = element('button', 'ad-layer__play', { type: 'button', 'data-ad-control': 'play' });
  const mute = element('button', 'ad-layer__mute', { type: 'button', 'data-ad-control': 'mute' });
  const volume = element('input', 'ad-layer__volume', {
    type: 'range', min: '0', max: '1', step: '0.05', 'aria-label': t('adVolume'), 'data-ad-control': 'volume',
  });
  const label = element('span', 'ad-layer__label');
  label.textContent = t('ad');
  const skip = element('button', 'ad-layer__skip', { type: 'button', 'data-ad-control': 'skip' });
  const skipText = element('span', 'ad-layer__skip-text');
  const toggleIcon = svgIcon('pause', 'ad-layer__icon');
  const muteIcon = svgIcon('volume', 'ad-layer__icon');
  toggle.append(toggleIcon);
  mute.append(muteIcon);
  skip.append(skipText, svgIcon('next', 'ad-layer__icon'));
  bar.append(toggle, mute, volume, label, skip);
  root.append(video, click, bar);
  if (!isHttpUrl(clickThrough)) click.hidden = true; // never javascript: etc.
  return { root, video, click, toggle, mute, volume, skip, skipText, toggleIcon, muteIcon };
}

/** Waiting for the viewer's play: not started yet, or paused (the play button shows). */
const waiting = (status: AdStatus) => status === 'PAUSED' || status === 'LOADED' || status === 'CREATED';

/** What the controller hears of an ad in `status` (player/state AdState): it plays or waits; null once it is over. */
export function adStateOf(status: AdStatus): AdState {
  if (isTerminal(status)) return null;
  return waiting(status) ? 'paused' : 'playing';
}

/** Draws `state` on the bar: play or pause, mute and volume, the skip countdown (spec §9), the status. */
export function renderAdBar(bar: AdBar, state: AdUnitState): void {
  const paused = waiting(state.status);
  setIcon(bar.toggleIcon, paused ? 'play' : 'pause');
  bar.toggle.setAttribute('aria-label', paused ? t('play') : t('pause'));
  const silent = state.muted || state.volume === 0;
  setIcon(bar.muteIcon, silent ? 'muted' : 'volume');
  bar.mute.setAttribute('aria-label', silent ? t('unmute') : t('mute'));
  bar.volume.value = String(silent ? 0 : state.volume);
  bar.skip.hidden = !state.skip.visible;
  bar.skip.disabled = !state.skip.enabled;
  // 'Пропустить {n}', then 'Пропустить' with its icon (ads.css shows the icon on the enabled button only)
  bar.skipText.textContent = state.skip.enabled ? t('adSkip') : t('adSkipIn', { n: state.skip.left });
  bar.root.dataset.status = state.status;
}
