// The ad layer (spec §4, §5): its own <video> over the player, play/pause, mute and a volume slider, the skip button,
// the click-through over the video. Plain DOM and text only, so that it shows before React has loaded and nothing
// from an ad document is ever read as HTML. It plays each ad the scheduler hands it and settles with its end.
import { DEFAULTS } from '../core/defaults';
import { Emitter, type PlayerEvents } from '../core/events';
import { t } from '../i18n';
import { setIcon, svgIcon } from '../shell/iconPaths';
import { isHttpUrl, shouldPlay } from './rules';
import type { AdState } from '../player/state';
import type { AdType } from './scheduler';
import { MRC_VIDEO, ViewabilityMeter } from './viewability';
import { AdUnit, isTerminal, type AdStatus } from './unit';
import type { LoadedAd } from './vast';

export interface LayerOptions {
  container: HTMLElement; // #player
  muted(): boolean; // the viewer's content volume, carried into the ad
  volume(): number;
  mediaTimeoutMs: number;
  // The embedding page's play/pause (spec §4: the ad pauses on {actionType: 'pause'}), origin-checked by embed/bridge
  onPlaybackRequest?(listener: (request: PlayerEvents['playbackRequested']) => void): () => void;
  onStart?(): void; // an ad's first frame is out (STARTED)
  // Gives the media session back to the film once the ad is over (the browser cannot tell whose handlers were set)
  restoreMediaSession?(): void;
  // The ad on screen plays or waits, or none is (null): the controller sends the viewer's play/pause here meanwhile
  onAdState?(state: AdState): void;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, attrs: Record<string, string> = {}) {
  const node = document.createElement(tag);
  node.className = className;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

/** What the layer does, for ads/events (analytics): each ad's unit as it is made, and the viewer's clicks. */
export interface AdLayerEvents {
  unit: { unit: AdUnit; type: AdType };
  skipClick: { unit: AdUnit };
  bannerClick: { unit: AdUnit };
}

export class AdLayer {
  readonly events = new Emitter<AdLayerEvents>();
  private userChoice: 'play' | 'pause' | null = null;
  private visibleRatio = 1;

  constructor(private readonly options: LayerOptions) {}

  /** Shows `ad` until it ends; resolves with its terminal status. An abort (a new episode) stops it. */
  play(ad: LoadedAd, type: AdType, signal: AbortSignal): Promise<AdStatus> {
    const { container } = this.options;
    if (document.fullscreenElement && document.fullscreenElement !== container) {
      return Promise.resolve('STOPPED' as AdStatus); // spec §4: native fullscreen when an ad loads stops it
    }
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
    const skipIcon = svgIcon('next', 'ad-layer__icon');
    toggle.append(toggleIcon);
    mute.append(muteIcon);
    skip.append(skipText, skipIcon);
    bar.append(toggle, mute, volume, label, skip);
    root.append(video, click, bar);
    if (!isHttpUrl(ad.linear.videoClickThroughURLTemplate?.url ?? '')) click.hidden = true; // never javascript: etc.
    container.append(root);
    container.dataset.ad = 'playing';

    const unit = new AdUnit(ad, video, {
      muted: this.options.muted(),
      volume: this.options.volume(),
      mediaTimeoutMs: this.options.mediaTimeoutMs,
      macros: { BREAKPOSITION: type === 'preroll' ? 1 : 2 }, // IAB: 1 pre-roll, 2 mid-roll
    });
    this.events.emit('unit', { unit, type });
    // MRC viewability (ads/viewability): read at every state change (timeupdate included) and visibility change, on
    // the ad's own clock, so that 2 s means 2 s of the ad played (a stall, or a first frame late after play(), counts
    // nothing; the wall clock would)
    const meter = new ViewabilityMeter(() => video.currentTime * 1000);
    const measurable = typeof IntersectionObserver === 'function';
    const measure = () => {
      const playing = unit.status === 'PLAYING' && !video.paused;
      const verdict = meter.sample(playing, measurable ? (document.hidden ? 0 : this.visibleRatio) : null);
      if (verdict) unit.trackViewability(verdict);
    };
    const render = () => {
      const state = unit.store.get();
      const paused = state.status === 'PAUSED' || state.status === 'LOADED' || state.status === 'CREATED';
      if (!isTerminal(state.status)) this.options.onAdState?.(paused ? 'paused' : 'playing');
      setIcon(toggleIcon, paused ? 'play' : 'pause');
      toggle.setAttribute('aria-label', paused ? t('play') : t('pause'));
      const silent = state.muted || state.volume === 0;
      setIcon(muteIcon, silent ? 'muted' : 'volume');
      mute.setAttribute('aria-label', silent ? t('unmute') : t('mute'));
      volume.value = String(silent ? 0 : state.volume);
      skip.hidden = !state.skip.visible;
      skip.disabled = !state.skip.enabled;
      // spec §9: the countdown, then 'Пропустить' with its icon (ads.css shows the icon on the enabled button only)
      skipText.textContent = state.skip.enabled ? t('adSkip') : t('adSkipIn', { n: state.skip.left });
      root.dataset.status = state.status;
      if (state.status === 'STARTED') this.options.onStart?.();
      measure();
    };
    const stopRender = unit.store.subscribe(render);
    render();

    const decide = () => {
      measure();
      if (isTerminal(unit.status)) return;
      const play = shouldPlay({ hidden: document.hidden, visibleRatio: this.visibleRatio, userChoice: this.userChoice });
      if (play && video.paused) void unit.play();
      else if (!play && !video.paused) unit.pause();
    };
    toggle.addEventListener('click', () => {
      this.userChoice = video.paused ? 'play' : 'pause'; // the viewer's click decides, whatever the visibility
      decide();
    });
    mute.addEventListener('click', () => unit.toggleMute());
    volume.addEventListener('input', () => unit.setVolume(volume.value));
    skip.addEventListener('click', () => {
      this.events.emit('skipClick', { unit });
      unit.skip();
    });
    click.addEventListener('click', () => {
      this.events.emit('bannerClick', { unit });
      if (!unit.click()) return;
      this.userChoice = 'pause';
      decide(); // the viewer went to the advertiser: the ad waits
    });
    const onVisibility = () => decide();
    document.addEventListener('visibilitychange', onVisibility);
    const observer = typeof IntersectionObserver === 'function'
      ? new IntersectionObserver((entries) => {
        this.visibleRatio = entries.at(-1)?.intersectionRatio ?? this.visibleRatio;
        decide();
      }, { threshold: [0, 0.25, MRC_VIDEO.ratio, DEFAULTS.adVisibleRatio, 0.75, 1] })
      : null;
    observer?.observe(container);
    const stopRequests = this.options.onPlaybackRequest?.((request) => {
      request.handled = true; // the ad on screen takes it; the film underneath stays as it is
      this.userChoice = request.play ? 'play' : 'pause';
      decide();
    });
    const session = navigator.mediaSession;
    if (session) {
      try {
        session.metadata = typeof MediaMetadata === 'function' ? new MediaMetadata({ title: t('adTitle') }) : null;
        session.setActionHandler('play', () => ((this.userChoice = 'play'), decide()));
        session.setActionHandler('pause', () => ((this.userChoice = 'pause'), decide()));
        session.setActionHandler('stop', () => unit.stop());
      } catch {
        // an action this browser does not know: the others still work
      }
    }
    const onAbort = () => unit.stop();
    signal.addEventListener('abort', onAbort, { once: true });

    unit.begin();
    decide();
    return unit.done.then((status) => {
      const verdict = unit.impressed ? meter.end() : null; // the verdict it never reached, for an ad that started
      if (verdict) unit.trackViewability(verdict);
      stopRender();
      observer?.disconnect();
      document.removeEventListener('visibilitychange', onVisibility);
      stopRequests?.();
      signal.removeEventListener('abort', onAbort);
      if (session) {
        for (const action of ['play', 'pause', 'stop'] as const) {
          try {
            session.setActionHandler(action, null);
          } catch {
            // as above
          }
        }
        this.options.restoreMediaSession?.();
      }
      root.remove();
      delete container.dataset.ad;
      this.options.onAdState?.(null);
      this.userChoice = null;
      return status;
    });
  }
}
