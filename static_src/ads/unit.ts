// One ad on the ad layer's own <video> (the content's element, engine and position are never touched): its status
// (spec §4) driven by the media element, its tracking (tracker.ts), skip, stop, mute and volume, the click-through.
// A terminal status (COMPLETED, SKIPPED, STOPPED, ERROR) tears everything down once and settles `done`: the unit's
// Disposer owns the element's listeners and the media timeout; pausing and releasing the element stay explicit.
import { Disposer } from '../core/dispose';
import { createStore, type Store } from '../core/store';
import { pingError, type Macros } from './pixels';
import type { Verdict } from './viewability';
import { AdError, AdErrorCode, adError, isHttpUrl, skipState } from './rules';
import { AdTracker } from './tracker';
import type { LoadedAd } from './vast';

export type AdStatus =
  | 'CREATED'
  | 'LOADED'
  | 'STARTED'
  | 'PLAYING'
  | 'PAUSED'
  | 'COMPLETED'
  | 'SKIPPED'
  | 'STOPPED'
  | 'ERROR';

const RELEASE_DELAY_MS = 250;
const TERMINAL: ReadonlySet<AdStatus> = new Set(['COMPLETED', 'SKIPPED', 'STOPPED', 'ERROR']);
export const isTerminal = (status: AdStatus) => TERMINAL.has(status);

export interface AdUnitState {
  status: AdStatus;
  currentTime: number;
  duration: number;
  skip: { visible: boolean; enabled: boolean; left: number };
  muted: boolean;
  volume: number;
  pip: boolean; // spec §4: picture-in-picture is tracked
  error: AdError | null;
}

export interface AdUnitOptions {
  muted: boolean;
  volume: number;
  mediaTimeoutMs: number; // no LOADED nor STARTED by then: 402
  fetcher?: typeof fetch;
  macros?: Macros; // this ad's own IAB values for every pixel (its break position)
  open?(url: string): void; // the click-through; window.open(url, '_blank', 'noopener') by default
}

export class AdUnit {
  readonly store: Store<AdUnitState>;
  readonly done: Promise<AdStatus>;
  private settle!: (status: AdStatus) => void;
  private readonly tracker: AdTracker;
  private readonly disposer = new Disposer(); // the element's listeners and the media timeout, undone at teardown
  private readonly mediaTimeout = new Disposer(); // the 402 timer: cleared by the first LOADED or STARTED, or teardown
  private started = false;

  constructor(
    readonly loaded: LoadedAd,
    private readonly video: HTMLVideoElement,
    private readonly options: AdUnitOptions,
  ) {
    const duration = loaded.linear.duration > 0 ? loaded.linear.duration : 0;
    this.store = createStore<AdUnitState>({
      status: 'CREATED',
      currentTime: 0,
      duration,
      skip: skipState(this.skipOffset, 0),
      muted: options.muted,
      volume: options.volume,
      pip: false,
      error: null,
    });
    this.done = new Promise((resolve) => (this.settle = resolve));
    this.tracker = new AdTracker(loaded, options.muted, options.fetcher, options.macros);
  }

  /** Seconds after which the ad may be skipped, or null: the library's skipDelay (HH:MM:SS(.mmm) or n%). */
  get skipOffset(): number | null {
    const delay = this.loaded.linear.skipDelay;
    return typeof delay === 'number' && delay >= 0 ? delay : null;
  }

  get status(): AdStatus {
    return this.store.get().status;
  }

  /** Points the element at the chosen file and starts listening; play() is the caller's decision (visibility). */
  begin(): void {
    const video = this.video;
    let loaded = false;
    this.on('canplaythrough', () => {
      if (loaded) return;
      loaded = true; // 'loaded' is tracked once, even when the browser says can-play-through after 'playing'
      this.clearTimer();
      this.tracker.load();
      if (this.status === 'CREATED') this.setStatus('LOADED');
    });
    this.on('playing', () => {
      this.clearTimer();
      if (!this.started) {
        this.started = true;
        this.tracker.trackImpression();
        this.tracker.at(video.currentTime).setProgress(Math.max(video.currentTime, 0.001)); // 'start' (once)
        this.setStatus('STARTED');
      } else {
        this.tracker.at(video.currentTime).setPaused(false);
      }
      this.setStatus('PLAYING');
    });
    this.on('pause', () => {
      if (video.ended) return this.finish('COMPLETED');
      if (this.started) this.tracker.at(video.currentTime).setPaused(true);
      this.setStatus('PAUSED');
    });
    this.on('ended', () => this.finish('COMPLETED'));
    this.on('timeupdate', () => this.onTime());
    this.on('durationchange', () => {
      if (Number.isFinite(video.duration) && video.duration > 0) {
        // One duration for every time-based pixel: the file's own, once known. The declared <Duration> is the ad
        // server's word, often rounded or wrong; quartiles kept on it while the percentage progress offsets follow
        // the file would fire midpoint with complete on a shorter file and never thirdQuartile. setDuration
        // recomputes the quartiles (assigning assetDuration alone did not).
        this.tracker.setDuration(video.duration);
        this.store.set({ duration: video.duration });
      }
    });
    this.on('volumechange', () => {
      this.tracker.at(video.currentTime).setMuted(video.muted || video.volume === 0);
      this.store.set({ muted: video.muted, volume: video.volume });
    });
    this.on('enterpictureinpicture', () => this.store.set({ pip: true }));
    this.on('leavepictureinpicture', () => this.store.set({ pip: false }));
    this.on('error', () => {
      const src = this.loaded.mediaFile.fileURL ?? '';
      this.fail(adError(AdErrorCode.MEDIA_FAILED, { src }));
    });
    video.muted = this.options.muted;
    video.volume = this.options.volume;
    video.src = this.loaded.mediaFile.fileURL ?? '';
    const timer = setTimeout(() => this.fail(adError(AdErrorCode.MEDIA_TIMEOUT)), this.options.mediaTimeoutMs);
    this.mediaTimeout.add(() => clearTimeout(timer));
    this.disposer.add(() => this.mediaTimeout.dispose());
  }

