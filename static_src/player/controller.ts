// Intent → controller → engine → media events → state. The UI only calls the intents below and reads `store`.
import { progressApi, type ApiClient, type ProgressApi } from '../api/client';
import { DEFAULTS } from '../core/defaults';
import { Disposer } from '../core/dispose';
import { ErrorCode, playerError, type PlayerError } from '../core/errors';
import { Emitter, type PlaybackPhase, type PlayerEvents } from '../core/events';
import * as storage from '../core/storage';
import { createStore, type Store } from '../core/store';
import type { EpisodeData, PlayerContext } from '../context';
import { NO_CUES, showSubtitle } from './captions';
import { attachSource, type Engine, type EngineAudioTrack } from './engine';
import { nextEpisode, sortEpisodes } from './episodes';
import { AudioBoost } from './gain';
import { clampRate, clampVolume } from './limits';
import { liveState, type LiveState } from './live';
import { loadMaster, type Master, type MasterSubtitle } from './master';
import {
  attempt,
  bindMediaSession,
  enterVideoFullscreen,
  fullscreenKind,
  pipSupported,
  promptCast,
  showAirplayPicker,
  togglePip,
  watchRemoteTargets,
} from './platform';
import { ProgressThrottle, shouldOfferResume } from './progress';
import { qualityOptions, type QualityOption } from './quality';
import { isSilent, mediaStats } from './stats';
import { audioOptions, chooseSource, pickRendition, type AudioOption } from './voices';

/** A hold on the next start (a pre-roll): settles when the film may play; `contentMayLoad` lets the episode load. */
export type Hold = (contentMayLoad: () => void) => Promise<void>;

/** An ad on screen (ads/layer) and whether it plays; null when there is none. */
export type AdState = 'playing' | 'paused' | null;

export interface PlayerState {
  phase: PlaybackPhase;
  started: boolean; // playback was asked for at least once
  buffering: boolean;
  error: PlayerError | null;
  episodeId: number | null;
  currentTime: number;
  duration: number;
  bufferedEnd: number;
  volume: number;
  muted: boolean;
  rate: number;
  gain: number; // 1: off
  quality: QualityOption[];
  level: number; // the chosen level, -1 for Auto
  playingLevel: number; // the level on screen (what Auto picked)
  audio: AudioOption[];
  audioKey: string | null;
  subtitles: MasterSubtitle[];
  subtitle: number; // index in subtitles, -1 for off
  cues: readonly string[]; // the lines of the chosen subtitle's active cues, as text (ui/Captions draws them)
  live: LiveState;
  resumeAt: number | null; // the 'stopped here' offer (spec §5), null when there is none
  fullscreen: boolean;
  pip: boolean;
  // What the browser offers around the video while the interface watches it (watchPlatform)
  canPip: boolean;
  canCast: boolean;
  canAirplay: boolean;
  ad: AdState; // while an ad is on screen the viewer's play/pause goes to it and the film underneath stays put
}

const NO_LIVE: LiveState = { isLive: false, hasDvr: false, atLiveEdge: false, windowS: 0 };

/** The state of a player that has not started `episodeId`; volume and mute carry over (spec §3: saved ones). */
export function initialState(
  episodeId: number | null,
  volume = storage.loadVolume(),
  muted = storage.loadMuted(),
): PlayerState {
  return {
    phase: 'idle',
    started: false,
    buffering: false,
    error: null,
    episodeId,
    currentTime: 0,
    duration: 0,
    bufferedEnd: 0,
    volume,
    muted,
    rate: 1,
    gain: 1,
    quality: [],
    level: -1,
    playingLevel: -1,
    audio: [],
    audioKey: null,
    subtitles: [],
    subtitle: -1,
    cues: NO_CUES,
    live: NO_LIVE,
    resumeAt: null,
    fullscreen: false,
    pip: false,
    canPip: false,
    canCast: false,
    canAirplay: false,
    ad: null,
  };
}

/** What a failed load threw, as a player error: ours as they are, anything else as MEDIA_FATAL. */
function asPlayerError(value: unknown): PlayerError {
  const ours = typeof value === 'object' && value !== null && 'code' in value && 'category' in value;
  return ours ? (value as PlayerError) : playerError('other', ErrorCode.MEDIA_FATAL, String(value));
}

function bufferedEnd(video: HTMLVideoElement): number {
  const { buffered, currentTime } = video;
  for (let i = 0; i < buffered.length; i += 1) {
    if (buffered.start(i) <= currentTime + 0.5 && currentTime <= buffered.end(i)) return buffered.end(i);
  }
  return currentTime;
}

