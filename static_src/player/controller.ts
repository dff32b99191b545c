// Intent → controller → engine → media events → state. The UI only calls the intents below and reads `store`.
import { Disposer } from '../core/dispose';
import { Emitter, type PlaybackPhase, type PlayerEvents } from '../core/events';
import { ErrorCode, playerError, type PlayerError } from '../core/errors';
import { createStore, type Store } from '../core/store';
import { currentEpisode, type PlayerContext } from '../context';
import { attachSource, type Engine } from './engine';
import { resolvePlayback, type MasterSubtitle } from './master';

export interface PlayerState {
  phase: PlaybackPhase;
  started: boolean; // playback was asked for at least once
  buffering: boolean;
  subtitles: MasterSubtitle[];
  error: PlayerError | null;
}

const INITIAL: PlayerState = { phase: 'idle', started: false, buffering: false, subtitles: [], error: null };

function isPlayerError(value: unknown): value is PlayerError {
  return typeof value === 'object' && value !== null && 'code' in value && 'category' in value;
}

export class PlayerController {
  readonly events = new Emitter<PlayerEvents>();
  readonly store: Store<PlayerState> = createStore(INITIAL);
  private media = new Disposer(); // listeners on the current video element
  private engine: Engine | null = null;
  private loading: AbortController | null = null;
  private video: HTMLVideoElement | null = null;

  constructor(
    private readonly context: PlayerContext,
    private readonly base: string = document.baseURI,
  ) {}

  attach(video: HTMLVideoElement): void {
    this.media.dispose();
    this.media = new Disposer();
    this.video = video;
    const on = this.media.listen.bind(this.media) as Disposer['listen'];
    on(video, 'playing', () => this.setPhase('playing', { buffering: false }));
    on(video, 'pause', () => {
      if (!video.ended) this.setPhase('paused');
    });
    on(video, 'ended', () => this.setPhase('ended'));
    on(video, 'waiting', () => this.store.set({ buffering: true }));
    on(video, 'canplay', () => this.store.set({ buffering: false }));
    on(video, 'timeupdate', () => {
      this.events.emit('timeProgressChanged', { currentTime: video.currentTime, duration: video.duration || 0 });
    });
  }

  /** The start button, or auto_play: load the chosen episode and play it; resume when paused. */
  async start(): Promise<void> {
    const { phase } = this.store.get();
    if (phase === 'paused' || phase === 'ended') return this.play();
    if (phase !== 'idle' || !this.video) return;
    const episode = currentEpisode(this.context);
    this.setPhase('loading', { started: true, error: null });
    if (!episode?.m3u8MasterFilePath) {
      return this.fail(playerError('content', ErrorCode.NO_SOURCE, 'the episode has no media file'));
    }
    const loading = (this.loading = new AbortController());
    try {
      const playback = await resolvePlayback(episode.m3u8MasterFilePath, this.base, loading.signal);
      if (loading.signal.aborted) return;
      this.store.set({ subtitles: playback.subtitles });
      this.engine = await attachSource(this.video, playback.src, {
        assetsPath: this.context.config.widgetAssetsPath,
        startPosition: this.context.timeCode ?? this.context.episodeTime,
        onFatal: (error) => this.fail(error),
      });
      if (loading.signal.aborted) return this.releaseEngine();
      await this.play();
    } catch (error) {
      if (loading.signal.aborted) return;
      this.fail(isPlayerError(error) ? error : playerError('other', ErrorCode.MEDIA_FATAL, String(error)));
    }
  }

  pause(): void {
    this.video?.pause();
  }

  /** The error screen's reload button: back to the start overlay, nothing left behind. */
  reset(): void {
    this.loading?.abort();
    this.releaseEngine();
    this.setPhase('idle', INITIAL);
  }

  dispose(): void {
    this.reset();
    this.media.dispose();
    this.events.clear();
    this.video = null;
  }

  private async play(): Promise<void> {
    const video = this.video;
    if (!video) return;
    try {
      await video.play();
    } catch (error) {
      if (error instanceof DOMException && error.name === 'NotAllowedError' && !video.muted) {
        video.muted = true; // autoplay policy: a muted start is allowed where a loud one is not
        return this.play();
      }
      if (error instanceof DOMException && error.name === 'AbortError') return; // superseded by a newer load
      this.fail(playerError('media', ErrorCode.PLAY_FAILED, `play() refused: ${String(error)}`));
    }
  }

  private fail(error: PlayerError): void {
    console.error(`player: ${error.code} (${error.id}): ${error.message}`);
    this.releaseEngine();
    this.setPhase('error', { error, buffering: false });
    this.events.emit('error', { error });
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
