// The coordinator: intent → controller → engine → media events → state. The interface sends player/intents and reads
// `store`; this class loads and plays the episodes (master, engine, the pre-roll's hold, progress, volume and rate)
// and owns two sub-controllers: `tracks` (player/trackController) and `platform` (player/platformController).
import { progressApi, type ApiClient, type ProgressApi } from '../api/client';
import { DEFAULTS } from '../core/defaults';
import { Disposer } from '../core/dispose';
import { asPlayerError, ErrorCode, playerError, type PlayerError } from '../core/errors';
import { Emitter, type PlaybackPhase, type PlayerEvents } from '../core/events';
import * as storage from '../core/storage';
import { createStore, type Store } from '../core/store';
import type { EpisodeData, PlayerContext } from '../context';
import { attachSource, type Engine } from './engine';
import { nextEpisode, sortEpisodes } from './episodes';
import { startHold, type Hold } from './hold';
import type { PlayerIntents } from './intents';
import { clampRate, clampVolume } from './limits';
import { liveState } from './live';
import { loadMaster, resolveLink } from './master';
import { PlatformController } from './platformController';
import { episodeStartAt, ProgressThrottle, shouldOfferResume } from './progress';
import { freshState, initialState, type AdState, type PlayerState } from './state';
import { bufferedEnd, isSilent, mediaStats } from './stats';
import { TrackController } from './trackController';

export class PlayerController implements PlayerIntents {
  readonly events = new Emitter<PlayerEvents>();
  readonly store: Store<PlayerState>;
  readonly episodes: EpisodeData[];
  readonly tracks: TrackController;
  readonly platform: PlatformController;
  private media = new Disposer(); // listeners on the current video element
  private engine: Engine | null = null;
  private loading: AbortController | null = null;
  private video: HTMLVideoElement | null = null;
  private readonly progress: ProgressThrottle;
  private readonly api: ProgressApi;
  private startAt: number | null;
  private placeholder = false; // the not-available clip is on the video element
  private hold: Hold | null = null; // the next start plays once it settles (a pre-roll)

  constructor(
    private readonly context: PlayerContext,
    private readonly base: string = document.baseURI,
    api?: ProgressApi,
  ) {
    this.episodes = sortEpisodes(context.episodes);
    this.store = createStore(initialState(context.episodeId));
    const { store, events } = this;
    const engine = () => this.engine;
    this.tracks = new TrackController({ store, events, engine, reload: () => this.reload() }, context);
    this.platform = new PlatformController(this, context);
    this.startAt = context.timeCode ?? context.episodeTime;
    this.api = api ?? progressApi(OFFLINE, context.content.id);
    this.progress = new ProgressThrottle((seconds) => this.saveProgress(seconds));
    const saved = context.episodeId === null ? null : storage.loadProgress(context.episodeId);
    if (shouldOfferResume({ started: false, timeCode: this.startAt, savedTime: saved })) {
      this.store.set({ resumeAt: saved });
    }
  }

  get episode(): EpisodeData | null {
    const id = this.store.get().episodeId;
    return this.episodes.find((episode) => episode.id === id) ?? null;
  }

  get next(): EpisodeData | null {
    return nextEpisode(this.episodes, this.store.get().episodeId);
  }

  attach(video: HTMLVideoElement): void {
    this.media.dispose();
    const media = (this.media = new Disposer());
    this.video = video;
    this.tracks.attachMedia(video, media);
    this.platform.attachMedia(video);
    const { volume, muted } = this.store.get();
    video.volume = volume;
    video.muted = muted;
    const on = media.listen.bind(media) as Disposer['listen'];
    on(video, 'playing', () => this.setPhase('playing', { buffering: false }));
    on(video, 'pause', () => {
      if (video.ended) return;
      this.progress.flush(video.currentTime);
      if (this.store.get().phase !== 'loading') this.setPhase('paused');
    });
    on(video, 'ended', () => this.onEnded());
    on(video, 'waiting', () => this.store.set({ buffering: true }));
    on(video, 'canplay', () => this.store.set({ buffering: false }));
    on(video, 'durationchange', () => this.store.set({ duration: video.duration, live: liveState(video) }));
    on(video, 'progress', () => this.store.set({ bufferedEnd: bufferedEnd(video) }));
    on(video, 'ratechange', () => this.store.set({ rate: video.playbackRate }));
    on(video, 'volumechange', () => this.store.set({ volume: video.volume, muted: video.muted }));
    on(video, 'timeupdate', () => this.onTime(video));
    on(window, 'pagehide', () => this.progress.flush(video.currentTime));
  }