export class PlayerController {
  readonly events = new Emitter<PlayerEvents>();
  readonly store: Store<PlayerState>;
  readonly episodes: EpisodeData[];
  private media = new Disposer(); // listeners on the current video element
  private engine: Engine | null = null;
  private loading: AbortController | null = null;
  private video: HTMLVideoElement | null = null;
  private master: Master | null = null;
  private source = 0;
  private tracks: EngineAudioTrack[] = [];
  private boost: AudioBoost | null = null;
  private readonly progress: ProgressThrottle;
  private readonly api: ProgressApi;
  private startAt: number | null;
  private placeholder = false; // the not-available clip is on the video element
  private hold: Hold | null = null; // the next start plays once it settles (a pre-roll)
  private hideCues = () => undefined as void; // stops the chosen subtitle track's cue updates
  private platform: Disposer | null = null; // what watchPlatform set up, while the interface is up
  private surface: HTMLElement | null = null; // the element fullscreen applies to (#player)

  constructor(
    private readonly context: PlayerContext,
    private readonly base: string = document.baseURI,
    api?: ProgressApi,
  ) {
    this.episodes = sortEpisodes(context.episodes);
    this.store = createStore(initialState(context.episodeId));
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
    this.media = new Disposer();
    this.video = video;
    this.boost = new AudioBoost(video, this.context.config.baseUrl);
    const { volume, muted } = this.store.get();
    video.volume = volume;
    video.muted = muted;
    const on = this.media.listen.bind(this.media) as Disposer['listen'];
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
    on(video, 'enterpictureinpicture', () => this.store.set({ pip: true }));
    on(video, 'leavepictureinpicture', () => this.store.set({ pip: false }));
    on(video, 'timeupdate', () => this.onTime(video));
    on(window, 'pagehide', () => this.progress.flush(video.currentTime));
    this.media.add(() => this.boost?.dispose());
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
    if (!this.context.isAvailable) return this.playPlaceholder(this.video);
    const episode = this.episode;
    if (!episode?.m3u8MasterFilePath) {
      return this.fail(playerError('content', ErrorCode.NO_SOURCE, 'the episode has no media file'));
    }
    const loading = (this.loading = new AbortController());
    const { released, loadable, held } = this.release(); // the pre-roll starts now, beside the master's request
    try {
      const master = await loadMaster(episode.m3u8MasterFilePath, this.base, loading.signal);
      if (loading.signal.aborted) return;
      this.master = master;
      const favourite = storage.loadFavoriteAudio(this.context.content.id);
      this.source = chooseSource(master.sources, favourite, this.context.voiceAuthor);
      this.store.set({ subtitles: master.subtitles, subtitle: -1 });
      this.syncTracks(master.subtitles);
      await loadable; // the episode loads underneath the pre-roll once its first frame is out
      if (loading.signal.aborted) return;
      // under the pre-roll, only what the switch to the film needs (DEFAULTS.prerollBufferAheadS); the rest after it
      await this.load(this.startAt, loading.signal, held ? DEFAULTS.prerollBufferAheadS : undefined);
      await released;
      if (loading.signal.aborted) return;
      this.engine?.setBufferAhead(null);
      await this.play();
    } catch (error) {
      if (loading.signal.aborted) return;
      this.fail(asPlayerError(error));
    }
  }