  async play(): Promise<void> {
    if (isTerminal(this.status)) return;
    try {
      await this.video.play();
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      if (error instanceof DOMException && error.name === 'NotAllowedError' && !this.video.muted) {
        this.video.muted = true; // autoplay policy: the ad may start muted
        return this.play();
      }
      this.fail(adError(AdErrorCode.CANT_PLAY, { reason: String((error as Error)?.message ?? error) }));
    }
  }

  pause(): void {
    if (!isTerminal(this.status)) this.video.pause();
  }

  /** Spec §5: 0 to 1 in steps of 0.05; anything not a number is ignored with a warning. */
  setVolume(value: unknown): void {
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isFinite(number)) {
      console.warn('ads: volume must be a number from 0 to 1, ignored:', value);
      return;
    }
    const volume = Math.min(1, Math.max(0, Math.round(number / 0.05) * 0.05));
    this.video.volume = Number(volume.toFixed(2));
    this.video.muted = volume === 0;
  }

  /** Spec §5: mute toggles the volume between 0 and 1. */
  toggleMute(): void {
    this.setVolume(this.video.muted || this.video.volume === 0 ? 1 : 0);
  }

  skip(): boolean {
    if (!this.store.get().skip.enabled || isTerminal(this.status)) return false;
    this.tracker.at(this.video.currentTime).skip();
    this.finish('SKIPPED');
    return true;
  }

  stop(): void {
    if (!isTerminal(this.status)) this.finish('STOPPED');
  }

  /** True once the ad has had its impression (it started): only such an ad gets a viewability verdict. */
  get impressed(): boolean {
    return this.started;
  }

  /** Its <ViewableImpression> pixels for `verdict` (ads/viewability decides which, once). */
  trackViewability(verdict: Verdict): void {
    const tracker = this.tracker.at(this.video.currentTime);
    if (verdict === 'viewable') tracker.trackViewableImpression({}, true);
    else if (verdict === 'notViewable') tracker.trackNotViewableImpression({}, true);
    else tracker.trackUndeterminedImpression({}, true);
  }

  /** The click-through: click tracking, then the advertiser's page in a new tab, http(s) only. */
  click(): string | null {
    let target: string | null = null;
    const take = (url: string) => (target = url);
    this.tracker.on('clickthrough', take); // emitted synchronously by click(), and only with a click-through URL
    try {
      this.tracker.at(this.video.currentTime).click();
    } finally {
      this.tracker.off('clickthrough', take); // not left behind when there was none
    }
    if (!target || !isHttpUrl(target)) return null;
    (this.options.open ?? ((url) => window.open(url, '_blank', 'noopener,noreferrer')))(target);
    return target;
  }

  private onTime(): void {
    const time = this.video.currentTime;
    if (this.started && time > 0) this.tracker.at(time).setProgress(time);
    this.store.set({ currentTime: time, skip: skipState(this.skipOffset, time) });
  }

  private fail(error: AdError): void {
    if (isTerminal(this.status)) return;
    console.warn(`ads: ${error.code} ${error.message}`);
    pingError(this.loaded.errorUrls, error.code, this.video.currentTime,
      { ...this.options.macros, ASSETURI: this.loaded.mediaFile.fileURL ?? undefined }, this.options.fetcher);
    this.store.set({ error });
    this.finish('ERROR');
  }

  private finish(status: AdStatus): void {
    if (isTerminal(this.status)) return;
    if (status === 'COMPLETED') {
      this.tracker.at(this.video.duration || this.video.currentTime).setProgress(this.video.duration || 0);
      this.tracker.complete();
    }
    this.setStatus(status);
    this.teardown();
    this.settle(status);
  }

  private setStatus(status: AdStatus): void {
    if (this.status !== status) this.store.set({ status });
  }

  private on(type: string, listener: EventListener): void {
    this.disposer.listen(this.video, type, listener);
  }

  private clearTimer(): void {
    this.mediaTimeout.dispose();
  }

  private teardown(): void {
    this.disposer.dispose(); // the media timeout and every listener: the pause below is not heard
    this.video.pause();
    // Releasing the media pipeline is main-thread work: done once the film has had its moment to start.
    const video = this.video;
    setTimeout(() => {
      video.removeAttribute('src');
      video.load();
    }, RELEASE_DELAY_MS);
  }
}
