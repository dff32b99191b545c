// The engine adapter: hls.js (a lazy chunk) where Media Source Extensions exist, native HLS otherwise.
import type Hls from 'hls.js';
import type { ErrorData } from 'hls.js';
import { ErrorCode, playerError, type PlayerError } from '../core/errors';

declare const __HLS_WORKER__: string; // the hashed name of hls.js's worker, set by the build

export interface Engine {
  readonly kind: 'hls.js' | 'native';
  dispose(): void;
}

export interface EngineOptions {
  assetsPath: string; // where the lazy chunks and the worker are served (the widget-assets path)
  startPosition: number | null;
  onFatal(error: PlayerError): void;
}

type HlsModule = typeof import('hls.js');
let hlsModule: Promise<HlsModule> | null = null;

export function mseAvailable(win: Window & typeof globalThis = window): boolean {
  const MSE = win.ManagedMediaSource ?? win.MediaSource;
  return typeof MSE === 'function' && typeof MSE.isTypeSupported === 'function';
}

/** Starts fetching the hls.js chunk without waiting for it: called as soon as the player mounts. */
export function preloadEngine(): void {
  if (mseAvailable()) void loadHls().catch(() => undefined); // a failed preload is retried on start
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
    const { default: HlsClass } = await loadHls();
    if (HlsClass.isSupported()) return attachHls(HlsClass, video, src, options);
  }
  if (video.canPlayType('application/vnd.apple.mpegurl')) return attachNative(video, src, options);
  throw playerError('media', ErrorCode.NO_ENGINE, 'neither MSE nor native HLS is available');
}

function attachHls(HlsClass: typeof Hls, video: HTMLVideoElement, src: string, options: EngineOptions): Engine {
  const hls = new HlsClass({
    workerPath: options.assetsPath + __HLS_WORKER__,
    startPosition: options.startPosition ?? -1,
  });
  hls.on(HlsClass.Events.ERROR, (_event, data: ErrorData) => {
    if (!data.fatal) return;
    options.onFatal(
      playerError('media', ErrorCode.MEDIA_FATAL, `hls.js ${data.type}: ${data.details}`, { address: data.url }),
    );
  });
  hls.loadSource(src);
  hls.attachMedia(video);
  return { kind: 'hls.js', dispose: () => hls.destroy() };
}

function attachNative(video: HTMLVideoElement, src: string, options: EngineOptions): Engine {
  const seek = () => {
    if (options.startPosition) video.currentTime = options.startPosition;
  };
  video.addEventListener('loadedmetadata', seek, { once: true });
  video.src = src;
  return {
    kind: 'native',
    dispose() {
      video.removeEventListener('loadedmetadata', seek);
      video.removeAttribute('src');
      video.load();
    },
  };
}