  /**
   * The start button, or auto_play: load the chosen episode and play it from `from` (the 'stopped here' prompt's
   * answers), else from the saved time on offer, else from the URL's time code; resume when paused.
   */
  async start(from?: number): Promise<void> {
    const { phase } = this.store.get();
    if (phase === 'paused' || phase === 'ended') return this.play();
    if (phase !== 'idle' || !this.video) return;
    if (from !== undefined) this.startAt = from;
    else if (this.store.get().resumeAt !== null) this.startAt = this.store.get().resumeAt;
    this.setPhase('loading', { started: true, error: null, resumeAt: null });
    if (!this.context.isAvailable) {
      this.placeholder = true; // not available here (spec §4): the tiny clip plays, its end raises the blocked error
      this.video.src = this.context.config.placeholderUrl;
      return this.play();
    }
    const episode = this.episode;
    if (!episode?.m3u8MasterFilePath) {
      return this.fail(playerError('content', ErrorCode.NO_SOURCE, 'the episode has no media file'));
    }
    const loading = (this.loading = new AbortController());
    const gate = this.hold && startHold(this.hold); // no hold: nothing to wait for
    this.hold = null;
    try {
      const master = await loadMaster(episode.m3u8MasterFilePath, this.base, loading.signal);
      if (loading.signal.aborted) return;
      this.tracks.setMaster(master);
      await gate?.loadable; // the episode loads underneath the pre-roll once its first frame is out
      if (loading.signal.aborted) return;
      // under the pre-roll, only what the switch to the film needs (DEFAULTS.prerollBufferAheadS); the rest after it
      await this.load(this.startAt, loading.signal, gate ? DEFAULTS.prerollBufferAheadS : undefined);
      await gate?.released;
      if (loading.signal.aborted) return;
      this.engine?.setBufferAhead(null);
      await this.play();
    } catch (error) {
      if (loading.signal.aborted) return;
      this.fail(asPlayerError(error));
    }
  }

  /**
   * The film waits for `until` (an ad break; a rejection counts as settled: nothing on the ad side may stop the film).
   * Before the film plays (a pre-roll) it holds the next start, the episode loading under it as player/hold says; while
   * the film plays (a mid-roll) the film pauses now and plays again once it settles, unless the episode changed.
   */
  holdPlayback(until: Hold): void {
    if (this.store.get().phase !== 'playing') {
      this.hold = until;
      return;
    }
    const { episodeId } = this.store.get();
    this.pause();
    void Promise.resolve()
      .then(() => until(() => undefined)) // the film is loaded already
      .catch(() => undefined)
      .then(() => {
        // its 'pause' may not have come yet (a break with nothing to show settles at once): 'playing' still counts
        const now = this.store.get();
        if (now.episodeId === episodeId && (now.phase === 'paused' || now.phase === 'playing')) void this.play();
      });
  }

  pause(): void {
    this.video?.pause();
  }

  /** The ad path's report (ads/boot): an ad is on screen and plays or waits, or none is. */
  setAd(ad: AdState): void {
    this.store.set({ ad });
  }

  togglePlay(): void {
    const { phase, ad } = this.store.get();
    if (ad) {
      // The ad takes it (ads/layer) and asks its own video: the state reported here follows the video's events, so
      // a key pressed between a pause() and its 'pause' event would have paused the ad twice.
      this.events.emit('playbackRequested', { play: 'toggle', handled: false });
      return;
    }
    if (phase === 'playing') this.pause();
    else if (phase === 'idle') void this.start();
    else if (phase === 'paused' || phase === 'ended') void this.play();
  }

