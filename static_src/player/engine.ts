// The engine adapter: hls.js (a lazy chunk) where Media Source Extensions exist, native HLS otherwise.
// It reports tracks and failures through callbacks and takes track choices; it never touches the UI.
import type Hls from 'hls.js';
import type { ErrorData, HlsConfig, MediaPlaylist, PlaylistLoaderConstructor } from 'hls.js';
import { HLS_CONFIG } from '../core/defaults';
import { ErrorCode, playerError, type PlayerError } from '../core/errors';
import { yieldToMain } from '../core/timing';
import { PlaylistPrefetch, prefetchingLoader } from './prefetch';
import type { LevelInfo } from './quality';

declare const __HLS_WORKER__: string; // the hashed name of hls.js's worker, set by the build

/** An audio rendition of the loaded stream, as the audio rules (player/audio.ts) see it. */
export interface EngineAudioTrack {
  index: number;
  label: string;
  language: string;
  codec: string | null;
  channels: number;
}

export interface EngineCallbacks {
  onFatal(error: PlayerError): void;
  onLevels(levels: LevelInfo[]): void;
  onLevelSwitched(index: number): void;
  onAudioTracks(tracks: EngineAudioTrack[]): void;
  onAudioSwitched(index: number): void;
}

export interface Engine {
  setLevel(index: number): void; // -1: automatic
  setAudioTrack(index: number): void;
  bandwidthEstimate?(): number; // bits per second (hls.js's ABR estimate); analytics' network_type
  // the forward buffer's bound in seconds; null: HLS_CONFIG's. Native HLS leaves buffering to the browser.
  setBufferAhead(seconds: number | null): void;
  dispose(): void;
}

export interface EngineOptions extends EngineCallbacks {
  assetsPath: string; // where the lazy chunks and the worker are served (the widget-assets path)
  startPosition: number | null;
  bufferAheadS?: number; // a bound on the forward buffer from the start (under a pre-roll), until setBufferAhead(null)
  playlist?: string; // the text of `src` when the page carried it (the context's firstPlaylist): not asked for again
  media?: readonly string[]; // the media playlists the page named beside `playlist` (absolute): asked for at once
}

/**
 * hls.js's worker store (src/demux/inject-worker.ts), which its published builds keep to themselves and
 * static_src/build.mjs exports from its sources: a worker loaded here by its path is the one hls.js takes (and counts)
 * when it starts transmuxing. Optional: without it hls.js starts its worker itself, at the first fragment.
 */
interface WorkerStore {
  loadWorker(path: string): unknown;
  removeWorkerFromStore(path?: string | null): void;
}

type HlsModule = typeof import('hls.js') & Partial<WorkerStore>;
let hlsModule: Promise<HlsModule> | null = null;
const playlists = new PlaylistPrefetch(); // the master playlist, fetched while the hls.js chunk is evaluated

export function mseAvailable(win: Window & typeof globalThis = window): boolean {
  const MSE = win.ManagedMediaSource ?? win.MediaSource;
  return typeof MSE === 'function' && typeof MSE.isTypeSupported === 'function';
}

/** Starts fetching the hls.js chunk; resolves once it has been evaluated (or failed: start() retries it). */
export function preloadEngine(): Promise<void> {
  if (!mseAvailable()) return Promise.resolve();
  return loadHls().then(
    () => undefined,
    () => undefined,
  );
}

function loadHls(): Promise<HlsModule> {
  hlsModule ??= import('hls.js').catch((error: unknown) => {
    hlsModule = null;
    throw error;
  });
  return hlsModule;
}

export async function attachSource(video: HTMLVideoElement, src: string, options: EngineOptions): Promise<Engine> {
  if (mseAvailable()) {
    playlists.start(src, options.playlist, options.media);
    const hls = await loadHls();
    const HlsClass = hls.default;
    if (HlsClass.isSupported()) {
      const worker = startWorker(hls, HLS_CONFIG.enableWorker ? options.assetsPath + __HLS_WORKER__ : null);
      try {
        await yieldToMain(); // evaluating hls.js was one long task already: starting it is the next one
        return attachHls(HlsClass, video, src, options, worker);
      } catch (error) {
        worker?.();
        throw error;
      }
    }
  }
  if (video.canPlayType('application/vnd.apple.mpegurl')) return attachNative(video, src, options);
  throw playerError('media', ErrorCode.NO_ENGINE, 'neither MSE nor native HLS is available');
}

/**
 * Starts hls.js's transmuxer worker (`path`; null: no worker) in hls.js's own store, now, where hls.js would start it
 * once the first fragment has arrived: its thread, the fetch and compilation of its script then happen while the
 * playlists and the first fragments load instead of after them. Returns the release of this reference (hls.js holds
 * and releases its own; the worker ends with the last), or null when nothing was started: no store, no worker, or a
 * worker that could not be made (hls.js then tries again itself, and falls back to transmuxing inline).
 */
export function startWorker(store: Partial<WorkerStore>, path: string | null): (() => void) | null {
  const { loadWorker, removeWorkerFromStore } = store;
  if (!path || !loadWorker || !removeWorkerFromStore || typeof Worker === 'undefined') return null;
  try {
    loadWorker(path);
  } catch {
    return null;
  }
  let released = false;
  return () => {
    if (released) return; // the teardown contract: safe twice
    released = true;
    removeWorkerFromStore(path);
  };
}

function audioTrackOf(track: MediaPlaylist, index: number): EngineAudioTrack {
  return {
    index,
    label: track.name || track.lang || `#${index + 1}`,
    language: track.lang ?? '',
    codec: track.audioCodec ?? null,
    channels: Number.parseInt(track.channels ?? '2', 10) || 2,
  };
}

