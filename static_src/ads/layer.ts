// The ad layer (spec §4, §5): each ad the scheduler hands it plays on its own markup (ads/bar) over the player until
// it ends. It decides whether the ad plays (the viewer's choice, else the page's visibility and how much of the
// player is in view), takes the embedding page's play/pause and the media session meanwhile, measures viewability,
// and hands every listener, observer and handler it sets for an ad to that ad's Disposer, undone at its end.
import { DEFAULTS } from '../core/defaults';
import { Disposer } from '../core/dispose';
import { Emitter, type PlayerEvents } from '../core/events';
import { t } from '../i18n';
import type { AdState } from '../player/state';
import { adStateOf, createAdBar, renderAdBar, type AdBar } from './bar';
import { shouldPlay } from './rules';
import type { AdType } from './scheduler';
import { AdUnit, isTerminal, type AdStatus } from './unit';
import type { LoadedAd } from './vast';
import { MRC_VIDEO, ViewabilityMeter } from './viewability';

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

/** What the layer does, for ads/events (analytics): each ad's unit as it is made, and the viewer's clicks. */
export interface AdLayerEvents {
  unit: { unit: AdUnit; type: AdType };
  skipClick: { unit: AdUnit };
  bannerClick: { unit: AdUnit };
}

const MEDIA_SESSION_ACTIONS = ['play', 'pause', 'stop'] as const;

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
    const disposer = new Disposer(); // this ad's: undone newest first once it is over
    disposer.add(() => (this.userChoice = null));
    disposer.add(() => this.options.onAdState?.(null));
    const bar = createAdBar(ad.linear.videoClickThroughURLTemplate?.url ?? '');
    container.append(bar.root);
    container.dataset.ad = 'playing';
    disposer.add(() => {
      bar.root.remove();
      delete container.dataset.ad;
    });

    const unit = new AdUnit(ad, bar.video, {
      muted: this.options.muted(),
      volume: this.options.volume(),
      mediaTimeoutMs: this.options.mediaTimeoutMs,
      macros: { BREAKPOSITION: type === 'preroll' ? 1 : 2 }, // IAB: 1 pre-roll, 2 mid-roll
    });
    this.events.emit('unit', { unit, type });
    const meter = this.measure(unit, bar.video);
    const render = () => {
      const state = unit.store.get();
      const adState = adStateOf(state.status);
      if (adState) this.options.onAdState?.(adState);
      renderAdBar(bar, state);
      if (state.status === 'STARTED') this.options.onStart?.();
      meter.sample();
    };
    disposer.add(unit.store.subscribe(render));
    render();

    const decide = () => {
      meter.sample();
      if (isTerminal(unit.status)) return;
      const { visibleRatio, userChoice } = this;
      const play = shouldPlay({ hidden: document.hidden, visibleRatio, userChoice });
      if (play && bar.video.paused) void unit.play();
      else if (!play && !bar.video.paused) unit.pause();
    };
    this.listenToViewer(unit, bar, decide, disposer);
    this.watchVisibility(decide, disposer);
    this.takeMediaSession(unit, decide, disposer);
    disposer.listen(signal, 'abort', () => unit.stop());

    unit.begin();
    decide();
    return unit.done.then((status) => {
      meter.end();
      disposer.dispose();
      return status;
    });
  }

  /**
   * MRC viewability (ads/viewability), read at every state change (timeupdate included) and visibility change, on
   * the ad's own clock, so that 2 s means 2 s of the ad played (a stall, or a first frame late after play(), counts
   * nothing; the wall clock would). `end` gives an ad that started the verdict it never reached.
   */
  private measure(unit: AdUnit, video: HTMLVideoElement) {
    const meter = new ViewabilityMeter(() => video.currentTime * 1000);
    const measurable = typeof IntersectionObserver === 'function';
    return {
      sample: () => {
        const playing = unit.status === 'PLAYING' && !video.paused;
        const verdict = meter.sample(playing, measurable ? (document.hidden ? 0 : this.visibleRatio) : null);
        if (verdict) unit.trackViewability(verdict);
      },
      end: () => {
        const verdict = unit.impressed ? meter.end() : null;
        if (verdict) unit.trackViewability(verdict);
      },
    };
  }

  /** The bar's buttons and slider, the click-through, and the embedding page's play/pause while the ad is on. */
  private listenToViewer(unit: AdUnit, bar: AdBar, decide: () => void, disposer: Disposer): void {
    disposer.listen(bar.toggle, 'click', () => {
      this.userChoice = bar.video.paused ? 'play' : 'pause'; // the viewer's click decides, whatever the visibility
      decide();
    });
    disposer.listen(bar.mute, 'click', () => unit.toggleMute());
    disposer.listen(bar.volume, 'input', () => unit.setVolume(bar.volume.value));
    disposer.listen(bar.skip, 'click', () => {
      this.events.emit('skipClick', { unit });
      unit.skip();
    });
    disposer.listen(bar.click, 'click', () => {
      this.events.emit('bannerClick', { unit });
      if (!unit.click()) return;
      this.userChoice = 'pause';
      decide(); // the viewer went to the advertiser: the ad waits
    });
    const stopRequests = this.options.onPlaybackRequest?.((request) => {
      request.handled = true; // the ad on screen takes it; the film underneath stays as it is
      const play = request.play === 'toggle' ? bar.video.paused : request.play;
      this.userChoice = play ? 'play' : 'pause';
      decide();
    });
    if (stopRequests) disposer.add(stopRequests);
  }

  /** The page's visibility and how much of the player is in view (spec §4: the ad plays only while seen). */
  private watchVisibility(decide: () => void, disposer: Disposer): void {
    disposer.listen(document, 'visibilitychange', decide);
    if (typeof IntersectionObserver !== 'function') return;
    const observer = new IntersectionObserver((entries) => {
      this.visibleRatio = entries.at(-1)?.intersectionRatio ?? this.visibleRatio;
      decide();
    }, { threshold: [0, 0.25, MRC_VIDEO.ratio, DEFAULTS.adVisibleRatio, 0.75, 1] });
    observer.observe(this.options.container);
    disposer.add(() => observer.disconnect());
  }

  /** The ad's media session (the lock screen, a headset): play, pause, stop; the film's again once it is over. */
  private takeMediaSession(unit: AdUnit, decide: () => void, disposer: Disposer): void {
    const session = navigator.mediaSession;
    if (!session) return;
    try {
      session.metadata = typeof MediaMetadata === 'function' ? new MediaMetadata({ title: t('adTitle') }) : null;
      session.setActionHandler('play', () => ((this.userChoice = 'play'), decide()));
      session.setActionHandler('pause', () => ((this.userChoice = 'pause'), decide()));
      session.setActionHandler('stop', () => unit.stop());
    } catch {
      // an action this browser does not know: the others still work
    }
    disposer.add(() => {
      for (const action of MEDIA_SESSION_ACTIONS) {
        try {
          session.setActionHandler(action, null);
        } catch {
          // as above
        }
      }
      this.options.restoreMediaSession?.();
    });
  }
}