  seek(seconds: number): void {
    const video = this.video;
    const { started, ad, live } = this.store.get();
    if (!video || !started || ad) return; // no seeking under an ad
    const end = live.isLive ? video.seekable.end(video.seekable.length - 1) : video.duration;
    const start = live.isLive && video.seekable.length ? video.seekable.start(0) : 0;
    if (!Number.isFinite(end)) return;
    const from = video.currentTime;
    video.currentTime = Math.min(Math.max(seconds, start), Math.max(end - 0.1, start));
    this.store.set({ currentTime: video.currentTime });
    this.events.emit('seek', { from, to: video.currentTime });
  }

  seekBy(delta: number): void {
    if (this.video) this.seek(this.video.currentTime + delta);
  }

  /** Seeks to a fraction of the duration (keyboard Home/End/digits). */
  seekToFraction(fraction: number): void {
    const { duration } = this.store.get();
    if (Number.isFinite(duration) && duration > 0) this.seek(duration * fraction);
  }

  setVolume(volume: number): void {
    const video = this.video;
    if (!video) return;
    const silent = isSilent(video);
    video.volume = clampVolume(volume);
    if (video.volume > 0 && video.muted) video.muted = false;
    storage.saveVolume(video.volume); // saved only on the viewer's change, never on the player's own (spec §4)
    storage.saveMuted(video.muted);
    this.announceMute(silent);
  }

  /** The viewer's change made the sound silent or audible again (analytics' mute/unmute; not autoplay's mute). */
  private announceMute(wasSilent: boolean): void {
    if (this.video && isSilent(this.video) !== wasSilent) this.events.emit('muteChanged', { muted: !wasSilent });
  }

  /** A step from what the element has now (its volumechange event may not have arrived yet): keys, wheel. */
  changeVolume(delta: number): void {
    if (this.video) this.setVolume((this.video.muted ? 0 : this.video.volume) + delta);
  }

  changeRate(delta: number): void {
    if (this.video) this.setRate(this.video.playbackRate + delta);
  }

  setMuted(muted: boolean): void {
    if (!this.video) return;
    const silent = isSilent(this.video);
    this.video.muted = muted;
    if (!muted && this.video.volume === 0) this.video.volume = DEFAULTS.defaultVolume;
    storage.saveMuted(muted);
    this.announceMute(silent);
  }

  setRate(rate: number): void {
    if (!this.video || this.store.get().ad) return; // the film's speed is not changed blind under an ad
    const clamped = clampRate(rate);
    this.video.playbackRate = clamped;
    this.video.defaultPlaybackRate = clamped; // survives a source change (load() resets playbackRate)
  }

  /**
   * Another episode (menus, next-episode card, auto-advance). Refused when the content is not available (spec §4).
   * It plays when the viewer chose it or when playback had started.
   */
  async selectEpisode(id: number, play = true): Promise<boolean> {
    const episode = this.episodes.find((candidate) => candidate.id === id);
    if (!episode || !this.context.isAvailable) return false;
    const wasStarted = this.store.get().started;
    this.progress.flush(this.video?.currentTime ?? 0);
    this.stopPlayback();
    this.progress.reset();
    this.startAt = episodeStartAt(episode.duration, storage.loadProgress(id));
    this.setPhase('idle', freshState(this.store.get(), id));
    this.events.emit('episodeChanged', { episode });
    if (play || wasStarted) await this.start();
    return true;
  }

  async playNext(): Promise<boolean> {
    const next = this.next;
    return next ? this.selectEpisode(next.id) : false;
  }

  /** The error screen's reload button: back to the start overlay, nothing left behind. */
  reset(): void {
    this.stopPlayback();
    this.progress.reset();
    this.startAt = null;
    this.setPhase('idle', freshState(this.store.get(), this.store.get().episodeId));
  }

  dispose(): void {
    this.reset();
    this.platform.destroy();
    this.tracks.destroy();
    this.media.dispose();
    this.events.clear();
    this.video = null;
  }