  /**
   * The film waits for `until` (an ad break), which settles when the film may play; a rejection counts as settled:
   * nothing on the ad side may stop the film.
   * - Before the film plays (a pre-roll): the next start calls it, and the episode (hls.js, the manifest, the first
   *   segments) loads underneath it from the moment it calls `contentMayLoad` (its ad is on screen: loading earlier
   *   would compete with the ad's first frame for the CPU), when it settles, or after DEFAULTS.contentLoadGateMs,
   *   whichever comes first.
   * - While the film plays (a mid-roll): the film pauses now and plays again once it settles, unless the episode
   *   changed meanwhile.
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

  private release(): { released: Promise<void>; loadable: Promise<void>; held: boolean } {
    const hold = this.hold;
    this.hold = null;
    if (!hold) return { released: Promise.resolve(), loadable: Promise.resolve(), held: false };
    let open = () => undefined as void;
    const loadable = new Promise<void>((resolve) => (open = resolve));
    const gate = setTimeout(open, DEFAULTS.contentLoadGateMs);
    const released = Promise.resolve()
      .then(() => hold(open))
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(gate);
        open();
      });
    return { released, loadable, held: true };
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
      this.events.emit('playbackRequested', { play: ad === 'paused', handled: false }); // the ad takes it (ads/layer)
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

  setLevel(level: number): void {
    this.engine?.setLevel(level);
    this.store.set({ level });
    const label = this.store.get().quality.find((option) => option.value === level)?.label ?? '';
    this.events.emit('qualityChanged', { level, label });
  }

  setSubtitle(index: number): void {
    const { subtitles } = this.store.get();
    this.store.set({ subtitle: index >= 0 && index < subtitles.length ? index : -1 });
    this.showSubtitle();
  }

  /**
   * What the browser offers around the video (spec §4; player/platform), watched while the interface is up: fullscreen
   * changes of `container` (which fullscreen applies to), picture-in-picture support, AirPlay and Cast targets into
   * the state, and the film's media session. Returns the undo.
   */
  watchPlatform(container: HTMLElement): () => void {
    const video = this.video;
    if (!video) return () => undefined;
    this.platform?.dispose();
    const disposer = (this.platform = new Disposer());
    this.surface = container;
    this.store.set({ canPip: pipSupported(video) });
    watchRemoteTargets(video, disposer, (patch) => this.store.set(patch));
    disposer.listen(document, 'fullscreenchange', () =>
      this.setFullscreen(document.fullscreenElement === container, false),
    );
    this.bindMediaSession(disposer);
    disposer.add(() => {
      if (this.platform !== disposer) return;
      this.platform = null;
      this.surface = null;
    });
    return () => disposer.dispose();
  }

  /** The film's media session again, once an ad's is over (ads/layer). */
  restoreMediaSession(): void {
    this.bindMediaSession(this.platform ?? new Disposer());
  }

  togglePip(): void {
    const video = this.video;
    if (video) attempt('picture-in-picture', () => togglePip(video));
  }

  cast(): void {
    const video = this.video;
    if (video) attempt('cast', () => promptCast(video));
  }

  airplay(): void {
    this.events.emit('airplayClicked', {}); // analytics: videoplayer_airplay_icon_click
    if (this.video) showAirplayPicker(this.video);
  }

  /** Fullscreen on or off, as this browser does it (player/platform fullscreenKind). */
  toggleFullscreen(): void {
    const kind = fullscreenKind(this.context.config.fullscreenMode);
    if (kind === 'pseudo') return this.setFullscreen(!this.store.get().fullscreen); // the parent page stretches us
    if (kind === 'video') {
      if (this.video) enterVideoFullscreen(this.video);
      return;
    }
    const container = this.surface;
    if (!container) return;
    attempt('fullscreen', () => (document.fullscreenElement ? document.exitFullscreen() : container.requestFullscreen()));
  }

  async setGain(gain: number): Promise<void> {
    const current = this.tracks.find((track) => this.keyOf(track.index) === this.store.get().audioKey);
    const done = await this.boost?.setGain(gain, current?.channels ?? 2);
    if (done) this.store.set({ gain });
  }

  /** An audio menu entry: another rendition of this source, or another source (voice) from the current time. */
  async setAudio(key: string): Promise<void> {
    const option = this.store.get().audio.find((candidate) => candidate.key === key);
    if (!option || !this.video) return;
    storage.saveFavoriteAudio(this.context.content.id, option.label);
    if (option.source === this.source) {
      if (option.track !== null) this.engine?.setAudioTrack(option.track);
      this.store.set({ audioKey: option.key });
      return;
    }
    const video = this.video;
    const wasPlaying = !video.paused;
    const time = video.currentTime;
    this.source = option.source;
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
    const saved = storage.loadProgress(id);
    const nearlyDone = episode.duration !== null && saved !== null && saved >= episode.duration * DEFAULTS.resumeBelowFraction;
    this.startAt = nearlyDone ? null : saved;
    this.setPhase('idle', this.freshState(id));
    this.events.emit('episodeChanged', { episode });
    if (play || wasStarted) await this.start();
    return true;
  }

  async playNext(): Promise<boolean> {
    const next = this.next;
    return next ? this.selectEpisode(next.id) : false;
  }

  /** Records fullscreen; `announce` tells the parent page (pseudo fullscreen: it has to stretch the frame). */
  setFullscreen(fullscreen: boolean, announce = true): void {
    if (this.store.get().fullscreen === fullscreen) return;
    this.store.set({ fullscreen });
    this.events.emit('fullscreenChanged', { fullscreen });
    if (announce) this.events.emit(fullscreen ? 'enterFullScreen' : 'exitFullScreen', {});
  }