/** A fatal hls.js error in the error catalogue's terms: a 404 is 'content not available', the rest generic. */
export function fatalError(data: ErrorData): PlayerError {
  const status = data.response?.code;
  if (status === 404 || status === 410) {
    return playerError('content', ErrorCode.HTTP_404, `hls.js ${data.details}: HTTP ${status}`, { address: data.url });
  }
  const category = data.type === 'networkError' ? 'network' : 'media';
  return playerError(category, ErrorCode.MEDIA_FATAL, `hls.js ${data.type}: ${data.details}`, { address: data.url });
}

/** hls.js's forward-buffer settings for a bound in seconds (the target and its ceiling, as HLS_CONFIG sets both),
 * never above HLS_CONFIG's; null: HLS_CONFIG's own. */
export function bufferBound(seconds: number | null): Pick<HlsConfig, 'maxBufferLength' | 'maxMaxBufferLength'> {
  const { maxBufferLength, maxMaxBufferLength } = HLS_CONFIG;
  if (seconds === null) return { maxBufferLength, maxMaxBufferLength };
  return { maxBufferLength: Math.min(seconds, maxBufferLength), maxMaxBufferLength: Math.min(seconds, maxMaxBufferLength) };
}

function attachHls(
  HlsClass: typeof Hls,
  video: HTMLVideoElement,
  src: string,
  options: EngineOptions,
  releaseWorker: (() => void) | null,
): Engine {
  const config: Partial<HlsConfig> = {
    ...HLS_CONFIG,
    workerPath: options.assetsPath + __HLS_WORKER__,
    startPosition: options.startPosition ?? -1,
    pLoader: prefetchingLoader(HlsClass.DefaultConfig.loader as PlaylistLoaderConstructor, playlists),
    ...bufferBound(options.bufferAheadS ?? null),
  };
  // Without a worker started in its store (startWorker), hls.js starts one only when the first fragment has arrived;
  // fetched now (immutable, precompressed), its script comes from the HTTP cache then instead of a round trip.
  if (!releaseWorker && config.enableWorker && config.workerPath) void fetch(config.workerPath).catch(() => undefined);
  const hls = new HlsClass(config);
  const { Events } = HlsClass;
  let mediaRecoveries = 0;
  hls.on(Events.ERROR, (_event, data: ErrorData) => {
    if (!data.fatal) return;
    // hls.js's documented recovery: a fatal media error is retried in place once before it is given up.
    if (data.type === HlsClass.ErrorTypes.MEDIA_ERROR && mediaRecoveries < 1) {
      mediaRecoveries += 1;
      hls.recoverMediaError();
      return;
    }
    options.onFatal(fatalError(data));
  });
  hls.on(Events.MANIFEST_PARSED, (_event, data) => {
    options.onLevels(data.levels.map((level, index) => ({ index, height: level.height, bitrate: level.bitrate })));
  });
  hls.on(Events.LEVEL_SWITCHED, (_event, data) => options.onLevelSwitched(data.level));
  hls.on(Events.AUDIO_TRACKS_UPDATED, (_event, data) => options.onAudioTracks(data.audioTracks.map(audioTrackOf)));
  hls.on(Events.AUDIO_TRACK_SWITCHED, (_event, data) => options.onAudioSwitched(data.id));
  hls.loadSource(src);
  hls.attachMedia(video);
  return {
    setLevel(index) {
      hls.currentLevel = index; // an explicit choice switches now; -1 hands the choice back to the ABR
    },
    setAudioTrack(index) {
      if (index >= 0 && index < hls.audioTracks.length) hls.audioTrack = index;
    },
    bandwidthEstimate: () => hls.bandwidthEstimate,
    setBufferAhead(seconds) {
      Object.assign(hls.config, bufferBound(seconds)); // the stream controllers read these on each tick
    },
    dispose() {
      hls.destroy();
      releaseWorker?.();
    },
  };
}

interface NativeAudioTrack {
  enabled: boolean;
  label: string;
  language: string;
}

function nativeAudioTracks(video: HTMLVideoElement): NativeAudioTrack[] {
  const list = (video as unknown as { audioTracks?: ArrayLike<NativeAudioTrack> }).audioTracks;
  return list ? Array.from(list) : [];
}

function attachNative(video: HTMLVideoElement, src: string, options: EngineOptions): Engine {
  const onMetadata = () => {
    if (options.startPosition) video.currentTime = options.startPosition;
    const tracks = nativeAudioTracks(video);
    options.onAudioTracks(
      tracks.map((track, index) => ({
        index,
        label: track.label || track.language || `#${index + 1}`,
        language: track.language,
        codec: null,
        channels: 2,
      })),
    );
    const enabled = tracks.findIndex((track) => track.enabled);
    if (enabled >= 0) options.onAudioSwitched(enabled);
  };
  const onError = () => {
    const code = video.error?.code ?? 0;
    options.onFatal(playerError('media', ErrorCode.MEDIA_FATAL, `native HLS: media error ${code}`, { address: src }));
  };
  video.addEventListener('loadedmetadata', onMetadata, { once: true });
  video.addEventListener('error', onError);
  video.src = src;
  return {
    setLevel: () => undefined, // Safari's own ABR: no manual quality on native HLS
    setBufferAhead: () => undefined, // Safari decides how far it buffers
    setAudioTrack(index) {
      nativeAudioTracks(video).forEach((track, i) => (track.enabled = i === index));
      options.onAudioSwitched(index);
    },
    dispose() {
      video.removeEventListener('loadedmetadata', onMetadata);
      video.removeEventListener('error', onError);
      video.removeAttribute('src');
      video.load();
    },
  };
}