  async play(): Promise<void> {
    const video = this.video;
    if (!video) return;
    try {
      await video.play();
    } catch (error) {
      if (error instanceof DOMException && error.name === 'NotAllowedError' && !video.muted) {
        video.muted = true; // autoplay policy: a muted start is allowed where a loud one is not (not saved)
        return this.play();
      }
      if (error instanceof DOMException && error.name === 'AbortError') return; // superseded by a newer load
      this.fail(playerError('media', ErrorCode.PLAY_FAILED, `play() refused: ${String(error)}`));
    }
  }

  /** Another voice (the track controller's choice): its source loads at the current time and plays on if it played. */
  private async reload(): Promise<void> {
    const video = this.video;
    if (!video) return;
    const wasPlaying = !video.paused;
    const time = video.currentTime;
    this.loading?.abort();
    const loading = (this.loading = new AbortController());
    this.store.set({ buffering: true });
    try {
      await this.load(time, loading.signal);
      if (wasPlaying && !loading.signal.aborted) await this.play();
    } catch (error) {
      if (!loading.signal.aborted) this.fail(asPlayerError(error));
    }
  }

  private async load(startAt: number | null, signal: AbortSignal, bufferAheadS?: number): Promise<void> {
    const video = this.video;
    const link = this.tracks.sourceLink();
    if (!video || link === null) return;
    this.releaseEngine();
    this.tracks.clearRenditions();
    const page = this.context.firstPlaylist; // the page's copy of the chosen episode's first playlist
    const known = page && resolveLink(page.url, this.base) === link ? page : null;
    const engine = await attachSource(video, link, {
      assetsPath: this.context.config.widgetAssetsPath,
      startPosition: startAt,
      bufferAheadS,
      playlist: known?.text,
      media: known?.media?.map((address) => resolveLink(address, this.base)),
      onFatal: (error) => this.fail(error),
      ...this.tracks.callbacks,
    });
    if (signal.aborted) {
      engine.dispose();
      return;
    }
    this.engine = engine;
    this.tracks.refreshAudioOptions();
  }

  private onTime(video: HTMLVideoElement): void {
    const currentTime = video.currentTime;
    const duration = video.duration || 0;
    this.store.set({ currentTime, live: liveState(video), bufferedEnd: bufferedEnd(video) });
    if (this.context.isAvailable && this.store.get().phase === 'playing') this.progress.tick(currentTime);
    this.events.emit('timeProgressChanged', { currentTime, duration });
  }

  private onEnded(): void {
    if (!this.context.isAvailable) {
      return this.fail(playerError('content', ErrorCode.BLOCKED, 'not available in this region', { fatal: true }));
    }
    const episode = this.episode;
    if (episode) {
      this.progress.flush(episode.duration ?? this.video?.currentTime ?? 0);
      void this.api.completed(episode.id);
    }
    this.setPhase('ended');
    if (this.next) void this.playNext(); // spec §4: on ended the next episode is selected automatically
  }

  private saveProgress(seconds: number): void {
    const id = this.store.get().episodeId;
    if (id === null) return;
    storage.saveProgress(id, seconds);
    void this.api.time(id, seconds);
  }

  private fail(error: PlayerError): void {
    console.error(`player: ${error.code} (${error.id}): ${error.message}`);
    const media = mediaStats(this.video, this.engine); // before the engine goes (analytics, spec §7)
    this.stopPlayback();
    this.setPhase('error', { error, buffering: false });
    this.events.emit('error', { error, media });
  }

  private stopPlayback(): void {
    this.loading?.abort();
    this.loading = null;
    this.releaseEngine();
    this.tracks.clearSubtitles();
    if (this.placeholder && this.video) {
      this.video.removeAttribute('src');
      this.video.load();
    }
    this.placeholder = false;
  }

  private releaseEngine(): void {
    this.engine?.dispose();
    this.engine = null;
  }

  private setPhase(phase: PlaybackPhase, patch: Partial<PlayerState> = {}): void {
    const changed = this.store.get().phase !== phase;
    this.store.set({ ...patch, phase });
    if (changed) this.events.emit('phaseChanged', { phase });
  }
}

/** The client of a controller built without one (tests, previews): nothing leaves the page. */
const OFFLINE: ApiClient = { send: () => Promise.resolve(false) };