  /** The error screen's reload button: back to the start overlay, nothing left behind. */
  reset(): void {
    this.stopPlayback();
    this.progress.reset();
    this.startAt = null;
    this.setPhase('idle', this.freshState(this.store.get().episodeId));
  }

  dispose(): void {
    this.reset();
    this.platform?.dispose();
    this.hideCues();
    this.media.dispose();
    this.events.clear();
    this.video = null;
  }

  /**
   * Everything but the phase back to a player that has not started `episodeId`, keeping volume and mute, and the ad
   * state, which the ad path reports (it ends that ad itself).
   */
  private freshState(episodeId: number | null): Omit<PlayerState, 'phase'> {
    const { volume, muted, ad, canPip, canCast, canAirplay } = this.store.get();
    const { phase: _idle, ...fresh } = initialState(episodeId, volume, muted);
    return { ...fresh, ad, canPip, canCast, canAirplay };
  }

  private bindMediaSession(disposer: Disposer): void {
    bindMediaSession(
      { title: this.context.content.title, artwork: this.context.content.posterUrl },
      {
        play: () => void this.play(),
        pause: () => this.pause(),
        seekTo: (seconds) => this.seek(seconds),
        seekBy: (seconds) => this.seekBy(seconds),
      },
      disposer,
    );
  }

  /** The chosen subtitle's cues into the state, from its <track> (player/captions). */
  private showSubtitle(): void {
    this.hideCues();
    const video = this.video;
    if (!video) return;
    const { subtitles, subtitle } = this.store.get();
    this.hideCues = showSubtitle(video, subtitles[subtitle]?.src ?? '', (cues) => this.store.set({ cues }));
  }

  private async load(startAt: number | null, signal: AbortSignal, bufferAheadS?: number): Promise<void> {
    const video = this.video;
    const master = this.master;
    if (!video || !master) return;
    this.releaseEngine();
    this.tracks = [];
    this.store.set({ audioKey: null });
    const engine = await attachSource(video, master.sources[this.source].link, {
      assetsPath: this.context.config.widgetAssetsPath,
      startPosition: startAt,
      bufferAheadS,
      onFatal: (error) => this.fail(error),
      onLevels: (levels) => this.store.set({ quality: qualityOptions(levels), level: -1 }),
      onLevelSwitched: (index) => this.store.set({ playingLevel: index }),
      onAudioTracks: (tracks) => this.onAudioTracks(tracks),
      onAudioSwitched: (index) => this.store.set({ audioKey: this.keyOf(index) }),
    });
    if (signal.aborted) {
      engine.dispose();
      return;
    }
    this.engine = engine;
    this.refreshAudioOptions();
  }

  private keyOf(track: number): string {
    return this.tracks.length > 1 ? `${this.source}:${track}` : String(this.source);
  }

  private onAudioTracks(tracks: EngineAudioTrack[]): void {
    const favourite = storage.loadFavoriteAudio(this.context.content.id);
    const { ordered, chosen } = pickRendition(tracks, this.context.langOrder, favourite, this.context.voiceAuthor);
    this.tracks = ordered;
    this.refreshAudioOptions();
    if (chosen) {
      this.engine?.setAudioTrack(chosen.index);
      this.store.set({ audioKey: this.keyOf(chosen.index) });
    }
  }

  private refreshAudioOptions(): void {
    if (!this.master) return;
    const audio = audioOptions(this.master.sources, this.source, this.tracks);
    const current = audio.find((option) => option.source === this.source)?.key ?? null;
    this.store.set({ audio, audioKey: this.store.get().audioKey ?? current });
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

  /** Not available here (spec §4): the tiny placeholder clip plays, and its end raises the blocked error. */
  private async playPlaceholder(video: HTMLVideoElement): Promise<void> {
    this.placeholder = true;
    video.src = this.context.config.placeholderUrl;
    await this.play();
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
    this.syncTracks([]);
    if (this.placeholder && this.video) {
      this.video.removeAttribute('src');
      this.video.load();
    }
    this.placeholder = false;
  }

  /** One <track> per subtitle of the master JSON (spec §7: fetched from each track's src); drawn by ui/Captions. */
  private syncTracks(subtitles: MasterSubtitle[]): void {
    const video = this.video;
    if (!video) return;
    for (const old of video.querySelectorAll('track')) old.remove();
    for (const subtitle of subtitles) {
      const track = document.createElement('track');
      track.kind = 'subtitles';
      track.src = subtitle.src;
      track.srclang = subtitle.language;
      track.label = subtitle.label;
      video.append(track);
    }
    this.showSubtitle();
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
